package site

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/fence"
)

// TestRepeatedFencesDrawnOnce builds the guide with a copy of every page
// ("acks.md" and "acks-copy.md", the copy's links to its own figures
// renamed): a fence body both pages hold is run and drawn once (the two
// figures carry the same traces), and each copy's figure is, byte for
// byte, the fence drawn alone with its own DOM id (fence.Figure), its knob
// combinations' scripts included.
func TestRepeatedFencesDrawnOnce(t *testing.T) {
	fsys := fstest.MapFS{}
	srcs := map[string][]byte{} // output page → its Markdown
	for _, p := range guidePages(t) {
		n, src := p.name, p.src
		fsys[n] = &fstest.MapFile{Data: src}
		srcs[strings.TrimSuffix(n, ".md")+".html"] = src
		if n == homeSource {
			continue
		}
		base := strings.TrimSuffix(n, ".md")
		cp := []byte(strings.ReplaceAll(string(src), "#"+base+"--", "#"+base+"-copy--"))
		fsys[base+"-copy.md"] = &fstest.MapFile{Data: cp}
		srcs[base+"-copy.html"] = cp
	}
	s, err := Generate(Options{Content: fsys, ContentName: "content", KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]FigureStat{}
	fences := map[string][]Fence{}
	at := map[string]int{}
	shared, originals := 0, 0
	for _, f := range s.Figures {
		byID[f.ID] = f
	}
	for _, f := range s.Figures {
		if f.Run == nil {
			t.Fatalf("figure %s has no run", f.ID)
		}
		if fences[f.Page] == nil {
			fences[f.Page] = FindFences(srcs[f.Page])
		}
		body := fences[f.Page][at[f.Page]].Body
		at[f.Page]++
		slug := strings.TrimSuffix(f.Page, ".html")
		alone := fence.Figure(body, fence.Options{ID: func(id string) string { return FigureID(slug, id) }})
		if len(alone.HTML) == 0 || !bytes.Contains(s.File(f.Page), alone.HTML) {
			t.Errorf("%s: the page does not hold the figure as drawn alone", f.ID)
		}
		var assets [][]byte
		for _, a := range alone.Assets {
			if a != nil {
				assets = append(assets, a)
			}
		}
		if len(assets) != len(f.Variants) {
			t.Errorf("%s: %d variant scripts, drawn alone %d", f.ID, len(f.Variants), len(assets))
			continue
		}
		for i, p := range f.Variants {
			if !bytes.Equal(s.File(p), assets[i]) {
				t.Errorf("%s: %s is not the script drawn alone", f.ID, p)
			}
		}
		orig, ok := strings.CutSuffix(slug, "-copy")
		if !ok {
			if f.Page != "index.html" {
				originals++
			}
			continue
		}
		o, ok := byID[orig+strings.TrimPrefix(f.ID, slug)]
		if !ok {
			t.Fatalf("%s: no figure on %s.html", f.ID, orig)
		}
		if o.Run.Trace != f.Run.Trace || o.Run.CompareTrace != f.Run.CompareTrace {
			t.Errorf("%s and %s: the same fence was run twice", o.ID, f.ID)
		}
		shared++
	}
	if shared == 0 || shared != originals {
		t.Errorf("%d figures are copies of %d", shared, originals)
	}
}
