package site

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/sim"
)

// TestMarkdownSlips builds pages with fences that nearly say kflow and
// with level-1 headings, and wants each reported where it is written —
// and nothing reported for fences of other languages, for ## headings, or
// for "# " lines inside a fence.
func TestMarkdownSlips(t *testing.T) {
	fsys := fstest.MapFS{
		"fences.md": page("title: Fences", // lines 1-3
			"```Kflow",    //  4: case
			"id: a",       //  5
			"```",         //  6
			"",            //  7
			"- item",      //  8
			"",            //  9
			"  ```kflw",   // 10: one letter short, in a list
			"  id: b",     // 11
			"  ```",       // 12
			"",            // 13
			"~~~ KFLOW x", // 14: upper case, tilde fence, more info
			"~~~",         // 15
			"",            // 16
			"```flows",    // 17: two edits away: a plain code block
			"```",         // 18
			"",            // 19
			"```yaml",     // 20
			"# a comment", // 21: not a heading
			"```",         // 22
			goodFence,     // 23-26
		),
		"titles.md": page("title: Titles", // lines 1-3
			"# Second title", //  4
			"",               //  5
			"## A section",   //  6
			"",               //  7
			"Underlined",     //  8: setext level 1
			"==========",     //  9
			"",               // 10
			"> # Quoted",     // 11
			"",               // 12
			goodFence,        // 13-16
			"",               // 17
			"#",              // 18: empty
		),
	}
	_, err := Generate(Options{Content: fsys, ContentName: "c"})
	l, ok := err.(sim.ErrorList)
	if !ok {
		t.Fatalf("want an ErrorList, got %v", err)
	}
	var got []string
	for _, e := range l {
		got = append(got, e.Error())
	}
	want := []string{
		`c/fences.md:4:4: fence "Kflow" is not a figure: did you mean "kflow"?`,
		`c/fences.md:10:6: fence "kflw" is not a figure: did you mean "kflow"?`,
		`c/fences.md:14:5: fence "KFLOW" is not a figure: did you mean "kflow"?`,
		`c/titles.md:4:1: heading "Second title" is a second title: a page has one title (front matter); use ## for sections`,
		`c/titles.md:8:1: heading "Underlined" is a second title: a page has one title (front matter); use ## for sections`,
		`c/titles.md:11:3: heading "Quoted" is a second title: a page has one title (front matter); use ## for sections`,
		`c/titles.md:18:1: an empty level-1 heading is a second title: a page has one title (front matter); use ## for sections`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLineIndexStartsEveryLine: newLineIndex holds the start of every
// line, the first at 0 and one past each newline, for pages with and
// without a last newline, empty lines, CRLF and no newline at all.
func TestLineIndexStartsEveryLine(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "a\nb", "\n\n\n", "ab\r\ncd\r\n", "x\n\ny\n\n", strings.Repeat("line\n", 300) + "end"} {
		want := lineIndex{0}
		for i := range len(src) {
			if src[i] == '\n' {
				want = append(want, i+1)
			}
		}
		if got := newLineIndex([]byte(src)); !slices.Equal(got, want) {
			t.Errorf("newLineIndex(%q) = %v, want %v", src, got, want)
		}
	}
}
