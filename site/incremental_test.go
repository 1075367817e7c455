package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/templates"
	"pgregory.net/rapid"
)

// incrPage is one page of the property test's site, as its fields.
type incrPage struct {
	title, summary, text string
	weight, beats        int
	acks                 string
	link                 string // another page's path, a file's, a section's folder ("s/"), or ""
	image                bool   // the link is an image's source
	frag                 string // the link's fragment: "", "#a-heading", "#FIG" or "#FIG@1"
	fence                bool
}

// incrFenceID is the id of the fence on the page at content path name:
// "s/c.md" → "f-s-c".
func incrFenceID(name string) string {
	return "f-" + strings.NewReplacer("/", "-", "_", "", ".md", "").Replace(name)
}

// incrHref is the link from the page at from to the page at to, both
// content paths, as an author writes it: relative to from's folder.
func incrHref(from, to string) string {
	fromDir, toDir := path.Dir(from), path.Dir(to)
	switch {
	case fromDir == toDir:
		return path.Base(to)
	case fromDir == ".":
		return to
	}
	return "../" + to
}

func (p incrPage) source(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: %s\nweight: %d\n", p.title, p.weight)
	if p.summary != "" {
		fmt.Fprintf(&b, "summary: %s\n", p.summary)
	}
	text := strings.ReplaceAll(p.text, "FIG", incrFenceID(name)) // a heading whose id is the fence's
	fmt.Fprintf(&b, "---\n\n%s\n", text)
	if p.link != "" {
		frag := strings.ReplaceAll(p.frag, "FIG", incrFenceID(p.link))
		bang := ""
		if p.image {
			bang = "!"
		}
		fmt.Fprintf(&b, "\nSee %s[there](%s%s).\n", bang, incrHref(name, p.link), frag)
	}
	if p.fence {
		fmt.Fprintf(&b, "\n```kflow\nid: %s\nbeats: %d\nproducer: {acks: %s, records: 2}\n```\n", incrFenceID(name), p.beats, p.acks)
	}
	return b.String()
}

// incrEdits are TestIncrementalMatchesCold's kinds of edit, each as often
// as it stands here: 0 a page added or removed, 1 a title, 2 a weight, 3
// a summary, 4 the text, 5 a fence's beats, 6 its acks, 7 a link, 8 the
// layout, 9 the fence itself, 10 a page renamed, 11 a file published as
// it is added, changed or removed. The edits that make and
// break links — a link's target or fragment, a page added, removed or
// renamed — come up about twice as often as the others, and the site
// starts with links (to a heading, to a beat, across sections): with
// every kind as likely and no link at the start, a broken-link case
// needed about 400 runs to come up, past rapid's default 100.
var incrEdits = []int{0, 0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 8, 9, 10, 10, 11, 11}

// TestIncrementalMatchesCold applies random sequences of edits — a
// title, a weight, a summary, the text, a fence's beats or acks or the
// fence itself, a link (within a section or across, with a fragment that
// names a heading or a figure), a page added, removed or renamed (in the root
// section, in two folder sections, or a section's index page, once in two
// names that clash), the layout, a file published as it is (added,
// changed or removed; once where a page is written) and links and
// images to such files and to a section's folder — and after each one
// builds twice:
// incrementally, with the scenario Cache and the PageCache kept from the
// builds before (as serve does), and cold, from nothing. Both must give
// the same files, byte for byte, or the same errors.
func TestIncrementalMatchesCold(t *testing.T) {
	layout, err := fs.ReadFile(templates.FS, "layout.html")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"a.md", "b.md", "c.md", "s/c.md", "s/d.md", "s/_index.md", "s/index.md", "t/e.md", "t/index.md"}
	titles := []string{"Alpha", "Beta", "Gamma", "Delta"}
	// Files published as they are: beside a page, in a section, in a
	// folder below one, and one written where page b.md is.
	statics := []string{"d.svg", "s/d.svg", "t/img/x.png", "b.html"}
	links := append(append([]string{""}, names...), append(statics, "s/", "t/img/")...)
	rapid.Check(t, func(rt *rapid.T) {
		site := map[string]incrPage{}
		files := map[string]string{}
		for _, n := range []string{"a.md", "b.md", "s/c.md", "t/e.md"} {
			site[n] = incrPage{title: "Page " + n, weight: 10, text: "Some text.", beats: 3, acks: "all", fence: true}
		}
		// Links from the start, so that every edit of a target (its
		// heading, its figure's id or length, the page renamed, removed
		// or brought back) meets a link that reads it: within the root
		// section to a heading, across sections to a beat, and back to
		// the root without a fragment, and to a file published as it
		// is, in another section.
		files["s/d.svg"] = "<svg/>"
		for _, l := range [][3]string{{"a.md", "s/c.md", "#FIG@3"}, {"t/e.md", "b.md", "#a-heading"}, {"s/c.md", "a.md", ""}, {"b.md", "s/d.svg", ""}} {
			p := site[l[0]]
			p.link, p.frag = l[1], l[2]
			site[l[0]] = p
		}
		b := site["b.md"]
		b.text = "## A heading\n\nBody."
		site["b.md"] = b
		tmpl := fstest.MapFS{}
		setLayout := func(extra string) {
			for _, name := range []string{"index.html", "site.css", "figure.css", "kf-knobs.css", "favicon.svg"} {
				b, _ := fs.ReadFile(templates.FS, name)
				tmpl[name] = &fstest.MapFile{Data: b}
			}
			tmpl["layout.html"] = &fstest.MapFile{Data: bytes.Replace(layout, []byte("</body>"), []byte(extra+"</body>"), 1)}
		}
		setLayout("")
		cache, pages := NewMemoryCache(), &PageCache{}

		steps := rapid.IntRange(1, 8).Draw(rt, "steps")
		for step := range steps {
			n := rapid.SampledFrom(names).Draw(rt, "page")
			p, exists := site[n]
			switch kind := rapid.SampledFrom(incrEdits).Draw(rt, "edit"); {
			case kind == 11:
				// A file added, changed or removed; the page is left as
				// it is.
				f := rapid.SampledFrom(statics).Draw(rt, "file")
				switch v := rapid.SampledFrom([]string{"", "<svg/>", "<svg>v2</svg>"}).Draw(rt, "file bytes"); {
				case v == "":
					delete(files, f)
				default:
					files[f] = v
				}
			case kind == 10 && exists:
				// The page moves to another name (a link target renamed:
				// links to the old name fail, links to the new one
				// resolve, in both builds).
				to := rapid.SampledFrom(names).Draw(rt, "rename to")
				if _, taken := site[to]; !taken {
					delete(site, n)
					site[to] = p
				}
				exists = false // nothing to write back under n
			case !exists || kind == 0:
				if exists && len(site) > 1 {
					delete(site, n) // a page removed (a link to it fails both builds)
				} else {
					site[n] = incrPage{title: "New " + n, weight: 5, text: "New.", beats: 2, acks: "1", fence: rapid.Bool().Draw(rt, "fence")}
				}
			case kind == 1:
				p.title = rapid.SampledFrom(titles).Draw(rt, "title")
			case kind == 2:
				p.weight = rapid.IntRange(0, 3).Draw(rt, "weight")
			case kind == 3:
				p.summary = rapid.SampledFrom([]string{"", "Short.", "Longer summary."}).Draw(rt, "summary")
			case kind == 4:
				p.text = rapid.SampledFrom([]string{"Some text.", "Other *text*.", "## A heading\n\nBody.", "## FIG\n\nBody."}).Draw(rt, "text")
			case kind == 5:
				p.beats = rapid.IntRange(1, 5).Draw(rt, "beats")
			case kind == 6:
				p.acks = rapid.SampledFrom([]string{"0", "1", "all"}).Draw(rt, "acks")
			case kind == 7:
				p.link = rapid.SampledFrom(links).Draw(rt, "link")
				p.image = rapid.Bool().Draw(rt, "as an image")
				p.frag = rapid.SampledFrom([]string{"", "#a-heading", "#FIG", "#FIG@1", "#FIG@3"}).Draw(rt, "frag")
			case kind == 9:
				// The fence goes or comes; its id may move from a heading
				// to the figure, or back, in the same save.
				p.fence = !p.fence
				if p.fence && strings.HasPrefix(p.text, "## FIG") {
					p.text = "Some text."
				} else if !p.fence && rapid.Bool().Draw(rt, "id to a heading") {
					p.text = "## FIG\n\nBody."
				}
			case kind == 8:
				setLayout(rapid.SampledFrom([]string{"", "<p>v2</p>", "<p>v3</p>"}).Draw(rt, "layout"))
			}
			if _, still := site[n]; still && exists {
				site[n] = p
			}

			content := fstest.MapFS{}
			for name, pg := range site {
				content[name] = &fstest.MapFile{Data: []byte(pg.source(name))}
			}
			for name, b := range files {
				content[name] = &fstest.MapFile{Data: []byte(b)}
			}
			incr, ierr := Generate(Options{Content: content, ContentName: "content", Templates: tmpl, Cache: cache, Pages: pages})
			cold, cerr := Generate(Options{Content: content, ContentName: "content", Templates: tmpl})
			if (ierr == nil) != (cerr == nil) || (ierr != nil && ierr.Error() != cerr.Error()) {
				rt.Fatalf("step %d: incremental build error %v, cold %v", step, ierr, cerr)
			}
			if cerr != nil {
				continue
			}
			if len(incr.Files) != len(cold.Files) {
				rt.Fatalf("step %d: %d files incrementally, %d cold", step, len(incr.Files), len(cold.Files))
			}
			for i, f := range cold.Files {
				if incr.Files[i].Path != f.Path || !bytes.Equal(incr.Files[i].Data, f.Data) {
					rt.Fatalf("step %d: %s differs from a cold build", step, f.Path)
				}
			}
		}
	})
}

// A save that changes one page's text renders that page alone; one that
// changes a title renders every page, since every page's navigation
// shows it — the home page and the playground, which list the root
// section's pages, included.
func TestPageCacheRendersWhatChanged(t *testing.T) {
	content := fstest.MapFS{}
	for _, n := range []string{"a", "b", "c", "d"} {
		content[n+".md"] = &fstest.MapFile{Data: []byte("---\ntitle: " + n + "\n---\n\nText.\n")}
	}
	pages := &PageCache{}
	build := func() {
		t.Helper()
		if _, err := Generate(Options{Content: content, Pages: pages}); err != nil {
			t.Fatal(err)
		}
	}
	build()
	if pages.Rendered != 6 || pages.Reused != 0 {
		t.Fatalf("first build: %d rendered, %d reused; want 6 (four pages, the home page, the playground), 0", pages.Rendered, pages.Reused)
	}
	content["b.md"] = &fstest.MapFile{Data: []byte("---\ntitle: b\n---\n\nOther text.\n")}
	build()
	if pages.Rendered != 1 || pages.Reused != 5 {
		t.Errorf("after a text edit: %d rendered, %d reused; want 1, 5", pages.Rendered, pages.Reused)
	}
	content["c.md"] = &fstest.MapFile{Data: []byte("---\ntitle: c, renamed\n---\n\nText.\n")}
	build()
	if pages.Rendered != 6 || pages.Reused != 0 {
		t.Errorf("after a title edit: %d rendered, %d reused; want 6, 0", pages.Rendered, pages.Reused)
	}
}

// A page's output follows the pages it links to: "b.md#f-b" names b's
// heading while b has one with that id, and b's figure (its full id,
// "b--f-b") once the id moves to a figure, though the linking page's own
// text is the same.
func TestPageCacheFollowsLinkedIDs(t *testing.T) {
	content := fstest.MapFS{
		"a.md": {Data: []byte(incrPage{title: "A", text: "Text.", link: "b.md", frag: "#FIG"}.source("a.md"))},
		"b.md": {Data: []byte(incrPage{title: "B", text: "## FIG\n\nBody."}.source("b.md"))},
	}
	pages := &PageCache{}
	for _, want := range []string{`href="b.html#f-b"`, `href="b.html#b--f-b"`} {
		s, err := Generate(Options{Content: content, Pages: pages})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(s.File("a.html"), []byte(want)) {
			t.Errorf("a.html lacks %s", want)
		}
		content["b.md"] = &fstest.MapFile{Data: []byte(incrPage{title: "B", text: "Text.", fence: true, beats: 3, acks: "1"}.source("b.md"))}
	}
}

// TestDataJSONIsTheEncoding: the layout data's encoding kept with a page
// (dataJSON) is, for every data in a sequence of builds, what encoding
// that data gives — the kept one when nothing changed, a fresh one when
// a string, a flag, a slice or a pointer did (one at a time).
func TestDataJSONIsTheEncoding(t *testing.T) {
	hs := []Heading{{ID: "a", Text: "A"}}
	nav := []NavItem{{Href: "b.html", Title: "B"}}
	base := layoutData{SiteTitle: "Site", Title: "Page", Headings: hs, HasFigures: true, Assets: "assets/"}
	steps := []func(d *layoutData){
		func(d *layoutData) {},
		func(d *layoutData) { d.Title = "Renamed" },
		func(d *layoutData) { d.HasKnobs = true },
		func(d *layoutData) { d.Headings = []Heading{{ID: "a", Text: "A"}, {ID: "b", Text: "B"}} },
		func(d *layoutData) { d.Headings = nil },
		func(d *layoutData) { d.Headings = []Heading{} },
		func(d *layoutData) { d.Nav = nav; d.Next = &nav[0] },
		func(d *layoutData) { d.Nav = nav; d.Prev = &nav[0] },
		func(d *layoutData) { d.Content = "<p>text</p>" },
		func(d *layoutData) {},
	}
	pg := &Page{}
	d := base
	for i, step := range steps {
		step(&d) // each step changes one thing of the data before
		got, err := dataJSON(pg, &d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(&d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("step %d: kept encoding\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestLinkChecksFollowTheirTargets: a build with a PageCache checks again
// the links of the pages it parsed again and of the pages whose link
// targets changed what a check reads — a figure's last beat, a heading,
// a page renamed away and back — and no other page's; after every step
// the site (or its errors) is a cold build's.
func TestLinkChecksFollowTheirTargets(t *testing.T) {
	fig := func(beats int) string {
		return fmt.Sprintf("\n```kflow\nid: fig\nbeats: %d\nproducer: {acks: all, records: 2}\n```\n", beats)
	}
	a := "---\ntitle: A\n---\n\nSee [the figure](b.md#fig@2), [the heading](b.md#a-heading), [C](c.md) and [mine](#own).\n\n## Own\n\nText.\n"
	b := func(beats int, heading string) string {
		return "---\ntitle: B\n---\n\n" + heading + "Text.\n" + fig(beats)
	}
	content := fstest.MapFS{
		"a.md": {Data: []byte(a)},
		"b.md": {Data: []byte(b(3, "## A heading\n\n"))},
		"c.md": {Data: []byte("---\ntitle: C\n---\n\nText.\n")},
		"d.md": {Data: []byte("---\ntitle: D\n---\n\nText.\n")},
	}
	cache, pages := NewMemoryCache(), &PageCache{}
	steps := []struct {
		what   string
		edit   func()
		linked int    // pages whose links are checked
		err    string // in the error, "" for none
	}{
		{"the first build", func() {}, 4, ""},
		{"d's text", func() { content["d.md"] = &fstest.MapFile{Data: []byte("---\ntitle: D\n---\n\nOther text.\n")} }, 1, ""},
		{"b's figure shortened past a's link", func() { content["b.md"] = &fstest.MapFile{Data: []byte(b(1, "## A heading\n\n"))} }, 2, `figure "fig" ends at beat 1`},
		{"b's figure back", func() { content["b.md"] = &fstest.MapFile{Data: []byte(b(3, "## A heading\n\n"))} }, 2, ""},
		{"b's heading removed", func() { content["b.md"] = &fstest.MapFile{Data: []byte(b(3, ""))} }, 2, `no heading or figure with the id "a-heading"`},
		{"b's heading back", func() { content["b.md"] = &fstest.MapFile{Data: []byte(b(3, "## A heading\n\n"))} }, 2, ""},
		{"c renamed away", func() { content["e.md"] = content["c.md"]; delete(content, "c.md") }, 2, `no page c.md`},
		{"c renamed back", func() { content["c.md"] = content["e.md"]; delete(content, "e.md") }, 2, ""},
		{"nothing", func() {}, 0, ""},
	}
	for _, st := range steps {
		st.edit()
		incr, ierr := Generate(Options{Content: content, ContentName: "content", Cache: cache, Pages: pages})
		cold, cerr := Generate(Options{Content: content, ContentName: "content"})
		if (ierr == nil) != (cerr == nil) || ierr != nil && ierr.Error() != cerr.Error() {
			t.Fatalf("%s: incremental build error %v, cold %v", st.what, ierr, cerr)
		}
		if st.err == "" && cerr != nil || st.err != "" && (cerr == nil || !strings.Contains(cerr.Error(), st.err)) {
			t.Fatalf("%s: error %v, want one with %q", st.what, cerr, st.err)
		}
		if pages.Linked != st.linked {
			t.Errorf("%s: the links of %d pages were checked, want %d", st.what, pages.Linked, st.linked)
		}
		if cerr != nil {
			continue
		}
		for i, f := range cold.Files {
			if incr.Files[i].Path != f.Path || !bytes.Equal(incr.Files[i].Data, f.Data) {
				t.Fatalf("%s: %s differs from a cold build", st.what, f.Path)
			}
		}
	}
}

// TestDeferredVariantsMatchCold: a build that defers its figures' other
// knob combinations (Options.DeferVariants) lists their scripts in
// Pending, not in Files, and once DrawPending has drawn them is a cold
// build byte for byte — on the guide at first, after an edit of a figure
// with knobs (the scripts of the others come from the Cache, and only the
// edited one's are pending), and after a save that changes nothing; a
// copy of the page shows the same figures under other ids.
func TestDeferredVariantsMatchCold(t *testing.T) {
	content := fstest.MapFS{}
	for _, p := range guidePages(t) {
		content[p.name] = &fstest.MapFile{Data: p.src}
	}
	acks := string(content["acks.md"].Data)
	// A copy of the page: its figures are the same bodies on another
	// page (other ids), drawn once for both.
	content["acks-copy.md"] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(acks, "#acks--", "#acks-copy--"))}
	edit := strings.Replace(acks, "title: acks=1, min.insync.replicas=1\n", "title: edited, acks=1, min.insync.replicas=1\n", 1)
	if edit == acks || !strings.Contains(acks, "knobs:") {
		t.Fatal("acks.md has no figure with knobs titled acks=1, min.insync.replicas=1")
	}
	cache, pages := NewMemoryCache(), &PageCache{}
	for _, st := range []struct {
		what    string
		src     string
		pending bool
	}{{"the guide", acks, true}, {"a figure with knobs edited", edit, true}, {"nothing changed", edit, false}} {
		content["acks.md"] = &fstest.MapFile{Data: []byte(st.src)}
		s, err := Generate(Options{Content: content, ContentName: "content", Cache: cache, Pages: pages, DeferVariants: true})
		if err != nil {
			t.Fatal(err)
		}
		if (len(s.Pending) > 0) != st.pending {
			t.Fatalf("%s: %d scripts pending", st.what, len(s.Pending))
		}
		for _, p := range s.Pending {
			if s.File(p) != nil {
				t.Fatalf("%s: %s is pending and in Files", st.what, p)
			}
		}
		if st.what == "a figure with knobs edited" && !slices.ContainsFunc(s.Pending, func(p string) bool { return strings.HasPrefix(p, "assets/v/acks--acks-one-loss.") }) {
			t.Errorf("%s: the edited figure's scripts are not pending: %v", st.what, s.Pending)
		}
		if err := s.DrawPending(); err != nil {
			t.Fatal(err)
		}
		cold, err := Generate(Options{Content: content, ContentName: "content"})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Files) != len(cold.Files) || len(s.Pending) != 0 {
			t.Fatalf("%s: %d files (%d pending), cold %d", st.what, len(s.Files), len(s.Pending), len(cold.Files))
		}
		for i, f := range cold.Files {
			if s.Files[i].Path != f.Path || !bytes.Equal(s.Files[i].Data, f.Data) {
				t.Fatalf("%s: %s differs from a cold build", st.what, f.Path)
			}
		}
	}
}
