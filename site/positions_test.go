package site_test

import (
	"bytes"
	"testing"

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
			line, col := f.Pos(errs[0].Pos.Line, errs[0].Pos.Col)
			if line != c.line || col != c.col {
				t.Errorf("error %v lands at %d:%d in the page, want %d:%d", errs[0], line, col, c.line, c.col)
			}
		})
	}
}
