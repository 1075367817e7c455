package svganim

import (
	"regexp"
	"testing"
)

// TestSafeIDIsTheOldRegexp checks isSafeID against the expression it
// replaced on every string of up to 6 bytes over an alphabet holding a
// byte of each class the expression tells apart.
func TestSafeIDIsTheOldRegexp(t *testing.T) {
	old := regexp.MustCompile(`^[a-z0-9-]+$`)
	const alpha = "az09-A_ \xff"
	matched := 0
	var walk func(string)
	walk = func(s string) {
		want := old.MatchString(s)
		if got := isSafeID(s); got != want {
			t.Fatalf("isSafeID(%q) = %v, the regexp says %v", s, got, want)
		}
		if want {
			matched++
		}
		if len(s) < 6 {
			for i := 0; i < len(alpha); i++ {
				walk(s + alpha[i:i+1])
			}
		}
	}
	walk("")
	if matched < 1000 {
		t.Fatalf("only %d strings matched", matched)
	}
}

// TestReducedIsSafeIDsFixedPoint checks isReduced, safeID's shortcut,
// against safeID's reduction itself on every string of up to 6 bytes over
// an alphabet holding a byte of each class the reduction tells apart (the
// Kelvin sign, which lower-cases to "k", among them): isReduced(s) holds
// exactly when reducing s gives s back.
func TestReducedIsSafeIDsFixedPoint(t *testing.T) {
	const alpha = "az09-A_ \xff"
	reduced := 0
	var walk func(string)
	walk = func(s string) {
		if got, want := isReduced(s), reduceID(s) == s; got != want {
			t.Fatalf("isReduced(%q) = %v, but reducing it gives %q", s, got, reduceID(s))
		}
		if got, want := safeID(s), reduceID(s); got != want {
			t.Fatalf("safeID(%q) = %q, the reduction gives %q", s, got, want)
		}
		if isReduced(s) {
			reduced++
		}
		if len(s) < 6 {
			for i := 0; i < len(alpha); i++ {
				walk(s + alpha[i:i+1])
			}
		}
	}
	walk("")
	walk("\u212a") // the Kelvin sign
	if reduced < 1000 {
		t.Fatalf("only %d strings were reduced already", reduced)
	}
}
