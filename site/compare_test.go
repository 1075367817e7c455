package site

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/sim"
)

// compareFence is a side-by-side fence: acks=1 beside acks=all through one
// leader crash, each run with a claim of its own.
var compareFence = []string{
	"```kflow",       // 4
	"id: acks-crash", // 5
	"title: acks=1",  // 6
	"producer: {acks: 1, records: 6, keys: [blue, green]}",
	"timeline: [{at: 5, crash: 1}]", // 8
	"beats: 16",                     // 9
	"compare:",                      // 10
	"  title: acks=all",             // 11
	"  producer: {acks: all}",       // 12
	"expect:",                       // 13
	"  - {record: 2, outcome: L}",   // 14
	"  - {record: 2, outcome: U, variant: compare}",
	"```",
}

// TestBuildCompareFigure builds a page with a compare fence: one figure,
// marked as a pair, with both runs' panels, a storyboard telling both, and
// both runs' claims checked (they hold).
func TestBuildCompareFigure(t *testing.T) {
	fsys := fstest.MapFS{"acks.md": page("title: Acks", compareFence...)}
	s, err := Generate(Options{Content: fsys, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	html := string(s.File("acks.html"))
	if n := strings.Count(html, `<figure class="kflow kf-cmp" id="acks--acks-crash"`); n != 1 {
		t.Fatalf("%d compare figures with id acks--acks-crash, want 1", n)
	}
	for _, want := range []string{`<p class="kf-ptitle">acks=1</p>`, `<p class="kf-ptitle">acks=all</p>`,
		"acks=1 vs acks=all", `<span class="kf-head">beat 5 — acks=1: record 2 L: acknowledged, but the new leader&#39;s log does not hold it`,
		`<span class="kf-under">acks=all: broker 1 crashed`, "<span>acks=1: broker 1 crashed\n"} {
		if !strings.Contains(html, want) {
			t.Errorf("acks.html lacks %q", want)
		}
	}
	if len(s.Figures) != 1 || s.Figures[0].Beats != 17 || s.Figures[0].Records != 12 {
		t.Errorf("figure stats %+v, want one figure of 17 beats and 6+6 records", s.Figures)
	}
}

// TestCompareClaimFails flips each run's claim so that it is false: the
// build fails at each claim's place in the file, the second run's failure
// marked as the compare run's.
func TestCompareClaimFails(t *testing.T) {
	lines := append([]string(nil), compareFence...)
	lines[10] = "  - {record: 2, outcome: acked}"                   // file line 14
	lines[11] = "  - {record: 2, outcome: acked, variant: compare}" // file line 15
	fsys := fstest.MapFS{"acks.md": page("title: Acks", lines...)}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	l, ok := err.(sim.ErrorList)
	if !ok || len(l) != 2 {
		t.Fatalf("want two errors, got %v", err)
	}
	if got := l[0].Error(); !strings.HasPrefix(got, "content/acks.md:14:") || strings.Contains(got, "compare") {
		t.Errorf("first run's failure: %s", got)
	}
	if got := l[1].Error(); !strings.HasPrefix(got, "content/acks.md:15:") || !strings.Contains(got, "compare run: ") {
		t.Errorf("compare run's failure: %s", got)
	}
}
