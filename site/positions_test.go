package site_test

import (
	"bytes"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/site"
)

// TestTabPaddedFencePositions covers fences whose indentation uses only
// part of a tab (FuzzPage found the first): the body holds the tab's
// remaining columns as spaces, once, and an error on such a line points at
// the character in the file, not past it.
func TestTabPaddedFencePositions(t *testing.T) {
	for _, c := range []struct {
		name, page string
		body       string // the body the scenario parser sees
		line, col  int    // where the error's token sits in the page
	}{
		{"fence indented one space", " ```kflow\n\t0\n ```\n", "   0\n", 2, 2},
		{"fence in a quote", "> ```kflow\n>\t0\n> ```\n", "  0\n", 2, 3},
		// The whole tab is the body's: YAML refuses it, at the tab.
		{"fence in a list item", "- x\n\n  ```kflow\n  \t0\n  ```\n", "\t0\n", 4, 3},
		{"no tab", "```kflow\n0\n```\n", "0\n", 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			fences := site.FindFences([]byte(c.page))
			if len(fences) != 1 {
				t.Fatalf("%d fences, want 1", len(fences))
			}
			f := fences[0]
			if !bytes.Equal(f.Body, []byte(c.body)) {
				t.Errorf("body %q, want %q", f.Body, c.body)
			}
			_, errs := scenario.Parse(f.Body)
			if len(errs) != 1 {
				t.Fatalf("want one error, got %v", errs)
			}
			p := f.Pos(errs[0].Pos)
			line, col := p.Line, p.Col
			if line != c.line || col != c.col {
				t.Errorf("error %v lands at %d:%d in the page, want %d:%d", errs[0], line, col, c.line, c.col)
			}
		})
	}
}

// TestColumnsCountCharacters: every kind of positioned error — front
// matter, a link, a near-kflow fence, a scenario inside a quote — counts
// its column in characters, so text with accents before the error moves
// the column by one per character, not by its bytes. Before the unit was
// unified, the link and the fence word counted bytes and the YAML errors
// characters.
func TestColumnsCountCharacters(t *testing.T) {
	src := "---\n" +
		"title: Çà\n" +
		"weight: «x»\n" + // 3: "«x»" is at character 9
		"---\n" +
		"Été, [x](nope.md)\n" + // 5: "[" is character 6, byte 8
		"\n" +
		"«» ```kflw\n" + // 7: not a fence (text before it)
		"\n" +
		"```kflw\n" + // 9: the near-kflow word is at 4
		"x\n" +
		"```\n" +
		"\n" +
		"> ```kflow\n" +
		"> id: ok\n" +
		"> producer: {keys: [é], acks: 7}\n" + // 15: "7" is character 31, byte 32
		"> ```\n"
	_, err := site.Generate(site.Options{Content: fstest.MapFS{"a.md": {Data: []byte(src)}}, ContentName: "c"})
	var l sim.ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("want positioned errors, got %v", err)
	}
	want := map[int]int{3: 9, 5: 6, 9: 4, 15: 31} // line → column
	got := map[int]int{}
	for _, e := range l {
		got[e.Line] = e.Col
	}
	for line, col := range want {
		if got[line] != col {
			t.Errorf("line %d: error at column %d, want %d; errors:\n%v", line, got[line], col, l)
		}
	}
	if len(l) != len(want) {
		t.Errorf("%d errors, want %d:\n%v", len(l), len(want), l)
	}
}
