package bench

import (
	"bytes"
	"fmt"
	"path"
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
)

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
	if r.Scripts > ScriptBudget {
		out = append(out, fmt.Sprintf("the figure scripts weigh %d bytes gzip, over the budget of %d", r.Scripts, ScriptBudget))
	}
	return out
}
