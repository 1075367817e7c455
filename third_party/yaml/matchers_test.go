// Kafka Flow's test of its change to this package (see README.md and
// matchers.go): each hand-written matcher must agree with the regexp
// upstream used, on every short string over an alphabet of the bytes that
// matter, on seeded random strings, and under fuzzing.

package yaml

import (
	"math/rand"
	"regexp"
	"testing"
)

// The expressions exactly as upstream v3.0.6 compiled them.
var (
	upstreamYAMLStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	upstreamBase60Float    = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

var matcherCases = []struct {
	name  string
	re    *regexp.Regexp
	match func(string) bool
	// alpha holds one byte of every class the expression tells apart,
	// and a byte none of them takes.
	alpha string
	// maxLen is the length up to which every string over alpha is tried.
	maxLen int
}{
	{"yamlStyleFloat", upstreamYAMLStyleFloat, isYAMLStyleFloat, "+-.09eEx", 7},
	{"base60float", upstreamBase60Float, matchBase60Float, "+-05_69:.x", 6},
}

// check fails t when the matcher and the regexp disagree on s.
func check(t *testing.T, name string, re *regexp.Regexp, match func(string) bool, s string) {
	t.Helper()
	if want, got := re.MatchString(s), match(s); got != want {
		t.Fatalf("%s(%q) = %v, the regexp says %v", name, s, got, want)
	}
}

// TestMatchersExhaustive tries every string over each case's alphabet up
// to its length (2.4 and 1.1 million strings), one byte less in a short
// run.
func TestMatchersExhaustive(t *testing.T) {
	for _, c := range matcherCases {
		t.Run(c.name, func(t *testing.T) {
			maxLen := c.maxLen
			if testing.Short() {
				maxLen--
			}
			matched := 0
			buf := make([]byte, 0, maxLen)
			var walk func()
			walk = func() {
				s := string(buf)
				check(t, c.name, c.re, c.match, s)
				if c.re.MatchString(s) {
					matched++
				}
				if len(buf) == maxLen {
					return
				}
				for i := 0; i < len(c.alpha); i++ {
					buf = append(buf, c.alpha[i])
					walk()
					buf = buf[:len(buf)-1]
				}
			}
			walk()
			// Both sides of the language are exercised, not only the
			// strings neither accepts.
			if matched < 1000 {
				t.Fatalf("only %d strings matched; the alphabet misses the language", matched)
			}
		})
	}
}

// TestMatchersRandom tries seeded random strings, longer than the
// exhaustive walk reaches, built from the same alphabets plus any byte.
func TestMatchersRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	for _, c := range matcherCases {
		for n := 0; n < 200000; n++ {
			b := make([]byte, rng.Intn(24))
			for i := range b {
				if rng.Intn(16) == 0 {
					b[i] = byte(rng.Intn(256))
				} else {
					b[i] = c.alpha[rng.Intn(len(c.alpha))]
				}
			}
			check(t, c.name, c.re, c.match, string(b))
		}
	}
}

// TestMatchersKnown pins a few strings each way, so that a change which
// broke both a matcher and its regexp alike would still be seen.
func TestMatchersKnown(t *testing.T) {
	for s, want := range map[string]bool{
		"1.5": true, "-.5e+10": true, "1.": true, "+1E5": true, "1e": false, ".": false, "1.5.": false, "": false,
	} {
		if got := isYAMLStyleFloat(s); got != want {
			t.Errorf("isYAMLStyleFloat(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{
		"190:20:30.15": true, "-1_0:59": true, "1:5.": true, "1:60": false, "1:123": false, "1": false, ":30": false, "1:": false,
	} {
		if got := matchBase60Float(s); got != want {
			t.Errorf("matchBase60Float(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzMatchers(f *testing.F) {
	for _, s := range []string{"", "1.5e-3", ".5", "190:20:30.15", "+1_2:5:59.", "1:60", "\xff1:2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range matcherCases {
			check(t, c.name, c.re, c.match, s)
		}
	})
}
