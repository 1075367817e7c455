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

// TestCodedTitlesRemembered: a title encoded again, once remembered
// (codedTitles) or past maxCodedTitles, gets the code the phrases give it,
// whatever other titles were encoded in between.
func TestCodedTitlesRemembered(t *testing.T) {
	titles := []string{"high watermark of p0 on broker 1 — consumers read below it", "~", "record 3, key blue → p0", ""}
	for round := range 3 {
		for _, s := range titles {
			if got, want := encodeTitle(s), titleCoder.Replace(s); got != want {
				t.Fatalf("round %d: encodeTitle(%q) = %q, the phrases give %q", round, s, got, want)
			}
		}
		if round == 1 {
			n := codedCount.Load()
			t.Cleanup(func() { codedCount.Store(n) })
			codedCount.Store(maxCodedTitles) // full: the next are not kept
			titles = append(titles, "log end offset of p2 on broker 9999 — its next record goes here")
		}
	}
	if _, kept := codedTitles.Load(titles[len(titles)-1]); kept {
		t.Errorf("a title encoded with codedTitles full was kept")
	}
	if _, kept := codedTitles.Load(titles[0]); !kept {
		t.Errorf("a title encoded before codedTitles was full was not kept")
	}
}
