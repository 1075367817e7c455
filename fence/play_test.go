package fence_test

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/site"
)

// TestPlayIsTheBuild: for every fence of the guide, Play (what the
// playground's WebAssembly runs) gives the markup the build wrote for
// that figure, byte for byte, and no errors; for a fence with knobs it
// draws no other combination (Assets nil) until PlayVariant is asked,
// which gives each combination's script as the build wrote it. The
// browser test in package playground checks the same through the real
// module in Chromium.
func TestPlayIsTheBuild(t *testing.T) {
	s, err := site.Generate(site.Options{Content: content.FS, ContentName: "content", KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	built := map[string][]byte{}
	assets := map[string][][]byte{}
	for _, f := range s.Figures {
		built[f.ID], assets[f.ID] = f.Run.HTML, f.Run.Assets
	}
	n, variants := 0, 0
	err = fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := fs.ReadFile(content.FS, p)
		if err != nil {
			return err
		}
		for _, f := range site.FindFences(src) {
			r := fence.Play(f.Body, site.Slug(p))
			if len(r.Errors) > 0 || r.Scenario == nil {
				t.Errorf("%s:%d: %v", p, f.Line, r.Errors)
				continue
			}
			id := site.FigureID(site.Slug(p), r.Scenario.ID)
			if want, ok := built[id]; !ok || !bytes.Equal(r.HTML, want) || len(want) == 0 {
				t.Errorf("%s:%d: Play drew %d bytes for %s, the build %d (found: %v)", p, f.Line, len(r.HTML), id, len(want), ok)
			}
			if r.Assets != nil {
				t.Errorf("%s:%d: Play drew the other combinations of %s before they were asked for", p, f.Line, id)
			}
			for i, want := range assets[id] {
				got, err := fence.PlayVariant(r, site.Slug(p), i)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s:%d: combination %d of %s: PlayVariant gave %d bytes (%v), the build %d", p, f.Line, i, id, len(got), err, len(want))
				}
				variants++
			}
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(s.Figures) || n < 20 || variants < 10 {
		t.Errorf("compared %d fences and %d combinations, the guide has %d figures", n, variants, len(s.Figures))
	}
}

// TestPlayDrawsAContradictedClaim: a fence whose only problems are
// expect: entries the trace contradicts is still drawn, with the entries
// positioned in the text; the build (Figure) draws nothing for it.
func TestPlayDrawsAContradictedClaim(t *testing.T) {
	body := []byte(strings.Replace(pair, "outcome: L", "outcome: acked", 1))
	r := fence.Play(body, "playground")
	if len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0].Error(), "8:26: expected outcome acked") {
		t.Fatalf("errors %v", r.Errors)
	}
	if !bytes.Contains(r.HTML, []byte(`id="playground--pair"`)) {
		t.Errorf("no figure drawn: %.80q", r.HTML)
	}
	if b := fence.Figure(body, fence.Options{}); b.HTML != nil {
		t.Errorf("the build drew a figure whose claim fails")
	}
}

// TestPlayVariantRefuses: PlayVariant names what it cannot draw instead
// of drawing something: a figure without knobs, a combination out of
// range, a fence that did not parse.
func TestPlayVariantRefuses(t *testing.T) {
	plain := fence.Play([]byte(pair), "playground")
	knobbed := fence.Play([]byte(pair+"knobs: {producer.acks: [0, 1, all]}\n"), "playground")
	broken := fence.Play([]byte("id: x\nbrokers: many\n"), "playground")
	if plain.HTML == nil || knobbed.HTML == nil || len(knobbed.Variants) != 3 {
		t.Fatalf("the fences do not draw: %v, %v", plain.Errors, knobbed.Errors)
	}
	for _, c := range []struct {
		r *fence.Result
		i int
	}{{plain, 1}, {knobbed, 3}, {knobbed, -1}, {broken, 0}} {
		if b, err := fence.PlayVariant(c.r, "playground", c.i); err == nil || b != nil {
			t.Errorf("combination %d of %d: %d bytes, error %v", c.i, len(c.r.Variants), len(b), err)
		}
	}
	if b, err := fence.PlayVariant(knobbed, "playground", knobbed.Default); b != nil || err != nil {
		t.Errorf("the default combination: %d bytes, error %v; the figure holds it", len(b), err)
	}
}

// TestPlayParseError: a fence that does not parse gives its positioned
// errors and no markup.
func TestPlayParseError(t *testing.T) {
	r := fence.Play([]byte("id: x\nbrokers: many\n"), "playground")
	if len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0].Error(), "2:10: ") || r.HTML != nil {
		t.Errorf("errors %v, %d bytes", r.Errors, len(r.HTML))
	}
}

// TestFigureID: the DOM id reduces each part on its own and keeps "--".
func TestFigureID(t *testing.T) {
	for _, c := range [][3]string{
		{"acks", "acks-one-loss", "acks--acks-one-loss"},
		{"Ops/Acks & ISR", "  Try It!", "ops-acks-isr--try-it"},
		{"", "", "page--figure"},
	} {
		if got := fence.FigureID(c[0], c[1]); got != c[2] {
			t.Errorf("FigureID(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestPlayPasted: a reader who pastes a whole guide page, or one of its
// fences with the fence lines around it, into the playground gets the
// figure the build drew for that page's first fence (or that fence), byte
// for byte, where before the paste was read as YAML and refused at 1:1.
func TestPlayPasted(t *testing.T) {
	s, err := site.Generate(site.Options{Content: content.FS, ContentName: "content", KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	built := map[string][]byte{}
	for _, f := range s.Figures {
		built[f.ID] = f.Run.HTML
	}
	pages := 0
	err = fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := fs.ReadFile(content.FS, p)
		if err != nil {
			return err
		}
		fences := site.FindFences(src)
		if len(fences) == 0 {
			return nil
		}
		slug := site.Slug(p)
		check := func(what string, text []byte, want *fence.Result) {
			t.Helper()
			r := fence.Play(text, slug)
			if len(r.Errors) > 0 || r.Scenario == nil || r.Scenario.ID != want.Scenario.ID {
				t.Errorf("%s, %s: errors %v, scenario %v, want %s", p, what, r.Errors, r.Scenario != nil, want.Scenario.ID)
				return
			}
			if id := site.FigureID(slug, r.Scenario.ID); !bytes.Equal(r.HTML, built[id]) {
				t.Errorf("%s, %s: Play drew %d bytes for %s, the build %d", p, what, len(r.HTML), id, len(built[id]))
			}
		}
		first := fence.Play(fences[0].Body, slug)
		if first.Scenario == nil {
			t.Fatalf("%s: first fence: %v", p, first.Errors)
		}
		check("the whole page", src, first)
		pages++
		for _, f := range fences {
			want := fence.Play(f.Body, slug)
			check("a fence with its ``` lines", append(append([]byte("```kflow\n"), f.Body...), "```\n"...), want)
			check("a fence with its ~~~~ lines, indented", indent(append(append([]byte("~~~~ kflow\n"), f.Body...), "~~~~\n"...), "   "), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 10 {
		t.Errorf("pasted %d pages", pages)
	}
}

// indent puts pre before every line of b.
func indent(b []byte, pre string) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return []byte(strings.Join(lines, ""))
}

// TestPlayPastedErrors: the errors of a pasted fence are positioned in the
// pasted text, columns included when the fence is indented in a list item;
// a fence that is never closed runs to the end; text that holds no kflow
// fence is read as a body, as before.
func TestPlayPastedErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"id: x\nbrokers: many\n", "2:10: "},
		{"```kflow\nid: x\nbrokers: many\n```\n", "3:10: "},
		{"---\ntitle: T\n---\nProse.\n\n- item\n\n  ```kflow\n  id: x\n  brokers: many\n  ```\n\nMore prose.\n", "10:12: "},
		{"```kflow\r\nid: x\r\nbrokers: many\r\n", "3:10: "},
		{"```yaml\nid: x\n```\n\n````kflow\nid: x\nbrokers: many\n````\n", "7:10: "},
	} {
		r := fence.Play([]byte(c.text), "playground")
		if len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0].Error(), c.want) || r.HTML != nil {
			t.Errorf("%q: errors %v, want one at %s", c.text, r.Errors, c.want)
		}
	}
}
