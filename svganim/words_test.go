package svganim

import "testing"

// TestTitlesRoundTrip: every title of every figure the tests draw comes
// back unchanged from its encoding, "~" in user strings included, and the
// encoding takes out most of the words.
func TestTitlesRoundTrip(t *testing.T) {
	for _, s := range []string{"", "~", "~~a", "a~", "member x~1 of group ~readers", "high watermark of p0 on broker 1 — consumers read below it"} {
		if got := decodeTitle(encodeTitle(s)); got != s {
			t.Errorf("%q comes back as %q (encoded %q)", s, got, encodeTitle(s))
		}
	}
	var raw, coded int
	for _, nt := range allTraces(t) {
		u := unite(newScene(nt.t))
		for bi := 0; bi < u.beats; bi++ {
			for i := range u.marks {
				m, _ := u.at(bi, i)
				s := m.title
				e := encodeTitle(s)
				if got := decodeTitle(e); got != s {
					t.Fatalf("%s: title %q comes back as %q", nt.name, s, got)
				}
				raw, coded = raw+len(s), coded+len(e)
			}
		}
	}
	// The phrases are most of a title: if they stop matching (a title's
	// wording changed), the figures grow; update phrases in words.go.
	if coded*2 > raw {
		t.Errorf("encoded titles are %d bytes of %d: the phrases no longer match the titles", coded, raw)
	}
}
