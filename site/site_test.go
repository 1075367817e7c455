package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/sim"
)

// TestBuildEmbeddedGuide builds the guide shipped in the binary and checks
// what issue 2 asks of it: an index, one page per content page, at least
// three figures, each with more than one frame, and only relative links
// that resolve inside the site.
func TestBuildEmbeddedGuide(t *testing.T) {
	s, err := Generate(Options{Content: content.FS, ContentName: "content"})
	if err != nil {
		t.Fatalf("building the embedded guide: %v", err)
	}
	paths, _, err := readPages(content.FS, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"index.html", "assets/site.css"}
	for _, p := range paths {
		if p != homeSource {
			want = append(want, Slug(p)+".html")
		}
	}
	for _, w := range want {
		if s.File(w) == nil {
			t.Errorf("the build wrote no %s", w)
		}
	}
	if len(s.Pages) < 3 {
		t.Errorf("the guide has %d pages, want at least 3", len(s.Pages))
	}
	if len(s.Figures) < 3 {
		t.Errorf("the guide has %d figures, want at least 3", len(s.Figures))
	}
	for _, f := range s.Figures {
		if f.Beats < 2 {
			t.Errorf("figure %s has %d frames, want more than one", f.ID, f.Beats)
		}
		page := s.File(f.Page)
		if !bytes.Contains(page, []byte(`id="`+f.ID+`"`)) {
			t.Errorf("%s does not hold figure %s", f.Page, f.ID)
		}
	}
	// Every page is listed on the index, in site order.
	index := string(s.File("index.html"))
	last := -1
	for _, pg := range s.Pages {
		i := strings.Index(index, `href="`+pg.Slug+`.html"`)
		if i < 0 {
			t.Errorf("index.html does not link to %s", pg.Slug)
		}
		if i < last {
			t.Errorf("index.html lists %s out of order", pg.Slug)
		}
		last = i
	}
	checkLinks(t, s)
}

var linkRE = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// deepLinkBeat is the "@BEAT" ending of a link to one beat of a figure.
var deepLinkBeat = regexp.MustCompile(`@[0-9]+$`)

// checkLinks fails on any link that is absolute or does not resolve to a
// file (and, with a fragment, an id) of the site.
func checkLinks(t *testing.T, s *Site) {
	t.Helper()
	for _, f := range s.Files {
		if !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(string(f.Data), -1) {
			link := m[1]
			if strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "http://") {
				continue
			}
			if strings.HasPrefix(link, "/") || strings.Contains(link, "://") {
				t.Errorf("%s: link %q is not relative", f.Path, link)
				continue
			}
			target, frag, _ := strings.Cut(link, "#")
			// A browser reads "caf%C3%A9.html" as café.html.
			if t2, err := url.PathUnescape(target); err == nil {
				target = t2
			} else {
				t.Errorf("%s: link %q: %v", f.Path, link, err)
			}
			// A figure's deep link "#ID@BEAT" names the figure's id, and
			// so does one naming knob values, "#ID@BEAT?KNOB=VALUE".
			if i := strings.Index(frag, "?"); i >= 0 && !strings.HasPrefix(frag, "f=") {
				frag = frag[:i]
			}
			frag = deepLinkBeat.ReplaceAllString(frag, "")
			if target == "" {
				target = f.Path
			} else {
				target = path.Join(path.Dir(f.Path), target) // relative to the page's folder
			}
			data := s.File(target)
			if data == nil {
				t.Errorf("%s: link %q points to no file of the site", f.Path, link)
				continue
			}
			// The playground's fragment is not an id but a fence
			// (playground.Fragment): it must read back as one.
			if fence, ok := strings.CutPrefix(frag, "f="); ok && target == playground.PageFile {
				if b, err := playground.DecodeFragment(fence); err != nil || len(b) == 0 {
					t.Errorf("%s: link %q carries no fence: %v", f.Path, link, err)
				}
				continue
			}
			if frag != "" && !bytes.Contains(data, []byte(`id="`+frag+`"`)) {
				t.Errorf("%s: link %q points to no id in %s", f.Path, link, target)
			}
		}
	}
}

// TestDeterministic builds the guide at several GOMAXPROCS settings and
// twice at each; every byte of every file must match.
func TestDeterministic(t *testing.T) {
	build := func() *Site {
		s, err := Generate(Options{Content: content.FS, ContentName: "content"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(4)
	ref := build()
	for _, procs := range []int{1, 4, 2} {
		runtime.GOMAXPROCS(procs)
		got := build()
		if len(got.Files) != len(ref.Files) {
			t.Fatalf("GOMAXPROCS=%d: %d files, first build had %d", procs, len(got.Files), len(ref.Files))
		}
		for i, f := range got.Files {
			if f.Path != ref.Files[i].Path || !bytes.Equal(f.Data, ref.Files[i].Data) {
				t.Errorf("GOMAXPROCS=%d: %s differs from the first build", procs, f.Path)
			}
		}
	}
}

// TestCacheGivesSameBytes builds with a cache twice: the second build must
// take every figure from the cache and still write the same bytes as a
// build without any cache.
func TestCacheGivesSameBytes(t *testing.T) {
	plain, err := Generate(Options{Content: content.FS})
	if err != nil {
		t.Fatal(err)
	}
	c := NewMemoryCache()
	for range 2 {
		s, err := Generate(Options{Content: content.FS, Cache: c, EngineVersion: "test"})
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range s.Files {
			if !bytes.Equal(f.Data, plain.Files[i].Data) {
				t.Errorf("%s built through the cache differs", f.Path)
			}
		}
	}
	if c.Misses != len(plain.Figures) || c.Hits != len(plain.Figures) {
		t.Errorf("cache: %d misses and %d hits, want %d of each", c.Misses, c.Hits, len(plain.Figures))
	}
	if CacheKey("a", "p", []byte("x")) == CacheKey("b", "p", []byte("x")) {
		t.Error("the engine version does not change the cache key")
	}
}

// TestFiguresComeFromOneRun: every figure of a build carries the run the
// build computed for it (scenario, trace, the markup the page holds), and
// none from the cache does, which keeps markup only; a cached result's
// cost still counts against the site's limits, read from the cache, not
// from a second parse.
func TestFiguresComeFromOneRun(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md": page("title: A", "```kflow\nid: one\nbeats: 6\n```", "", "```kflow\nid: two\nbeats: 8\n```"),
	}
	c := NewMemoryCache()
	s, err := Generate(Options{Content: fsys, Cache: c, KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	html := string(s.File("a.html"))
	for i, want := range []struct {
		id    string
		beats int
	}{{"one", 7}, {"two", 9}} {
		f := s.Figures[i]
		if f.Run == nil || f.Run.Scenario.ID != want.id || len(f.Run.Trace.Beats) != want.beats || f.Beats != want.beats {
			t.Fatalf("figure %d: %+v, want the run of %q with %d beats", i, f, want.id, want.beats)
		}
		if len(f.Run.HTML) != f.Bytes || !strings.Contains(html, string(f.Run.HTML)) {
			t.Errorf("figure %q: its run's markup is not the page's", want.id)
		}
	}
	again, err := Generate(Options{Content: fsys, Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if again.Figures[0].Run != nil || c.Hits != 2 {
		t.Errorf("from the cache: run %v, %d hits", again.Figures[0].Run, c.Hits)
	}

	// Make the cached first figure cost the whole site's budget: the
	// second, small as it is, is now over it.
	key := CacheKey("", Slug("a.md"), []byte("id: one\nbeats: 6\n"))
	r, ok := c.Get(key)
	if !ok {
		t.Fatal("the first figure is not in the cache under its key")
	}
	heavy := *r
	heavy.Work.RecordBeats = MaxRecordBeats
	c.Put(key, &heavy)
	_, err = Generate(Options{Content: fsys, Cache: c, ContentName: "content"})
	if err == nil || !strings.HasPrefix(err.Error(), "content/a.md:9:1: this figure takes the site to 2000054 record-beats") {
		t.Errorf("want the second fence over MaxRecordBeats, got %v", err)
	}
}

// page builds a page from front matter lines and body lines.
func page(front string, body ...string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("---\n" + front + "\n---\n" + strings.Join(body, "\n") + "\n")}
}

const goodFence = "```kflow\nid: ok\nbeats: 5\n```"

// TestPositionedFenceError checks that an error inside a fence is reported
// at its absolute place in the file: front matter and text above the fence
// count, and a fence indented in a list shifts the column.
func TestPositionedFenceError(t *testing.T) {
	fsys := fstest.MapFS{
		"bad.md": page("title: Bad\nweight: 5", // lines 1-4
			"Some text.", //  5
			"",           //  6
			"```kflow",   //  7
			"id: bad",    //  8
			"ack: 1",     //  9: unknown key at 9:1
			"```",
			"",
			"- a list item",  // 12
			"",               // 13
			"  ```kflow",     // 14
			"  id: indented", // 15
			"  brokerz: 3",   // 16: unknown key at 16:3
			"  ```"),
	}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	l, ok := err.(sim.ErrorList)
	if !ok {
		t.Fatalf("want an ErrorList, got %v", err)
	}
	want := []string{
		`content/bad.md:9:1: unknown setting "ack"`,
		`content/bad.md:16:3: unknown setting "brokerz"`,
	}
	if len(l) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(l), len(want), l)
	}
	for i, w := range want {
		if !strings.HasPrefix(l[i].Error(), w) {
			t.Errorf("error %d:\n got %s\nwant %s…", i, l[i].Error(), w)
		}
	}
}

// TestAllErrorsSorted puts mistakes on several pages, in front matter and
// fences, and wants every one, sorted by file, line and column.
func TestAllErrorsSorted(t *testing.T) {
	fsys := fstest.MapFS{
		"b.md": page("title: B\nweigth: 3", goodFence, "", "```kflow", "id: two", "bogus: 1", "```"),
		"a.md": page("title: A", "```kflow", "id: one", "```", "", "```kflow", "id: one", "nope: 2", "```", "```kflow", "id: one", "```"),
		"c.md": {Data: []byte("# no front matter\n")},
		"d.md": page("title: D\nweight: heavy", goodFence),
		"e.md": {Data: []byte("+++\ntitle = \"E\"\n+++\n")}, // Hugo's TOML (try12 T9c)
	}
	_, err := Generate(Options{Content: fsys, ContentName: "guide"})
	l, ok := err.(sim.ErrorList)
	if !ok {
		t.Fatalf("want an ErrorList, got %v", err)
	}
	var got []string
	for _, e := range l {
		got = append(got, e.Error())
	}
	want := []string{
		// The second fence's own error does not hide that its id is taken.
		`guide/a.md:9:5: duplicate figure id "one" on this page (line 5 uses it already): give each figure its own id`,
		`guide/a.md:10:1: unknown setting "nope"`,
		`guide/a.md:13:5: duplicate figure id "one" on this page (line 5 uses it already): give each figure its own id`,
		`guide/b.md:3:1: unknown front matter field "weigth" (did you mean "weight"?)`,
		`guide/b.md:12:1: unknown setting "bogus"`,
		`guide/c.md:1:1: missing front matter`,
		`guide/d.md:3:9: weight: "heavy" is not a whole number`,
		`guide/e.md:1:1: front matter in TOML (between +++ lines) is not read: write it in YAML between --- lines (title = "A" becomes title: A)`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s…", i, got[i], want[i])
		}
	}
}

// TestPageOrderAndNav checks ordering by (weight, title, path), slugs from
// file names, prev/next links and the home page taken from index.md.
func TestPageOrderAndNav(t *testing.T) {
	fsys := fstest.MapFS{
		"index.md":      page("title: My Guide\nsummary: Hello", "Welcome."),
		"zeta.md":       page("title: Alpha\nweight: 1", goodFence),
		"alpha.md":      page("title: Beta\nweight: 1"),
		"sub/First.md":  page("title: Zulu\nweight: -5"),
		"_draft.md":     page("title: Draft"),
		"same-title.md": page("title: Alpha\nweight: 1"),
	}
	s, err := Generate(Options{Content: fsys})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, p := range s.Pages {
		order = append(order, p.Slug)
	}
	// The root section's pages, then the section sub's.
	if got, want := strings.Join(order, " "), "same-title zeta alpha sub-first"; got != want {
		t.Errorf("page order %q, want %q", got, want)
	}
	zeta := string(s.File("zeta.html"))
	if !strings.Contains(zeta, `rel="prev" href="same-title.html"`) || !strings.Contains(zeta, `rel="next" href="alpha.html"`) {
		t.Errorf("zeta.html lacks its prev/next links:\n%s", zeta)
	}
	// Prev/next stay within a section: the first page has no prev, the
	// root section's last no next (sub/First.md is in another section).
	if same := string(s.File("same-title.html")); strings.Contains(same, `rel="prev"`) {
		t.Errorf("same-title.html, the first page, has a prev link:\n%s", same)
	}
	if alpha := string(s.File("alpha.html")); strings.Contains(alpha, `rel="next"`) {
		t.Errorf("alpha.html, the root section's last page, has a next link:\n%s", alpha)
	}
	index := string(s.File("index.html"))
	if !strings.Contains(index, "<title>My Guide</title>") || !strings.Contains(index, "<p>Welcome.</p>") {
		t.Errorf("index.html does not use index.md:\n%s", index)
	}
	if s.File("_draft.html") != nil || s.File("draft.html") != nil {
		t.Error("a page starting with _ was built")
	}
	checkLinks(t, s)
}

// TestUserStringsEscaped feeds markup through every user string the
// layout shows and wants it inert.
func TestUserStringsEscaped(t *testing.T) {
	evil := `<script>alert(1)</script>"onload="x`
	fsys := fstest.MapFS{
		"evil.md": page(fmt.Sprintf("title: '%s'\nsummary: '%s'", evil, evil),
			"## Heading `"+evil+"`", "", "Code `<script>alert(2)</script>` shows as text."),
	}
	s, err := Generate(Options{Content: fsys})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range s.Files {
		d := string(f.Data)
		for _, bad := range []string{"<script>alert", `"onload="`, "javascript:"} {
			if strings.Contains(d, bad) {
				t.Errorf("%s contains %q unescaped", f.Path, bad)
			}
		}
	}
}

func TestSlugAndFigureID(t *testing.T) {
	for in, want := range map[string]string{
		"acks.md":             "acks",
		"Replicas & HW.md":    "replicas-hw",
		"ops/Min ISR.md":      "ops-min-isr",
		"<script>.md":         "script",
		"--.md":               "page",
		"über/naïve.md":       "ber-na-ve",
		"a__b--c.md":          "a-b-c",
		"2024 notes (v2).md":  "2024-notes-v2",
		"x\"onload=\"y.md":    "x-onload-y",
		"../../etc/passwd.md": "etc-passwd",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	if got := FigureID("acks", "acks-one-loss"); got != "acks--acks-one-loss" {
		t.Errorf("FigureID = %q", got)
	}
	if got := FigureID("a b", `"><script>`); got != "a-b--script" {
		t.Errorf("FigureID with markup = %q", got)
	}
}

// TestLinksBetweenPages checks that links to .md files become links to
// their pages, and that a link to a page that does not exist fails the
// build at the link.
func TestLinksBetweenPages(t *testing.T) {
	good := fstest.MapFS{
		"index.md": page("title: Home", "[start](sub/a.md)"),
		"sub/a.md": page("title: A", "See [B](../b.md#isr), [home](../index.md), [B again](../b.html),",
			"[Kafka](https://kafka.apache.org/documentation/#producerconfigs), [here](#main), [C](c.md) and [its section](index.html)."),
		"sub/c.md": page("title: C"),
		"b.md":     page("title: B", "## ISR", "", "Back to [A](sub/a.md)."),
	}
	s, err := Generate(Options{Content: good})
	if err != nil {
		t.Fatal(err)
	}
	// Links are relative to the linking page's output file, one folder
	// down in a section.
	a := string(s.File("sub/a.html"))
	for _, want := range []string{`href="../b.html#isr"`, `href="../index.html"`, `href="../b.html"`,
		`href="https://kafka.apache.org/documentation/#producerconfigs"`, `href="#main"`, `href="c.html"`, `href="index.html"`} {
		if !strings.Contains(a, want) {
			t.Errorf("sub/a.html lacks %s", want)
		}
	}
	if !strings.Contains(string(s.File("index.html")), `href="sub/a.html"`) {
		t.Error("index.html's link to sub/a.md was not rewritten")
	}
	checkLinks(t, s)

	bad := fstest.MapFS{
		"a.md": page("title: A", "Text.", "", "Go to [the other page](other.md) or", "[that one](that.html)."),
		// b.html is the root's: from a section, ../b.html.
		"sub/b.md": page("title: B", "[B](b.html), [A](a.html), [out](../../a.html)."),
		"b.md":     page("title: B"),
	}
	_, err = Generate(Options{Content: bad, ContentName: "content"})
	want := `content/a.md:6:7: link to "other.md": no page other.md in the content folder` + "\n" +
		`content/a.md:7:1: link to "that.html": the site has no page that.html (link to the page's .md file, or to SLUG.html)` + "\n" +
		`content/sub/b.md:4:14: link to "a.html": the site has no page a.html (link to the page's .md file, or to SLUG.html)` + "\n" +
		`content/sub/b.md:4:27: link to "../../a.html": the site has no page ../../a.html (link to the page's .md file, or to SLUG.html)`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestHeadingIDs checks heading ids: single dashes, numbered repeats, and
// never the "--" that marks a figure id.
func TestHeadingIDs(t *testing.T) {
	fsys := fstest.MapFS{"a.md": page("title: A", "## Acks  --  ISR", "", "## Acks -- ISR", "", "## ¿?", "",
		"```kflow", "id: isr", "beats: 3", "```")}
	s, err := Generate(Options{Content: fsys})
	if err != nil {
		t.Fatal(err)
	}
	a := string(s.File("a.html"))
	for _, want := range []string{`<h2 id="acks-isr">`, `<h2 id="acks-isr-2">`, `<h2 id="section">`, `id="a--isr"`} {
		if !strings.Contains(a, want) {
			t.Errorf("a.html lacks %s", want)
		}
	}
}

// TestHeadingIDsInAnyScript (try12 T7): a heading's letters and digits
// of every script stay in its id, in lower case and NFC (the composed and
// the combining spelling of ü give one id), where they were dropped
// ("Ünïcode" was "n-code", "日本語" "section"); a link may name the id as
// written or percent-encoded.
func TestHeadingIDsInAnyScript(t *testing.T) {
	fsys := fstest.MapFS{"a.md": page("title: A", "## 日本語", "", "## Über Ünïcode", "", "## U\u0308ber ünïcode", "", "## 🎉", "", "## Ελληνικά 2",
		"", "[a](#日本語) [b](#über-ünïcode) [c](#%C3%BCber-%C3%BCn%C3%AFcode-2) [d](#ελληνικά-2)")}
	s, err := Generate(Options{Content: fsys})
	if err != nil {
		t.Fatal(err)
	}
	a := string(s.File("a.html"))
	for _, want := range []string{`<h2 id="日本語">`, `<h2 id="über-ünïcode">`, `<h2 id="über-ünïcode-2">`, `<h2 id="section">`, `<h2 id="ελληνικά-2">`} {
		if !strings.Contains(a, want) {
			t.Errorf("a.html lacks %s", want)
		}
	}
	_, err = Generate(Options{Content: fstest.MapFS{"a.md": page("title: A", "## Straße", "", "[a](#strasse)")}, ContentName: "content"})
	if want := `content/a.md:6:1: link to "#strasse": content/a.md has no heading or figure with the id "strasse"`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestNoPages(t *testing.T) {
	_, err := Generate(Options{Content: fstest.MapFS{"notes.txt": {Data: []byte("x")}}, ContentName: "docs"})
	if err == nil || err.Error() != "docs holds no pages (*.md files)" {
		t.Errorf("got %v", err)
	}
}

// TestFigurePagesLoadTheirScripts: every page that holds a figure, the
// home page among them, loads kf-words.js and then stepper.js (the
// stepper reads the words when it runs and does nothing without them), and
// a page without figures loads neither.
func TestFigurePagesLoadTheirScripts(t *testing.T) {
	fsys := fstest.MapFS{
		"index.md": page("title: Home", "A figure on the home page.", "", goodFence),
		"a.md":     page("title: A\nweight: 1", goodFence),
		"b.md":     page("title: B\nweight: 2", "No figure here."),
	}
	s, err := Generate(Options{Content: fsys, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "a.html", "b.html"} {
		html := string(s.File(name))
		words, stepper := strings.Index(html, `src="assets/kf-words.js"`), strings.Index(html, `src="assets/stepper.js"`)
		if hasFig := strings.Contains(html, `class="kflow"`); hasFig != (name != "b.html") {
			t.Fatalf("%s: holds a figure %v", name, hasFig)
		} else if hasFig && (words < 0 || stepper < words) {
			t.Errorf("%s holds a figure but loads kf-words.js at %d and stepper.js at %d", name, words, stepper)
		} else if !hasFig && (words >= 0 || stepper >= 0) {
			t.Errorf("%s holds no figure but loads the figure scripts", name)
		}
	}
}

// TestFigureLinks: a link to a figure, or to one beat of it, may name the
// figure by its scenario id or its DOM id; the build writes the DOM id, and
// a link to a figure, beat or heading the page does not have fails at the
// link.
// TestEveryRelativeLinkChecked checks that a relative link or image
// source naming nothing the site publishes fails the build, whatever its
// ending: no ending, a folder, a "#" or "?" that cuts a file name short,
// a path from the server's root. A section's folder is a link to its
// index page (by its content name or its output name, with a fragment
// checked against that page); schemes, "//" and mailto: are not checked.
func TestEveryRelativeLinkChecked(t *testing.T) {
	good := fstest.MapFS{
		"p.md":                page("title: P", "[y](sub/) [o](Ops%20Guide/) [o2](ops-guide/#intro) [r](./) [up](sub/../) [e](https://kafka.apache.org/)"),
		"sub/s.md":            page("title: S", "[root](../) [me](./) [other](../ops-guide/index.html)"),
		"Ops Guide/index.md":  page("title: G", "## Intro"),
		"Ops Guide/second.md": page("title: Second", "[back](../Ops%20Guide/#intro)"),
	}
	s, err := Generate(Options{Content: good})
	if err != nil {
		t.Fatal(err)
	}
	for file, wants := range map[string][]string{
		"p.html":                {`href="sub/index.html"`, `href="ops-guide/index.html"`, `href="ops-guide/index.html#intro"`, `href="index.html"`},
		"sub/s.html":            {`href="../index.html"`, `href="index.html"`, `href="../ops-guide/index.html"`},
		"ops-guide/second.html": {`href="index.html#intro"`},
	} {
		for _, want := range wants {
			if !strings.Contains(string(s.File(file)), want) {
				t.Errorf("%s lacks %s", file, want)
			}
		}
	}
	checkLinks(t, s)
	s, err = Generate(Options{Content: fstest.MapFS{
		"p.md": page("title: P", "[m](mailto:a@b) [n](//example.com/x) ![d](data:image/png;base64,AA==)"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="mailto:a@b"`, `href="//example.com/x"`, `src="data:image/png;base64,AA=="`} {
		if !strings.Contains(string(s.File("p.html")), want) {
			t.Errorf("p.html lacks %s", want)
		}
	}

	bad := fstest.MapFS{
		"p.md": page("title: P",
			"[x](nosuch) [y](nosub/) [z](other) [w](sub)",       // 5
			"![a](nope.png) [g](ops-guide/#nope) [abs](/x.png)", // 6
			"[u](../outside.png) [f](sub/nosuch.svg?v=1)"),      // 7
		"other.md":           page("title: O"),
		"sub/s.md":           page("title: S"),
		"Ops Guide/index.md": page("title: G", "## Intro"),
		"hash#tag.md":        page("title: H", "[self](hash#tag.md) [q](q?mark.md) [ok](hash%23tag.md)"),
	}
	_, err = Generate(Options{Content: bad, ContentName: "content"})
	want := `content/hash#tag.md:4:1: link to "hash#tag.md": the content folder has no file hash: a "#" starts the link's fragment, so write %23 for a "#" in a file name` + "\n" +
		`content/hash#tag.md:4:21: link to "q?mark.md": the content folder has no file q: a "?" starts the link's query, so write %3F for a "?" in a file name` + "\n" +
		`content/p.md:4:1: link to "nosuch": the content folder has no file nosuch (link to a page's .md file, to a folder of pages as FOLDER/, or to a file kept in the content folder)` + "\n" +
		`content/p.md:4:13: link to "nosub/": no section folder nosub in the content folder (link to a page's .md file, to a folder of pages as FOLDER/, or to a file kept in the content folder)` + "\n" +
		`content/p.md:4:25: link to "other": the content folder has no file other: did you mean the page other.md?` + "\n" +
		`content/p.md:4:36: link to "sub": sub is a section's folder: write sub/ for its index page` + "\n" +
		`content/p.md:5:1: image "nope.png": the content folder has no file nope.png` + "\n" +
		`content/p.md:5:16: link to "ops-guide/#nope": content/Ops Guide/index.md has no heading or figure with the id "nope"` + "\n" +
		`content/p.md:5:37: link to "/x.png": a path from the server's root breaks when the site is served from a sub-path or opened from disk: write it relative to this page` + "\n" +
		`content/p.md:6:1: link to "../outside.png": the content folder has no file ../outside.png (link to a page's .md file, to a folder of pages as FOLDER/, or to a file kept in the content folder)` + "\n" +
		`content/p.md:6:21: link to "sub/nosuch.svg?v=1": the content folder has no file sub/nosuch.svg (link to a page's .md file, to a folder of pages as FOLDER/, or to a file kept in the content folder)`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestUnpublishedSchemes (try11 F9): a link or image goldmark would write
// empty (href="", a link to the page itself) — javascript:, vbscript:,
// file:, and data: but for an image's PNG, GIF, JPEG or WebP — is an
// error at it naming the scheme, in any case, and so is an autolink
// ("<javascript:…>") to one.
func TestUnpublishedSchemes(t *testing.T) {
	_, err := Generate(Options{Content: fstest.MapFS{
		"p.md": page("title: P",
			"[a](javascript:alert(1)) [b](data:text/html,hi) [c](file:///etc/passwd)", // 4
			"![d](data:image/svg+xml,x) [e](JavaScript:x) [f](vbscript:x)",            // 5
			"![ok](data:image/png;base64,AA==) [ok](https://example.com/)",
			"<https://x.y> <javascript:alert(1)> and <file:///etc/passwd> <javascript:alert(1)>", // 7 (try12 T6)
			"- a list: <vbscript:x>"), // 8
	}, ContentName: "content"})
	var want []string
	for _, l := range []struct{ at, what, dest, scheme string }{
		{"4:1", "link to", "javascript:alert(1)", "javascript"}, {"4:26", "link to", "data:text/html,hi", "data"},
		{"4:49", "link to", "file:///etc/passwd", "file"}, {"5:1", "image", "data:image/svg+xml,x", "data"},
		{"5:28", "link to", "JavaScript:x", "javascript"}, {"5:46", "link to", "vbscript:x", "vbscript"},
		{"7:15", "link to", "javascript:alert(1)", "javascript"}, {"7:41", "link to", "file:///etc/passwd", "file"},
		{"7:62", "link to", "javascript:alert(1)", "javascript"}, {"8:11", "link to", "vbscript:x", "vbscript"},
	} {
		want = append(want, fmt.Sprintf("content/p.md:%s: %s %q: links with the scheme %s: are not published (the page would get an empty link in their place); link to an https: address or a file of the site", l.at, l.what, l.dest, l.scheme))
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
}

// TestLinksToThePlayground (try11 F8): every site has playground.html, so
// a page may link to it, and to it with a fence in "#f=" (the form the
// README gives for sharing one), from a section's page too; a "#f=" that
// does not decode, or whose fence does not parse, is an error at the link.
func TestLinksToThePlayground(t *testing.T) {
	good := playground.EditHref([]byte("id: try\nbeats: 5\n"))
	s, err := Generate(Options{Content: fstest.MapFS{
		"p.md":     page("title: P", "[try](playground.html) [this]("+good+")"),
		"sub/s.md": page("title: S", "[try](../playground.html#f="+strings.TrimPrefix(good, "playground.html#f=")+")"),
	}, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{"p.html": `href="` + good + `"`, "sub/s.html": `href="../` + good + `"`} {
		if !strings.Contains(string(s.File(file)), want) {
			t.Errorf("%s lacks %s", file, want)
		}
	}
	checkLinks(t, s)

	broken := playground.EditHref([]byte("id: try\nbrokerz: 3\n"))
	_, err = Generate(Options{Content: fstest.MapFS{
		"p.md": page("title: P", "[a](playground.html#f=AAAA) [b]("+broken+")"),
	}, ContentName: "content"})
	want := `content/p.md:4:1: link to "playground.html#f=AAAA": the playground cannot read the fence in this link (not raw DEFLATE: unexpected EOF)` + "\n" +
		`content/p.md:4:29: link to "` + broken + `": the fence in this link does not parse, at 2:1 of the fence: unknown setting "brokerz" (did you mean "brokers"?)`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestFigureLinks(t *testing.T) {
	fence := "```kflow\nid: f\nbeats: 5\n```"
	good := fstest.MapFS{
		"a.md": page("title: A\nweight: 1", "## Setup", "", fence, "",
			"[here](#f@2), [there](#a--f@5), [the figure](#f), [setup](#setup), [top](#top)."),
		"b.md": page("title: B\nweight: 2", "[short](a.md#f@3), [long](a.md#a--f@0), [heading](a.md#setup), [page](a.md)."),
	}
	s, err := Generate(Options{Content: good, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	for file, wants := range map[string][]string{
		"a.html": {`href="#a--f@2"`, `href="#a--f@5"`, `href="#a--f"`, `href="#setup"`, `href="#top"`},
		"b.html": {`href="a.html#a--f@3"`, `href="a.html#a--f@0"`, `href="a.html#setup"`, `href="a.html"`},
	} {
		for _, w := range wants {
			if !strings.Contains(string(s.File(file)), w) {
				t.Errorf("%s lacks %s", file, w)
			}
		}
	}

	bad := fstest.MapFS{
		"a.md": page("title: A\nweight: 1", fence, "", "[x](#f@6) [y](#g@1)"),
		"b.md": page("title: B\nweight: 2", "[x](a.md#f@two) [y](a.md#nothing) [z](a.md#f@-1)"),
	}
	_, err = Generate(Options{Content: bad, ContentName: "content"})
	want := `content/a.md:10:1: link to "#f@6": figure "f" ends at beat 5` + "\n" +
		`content/a.md:10:11: link to "#g@1": content/a.md has no figure "g" (its figures: f)` + "\n" +
		`content/b.md:5:1: link to "a.md#f@two": "two" is not a beat number (write #FIGURE@BEAT, e.g. #f@3)` + "\n" +
		`content/b.md:5:17: link to "a.md#nothing": content/a.md has no heading or figure with the id "nothing" (its figures: f)` + "\n" +
		`content/b.md:5:35: link to "a.md#f@-1": "-1" is not a beat number (write #FIGURE@BEAT, e.g. #f@3)`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestSiteLimits: a page past MaxFiguresPerPage, and the figure that
// takes the site past MaxRecordBeats, fail at their fences, and the build
// does not run the figures beyond them.
func TestSiteLimits(t *testing.T) {
	var many []string
	for i := 0; i <= MaxFiguresPerPage; i++ {
		many = append(many, fmt.Sprintf("```kflow\nid: f%d\nbeats: 2\n```\n", i))
	}
	_, err := Generate(Options{Content: fstest.MapFS{"a.md": page("title: A", many...)}, ContentName: "content"})
	// Front matter takes lines 1-3 and each fence 5 lines (with the blank
	// line the join leaves); fence number 101 opens at line 4 + 100×5.
	want := fmt.Sprintf("content/a.md:%d:1: too many figures on this page: Kafka Flow allows at most %d; split the page", 4+MaxFiguresPerPage*5, MaxFiguresPerPage)
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}

	// Each fence is 401 beats × 500 records = 200,500 record-beats, so the
	// tenth takes the site past 2,000,000. No figure is run: the nine
	// before it were run and drawn (18 s and 777 MB for a site over
	// MaxFrames) for a build that fails. A fence that does not parse costs
	// nothing and still says what is wrong with it.
	big := "```kflow\nid: f%d\nbeats: 400\nproducer: {records: 500}\n```\n"
	fsys := fstest.MapFS{}
	for i := 1; i <= 11; i++ {
		fsys[fmt.Sprintf("p%02d.md", i)] = page(fmt.Sprintf("title: P%02d\nweight: %d", i, i), fmt.Sprintf(big, i))
	}
	fsys["p05.md"] = page("title: P05\nweight: 5", fmt.Sprintf(big, 5), "```kflow\nid: broken\nbeats: many\n```\n")
	c := NewMemoryCache()
	_, err = Generate(Options{Content: fsys, ContentName: "content", Cache: c})
	want = "content/p05.md:13:8: beats: \"many\" is not a whole number\n" +
		fmt.Sprintf("content/p10.md:5:1: this figure takes the site to %d record-beats (beats × records, summed over every figure): Kafka Flow allows at most %d; use fewer beats or records, or fewer figures", 10*401*500, MaxRecordBeats)
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	for k, r := range c.m {
		if r.HTML != nil || r.Work.RecordBeats != 0 || r.Work.Frames != 0 {
			t.Errorf("a build over the limit ran and drew a figure (%d record-beats, key %.12s)", r.Work.RecordBeats, k)
		}
	}
}

// TestPageBytes: a byte-order mark before the front matter is dropped; a
// byte that is not UTF-8 fails at its line and column; "## Main" does not
// take the id of the layout's <main>; and links to pages are found with
// an upper-case extension or a query too.
func TestPageBytes(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md": {Data: []byte("\uFEFF---\ntitle: A\n---\n## Main\n\nSee [B](B.md) and [B](B.md?x=1).\n")},
		"B.md": page("title: B", "Text."),
	}
	s, err := Generate(Options{Content: fsys, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	a := string(s.File("a.html"))
	for _, want := range []string{`<h2 id="main-2"`, `href="b.html"`} {
		if !strings.Contains(a, want) {
			t.Errorf("a.html lacks %s", want)
		}
	}
	bad := fstest.MapFS{"a.md": {Data: []byte("---\ntitle: A\n---\nCafé and caf\xe9.\n")}}
	_, err = Generate(Options{Content: bad, ContentName: "content"})
	// Column 13: "Café and caf" is twelve characters (thirteen bytes);
	// columns count characters, as the scenario parser's and the caret do.
	want := "content/a.md:4:13: the page is not UTF-8 text: save it as UTF-8 (this byte is not a UTF-8 character)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	gone := fstest.MapFS{"a.md": page("title: A", "[x](nope.MD) [y](nope.md?x=1)")}
	if _, err := Generate(Options{Content: gone}); err == nil || strings.Count(err.Error(), "no page") != 2 {
		t.Errorf("links to a missing page with .MD or a query: %v", err)
	}
}

// TestUnclosedFence: a ```kflow fence with no closing line swallows what
// follows (in Markdown it runs to the end of its container), so the build
// says so at the fence; closed fences of every form pass, and a closer
// outside the list item or quote holding the fence, or of another mark or
// shorter, does not close it.
func TestUnclosedFence(t *testing.T) {
	closed := fstest.MapFS{
		"a.md": {Data: []byte("---\ntitle: A\n---\n> ```kflow\n> id: q\n> beats: 2\n> ```\n\n~~~~kflow\nid: t\nbeats: 2\n~~~~~\n\n" +
			"- ```kflow\n  id: l\n  beats: 2\n  ```\n\n```kflow\nid: e\nbeats: 2\n```")},
	}
	if _, err := Generate(Options{Content: closed}); err != nil {
		t.Errorf("closed fences: %v", err)
	}
	msg := func(line int, marks string) string {
		return fmt.Sprintf("content/a.md:%d:1: this %skflow fence is never closed: add a line %s after the scenario, inside the list item or quote that holds the fence (everything below it was read as part of it)", line, marks, marks)
	}
	for _, c := range []struct {
		body string
		want []string
	}{
		// The text it swallowed is no scenario either, and says so too.
		{"```kflow\nid: o\nbeats: 2\n\n## Next section\n\nText.", []string{msg(4, "```"), "content/a.md:10:1: invalid YAML: could not find expected ':' (the text here reads as a key and needs a colon after it)"}},
		{"- ```kflow\n  id: h\n  beats: 2\n```\n", []string{msg(4, "```")}},
		{"> ```kflow\n> id: h\n> beats: 2\n```\n", []string{msg(4, "```")}},
		// ``` inside a ~~~ fence is part of the scenario, not its end.
		{"~~~kflow\nid: h\nbeats: 2\n```\n~~~\n", []string{"content/a.md:7:1: invalid YAML: '`' cannot start a key or a plain value (YAML reserves it): put the text in quotes"}},
		{"````kflow\nid: h\nbeats: 2\n```\n", []string{msg(4, "````"), "content/a.md:7:1: invalid YAML: '`' cannot start a key or a plain value (YAML reserves it): put the text in quotes"}},
	} {
		_, err := Generate(Options{Content: fstest.MapFS{"a.md": page("title: A", c.body)}, ContentName: "content"})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if want := strings.Join(c.want, "\n"); got != want {
			t.Errorf("%q:\ngot\n%s\nwant\n%s", c.body, got, want)
		}
	}
}

// TestPageNotAFile: a named pipe called x.md would block the build
// forever on reading; it is refused by name instead, and so are a device,
// and symbolic links that lead nowhere, in a loop, or to a folder — each
// named for what it is, all of them in one run, each at its file.
func TestPageNotAFile(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md": page("title: A", "Text."),
		"x.md": {Mode: fs.ModeNamedPipe},
		"y.md": {Mode: fs.ModeDevice},
	}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	want := "content/x.md:1:1: this is a named pipe; a page must be a regular file (or a link to one)\n" +
		"content/y.md:1:1: this is a device; a page must be a regular file (or a link to one)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}

	dir := t.TempDir()
	for _, l := range [][2]string{{"nowhere.md", "dangle.md"}, {"loop.md", "loop.md"}, {"sub", "folder.md"}, {"a.md", "ok.md"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.md"), page("title: A", "Text.").Data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Generate(Options{Content: os.DirFS(dir), ContentName: "content"})
	want = "content/dangle.md:1:1: this symbolic link points to nothing (its target does not exist); a page must be a regular file (or a link to one)\n" +
		"content/folder.md:1:1: this symbolic link points to a folder; a page must be a regular file (or a link to one)\n" +
		"content/loop.md:1:1: this symbolic link leads, through links, back to itself; a page must be a regular file (or a link to one)"
	if err == nil || err.Error() != want {
		t.Errorf("links: got\n%v\nwant\n%s", err, want)
	}
}

// TestPublishedNotAFile (try11 F4): a symbolic link among the files the
// site publishes (not pages) that leads to a device, to nothing or round
// to itself is an error at it, as it is for a page, rather than a file
// quietly left out; a link to a regular file is published, and a link by
// a name the site does not publish (Go source, an editor's backup) is not
// looked at.
func TestPublishedNotAFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), page("title: A", "Text.").Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"/dev/null", "null.txt"}, {"nowhere", "gone.png"}, {"loop.css", "loop.css"},
		{"real.png", "ok.png"}, {"nowhere", "x.go"}, {"nowhere", "draft.png~"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	_, err := Generate(Options{Content: os.DirFS(dir), ContentName: "content"})
	want := "content/gone.png:1:1: this symbolic link points to nothing (its target does not exist); a file the site publishes must be a regular file (or a link to one)\n" +
		"content/loop.css:1:1: this symbolic link leads, through links, back to itself; a file the site publishes must be a regular file (or a link to one)\n" +
		"content/null.txt:1:1: this symbolic link points to a device; a file the site publishes must be a regular file (or a link to one)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	for _, name := range []string{"gone.png", "loop.css", "null.txt"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Generate(Options{Content: os.DirFS(dir), ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "ok.png real.png"; strings.Join(s.Static, " ") != want {
		t.Errorf("published %q, want %q", s.Static, want)
	}
}

// TestKernelFilesNotPublished (try12 T1): a symbolic link to a file the
// kernel makes up as it is read (/proc/self/environ: the build's
// environment, tokens and all) is an error at the link, as a published
// file and as a page, where the environment was published.
func TestKernelFilesNotPublished(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), page("title: A", "Text.").Data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"env.txt", "env.md"} {
		if err := os.Symlink("/proc/self/environ", filepath.Join(dir, name)); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	_, err := Generate(Options{Content: os.DirFS(dir), ContentName: "content"})
	const why = "it says it is empty, yet reads as bytes: a file the system makes up as it is read (as under /proc or /sys), not one on disk; publish a copy of it instead"
	want := "content/env.md:1:1: cannot read this page: " + why + "\ncontent/env.txt:1:1: cannot read this file: " + why
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	// An empty file is still a file.
	if err := os.Remove(filepath.Join(dir, "env.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "env.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(Options{Content: os.DirFS(dir), ContentName: "content"}); err != nil {
		t.Errorf("an empty file: %v", err)
	}
}

// TestLinkedFolders: a symbolic link to a folder is followed (its pages
// are the pages of a section named by the link, as if the folder were
// there), and a link through which the walk comes back to a folder it is
// in — the link's own folder, the folder holding the content folder (found
// one level down), or through two links — is an error at the link naming
// that folder, each once, all of them in one run.
func TestLinkedFolders(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "content")
	shared := filepath.Join(root, "shared")
	mk := func(p string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, at string) {
		t.Helper()
		if err := os.Symlink(target, at); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	mk(filepath.Join(dir, "index.md"), page("title: Home", "Text.").Data)
	mk(filepath.Join(dir, "real", "a.md"), page("title: A", "Text.").Data)
	mk(filepath.Join(shared, "b.md"), page("title: B", "Text.").Data)
	link(shared, filepath.Join(dir, "linked"))
	s, err := Generate(Options{Content: os.DirFS(dir), ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pg := range s.Pages {
		got = append(got, pg.Path)
	}
	if want := "linked/b.md real/a.md"; strings.Join(got, " ") != want {
		t.Errorf("pages %q, want %q", got, want)
	}

	link(".", filepath.Join(dir, "real", "self"))
	link("..", filepath.Join(shared, "up"))
	mk(filepath.Join(root, "x", "c.md"), page("title: C", "Text.").Data)
	mk(filepath.Join(root, "y", "d.md"), page("title: D", "Text.").Data)
	link(filepath.Join(root, "y"), filepath.Join(root, "x", "toy"))
	link(filepath.Join(root, "x"), filepath.Join(root, "y", "tox"))
	link(filepath.Join(root, "x"), filepath.Join(dir, "x"))
	_, err = Generate(Options{Content: os.DirFS(dir), ContentName: "content"})
	want := "content/linked/up:1:1: following this symbolic link comes back to content (at content/linked/up/content), a folder the walk is already in, so its pages would never end; remove the link or point it elsewhere\n" +
		"content/real/self:1:1: following this symbolic link comes back to content/real, a folder the walk is already in, so its pages would never end; remove the link or point it elsewhere\n" +
		"content/x/toy/tox:1:1: following this symbolic link comes back to content/x, a folder the walk is already in, so its pages would never end; remove the link or point it elsewhere"
	if err == nil || err.Error() != want {
		t.Errorf("loops: got\n%v\nwant\n%s", err, want)
	}
}

// TestLinkToOutput (try11 F1): a content folder holding a symbolic link to
// the output folder, or to a folder above it, would publish the previous
// site inside the new one, one level deeper each build. The build that
// would walk into the output folder refuses, naming the link, and leaves
// the output as it was.
func TestLinkToOutput(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "content")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.md"), page("title: P", "Text.").Data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "sites", "public")
	build := func() error {
		_, err := Build(Options{Content: os.DirFS(dir), ContentName: "content"}, out, dir)
		return err
	}
	// The first build makes out; the link is made after it (before, it
	// would be a link to nothing, an error of its own: TestPublishedNotAFile).
	if err := build(); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(dir, "outlink")); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
	before := listTree(t, out)
	want := "content/outlink:1:1: following this symbolic link reaches the output folder " + out +
		", which the build replaces: each build would publish the previous site inside the new one, one level deeper; remove the link or build into another folder (--out)"
	if err := build(); err == nil || err.Error() != want {
		t.Errorf("second build: got\n%v\nwant\n%s", err, want)
	}
	if after := listTree(t, out); after != before {
		t.Errorf("the refused build changed the output folder:\n%s\nwas\n%s", after, before)
	}

	// A link to the folder that holds out reaches it one level down.
	if err := os.Remove(filepath.Join(dir, "outlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(out), filepath.Join(dir, "sites")); err != nil {
		t.Fatal(err)
	}
	want = "content/sites:1:1: following this symbolic link reaches the output folder " + out + " (at content/sites/public)" +
		", which the build replaces: each build would publish the previous site inside the new one, one level deeper; remove the link or build into another folder (--out)"
	if err := build(); err == nil || err.Error() != want {
		t.Errorf("link above out: got\n%v\nwant\n%s", err, want)
	}
}

// listTree lists every path under dir, one a line, in walk order.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(filepath.ToSlash(rel) + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestFrontMatterStrict: a quoted or huge weight, an overlong title and
// front matter that is opened but never closed each get their own message.
func TestFrontMatterStrict(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"---\ntitle: A\nweight: \"5\"\n---\n", `content/a.md:3:9: weight: "5" is not a whole number (write it without quotes)`},
		{"---\ntitle: A\nweight: 99999999999999999999999\n---\n", `content/a.md:3:9: weight: "99999999999999999999999" is too large: pages are ordered by weight, so small numbers such as 10, 20, 30 will do`},
		{"---\ntitle: " + strings.Repeat("t", MaxPageTitle+1) + "\n---\n", fmt.Sprintf("content/a.md:2:8: title is %d characters: Kafka Flow allows at most %d (it heads the page and names it in the contents)", MaxPageTitle+1, MaxPageTitle)},
		{"---\ntitle: A\nText without a closing line.\n", "content/a.md:1:1: front matter is not closed: add a line --- after its last field"},
		{"---\ntitle: \"two\\nlines\"\n---\n", "content/a.md:2:8: title must be a non-empty line of text (one line, no control characters)"},
		{"--- \ntitle: A\n---\n", "content/a.md:1:1: the line that opens the front matter must be --- alone: remove the spaces after it"},
		{"---\ntitle: A\nweight: [1]\n---\n", "content/a.md:3:9: weight must be a whole number, such as 10"},
	} {
		_, err := Generate(Options{Content: fstest.MapFS{"a.md": {Data: []byte(c.src)}}, ContentName: "content"})
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\ngot  %v\nwant %s", c.src, err, c.want)
		}
	}
}

// frontMatterCase is a page's front matter (the text between its ---
// lines) and the one error a build of it gives, after "content/a.md:".
type frontMatterCase struct{ fm, want string }

// checkFrontMatter builds, for each case, a site of one page with that
// front matter and some text, and wants exactly its error.
func checkFrontMatter(t *testing.T, cases []frontMatterCase) {
	t.Helper()
	for _, c := range cases {
		_, err := Generate(Options{Content: fstest.MapFS{"a.md": {Data: []byte("---\n" + c.fm + "\n---\n\nText.\n")}}, ContentName: "content"})
		if want := "content/a.md:" + c.want; err == nil || err.Error() != want {
			t.Errorf("%q:\ngot  %v\nwant %s", c.fm, err, want)
		}
	}
}

// TestFrontMatterSyntaxColumns: a YAML syntax error in front matter names
// the line and column at fault in the file (the YAML starts on line 2),
// as a fence's does: the character or token the parser stopped at, or where
// the quote or bracket left open began.
func TestFrontMatterSyntaxColumns(t *testing.T) {
	checkFrontMatter(t, []frontMatterCase{
		{"title: A\n\tweight: 2", "3:1: front matter: tab character: YAML indents with spaces only"},
		{"title: A\nsummary: \"open\nweight: 2", "3:10: front matter: invalid YAML: the quoted value opened here is never closed: add its closing quote"},
		{"title: A\nsummary: [one, two\nweight: 2", "3:10: front matter: invalid YAML: did not find expected ',' or ']' (the […] list opened here is not closed)"},
		{"title: A\nsummary: {x: 1\nweight: 2", "3:10: front matter: invalid YAML: did not find expected ',' or '}' (the {…} mapping opened here is not closed)"},
		{"title: A\n  weight: 2", "3:3: front matter: invalid YAML: mapping values are not allowed in this context (check this line's indentation against the lines above)"},
		{"title: A\nsummary: x\n    weight: 1", "4:5: front matter: invalid YAML: mapping values are not allowed in this context (check this line's indentation against the lines above)"},
		{"title: A\nsummary:\n    a: 1\n  b: 2", "5:3: front matter: invalid YAML: did not find expected key (check this line's indentation against the lines above)"},
		{"title: Acks: all", "2:12: front matter: invalid YAML: mapping values are not allowed in this context (a value holding \": \" must be in quotes)"},
		{"title: `acks`", "2:8: front matter: invalid YAML: '`' cannot start a key or a plain value (YAML reserves it): put the text in quotes"},
		{"title: A\ntitle: B", `3:1: duplicate front matter field "title"`},
	})
}

// TestFrontMatterAliases: YAML's aliases and merge keys in front matter
// are said for what they are, at the alias, with what the field wants —
// an alias to a defined anchor read as "summary must be a line of text"
// (the value the reader wrote is one, behind the alias), a merge key as an
// unknown field "<<", and one to an undefined anchor said "front matter:"
// twice without naming the field. An anchor alone changes no value.
func TestFrontMatterAliases(t *testing.T) {
	checkFrontMatter(t, []frontMatterCase{
		{"title: &t Acks\nsummary: *t", "3:10: summary: aliases (*t) are not supported in front matter: write the value out, a line of text"},
		{"title: &t Acks\nweight: *t", "3:9: weight: aliases (*t) are not supported in front matter: write the value out, a whole number such as weight: 10"},
		{"title: *nowhere", "2:8: title: aliases (*nowhere) are not supported in front matter: write the value out, a line of text such as title: Acks"},
		{"title: A\n<<: {weight: 2}", "3:1: merge keys (<<) are not supported in front matter: write each field out (summary, title, weight)"},
		{"title: &k A\n*k : 2", "3:1: aliases (*k) are not supported in front matter: write the field's name out (summary, title, weight)"},
	})
	s, err := Generate(Options{Content: fstest.MapFS{"a.md": {Data: []byte("---\ntitle: &t Acks\n---\n\nText.\n")}}, ContentName: "content"})
	if err != nil || s == nil {
		t.Errorf("an anchor alone: %v", err)
	}
}

// TestSiteFramesLimit: figures of one record each stay far under
// MaxRecordBeats, but their frames add up; the figure that takes the
// site past MaxFrames fails at its fence.
func TestSiteFramesLimit(t *testing.T) {
	fsys := fstest.MapFS{}
	n := MaxFrames/401 + 1 // 401 frames each
	for i := 1; i <= n; i++ {
		fsys[fmt.Sprintf("p%03d.md", i)] = page(fmt.Sprintf("title: P%03d\nweight: %d", i, i), fmt.Sprintf("```kflow\nid: f%d\nbeats: 400\nproducer: {records: 1}\n```\n", i))
	}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	want := fmt.Sprintf("content/p%03d.md:5:1: this figure takes the site to %d frames (beats, counting beat 0, summed over every figure): Kafka Flow allows at most %d; use fewer beats or fewer figures", n, n*401, MaxFrames)
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestFigureLinkBeatsKnob: a link to a beat of a figure whose beats is a
// knob is checked against the last beat of the combination it picks: the
// build refused "#bk@10?beats=12" as past beat 6, the fence's own last.
func TestFigureLinkBeatsKnob(t *testing.T) {
	fsys := fstest.MapFS{"b.md": page("title: B", "```kflow\nid: bk\nbeats: 6\nknobs:\n  beats: [6, 12]\n```\n",
		"[a](#bk@10?beats=12) [b](#bk@13?beats=12) [c](#bk@10) [d](#bk@6?beats=6)")}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	want := `content/b.md:11:22: link to "#bk@13?beats=12": figure "bk" ends at beat 12 with beats=12` + "\n" +
		`content/b.md:11:43: link to "#bk@10": figure "bk" ends at beat 6`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestTextAfterComment: a comment's closing line is part of it in
// Markdown, so text after "-->" there would vanish; the build says so.
func TestTextAfterComment(t *testing.T) {
	fsys := fstest.MapFS{"a.md": page("title: A", "<!-- a note --> more text", "", "<!-- two", "lines -->  ", "", "<!-- b --> <script>x</script>")}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	want := "content/a.md:4:16: text after an HTML comment on the same line is left out with the comment: start it on a line of its own\n" +
		"content/a.md:9:11: text after an HTML comment on the same line is left out with the comment: start it on a line of its own"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestLinksIntoUnreadPage (try10 B): a page left unread — not UTF-8, or
// nesting too deep — has no known figures (nor headings, when not parsed),
// so a link to one says it could not be checked, beside the page's own
// error, where it said the page had no such figure; a link to the page,
// its top or a heading it has is fine.
func TestLinksIntoUnreadPage(t *testing.T) {
	fence := "```kflow\nid: fig\nbeats: 5\n```\n"
	fsys := fstest.MapFS{
		"a.md": page("title: A", "[f](b.md#fig@3) [h](b.md#head) [p](b.md) [t](b.md#top) [d](c.md#fig)"),
		"b.md": page("title: B", "## Head", "", "bad \xff byte [s](#fig@1)", "", fence),
		"c.md": page("title: C", strings.Repeat("> ", MaxNesting+1)+"deep", "", fence),
	}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	// The pages' own errors first, then the links they left unchecked.
	want := `content/b.md:6:5: the page is not UTF-8 text: save it as UTF-8 (this byte is not a UTF-8 character)` + "\n" +
		fmt.Sprintf(`content/c.md:4:%d: this line opens %d lists and quotes inside each other: Kafka Flow allows them %d deep`, 2*MaxNesting+1, MaxNesting+1, MaxNesting) + "\n" +
		`content/a.md:4:1: link to "b.md#fig@3": content/b.md is not UTF-8 text (its own error says where), so this link could not be checked` + "\n" +
		`content/a.md:4:56: link to "c.md#fig": content/c.md nests lists and quotes too deep to be read (its own error says where), so this link could not be checked` + "\n" +
		`content/b.md:6:12: link to "#fig@1": content/b.md is not UTF-8 text (its own error says where), so this link could not be checked`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestFigureLinksHarder: a full id wins over a short one; a short id that
// is also a heading's is ambiguous; index.html exists without index.md;
// a percent-encoded file name is decoded; and a link to a figure whose
// fence does not parse says it could not be checked, beside the fence's
// error (it was left to that error, so a link past the figure's last beat
// showed only once the fence was mended), once for all such links of a
// page (try12 T2: fourteen errors buried the one), while the page's other links
// are checked as ever; on a page whose broken fence has no readable id, a
// link naming no figure may name that one and is left to its error.
func TestFigureLinksHarder(t *testing.T) {
	fence := func(id string) string { return "```kflow\nid: " + id + "\nbeats: 3\n```\n" }
	good := fstest.MapFS{
		"a.md":   page("title: A\nweight: 1", fence("intro"), fence("a--intro"), "[x](#a--intro@2) [y](#intro@1) [home](index.html)"),
		"b c.md": page("title: B\nweight: 2", "## Sec", "", "[back](a.md#intro@3)"),
		"d.md":   page("title: D\nweight: 3", "[b](b%20c.md#sec)"),
	}
	s, err := Generate(Options{Content: good, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	a := string(s.File("a.html"))
	for _, w := range []string{`href="#a--intro@2"`, `href="#a--intro@1"`, `href="index.html"`} {
		if !strings.Contains(a, w) {
			t.Errorf("a.html lacks %s", w)
		}
	}
	if d := string(s.File("d.html")); !strings.Contains(d, `href="b-c.html#sec"`) {
		t.Errorf("d.html: the link to b%%20c.md was not rewritten:\n%s", d)
	}

	bad := fstest.MapFS{
		"a.md": page("title: A\nweight: 1", "## Intro", "", fence("intro"), "[x](#intro)"),
		"b.md": page("title: B\nweight: 2", "```kflow\nid: g\nbrokerz: 3\n```\n", "[y](#g@1) [z](#nosuch@2) [w](a.md#intro@99)", "", "[v](#b--g@99?producer.acks=0) [u](#nosec)"),
		"c.md": page("title: C\nweight: 3", "```kflow\n[not yaml\n```\n", "[t](#whatever@1) [s](b.md#g@4)"),
	}
	_, err = Generate(Options{Content: bad, ContentName: "content"})
	// The links that could not be checked because a figure does not build
	// follow from its fence's error: they come last, after every cause.
	want := `content/a.md:12:1: link to "#intro": content/a.md has both a heading and a figure with the id "intro": write the figure's full id, "a--intro", or the heading's` + "\n" +
		`content/b.md:7:1: unknown setting "brokerz" (did you mean "brokers"?)` + "\n" +
		`content/b.md:10:11: link to "#nosuch@2": content/b.md has no figure "nosuch"` + "\n" +
		`content/b.md:10:26: link to "a.md#intro@99": figure "intro" ends at beat 3` + "\n" +
		`content/b.md:12:31: link to "#nosec": content/b.md has no heading or figure with the id "nosec"` + "\n" +
		`content/c.md:6:1: invalid YAML: did not find expected ',' or ']' (the […] list opened here is not closed)` + "\n" +
		`content/b.md:10:1: link to "#g@1" and 1 more link on this page: figure "g" of content/b.md does not build (its fence's error says why), so they could not be checked` + "\n" +
		`content/c.md:9:18: link to "b.md#g@4": figure "g" of content/b.md does not build (its fence's error says why), so this link could not be checked`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestFenceClosedAsCommonMark: whether a fence is closed is goldmark's
// verdict, so layouts that CommonMark closes build, however the fence is
// nested: in a quote inside a list item, after a tab after the list marker,
// in a list inside a quote, in an ordered list. Each is checked against the
// same layout with a yaml fence turned into a kflow one, so the test also
// says the layouts are ones goldmark closes.
func TestFenceClosedAsCommonMark(t *testing.T) {
	for _, layout := range []string{
		"- > ```kflow\n  > id: a\n  > beats: 2\n  > ```\n",
		"-\t```kflow\n\tid: a\n\tbeats: 2\n\t```\n",
		"- >\t```kflow\n  >\tid: a\n  >\tbeats: 2\n  >\t```\n",
		"> - ```kflow\n>   id: a\n>   beats: 2\n>   ```\n",
		"1. > ```kflow\n   > id: a\n   > beats: 2\n   > ```\n",
		"- - ```kflow\n    id: a\n    beats: 2\n    ```\n",
		"  ```kflow\n  id: a\n  beats: 2\n   ```\n",
	} {
		yaml := strings.ReplaceAll(layout, "```kflow", "```yaml")
		if _, err := Generate(Options{Content: fstest.MapFS{"a.md": page("title: A", yaml)}}); err != nil {
			t.Fatalf("%q as yaml: %v", yaml, err)
		}
		s, err := Generate(Options{Content: fstest.MapFS{"a.md": page("title: A", layout)}, ContentName: "content"})
		if err != nil {
			t.Errorf("%q: %v", layout, err)
			continue
		}
		if len(s.Figures) != 1 {
			t.Errorf("%q: %d figures, want 1", layout, len(s.Figures))
		}
	}
}

// TestContentsText (issue 18.9): "On this page" shows a heading's text as
// the heading itself shows it: entities and backslash escapes resolved
// once, code spans as written, and everything escaped once for HTML.
func TestContentsText(t *testing.T) {
	body := "## Acks &amp; ISR\n\n## Not \\*emphasis\\*\n\n## Code `a &amp; \\*b`\n\n## Star &#42; and &lt;tag&gt;\n"
	s, err := Generate(Options{Content: fstest.MapFS{"a.md": page("title: A", body)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Acks & ISR", "Not *emphasis*", "Code a &amp; \\*b", "Star * and <tag>"}
	var got []string
	for _, h := range s.Pages[0].Headings {
		got = append(got, h.Text)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("contents text %q, want %q", got, want)
	}
	html := string(s.File("a.html"))
	for _, w := range []string{">Acks &amp; ISR</a>", ">Not *emphasis*</a>", ">Code a &amp;amp; \\*b</a>", ">Star * and &lt;tag&gt;</a>"} {
		if !strings.Contains(html, w) {
			t.Errorf("a.html lacks %s", w)
		}
	}
}

// TestFrontMatterLikeFences (issue 18.8): front matter is read with the
// strictness of a fence's settings: YAML's null is no title or summary,
// control characters, bidirectional controls and invisible-only text are refused in both, a
// summary has a length limit, and a weight with a leading zero, a plus sign
// or no value is refused as a fence refuses brokers: 010.
func TestFrontMatterLikeFences(t *testing.T) {
	checkFrontMatter(t, []frontMatterCase{
		{"title: ~", "2:8: title has no value: write a line of text (a bare ~ or null is YAML's nothing)"},
		{"title: A\nsummary: null", "3:10: summary has no value: write a line of text (a bare ~ or null is YAML's nothing)"},
		{"title: \"tab\\there\"", "2:8: title must be a non-empty line of text (one line, no control characters)"},
		{"title: A\nsummary: \"bell\\a\"", "3:10: summary must be a non-empty line of text (one line, no control characters)"},
		{"title: A\nsummary: |\n  two\n  lines", "3:10: summary must be a non-empty line of text (one line, no control characters)"},
		{"title: \"Acks \\u202e sgnittes\"", "2:8: title holds the bidirectional control U+202E, which shows text in another order than it is written: take it out"}, // try12 T9e
		{"title: A\nsummary: \"a\\u2067b\"", "3:10: summary holds the bidirectional control U+2067, which shows text in another order than it is written: take it out"},
		{"title: \"\\u200b \\u200b\"", "2:8: title has no visible character (only spaces or invisible ones such as U+200B): write some text"},
		{"title: A\nsummary: \"\\u2060\"", "3:10: summary has no visible character (only spaces or invisible ones such as U+200B): write some text"},
		{"title: A\nsummary: " + strings.Repeat("s", MaxPageSummary+1), fmt.Sprintf("3:10: summary is %d characters: Kafka Flow allows at most %d (it is a line under the page's name in the contents)", MaxPageSummary+1, MaxPageSummary)},
		{"title: A\nweight: 010", `3:9: weight: "010" has a leading zero: write it without (some YAML readers take 010 for octal 8)`},
		{"title: A\nweight: -07", `3:9: weight: "-07" has a leading zero: write it without (some YAML readers take 010 for octal 8)`},
		{"title: A\nweight: +5", `3:9: weight: "+5" has a plus sign: write the number without it`},
		{"title: A\nweight: ~", "3:9: weight has no value: write a whole number, such as 10"},
	})
	// What stays allowed: a summary at the limit, a weight of 0 or -5, a
	// title "~" in quotes.
	s, err := Generate(Options{Content: fstest.MapFS{
		"a.md": {Data: []byte("---\ntitle: \"~\"\nweight: 0\nsummary: " + strings.Repeat("s", MaxPageSummary) + "\n---\n")},
		"b.md": {Data: []byte("---\ntitle: B\nweight: -5\n---\n")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Pages[0].Title != "B" || s.Pages[1].Title != "~" {
		t.Errorf("pages %q, %q", s.Pages[0].Title, s.Pages[1].Title)
	}
}

// TestMarkdownNamedOtherwise (try12 T9d): a file named like Markdown but
// not *.md ("UP.MD", "x.markdown") is an error at it, where it was
// published as a file and went missing from the contents without a word.
func TestMarkdownNamedOtherwise(t *testing.T) {
	_, err := Generate(Options{Content: fstest.MapFS{
		"a.md":         page("title: A", "Text."),
		"UP.MD":        page("title: Up", "Text."),
		"x.markdown":   page("title: X", "Text."),
		"notes.txt":    {Data: []byte("kept")},
		"sub/y.Mdown":  page("title: Y", "Text."),
		"readme.md.gz": {Data: []byte("kept")},
	}, ContentName: "content"})
	want := `content/UP.MD:1:1: pages are files named *.md, in lower case, and this one would be published as a file, not a page: rename it UP.md` + "\n" +
		`content/sub/y.Mdown:1:1: pages are files named *.md, in lower case, and this one would be published as a file, not a page: rename it y.md` + "\n" +
		`content/x.markdown:1:1: pages are files named *.md, in lower case, and this one would be published as a file, not a page: rename it x.md`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestLinkErrorsCapped (try12 T10): past MaxLinkErrors bad links a page's
// errors stop, and one more says how many are not shown, at the first of
// them, in each of the two link checks; a page of 31,250 printed them all.
func TestLinkErrorsCapped(t *testing.T) {
	heads := strings.Repeat("[x](#a) ", MaxLinkErrors+70)
	files := strings.Repeat("[y](no.png) ", MaxLinkErrors+1)
	_, err := Generate(Options{Content: fstest.MapFS{
		"a.md": page("title: A", heads),
		"b.md": page("title: B", files),
	}, ContentName: "content"})
	l, ok := err.(sim.ErrorList)
	if !ok {
		t.Fatalf("want an ErrorList, got %v", err)
	}
	var a, b []string
	for _, e := range l {
		switch e.File {
		case "content/a.md":
			a = append(a, e.Error())
		case "content/b.md":
			b = append(b, e.Error())
		}
	}
	wantA := fmt.Sprintf("content/a.md:4:%d: too many bad links on this page: 70 more from here on are not shown (at most %d are)", 8*MaxLinkErrors+1, MaxLinkErrors)
	if len(a) != MaxLinkErrors+1 || a[len(a)-1] != wantA || !strings.HasPrefix(a[0], `content/a.md:4:1: link to "#a": content/a.md has no heading`) {
		t.Errorf("a.md: %d errors, first %q, last %q; want %d, the last %q", len(a), a[0], a[len(a)-1], MaxLinkErrors+1, wantA)
	}
	wantB := fmt.Sprintf("content/b.md:4:%d: too many bad links on this page: 1 more from here on is not shown (at most %d are)", 12*MaxLinkErrors+1, MaxLinkErrors)
	if len(b) != MaxLinkErrors+1 || b[len(b)-1] != wantB {
		t.Errorf("b.md: %d errors, last %q; want %d, the last %q", len(b), b[len(b)-1], MaxLinkErrors+1, wantB)
	}
}

// TestLinkIntoOutput (hostile13 F1): a symbolic link in the content folder
// to a file inside the output folder (or to a folder in it, or to the
// output folder before it exists) points to nothing on the first build and
// to the previous build's output on the next: the site would read its own
// output. Every build refuses it, naming the link and the output folder,
// and leaves the output as it was.
func TestLinkIntoOutput(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "content")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.md"), page("title: P", "Text.").Data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "public")
	build := func() error {
		_, err := Build(Options{Content: os.DirFS(dir), ContentName: "content"}, out, dir)
		return err
	}
	for _, c := range []struct{ name, target string }{
		{"copy.html", "../public/index.html"},
		{"page.md", "../public/p.html"},
		{"assets", "../public/assets"},
		{"pub", "../public"},
	} {
		link := filepath.Join(dir, c.name)
		if err := os.Symlink(c.target, link); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
		for _, first := range []bool{true, false} {
			if !first {
				// Build once without the link, so that its target exists.
				if err := os.Rename(link, link+".off~"); err != nil {
					t.Fatal(err)
				}
				if err := build(); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(link+".off~", link); err != nil {
					t.Fatal(err)
				}
			} else if err := os.RemoveAll(out); err != nil {
				t.Fatal(err)
			}
			before := listTree(t, root)
			err := build()
			at := filepath.Join(out, strings.TrimPrefix(strings.TrimPrefix(c.target, "../public"), "/"))
			want := "content/" + c.name + ":1:1: this symbolic link points into the output folder " + out + " (" + at +
				"), which the build replaces: each build would read what the previous one wrote; remove the link or build into another folder (--out)"
			if c.name == "pub" && !first {
				want = "content/pub:1:1: following this symbolic link reaches the output folder " + out +
					", which the build replaces: each build would publish the previous site inside the new one, one level deeper; remove the link or build into another folder (--out)"
			}
			if err == nil || err.Error() != want {
				t.Errorf("%s, first build %v: got\n%v\nwant\n%s", c.name, first, err, want)
			}
			if after := listTree(t, root); after != before {
				t.Errorf("%s: the refused build changed the folders:\n%s\nwas\n%s", c.name, after, before)
			}
		}
		if err := os.Remove(link); err != nil {
			t.Fatal(err)
		}
	}
}
