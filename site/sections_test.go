package site

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/sim"
)

// sectionedSite is a root section of two pages, a section "ops" with an
// _index.md and two pages, and a section "More Stuff" with no index page.
func sectionedSite() fstest.MapFS {
	return fstest.MapFS{
		"index.md": page("title: Home", "Welcome."),
		"a.md":     page("title: A\nweight: 1", "To [the ISR page](ops/isr.md#isr@2)."),
		"b.md":     page("title: B\nweight: 2"),
		"ops/_index.md": page("title: Operations\nweight: 10\nsummary: Running it.",
			"How to run it. See [A](../a.md)."),
		"ops/isr.md": page("title: ISR\nweight: 2\nsummary: Who is in sync.", "```kflow", "id: isr", "beats: 4", "```",
			"", "Next to [Z](../More%20Stuff/z.md) and [Acks](acks.md)."),
		"ops/acks.md":      page("title: Acks\nweight: 1"),
		"More Stuff/z.md":  page("title: Z", "Back [home](../index.md), to [the section](index.html), [up](../ops/index.html)."),
		"More Stuff/zz.md": page("title: ZZ"),
	}
}

// navOf returns the page's navigation: the <nav class="toc"> element.
func navOf(page string) string {
	i := strings.Index(page, `<nav class="toc"`)
	j := strings.Index(page[max(i, 0):], "</nav>")
	if i < 0 || j < 0 {
		return ""
	}
	return page[i : i+j+len("</nav>")]
}

var hrefRE = regexp.MustCompile(`href="([^"]*)"`)

// hrefs lists the links in s, in order.
func hrefs(s string) []string {
	var out []string
	for _, m := range hrefRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestSections builds a site of three sections and checks each part of a
// section: where its pages are written, its index page (from _index.md,
// or generated), its order, the navigation (the sections, the current one
// marked, and the current section's pages alone), prev/next within it, and
// links across sections, all relative and all resolving.
func TestSections(t *testing.T) {
	s, err := Generate(Options{Content: sectionedSite()})
	if err != nil {
		t.Fatal(err)
	}
	var secs []string
	for _, sec := range s.Sections {
		secs = append(secs, fmt.Sprintf("%q:%s", sec.Dir, sec.Title))
	}
	// The root first; then by weight: "More Stuff" (no index page,
	// weight 0) before ops (weight 10).
	if got, want := strings.Join(secs, " "), `"":Home "More Stuff":More Stuff "ops":Operations`; got != want {
		t.Errorf("sections %s, want %s", got, want)
	}
	var order []string
	for _, p := range s.Pages {
		order = append(order, p.Out)
	}
	if got, want := strings.Join(order, " "), "a.html b.html more-stuff/z.html more-stuff/zz.html ops/acks.html ops/isr.html"; got != want {
		t.Errorf("pages %s, want %s", got, want)
	}

	isr := string(s.File("ops/isr.html"))
	if got, want := strings.Join(hrefs(navOf(isr)), " "),
		"../index.html ../more-stuff/index.html index.html acks.html isr.html"; got != want {
		t.Errorf("ops/isr.html's nav links %s, want %s (the sections, then ops's pages alone)", got, want)
	}
	for _, want := range []string{
		`<a href="index.html" aria-current="true">Operations</a>`, // its section, marked
		`<a href="isr.html" aria-current="page">ISR</a>`,
		`<p class="nav-title" aria-hidden="true">Operations</p>`,
		`rel="prev" href="acks.html"`,                          // within the section
		`href="../more-stuff/z.html"`, `href="acks.html">Acks`, // links across sections and within
		`href="../assets/site.css"`, `src="../assets/stepper.js"`, `href="../playground.html#f=`,
		`id="ops-isr--isr"`,
	} {
		if !strings.Contains(isr, want) {
			t.Errorf("ops/isr.html lacks %s", want)
		}
	}
	if strings.Contains(isr, `rel="next"`) {
		t.Error("ops/isr.html, its section's last page, has a next link")
	}
	if a := string(s.File("a.html")); !strings.Contains(a, `href="ops/isr.html#ops-isr--isr@2"`) || strings.Contains(a, `rel="prev"`) ||
		!strings.Contains(a, `<a href="index.html" aria-current="true">Home</a>`) {
		t.Errorf("a.html: want the link into ops, no prev, the root section marked:\n%s", a)
	}

	// The index page of ops: its _index.md's text over the list of its
	// pages, the section marked as the current page.
	ops := string(s.File("ops/index.html"))
	for _, want := range []string{`<h1>Operations</h1>`, `<p>How to run it. See <a href="../a.html">A</a>.</p>`,
		`<a href="index.html" aria-current="page">Operations</a>`, `<meta name="description" content="Running it.">`,
		`<li><a href="acks.html">Acks</a></li>`, `<li><a href="isr.html">ISR</a><p>Who is in sync.</p></li>`,
		`rel="next" href="acks.html"`} {
		if !strings.Contains(ops, want) {
			t.Errorf("ops/index.html lacks %s", want)
		}
	}
	// A section with no index page gets a list of its pages.
	more := string(s.File("more-stuff/index.html"))
	for _, want := range []string{`<h1>More Stuff</h1>`, `<li><a href="z.html">Z</a></li>`, `<li><a href="zz.html">ZZ</a></li>`} {
		if !strings.Contains(more, want) {
			t.Errorf("more-stuff/index.html lacks %s", want)
		}
	}
	// The home page lists the root section's pages and the sections.
	home := string(s.File("index.html"))
	for _, want := range []string{`<li><a href="a.html">A</a></li>`, `<li><a href="more-stuff/index.html">More Stuff</a></li>`,
		`<li><a href="ops/index.html">Operations</a><p>Running it.</p></li>`} {
		if !strings.Contains(home, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if strings.Contains(home, "ops/isr.html") {
		t.Error("index.html lists a page of another section")
	}
	// The playground, at the root, lists the sections, none current.
	if pg := string(s.File("playground.html")); !strings.Contains(pg, `<a href="ops/index.html">Operations</a>`) || strings.Contains(navOf(pg), "aria-current") {
		t.Errorf("playground.html's nav:\n%s", navOf(pg))
	}
	checkLinks(t, s)
}

// TestGuideIsOneSection: the embedded guide has no folders, so it is the
// root section alone and its pages show no list of sections.
func TestGuideIsOneSection(t *testing.T) {
	s, err := Generate(Options{Content: content.FS, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Sections) != 1 || len(s.Sections[0].Pages) != len(s.Pages) {
		t.Errorf("the guide has %d sections, want 1 holding its %d pages", len(s.Sections), len(s.Pages))
	}
	for _, f := range s.Files {
		if strings.Contains(f.Path, "/") && !strings.HasPrefix(f.Path, AssetDir+"/") {
			t.Errorf("the guide wrote %s, in a folder", f.Path)
		}
		if strings.Contains(string(f.Data), `class="sections"`) {
			t.Errorf("%s lists sections", f.Path)
		}
	}
}

// TestSectionErrors: what a content folder's folders may not do, each
// reported at the file that does it.
func TestSectionErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md":              page("title: A"),
		"ops/index.md":      page("title: Ops"),
		"ops/_index.md":     page("title: Ops too"),
		"ops/Index.md":      page("title: Not the index"),
		"ops/deep/x.md":     page("title: Too deep", "[A](../../a.md)"),
		"assets/style.md":   page("title: Style"),
		"Two/a.md":          page("title: Two"),
		"two/b.md":          page("title: two"),
		"ops/playground.md": page("title: A section may have a playground page"),
	}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	want := strings.Join([]string{
		`content/assets/style.md:1:1: folder assets would be written to assets/, which holds the site's stylesheets and scripts; rename the folder`,
		`content/ops/Index.md:1:1: page name "index" is taken by the section's index page; rename the file (or name it index.md to make it that page)`,
		`content/ops/deep/x.md:1:1: this page is 2 folders down: sections do not nest, so a page sits in the content folder or in a folder directly under it (move it into ops/)`,
		`content/ops/index.md:1:1: folder ops already has an index page, ops/_index.md: a folder has one (index.md or _index.md); merge them or rename one`,
		`content/two/b.md:1:1: folder two would be written to two/, like folder Two; rename one`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestNavStaysWithinSection: a page's bytes do not depend on how many
// pages the other sections hold, so its navigation no longer grows with
// the site.
func TestNavStaysWithinSection(t *testing.T) {
	build := func(others int) []byte {
		fsys := fstest.MapFS{
			"a/one.md": page("title: One"),
			"a/two.md": page("title: Two"),
		}
		for i := range others {
			fsys[fmt.Sprintf("b/p%03d.md", i)] = page(fmt.Sprintf("title: Page %d", i))
		}
		s, err := Generate(Options{Content: fsys})
		if err != nil {
			t.Fatal(err)
		}
		return s.File("a/one.html")
	}
	small, big := build(2), build(200)
	if string(small) != string(big) {
		t.Errorf("a/one.html changed when section b grew from 2 to 200 pages:\n%s\n---\n%s", navOf(string(small)), navOf(string(big)))
	}
}

// An edit in one section renders that section's pages again and no
// other's: a text edit the page alone, a title its section's pages (its
// nav shows it), a page added its section's pages; a section's title,
// which every page's list of sections shows, every page, the home page
// and the playground included.
func TestPageCacheRendersSection(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, sec := range []string{"a", "b"} {
		fsys[sec+"/_index.md"] = page("title: Section " + sec)
		for _, n := range []string{"1", "2", "3"} {
			fsys[sec+"/p"+n+".md"] = page("title: "+sec+n, "Text.")
		}
	}
	pages := &PageCache{}
	build := func(what string, rendered int) {
		t.Helper()
		if _, err := Generate(Options{Content: fsys, Pages: pages}); err != nil {
			t.Fatal(err)
		}
		if pages.Rendered != rendered {
			t.Errorf("%s: %d pages rendered, %d reused; want %d rendered", what, pages.Rendered, pages.Reused, rendered)
		}
	}
	build("first build", 10) // two index pages, six pages, the home page, the playground
	fsys["a/p2.md"] = page("title: a2", "Other text.")
	build("a text edit", 1)
	fsys["a/p2.md"] = page("title: a2, renamed", "Other text.")
	build("a title edit in a", 4) // a's three pages and its index page
	fsys["b/p4.md"] = page("title: b4")
	build("a page added to b", 5) // b's four pages and its index
	delete(fsys, "b/p4.md")
	build("the page removed", 4)
	fsys["a/_index.md"] = page("title: Section A, renamed")
	build("a section's title", 10)
}

// BenchmarkSectionNav measures what sections save: the bytes of a page's
// navigation (its <nav class="toc">, mean over the pages) and of all the
// pages' HTML, for a site of 1,000 pages (or MaxPages, if fewer are
// allowed) all in the root section, as every site was before sections,
// and the same pages in 10 sections. Titles are 30 to 40 characters, like
// the guide's.
//
//	go test ./site -run '^$' -bench SectionNav -benchtime 1x
func BenchmarkSectionNav(b *testing.B) {
	n := min(1000, MaxPages-11) // the pages, then 10 index pages and the home page
	for _, sections := range []int{1, 10} {
		b.Run(fmt.Sprintf("pages=%d/sections=%d", n, sections), func(b *testing.B) {
			fsys := fstest.MapFS{}
			for i := range n {
				name := fmt.Sprintf("p%04d.md", i)
				if sections > 1 {
					name = fmt.Sprintf("s%02d/%s", i%sections, name)
				}
				fsys[name] = page(fmt.Sprintf("title: Page %d of the synthetic guide\nweight: %d", i, i), "Text.")
			}
			var s *Site
			for b.Loop() {
				var err error
				if s, err = Generate(Options{Content: fsys}); err != nil {
					b.Fatal(err)
				}
			}
			nav, html := 0, 0
			for _, pg := range s.Pages {
				page := string(s.File(pg.Out))
				nav += len(navOf(page))
				html += len(page)
			}
			b.ReportMetric(float64(nav)/float64(len(s.Pages)), "nav-B/page")
			b.ReportMetric(float64(html)/float64(len(s.Pages)), "html-B/page")
			b.ReportMetric(float64(html), "html-B")
		})
	}
}

// A site whose pages are all in sections: the home page (no index.md)
// lists the sections and starts with the first, and a figure on a
// section's index page opens the playground one folder up.
func TestOnlySections(t *testing.T) {
	s, err := Generate(Options{Content: fstest.MapFS{
		"b/_index.md": page("title: Second\nweight: 2", goodFence),
		"b/x.md":      page("title: X"),
		"a/y.md":      page("title: Y"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	home := string(s.File("index.html"))
	for _, want := range []string{`<li><a href="a/index.html">a</a></li>`, `<li><a href="b/index.html">Second</a></li>`,
		`rel="next" href="a/index.html"`} {
		if !strings.Contains(home, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if strings.Contains(home, "The guide") {
		t.Error("index.html lists the root section's pages, which has none")
	}
	b := string(s.File("b/index.html"))
	for _, want := range []string{`id="b-index--ok"`, `href="../playground.html#f=`, `src="../assets/stepper.js"`} {
		if !strings.Contains(b, want) {
			t.Errorf("b/index.html lacks %s", want)
		}
	}
	checkLinks(t, s)
}

// The content folder's own index page may be _index.md too; with
// index.md beside it, that is an error at the second.
func TestRootIndexNames(t *testing.T) {
	s, err := Generate(Options{Content: fstest.MapFS{
		"_index.md": page("title: Underscored home", "Welcome."),
		"_draft.md": page("title: Draft"),
		"a.md":      page("title: A"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if home := string(s.File("index.html")); !strings.Contains(home, "<h1>Underscored home</h1>") || !strings.Contains(home, "<p>Welcome.</p>") {
		t.Errorf("index.html is not _index.md's:\n%s", home)
	}
	if len(s.Pages) != 1 || s.File("draft.html") != nil {
		t.Errorf("pages %d, draft.html %t: want a.md alone, _draft.md left out", len(s.Pages), s.File("draft.html") != nil)
	}
	_, err = Generate(Options{Content: fstest.MapFS{
		"_index.md": page("title: One"),
		"index.md":  page("title: Two"),
	}, ContentName: "content"})
	want := `content/index.md:1:1: the content folder already has an index page, _index.md: a folder has one (index.md or _index.md); merge them or rename one`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestNamesKeepTheirLetters: output names keep letters of every script,
// so pages that differ only in them are different files ("café" and
// "cafe"; two Japanese names that once both became page.html), links
// written to their sources resolve to them, and DOM ids stay [a-z0-9-].
func TestNamesKeepTheirLetters(t *testing.T) {
	s, err := Generate(Options{Content: fstest.MapFS{
		"index.md":           page("title: Home", "[c](café.md) [e](cafe.md) [j](日本.md) [z](中文.md) [n](Ünïcode/Größe%202.md)"),
		"café.md":            page("title: Café"),
		"cafe.md":            page("title: Cafe"),
		"日本.md":              page("title: Nihon", "```kflow", "id: a", "beats: 2", "```"),
		"中文.md":              page("title: Zhongwen"),
		"Ünïcode/Größe 2.md": page("title: Size"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	var outs []string
	for _, p := range s.Pages {
		outs = append(outs, p.Out)
	}
	if got, want := strings.Join(outs, " "), "cafe.html café.html 日本.html 中文.html ünïcode/größe-2.html"; got != want {
		t.Errorf("pages written to %s, want %s", got, want)
	}
	if nihon := string(s.File("日本.html")); !strings.Contains(nihon, `id="page--a"`) {
		t.Errorf("日本.html: want the figure's DOM id page--a (ids stay [a-z0-9-]):\n%s", nihon)
	}
	checkLinks(t, s)
}

// TestLinksEncodedOnce: a page or section whose name keeps letters past
// ASCII ("café", "été") is linked in one form everywhere — the page's text
// links (goldmark) and the layout's navigation, section lists and
// previous/next (html/template, which encoded in lower case:
// "caf%c3%a9.html" in the navigation, "caf%C3%A9.html" in the text) — the
// upper-case %XX that RFC 3986 §2.1 asks for; and every such link names a
// file the site has.
func TestLinksEncodedOnce(t *testing.T) {
	s, err := Generate(Options{Content: fstest.MapFS{
		"index.md":     page("title: Home", "To [the café](café.md) and [summer](été/plage.md)."),
		"café.md":      page("title: Café\nweight: 1", "Back [home](index.md), on to [summer](été/plage.md)."),
		"zebra.md":     page("title: Zebra\nweight: 2", "After the café."),
		"été/plage.md": page("title: Plage", "Back to [the café](../café.md)."),
	}, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]bool{}
	for _, f := range s.Files {
		outs[f.Path] = true
	}
	href := regexp.MustCompile(`href="([^"#?]*)`)
	escape := regexp.MustCompile(`%[0-9A-Fa-f]{2}`)
	forms := map[string]bool{}
	for _, f := range s.Files {
		if !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		for _, m := range href.FindAllStringSubmatch(string(f.Data), -1) {
			h := m[1]
			if !escape.MatchString(h) {
				continue
			}
			forms[h] = true
			if lower := escape.ReplaceAllStringFunc(h, strings.ToUpper); lower != h {
				t.Errorf("%s links to %q: percent-encoded in lower case (want %q)", f.Path, h, lower)
			}
			target, err := url.PathUnescape(h)
			if err != nil {
				t.Fatalf("%s: %q: %v", f.Path, h, err)
			}
			if p := path.Join(path.Dir(f.Path), target); !outs[p] {
				t.Errorf("%s links to %q, which names %s, not a file of the site", f.Path, h, p)
			}
		}
	}
	for _, want := range []string{"caf%C3%A9.html", "%C3%A9t%C3%A9/plage.html", "../caf%C3%A9.html"} {
		if !forms[want] {
			t.Errorf("no page links to %q (links: %v)", want, forms)
		}
	}
}

// TestNamesDifferingInNormalization (try11 F3): "café" with é (NFC) and
// with e and a combining accent (NFD) print alike, and macOS and many copy
// tools take them for one name: two pages, two files or two folders so
// named are a collision, reported like one in case only and saying why;
// and a link typed in the other form than the file's name is a link to
// that page.
func TestNamesDifferingInNormalization(t *testing.T) {
	nfc, nfd := "caf\u00e9", "cafe\u0301"
	_, err := Generate(Options{Content: fstest.MapFS{
		nfc + ".md":      page("title: One"),
		nfd + ".md":      page("title: Two"),
		nfc + ".png":     {Data: []byte("a")},
		nfd + ".png":     {Data: []byte("b")},
		nfc + "/a.md":    page("title: A"),
		nfd + "/b.md":    page("title: B"),
		"Caf\u00e9 2.md": page("title: Case"),
		"caf\u00e9 2.md": page("title: case"),
	}, ContentName: "content"})
	why := " (the two names differ only in Unicode normalization, NFC and NFD, which many file systems take for one name)"
	// Path order puts the NFD name (e, U+0301) before the NFC one (é):
	// the NFC one is the second, reported.
	want := []string{
		"content/" + nfc + ".md:1:1: page \"" + nfc + ".md\" would be written to " + nfc + ".html, like \"" + nfd + ".md\"" + why + "; rename one",
		"content/" + nfc + ".png:1:1: this file would be written to " + nfc + ".png, like content/" + nfd + ".png" + why + "; rename one",
		"content/" + nfc + "/a.md:1:1: folder " + nfc + " would be written to " + nfc + "/, like folder " + nfd + why + "; rename one",
		"content/caf\u00e9 2.md:1:1: page \"caf\u00e9 2.md\" would be written to caf\u00e9-2.html, like \"Caf\u00e9 2.md\"; rename one",
	}
	var got []string
	if list, ok := err.(sim.ErrorList); ok {
		for _, e := range list {
			got = append(got, e.Error())
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	s, err := Generate(Options{Content: fstest.MapFS{
		nfd + ".md": page("title: Café"),
		"l.md":      page("title: L", "[c]("+nfc+".md) [d]("+nfd+".md)"),
	}, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	href := `href="` + (&url.URL{Path: nfd + ".html"}).String() + `"`
	for _, a := range []string{href + ">c</a>", href + ">d</a>"} {
		if !strings.Contains(string(s.File("l.html")), a) {
			t.Errorf("l.html lacks %s", a)
		}
	}
}
