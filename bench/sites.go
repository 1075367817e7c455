package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/site"
)

// FiguresPerThousandPages is how many figures a GuideSite holds per 1,000
// pages at most: issue 17's site of 1,000 pages with 1,500 figures.
const FiguresPerThousandPages = 1500

// GuideSite makes a site of pages Markdown files (index.md included) out
// of the guide: its index.md, then its other pages in path order, again and
// again, copy c > 0 of page "acks.md" named "acks-c.md"; past the first
// copy, a page that would take the site over FiguresPerThousandPages or
// over site.MaxFrames is a short page of prose instead ("notes-k.md"). A copy's in-page
// links to its own figures ("#acks--…") name the copy's figure ids
// ("#acks-c--…"), so every copy builds; links to other pages keep pointing
// at the first copy, which every site of at least the guide's size holds.
// The site has pages files whatever the guide's size; pages must be at
// least the guide's own count, so that every link resolves.
//
// It is the site the benchmark builds at a given page count, for kflowgen
// and (HugoSite) for Hugo, with the same Markdown.
func GuideSite(guide fs.FS, pages int) (fstest.MapFS, error) {
	return guideSite(guide, pages, false)
}

// VariedGuideSite is GuideSite with every fence of copy c > 0 made its own:
// its top-level title starts "copy c, " (VaryFences). In a GuideSite the
// copies' fences repeat the guide's, and a build draws a fence body once
// however many pages show it; here no two fences of the site are the same,
// so every figure is simulated and drawn, as on a site of distinct pages.
func VariedGuideSite(guide fs.FS, pages int) (fstest.MapFS, error) {
	return guideSite(guide, pages, true)
}

// VaryFences returns page with the title of each ```kflow (or ~~~kflow)
// fence prefixed: the first line of the fence body that starts, at the
// fence's own indentation, with "title: " gets prefix after that key, and
// a plain title (not quoted, not a block) is cut at its end so that the
// whole stays within the scenario's limit of MaxTitle characters. A fence
// without a top-level title is left as it is.
func VaryFences(page []byte, prefix string) []byte {
	var out []byte
	indent, inFence, titled := "", false, false
	for line := range strings.Lines(string(page)) {
		trimmed := strings.TrimLeft(line, " ")
		lead := line[:len(line)-len(trimmed)]
		switch {
		case !inFence && (strings.HasPrefix(trimmed, "```kflow") || strings.HasPrefix(trimmed, "~~~kflow")):
			inFence, titled, indent = true, false, lead
		case inFence && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			inFence = false
		case inFence && !titled && lead == indent && strings.HasPrefix(trimmed, "title: "):
			titled = true
			title, nl := strings.CutSuffix(trimmed[len("title: "):], "\n")
			if title != "" && !strings.ContainsRune(`"'|>`, rune(title[0])) {
				if r := []rune(title); utf8.RuneCountInString(prefix)+len(r) > MaxTitle {
					title = strings.TrimRight(string(r[:max(0, MaxTitle-utf8.RuneCountInString(prefix))]), " :")
				}
			}
			out = append(out, lead+"title: "+prefix+title...)
			if nl {
				out = append(out, '\n')
			}
			continue
		}
		out = append(out, line...)
	}
	return out
}

// MaxTitle is the most characters a scenario's title may have (the
// reference page's limits).
const MaxTitle = 120

func guideSite(guide fs.FS, pages int, vary bool) (fstest.MapFS, error) {
	names, err := fs.Glob(guide, "*.md")
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == homeSource })
	if len(names) == 0 {
		return nil, errors.New("the guide has no pages besides index.md")
	}
	if pages < len(names)+1 {
		return nil, fmt.Errorf("a site of %d pages: the guide alone has %d (index.md included); ask for at least that many", pages, len(names)+1)
	}
	out := fstest.MapFS{}
	home, err := fs.ReadFile(guide, homeSource)
	if err != nil {
		return nil, err
	}
	out[homeSource] = &fstest.MapFile{Data: home}
	srcs := make([][]byte, len(names))
	for i, n := range names {
		if srcs[i], err = fs.ReadFile(guide, n); err != nil {
			return nil, err
		}
	}
	// Each guide page's figures and frames (fence.Work, as the site's
	// limits count them).
	nfig, nframes := make([]int, len(names)), make([]int, len(names))
	for i, src := range srcs {
		for _, f := range site.FindFences(src) {
			nfig[i]++
			nframes[i] += fence.Parse(f.Body).Work().Frames
		}
	}
	figures, frames := 0, 0
	for k := 0; k < pages-1; k++ {
		i, c := k%len(names), k/len(names)
		base := strings.TrimSuffix(names[i], ".md")
		data := srcs[i]
		// Past the guide's first copy, a page that would take the site
		// over FiguresPerThousandPages, or over site.MaxFrames, is a page
		// of prose instead.
		if c > 0 && ((figures+nfig[i])*1000 > pages*FiguresPerThousandPages || frames+nframes[i] > site.MaxFrames) {
			name := "notes-" + strconv.Itoa(k)
			out[name+".md"] = &fstest.MapFile{Data: fmt.Appendf(nil, "---\ntitle: Notes %d\nweight: 1000\n---\n\nA page of prose, to make up the page count.\n\n## Why\n\nA real site has pages without figures too.\n", k)}
			continue
		}
		figures, frames = figures+nfig[i], frames+nframes[i]
		name := base
		if c > 0 {
			name = base + "-" + strconv.Itoa(c)
			data = []byte(strings.ReplaceAll(string(data), "#"+base+"--", "#"+name+"--"))
			if vary {
				data = VaryFences(data, "copy "+strconv.Itoa(c)+", ")
			}
		}
		out[path.Join(name+".md")] = &fstest.MapFile{Data: data}
	}
	return out, nil
}

// homeSource is the page that becomes the home page (site's homeSource).
const homeSource = "index.md"

// HugoLayout is the one template the Hugo site is built with, for single
// pages, lists and the home page alike: the page's title, a link to every
// page of the site (as kflowgen's navigation lists them), and the content.
const HugoLayout = `<!doctype html><title>{{ .Title }}</title>{{ range .Site.Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ .Content }}` + "\n"

// HugoSite lays out a Hugo project holding the pages of a GuideSite (its
// ```kflow fences are plain code to Hugo, which simulates nothing):
// config.toml, content/ without index.md (Hugo's home page is the list),
// and HugoLayout as every layout. Paths are relative to the project.
func HugoSite(gs fstest.MapFS) fstest.MapFS {
	h := fstest.MapFS{
		"config.toml":                  {Data: []byte("baseURL = \"/\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\"]\n")},
		"layouts/_default/single.html": {Data: []byte(HugoLayout)},
		"layouts/_default/list.html":   {Data: []byte(HugoLayout)},
		"layouts/index.html":           {Data: []byte(HugoLayout)},
	}
	for name, f := range gs {
		if name == homeSource {
			continue
		}
		h["content/"+name] = f
	}
	return h
}
