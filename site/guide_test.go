package site

import (
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// notConcepts are the guide's pages that teach no single concept (by slug
// prefix): the overview, how to read a figure, the scope, the two reference
// pages (scenario and trace) and the sources. Every other page is a concept page.
var notConcepts = []string{"overview", "reading", "scope", "reference", "trace", "sources"}

// TestConceptPagesShowAndPin checks issue 8's rule for the embedded guide:
// every concept page has at least one figure and at least one pinned
// claim (an expect entry, in the fence or its compare run), so no page
// teaches a concept without showing it and checking what it says.
func TestConceptPagesShowAndPin(t *testing.T) {
	concepts := 0
	for _, pg := range guidePages(t) {
		p := pg.name
		slug := strings.TrimSuffix(p, ".md")
		if p == homeSource || hasAnyPrefix(slug, notConcepts) {
			continue
		}
		concepts++
		fences := FindFences(pg.src)
		if len(fences) == 0 {
			t.Errorf("%s: a concept page without a figure", p)
			continue
		}
		claims := 0
		for _, f := range fences {
			base, variant, errs := scenario.ParseCompare(f.Body)
			if errs != nil {
				t.Errorf("%s:%d: %v", p, f.Line, errs)
				continue
			}
			claims += len(base.Expect)
			if variant != nil {
				claims += len(variant.Expect)
			}
		}
		if claims == 0 {
			t.Errorf("%s: %d figures but no expect claim pins anything the page says", p, len(fences))
		}
	}
	if concepts < 13 {
		t.Errorf("the guide has %d concept pages, issue 8 lists thirteen besides the overview", concepts)
	}
}

// TestFenceKeysOnReference checks that every key written in any fence of
// the guide, at any depth, is explained on the reference page: it appears
// there as a code span of its own (`acks`) or inside one that shows it in
// use (`{at: 5, crash: 2}`).
func TestFenceKeysOnReference(t *testing.T) {
	ref, err := fs.ReadFile(content.FS, "reference.md")
	if err != nil {
		t.Fatal(err)
	}
	// Code spans of the prose and tables; the page's example fences are
	// left out, so a key only shown in an example does not count.
	var spans []string
	inFence := false
	for _, line := range strings.Split(string(ref), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(line, -1) {
			spans = append(spans, m[1])
		}
	}
	documented := func(key string) bool {
		use := regexp.MustCompile(`(^|[{ ,])` + regexp.QuoteMeta(key) + `:`)
		for _, s := range spans {
			if s == key || use.MatchString(s) {
				return true
			}
		}
		return false
	}
	used := map[string]string{} // key → first page using it
	for _, f := range guideFences(t) {
		var doc yaml.Node
		if err := yaml.Unmarshal(f.Body, &doc); err != nil {
			t.Errorf("%s:%d: %v", f.page, f.Line, err)
			continue
		}
		collectKeys(&doc, func(k string) {
			if _, ok := used[k]; !ok {
				used[k] = f.page
			}
		})
	}
	if len(used) < 20 {
		t.Fatalf("found only %d fence keys in the guide; is the walk broken?", len(used))
	}
	keys := make([]string, 0, len(used))
	for k := range used {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !documented(k) {
			t.Errorf("fence key %q (used on %s) is not on the reference page", k, used[k])
		}
	}
}

// collectKeys calls fn with every mapping key below n.
func collectKeys(n *yaml.Node, fn func(string)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			fn(n.Content[i].Value)
		}
	}
	for i, c := range n.Content {
		// The keys under knobs and under an expect entry's when are
		// setting paths, whose form the reference's knobs section gives.
		if n.Kind == yaml.MappingNode && i%2 == 1 && (n.Content[i-1].Value == "knobs" || n.Content[i-1].Value == "when") {
			continue
		}
		collectKeys(c, fn)
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// deepLinkRE finds a written link to one beat of a figure, with or without
// its page: "acks.html#acks--acks-one-loss@12", "#legend-tour@3", and the
// short form a Markdown link may use, "acks.md#acks-one-loss@12".
var deepLinkRE = regexp.MustCompile(`(?:([a-z0-9-]+)\.(html|md))?#([a-z0-9-]+)@([0-9]+)`)

// TestDeepLinkExamples checks every link to a figure's beat that the guide
// and the README write, in prose, code spans or link targets, against the
// built site: the fragment must be a figure's DOM id (PAGE--ID, not the
// fence's bare id), on the named page or, with no page named, on the
// linking page itself (the README, which is no page, may name any
// figure), and the beat must be one the figure has.
func TestDeepLinkExamples(t *testing.T) {
	s, err := Generate(Options{Content: content.FS, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	figures := map[string]FigureStat{} // DOM id → figure
	for _, f := range s.Figures {
		figures[f.ID] = f
	}
	sources := map[string]string{} // name → page output file ("" for the README)
	texts := map[string][]byte{}
	for _, p := range guidePages(t) {
		sources["content/"+p.name], texts["content/"+p.name] = Slug(p.name)+".html", p.src
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sources["README.md"], texts["README.md"] = "", readme
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	sort.Strings(names)
	links := 0
	for _, name := range names {
		for _, m := range deepLinkRE.FindAllStringSubmatch(string(texts[name]), -1) {
			links++
			page, id := m[1], m[3]
			beat, _ := strconv.Atoi(m[4])
			f, ok := figures[id]
			if !ok && !strings.Contains(id, "--") {
				// The short form: the scenario id, on the page named, on
				// this one, or (the README, which is no page) on the one
				// page that has a figure of that id.
				on := page
				if on == "" {
					on = strings.TrimSuffix(sources[name], ".html")
				}
				if on == "" {
					var pages []string
					for dom := range figures {
						if strings.HasSuffix(dom, "--"+id) {
							pages = append(pages, strings.TrimSuffix(dom, "--"+id))
						}
					}
					if len(pages) == 1 {
						on = pages[0]
					}
				}
				id = FigureID(on, id)
				f, ok = figures[id]
			}
			switch {
			case !ok:
				t.Errorf("%s: %q names no figure; a figure's link is #PAGE--ID@BEAT", name, m[0])
			case page != "" && f.Page != page+".html":
				t.Errorf("%s: %q: figure %s is on %s", name, m[0], id, f.Page)
			case page == "" && sources[name] != "" && f.Page != sources[name]:
				t.Errorf("%s: %q: figure %s is on %s, not on this page", name, m[0], id, f.Page)
			case beat >= f.Beats:
				t.Errorf("%s: %q: figure %s has beats 0 to %d", name, m[0], id, f.Beats-1)
			}
		}
	}
	if links < 3 {
		t.Errorf("found %d deep links in the guide and README, want at least 3; is the pattern broken?", links)
	}
}

// beatWordRE finds a beat named by its number in running text: "beat 12",
// "Beat 2", "beats 6 and 12" (the first number; a link's text is masked
// before this runs, so "beats [6](…@6) and [12](…@12)" does not match).
var beatWordRE = regexp.MustCompile(`\b[Bb]eats?\s+[0-9]+`)

// TestBeatMentionsAreLinks checks that the guide's prose never names a
// beat of a figure without linking to it: every "beat N" outside links,
// code and fences is a failure, naming the page and the words, so the
// reader can always jump to the beat a sentence is about (the link form
// is #FIGURE@BEAT, checked by checkFragments). Text inside a link is
// masked, so "[beat 5](#floor@5)" passes. The reference page is left
// out: its beats are those of YAML examples and of settings in general
// ("members present at beat 0"), not of a figure beside them.
func TestBeatMentionsAreLinks(t *testing.T) {
	md := newMarkdown()
	links := 0
	for _, pg := range guidePages(t) {
		p, src := pg.name, pg.src
		if p == "reference.md" {
			continue
		}
		doc := md.Parser().Parse(text.NewReader(src))
		// One string per block of running text (paragraph, list item's
		// text, table cell, heading), with a link's text replaced by "§"
		// and code spans left out, so a mention broken over two lines
		// ("beat\n19") is found.
		var blocks []string
		var cur strings.Builder
		var walk func(n ast.Node, inLink bool)
		walk = func(n ast.Node, inLink bool) {
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				switch c := c.(type) {
				case *ast.Link, *ast.AutoLink:
					cur.WriteString("§")
					walk(c, true)
				case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.RawHTML:
				case *ast.Text:
					if !inLink {
						cur.Write(c.Segment.Value(src))
						if c.SoftLineBreak() || c.HardLineBreak() {
							cur.WriteByte(' ')
						}
					}
				case *ast.String:
					if !inLink {
						cur.Write(c.Value)
					}
				default:
					if c.Type() == ast.TypeBlock && cur.Len() > 0 {
						blocks = append(blocks, cur.String())
						cur.Reset()
					}
					walk(c, inLink)
					if c.Type() == ast.TypeBlock && cur.Len() > 0 {
						blocks = append(blocks, cur.String())
						cur.Reset()
					}
				}
			}
		}
		walk(doc, false)
		for _, b := range blocks {
			for _, m := range beatWordRE.FindAllString(b, -1) {
				t.Errorf("content/%s: %q is not a link to that beat: write [%s](#FIGURE@N) with the figure it is about", p, m, m)
			}
		}
		for _, b := range blocks {
			links += strings.Count(b, "§")
		}
	}
	if links < 50 {
		t.Errorf("the walk saw %d links in the guide's prose, want at least 50: is it broken?", links)
	}
}

// TestGuidePostersTellTheStory: a figure's poster (the picture readers
// without JavaScript get, and where it opens) is the beat its page's prose
// says the figure is about, not merely its busiest beat. For each figure
// whose busiest beat is a routine one, the poster beat must hold the event
// (or carry the note) that the prose names.
func TestGuidePostersTellTheStory(t *testing.T) {
	want := map[string]string{ // fence id → text of an event or note at its poster
		"fails-every-time": "archived: released by workers-1 at delivery count 3",
		"limit-five":       "archived: released by workers-1 at delivery count 5",
		"stop-holding":     "lock of workers-2 expired",
		"stop-then-fence":  "fenced readers-1",
		"slow-consumer":    "no poll for 5 beats (max.poll.interval)",
		"retry-duplicate":  "broker 2 appended record 1 to p0 at offset 1",
		"group-or-share":   "acquired p0 offset 5",
		"window-held":      "the start offset stays at 0",
		"below-the-hw":     "the high watermark is frozen at 1",
		"stall":            "the high watermark still 0: a consumer can read none of them",
	}
	seen := map[string]bool{}
	for _, f := range guideFences(t) {
		p := f.page
		parsed := fence.Parse(f.Body)
		sc := parsed.Scenario
		text, ok := want[sc.ID]
		if !ok {
			continue
		}
		seen[sc.ID] = true
		if !sc.HasPoster {
			t.Errorf("%s: %s has no poster:", p, sc.ID)
			continue
		}
		var at []string
		for _, n := range sc.Notes {
			if n.At == sc.Poster {
				at = append(at, n.Text)
			}
		}
		for _, run := range []*sim.Scenario{sc, parsed.Compare} { // a side-by-side figure: either run
			if run == nil {
				continue
			}
			if tr := sim.Run(run); sc.Poster < len(tr.Beats) {
				for _, e := range tr.Beats[sc.Poster].Events {
					at = append(at, e.String())
				}
			}
		}
		if !strings.Contains(strings.Join(at, "\n"), text) {
			t.Errorf("%s: %s's poster, beat %d, does not show %q; it holds:\n%s", p, sc.ID, sc.Poster, text, strings.Join(at, "\n"))
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("no guide figure %s", id)
		}
	}
}

// TestOverviewCountsSideBySide (try11 F10): the overview's paragraph on
// side-by-side figures gives their number in words and links every page
// that holds one, and no other, so it follows the pages when a compare:
// fence is added or removed (it said five when the guide held nine).
func TestOverviewCountsSideBySide(t *testing.T) {
	count := 0
	pages := map[string]bool{}
	for _, f := range guideFences(t) {
		if p := fence.Parse(f.Body); p.Compare != nil {
			count++
			pages[f.page] = true
		}
	}
	src, err := fs.ReadFile(content.FS, "overview.md")
	if err != nil {
		t.Fatal(err)
	}
	var para string
	for _, p := range strings.Split(string(src), "\n\n") {
		if strings.Contains(p, "side by side, stepping together") {
			para = p
		}
	}
	if para == "" {
		t.Fatal("overview.md has no paragraph on the figures that put two settings side by side")
	}
	words := []string{"No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve"}
	if count >= len(words) {
		t.Fatalf("the guide has %d side-by-side figures: give the overview's paragraph a number word for it", count)
	}
	if want := words[count] + " figures put"; !strings.HasPrefix(para, want) {
		t.Errorf("the overview's paragraph starts %q; the guide has %d side-by-side figures (%q)", strings.SplitN(para, "\n", 2)[0], count, want)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(([a-z0-9-]+\.md)`).FindAllStringSubmatch(para, -1) {
		linked[m[1]] = true
	}
	for _, p := range slices.Sorted(maps.Keys(pages)) {
		if !linked[p] {
			t.Errorf("%s holds a side-by-side figure that the overview's paragraph does not link", p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(linked)) {
		if !pages[p] {
			t.Errorf("the overview's paragraph links %s, which holds no side-by-side figure", p)
		}
	}
}
