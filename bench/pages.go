package bench

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/svganim"
	"golang.org/x/net/html"
)

// Byte budgets. Sizes are deterministic, so these gate: `kflowgen bench`
// exits non-zero when one is missed (Report.Missed).
const (
	// PageBudget is the most a page may weigh at first paint, gzip
	// bytes: its HTML plus every stylesheet and script it loads (each
	// file compressed on its own, as a static host serves it): 40 KB.
	PageBudget = 40_000
	// ScriptBudget is the most the figures' scripts may weigh together,
	// gzip bytes: stepper.js and kf-words.js, everything a figure loads
	// (svganim.StepperBudget, 8 KB).
	ScriptBudget = svganim.StepperBudget
	// KnobBudgetPermille is the most a figure's knobs may add to its
	// page's first-paint weight, in thousandths of the page without them
	// (the default combination alone): 10%. The other combinations load
	// only when picked, so they are not part of it.
	KnobBudgetPermille = 100
)

// KnobWeight is what the knobs of one figure cost its page at first
// paint: With is the page's first-paint weight (PageWeight.Total) as
// built, Without the same page with the figure's default combination
// alone in place of the knob figure (fence.Result.Plain) and, when no
// other figure of the page has knobs, without knobsCSS, which such a page
// does not load; gzip bytes.
// Variants counts the figure's combinations; Scripts sums the gzip sizes
// of the scripts of the combinations loaded on demand, and Largest is the
// largest of them.
type KnobWeight struct {
	Page, ID                   string
	With, Without              int
	Variants, Scripts, Largest int
}

// Permille is what the knobs add, in thousandths of Without.
func (k KnobWeight) Permille() int {
	if k.Without == 0 {
		return 0
	}
	return (k.With - k.Without) * 1000 / k.Without
}

// knobsCSS is the stylesheet a page loads only when one of its figures
// has knobs (templates/layout.html, site's HasKnobs).
const knobsCSS = site.AssetDir + "/kf-knobs.css"

// knobsLink is the element that loads knobsCSS, at any depth of folders.
var knobsLink = regexp.MustCompile(`\n?<link rel="stylesheet" href="[^"]*kf-knobs\.css">`)

// weighKnobs weighs every figure with knobs of s against its page
// without them.
func weighKnobs(s *site.Site, pages []PageWeight) ([]KnobWeight, error) {
	var out []KnobWeight
	perPage := map[string]int{} // figures with knobs on each page
	for _, f := range s.Figures {
		if f.Run != nil && len(f.Run.Knobs) > 0 {
			perPage[f.Page]++
		}
	}
	for _, f := range s.Figures {
		run := f.Run
		if run == nil || len(run.Knobs) == 0 {
			continue
		}
		page := s.File(f.Page)
		if n := bytes.Count(page, run.HTML); n != 1 {
			return nil, fmt.Errorf("%s holds figure %s %d times, want once", f.Page, f.ID, n)
		}
		k := KnobWeight{Page: f.Page, ID: f.ID, Variants: len(run.Variants)}
		for _, p := range pages {
			if p.Path == f.Page {
				k.With = p.Total()
				plain := bytes.Replace(page, run.HTML, run.Plain, 1)
				k.Without = p.Total() - p.HTML
				if perPage[f.Page] == 1 && slices.Contains(p.Loaded, knobsCSS) {
					plain = knobsLink.ReplaceAll(plain, nil)
					k.Without -= GzipSize(s.File(knobsCSS))
				}
				k.Without += GzipSize(plain)
			}
		}
		for _, a := range run.Assets {
			if a != nil {
				n := GzipSize(a)
				k.Scripts += n
				k.Largest = max(k.Largest, n)
			}
		}
		out = append(out, k)
	}
	return out, nil
}

// PageWeight is what one built page costs at first paint.
type PageWeight struct {
	// Path is the page's output file ("acks.html").
	Path string
	// HTML is the page's own gzip size; Loads its stylesheets' and
	// scripts' gzip sizes together; Loaded names them, in document order.
	HTML, Loads int
	Loaded      []string
}

// Total is the page's first-paint weight in gzip bytes.
func (p PageWeight) Total() int { return p.HTML + p.Loads }

// wasmCarrier is the script that carries the playground's WebAssembly
// (playground.Assets): only playground.html loads it, and its weight has
// a budget of its own (WasmGzipBudget), so page weights leave it out.
const wasmCarrier = site.AssetDir + "/kflow-wasm.js"

// weighPages weighs every HTML page of s with the stylesheets (<link
// rel="stylesheet">) and scripts (<script src>) it loads, except
// wasmCarrier. A page that
// loads a file the site does not have is an error: the build would be
// broken.
func weighPages(s *site.Site) ([]PageWeight, error) {
	var out []PageWeight
	for _, f := range s.Files {
		if !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		refs, err := firstPaintLoads(f.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		p := PageWeight{Path: f.Path, HTML: GzipSize(f.Data)}
		for _, ref := range refs {
			target := path.Join(path.Dir(f.Path), ref)
			if target == wasmCarrier {
				continue // weighed under its own budget (Report.Playground)
			}
			data := s.File(target)
			if data == nil {
				return nil, fmt.Errorf("%s loads %s, which the site does not have", f.Path, ref)
			}
			p.Loads += GzipSize(data)
			p.Loaded = append(p.Loaded, target)
		}
		out = append(out, p)
	}
	return out, nil
}

// firstPaintLoads returns the local stylesheets and scripts a page loads,
// in document order, each once.
func firstPaintLoads(page []byte) ([]string, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	var refs []string
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			ref := ""
			switch n.Data {
			case "link":
				if strings.EqualFold(attr(n, "rel"), "stylesheet") {
					ref = attr(n, "href")
				}
			case "script":
				ref = attr(n, "src")
			}
			if ref != "" && !strings.Contains(ref, "://") && !seen[ref] {
				seen[ref] = true
				refs = append(refs, ref)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return refs, nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// scriptWeight is the gzip size of the figures' scripts in s: the
// stepper and kf-words.js.
func scriptWeight(s *site.Site) int {
	n := 0
	for _, name := range []string{svganim.StepperFile, svganim.WordsFile} {
		n += GzipSize(s.File(site.AssetDir + "/" + name))
	}
	return n
}

// Missed lists the byte budgets r misses, one line each; empty when every
// one holds. Timings are never in it: they depend on the machine.
func (r *Report) Missed() []string {
	var out []string
	for _, p := range r.PageWeights {
		if p.Total() > PageBudget {
			out = append(out, fmt.Sprintf("%s weighs %d bytes gzip at first paint, over the budget of %d", p.Path, p.Total(), PageBudget))
		}
	}
	for _, k := range r.Knobs {
		if k.Permille() > KnobBudgetPermille {
			out = append(out, fmt.Sprintf("the knobs of %s add %d bytes gzip (%s%%) to %s at first paint, over the budget of %s%%",
				k.ID, k.With-k.Without, thousandthsPercent(k.Permille()), k.Page, thousandthsPercent(KnobBudgetPermille)))
		}
	}
	if r.Scripts > ScriptBudget {
		out = append(out, fmt.Sprintf("the figure scripts weigh %d bytes gzip, over the budget of %d", r.Scripts, ScriptBudget))
	}
	return out
}

// thousandthsPercent writes n thousandths as a percentage with one
// decimal: 97 → "9.7".
func thousandthsPercent(n int) string {
	return fmt.Sprintf("%d.%d", n/10, n%10)
}
