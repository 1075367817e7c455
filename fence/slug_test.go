package fence

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// SafeID is the regexp reduction it is documented as — lower case, each run
// of anything outside [a-z0-9] one '-', none at either end, def for nothing
// — on every string of up to 5 runes over an alphabet with a rune of each
// class Slug tells apart (the Kelvin sign lower-cases to an ASCII 'k').
func TestSafeIDIsItsRegexp(t *testing.T) {
	other := regexp.MustCompile(`[^a-z0-9]+`)
	want := func(s string) string {
		r := strings.Trim(other.ReplaceAllString(strings.ToLower(s), "-"), "-")
		if r == "" {
			return "def"
		}
		return r
	}
	alpha := []rune{'a', 'Z', '7', '-', ' ', 'é', '\u212a', '\u0301'}
	n := 0
	var walk func(string)
	walk = func(s string) {
		n++
		if got := SafeID(s, "def"); got != want(s) {
			t.Fatalf("SafeID(%q) = %q, the regexp gives %q", s, got, want(s))
		}
		if len([]rune(s)) < 5 {
			for _, r := range alpha {
				walk(s + string(r))
			}
		}
	}
	walk("")
	if n < 30000 {
		t.Fatalf("only %d strings walked", n)
	}
}

// Slug tells keep whether a rune would join a kept one, so a mark is kept
// after a letter and dropped at the start or after a dropped rune.
func TestSlugJoined(t *testing.T) {
	keep := func(r rune, joined bool) bool {
		return unicode.IsLetter(r) || unicode.IsMark(r) && joined
	}
	for in, want := range map[string]string{
		"e\u0301t\u00e9":  "e\u0301t\u00e9",
		"\u0301abc":       "abc",
		"ab \u0301cd":     "ab-cd",
		"AB--cd":          "ab-cd",
		" \u0301 ":        "none",
		"x\u0301\u0301 y": "x\u0301\u0301-y",
	} {
		if got := Slug(in, "none", keep); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
