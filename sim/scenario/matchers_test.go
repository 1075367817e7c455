package scenario

import (
	"regexp"
	"testing"
)

// The expressions the hand-written matchers replaced; each matcher must
// agree with its own on every string over an alphabet holding a byte of
// each class the expression tells apart.
var (
	oldYAMLLine  = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)
	oldKnobValue = regexp.MustCompile(`^-?[A-Za-z0-9][A-Za-z0-9.-]*$`)
)

// eachString calls f with every string over alpha of at most n bytes,
// each after prefix.
func eachString(prefix, alpha string, n int, f func(string)) {
	f(prefix)
	if n == 0 {
		return
	}
	for i := 0; i < len(alpha); i++ {
		eachString(prefix+alpha[i:i+1], alpha, n-1, f)
	}
}

func TestIsKnobValueIsTheOldRegexp(t *testing.T) {
	matched := 0
	eachString("", "-.aZ09_ \xff", 6, func(s string) {
		want := oldKnobValue.MatchString(s)
		if got := isKnobValue(s); got != want {
			t.Fatalf("isKnobValue(%q) = %v, the regexp says %v", s, got, want)
		}
		if want {
			matched++
		}
	})
	if matched < 1000 {
		t.Fatalf("only %d strings matched", matched)
	}
}

func TestSplitYAMLErrorIsTheOldRegexp(t *testing.T) {
	seen := map[bool]int{}
	for _, prefix := range []string{"", "yaml:", "yaml: ", "yaml: line", "yaml: line ", "yaml: line 1", "yaml: line 12:", "Yaml: "} {
		eachString(prefix, "1: \nlinex", 5, func(s string) {
			m := oldYAMLLine.FindStringSubmatch(s)
			line, msg, ok := splitYAMLError(s)
			if ok != (m != nil) || ok && (line != m[1] || msg != m[2]) {
				t.Fatalf("splitYAMLError(%q) = %q, %q, %v; the regexp says %q", s, line, msg, ok, m)
			}
			seen[ok && line != ""]++
		})
	}
	if seen[true] < 1000 || seen[false] < 1000 {
		t.Fatalf("too few of each shape: %v", seen)
	}
}
