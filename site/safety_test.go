package site_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/svganim"
	"golang.org/x/net/html"
)

// Payloads fed through every free-text string a user controls. Each tries
// to open an element, close the one it sits in, or start an event handler
// or a comment; keys must fit in 64 characters.
var (
	evilPageTitle = `</title><script>alert(1)</script>`
	evilSummary   = `"><img src=x onerror=alert(2)>`
	evilFigTitle  = `<script>alert(4)</script>"></figcaption><svg onload=alert(5)>`
	evilCmpTitle  = `acks=all</text><script>alert(9)</script>`
	evilKeys      = []string{
		`<script>alert(6)</script>`,
		`"><img src=x onerror=alert(7)>`,
		`</script><svg onload=alert(8)>`,
		`'--><!--<style>*{}</style>`,
	}
)

// defang turns a payload into harmless text of the same length and word
// structure, so that a build fed with it lays out exactly like one fed
// with the payload, if the payload is escaped.
func defang(s string) string {
	return strings.NewReplacer("<", "(", ">", ")", `"`, "'", "/", "|", "&", "+", "!", "i", "-", "_", "*", "x", "{", "[", "}", "]").Replace(s)
}

// yamlQuote writes s as a double-quoted YAML string.
func yamlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// safetyPage is a page carrying the given strings in its front matter and
// in a fence (figure title, the compare run's title, producer keys, a
// share group's slow.key), with a consumer and a share group so that their
// lanes draw.
func safetyPage(pageTitle, summary, figTitle, cmpTitle string, keys []string) ([]byte, []byte) {
	var ks []string
	for _, k := range keys {
		ks = append(ks, yamlQuote(k))
	}
	fence := "id: evil\n" +
		"title: " + yamlQuote(figTitle) + "\n" +
		"beats: 14\n" +
		"topic: {partitions: 1}\n" +
		"producer: {acks: 1, records: 6, keys: [" + strings.Join(ks, ", ") + "]}\n" +
		"consumer.groups:\n  - {id: readers, members: 2, auto.offset.reset: earliest}\n" +
		"share.groups:\n  - {id: queue, members: 2, share.auto.offset.reset: earliest, slow.key: " + ks[1] + "}\n" +
		"timeline:\n  - {at: 4, crash: 1}\n  - {at: 9, restart: 1}\n" +
		"compare: {title: " + yamlQuote(cmpTitle) + ", producer: {acks: all}}\n"
	page := "---\ntitle: " + yamlQuote(pageTitle) + "\nsummary: " + yamlQuote(summary) + "\nweight: 1\n---\n\n" +
		"## A heading\n\nText.\n\n```kflow\n" + fence + "```\n"
	return []byte(page), []byte(fence)
}

// shape is the structure of an HTML document as a browser builds it
// (html.Parse follows the HTML standard's tree construction, SVG foreign
// content included): every element with its namespace and attribute names,
// text and comments reduced to their kind, in document order. Two documents
// differing only in escaped text have the same shape. text collects the
// decoded text and attribute values.
func shape(doc []byte) (nodes []string, text string) {
	root, err := html.Parse(bytes.NewReader(doc))
	if err != nil {
		return []string{"error: " + err.Error()}, ""
	}
	var all strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		switch n.Type {
		case html.ElementNode:
			var attrs []string
			for _, a := range n.Attr {
				attrs = append(attrs, a.Namespace+":"+a.Key)
				all.WriteString(a.Val + "\n")
			}
			nodes = append(nodes, fmt.Sprintf("%d <%s:%s %s>", depth, n.Namespace, n.Data, strings.Join(attrs, " ")))
		case html.TextNode:
			nodes = append(nodes, fmt.Sprintf("%d text", depth))
			all.WriteString(n.Data + "\n")
		case html.CommentNode:
			nodes = append(nodes, fmt.Sprintf("%d comment", depth))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return nodes, all.String()
}

// TestUserMarkupIsInert builds one page whose user strings are markup and
// one whose strings are the same text made harmless, and wants every output
// file to have the same shape (no element, attribute or comment more or
// less) while the markup comes through as text. It then does the same for
// every beat's standalone SVG frame, read by an XML parser.
func TestUserMarkupIsInert(t *testing.T) {
	var benignKeys []string
	for _, k := range evilKeys {
		benignKeys = append(benignKeys, defang(k))
	}
	evilSrc, evilFence := safetyPage(evilPageTitle, evilSummary, evilFigTitle, evilCmpTitle, evilKeys)
	benignSrc, benignFence := safetyPage(defang(evilPageTitle), defang(evilSummary), defang(evilFigTitle), defang(evilCmpTitle), benignKeys)

	build := func(src []byte) *site.Site {
		t.Helper()
		s, err := site.Generate(site.Options{Content: fstest.MapFS{"evil.md": {Data: src}}, ContentName: "content"})
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		return s
	}
	evil, benign := build(evilSrc), build(benignSrc)
	if len(evil.Files) != len(benign.Files) {
		t.Fatalf("%d files from the markup page, %d from the harmless one", len(evil.Files), len(benign.Files))
	}
	var seen strings.Builder
	for i, f := range evil.Files {
		if !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		et, text := shape(f.Data)
		bt, _ := shape(benign.Files[i].Data)
		if !slices.Equal(et, bt) {
			at := 0
			for at < min(len(et), len(bt)) && et[at] == bt[at] {
				at++
			}
			t.Errorf("%s: markup in user strings changed the document's shape at token %d:\nwith markup: %q\nharmless:    %q",
				f.Path, at, et[at:min(at+3, len(et))], bt[at:min(at+3, len(bt))])
		}
		seen.WriteString(text)
	}
	// The payloads did reach the output, as text.
	for _, p := range append([]string{evilPageTitle, evilSummary, evilFigTitle, evilCmpTitle}, evilKeys...) {
		if !strings.Contains(seen.String(), p) {
			t.Errorf("the output never shows %q as text: the test no longer exercises it", p)
		}
	}

	// Each beat's standalone SVG.
	trace := func(fence []byte) *sim.Trace {
		sc, errs := scenario.Parse(fence)
		if errs != nil {
			t.Fatal(errs)
		}
		return sim.Run(sc)
	}
	et, bt := trace(evilFence), trace(benignFence)
	for beat := range et.Beats {
		ef, err := svganim.Frame(et, beat)
		if err != nil {
			t.Fatal(err)
		}
		bf, err := svganim.Frame(bt, beat)
		if err != nil {
			t.Fatal(err)
		}
		es, etext, err := xmlShape(ef)
		if err != nil {
			t.Fatalf("beat %d: the frame with markup is not well-formed XML: %v", beat, err)
		}
		bs, _, err := xmlShape(bf)
		if err != nil {
			t.Fatalf("beat %d: %v", beat, err)
		}
		if !slices.Equal(es, bs) {
			t.Errorf("beat %d: markup in user strings changed the SVG's elements or attributes", beat)
		}
		if beat == len(et.Beats)-1 && !strings.Contains(etext, evilKeys[0]) && !strings.Contains(etext, evilFigTitle) {
			t.Errorf("the last frame shows neither the title nor the first key as text")
		}
	}
}

// xmlShape reads an SVG document strictly and returns its elements with
// their attribute names, and its character data.
func xmlShape(doc []byte) ([]string, string, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	var out []string
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, text.String(), nil
		}
		if err != nil {
			return nil, "", err
		}
		switch x := tok.(type) {
		case xml.StartElement:
			var attrs []string
			for _, a := range x.Attr {
				attrs = append(attrs, a.Name.Local)
			}
			out = append(out, "<"+x.Name.Local+" "+strings.Join(attrs, " ")+">")
		case xml.EndElement:
			out = append(out, "</"+x.Name.Local+">")
		case xml.CharData:
			text.Write(x)
		case xml.Comment:
			out = append(out, "<!-- -->")
		case xml.ProcInst:
			out = append(out, "<?"+x.Target+"?>")
		case xml.Directive:
			out = append(out, "<!directive>")
		}
	}
}

// TestRawHTMLAndScriptLinksDropped checks what Markdown itself could
// smuggle (in Markdown, markup is syntax rather than text, so it cannot be
// escaped): raw HTML blocks and inline tags, in a paragraph or a heading,
// fail the build at their place (they would be left out, and whatever
// they hold with them), while comments may stay; and so do links to
// javascript: or data: URLs, which would lose their target.
func TestRawHTMLAndScriptLinksDropped(t *testing.T) {
	raw := "---\ntitle: Raw\n---\n\n## <svg onload=alert(0)> & </h2>\n\n<script>alert(1)</script>\n\n<div onclick=\"alert(2)\">x</div>\n\n" +
		"Inline <img src=x onerror=alert(3)> and <a href=\"javascript:alert(4)\">a</a>.\n\n<!-- a note to the next author -->\n"
	_, err := site.Generate(site.Options{Content: fstest.MapFS{"raw.md": {Data: []byte(raw)}}})
	l, ok := err.(sim.ErrorList)
	if !ok {
		t.Fatalf("raw HTML: want positioned errors, got %v", err)
	}
	var at []string
	for _, e := range l {
		at = append(at, fmt.Sprintf("%d:%d", e.Line, e.Col))
		// An error, not a notice: it says the HTML is refused and what
		// to write instead.
		if !strings.Contains(e.Msg, "is not allowed in a page") || !strings.Contains(e.Msg, "write it in Markdown") {
			t.Errorf("%d:%d: %q does not say raw HTML is refused and what to write instead", e.Line, e.Col, e.Msg)
		}
	}
	// The heading's two tags, the script and div blocks, and the
	// paragraph's img, a and /a; not the comment.
	if got, want := strings.Join(at, " "), "5:4 5:28 7:1 9:1 11:8 11:41 11:72"; got != want {
		t.Errorf("raw HTML refused at %s, want %s:\n%v", got, want, err)
	}

	// Links to javascript: or data: URLs, which goldmark would write
	// empty, fail the build at their place too (TestUnpublishedSchemes).
	src := "---\ntitle: Raw\n---\n\n<!-- a note -->\n\n" +
		"[click](javascript:alert(5)) [data](data:text/html;base64,PHNjcmlwdD4=) ![i](javascript:alert(6))\n"
	_, err = site.Generate(site.Options{Content: fstest.MapFS{"raw.md": {Data: []byte(src)}}})
	if l, ok = err.(sim.ErrorList); !ok {
		t.Fatalf("script links: want positioned errors, got %v", err)
	}
	at = nil
	for _, e := range l {
		at = append(at, fmt.Sprintf("%d:%d", e.Line, e.Col))
	}
	if got, want := strings.Join(at, " "), "7:1 7:30 7:73"; got != want {
		t.Errorf("script links refused at %s, want %s:\n%v", got, want, err)
	}

	// What may stay, a comment and an https: link, leaves no script,
	// raw HTML or handler in the page.
	src = "---\ntitle: Raw\n---\n\n<!-- a note -->\n\n[ok](https://example.com/)\n"
	s, err := site.Generate(site.Options{Content: fstest.MapFS{"raw.md": {Data: []byte(src)}}})
	if err != nil {
		t.Fatal(err)
	}
	z := html.NewTokenizer(bytes.NewReader(s.File("raw.html")))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		if tok.Data == "script" {
			for _, a := range tok.Attr {
				if a.Key == "src" && strings.HasPrefix(a.Val, "assets/") {
					goto next // the site's own stepper
				}
			}
			t.Errorf("raw.html holds a script element: %v", tok)
		}
		if tok.Data == "svg" {
			t.Errorf("raw.html holds raw HTML from the page: %v", tok)
		}
		for _, a := range tok.Attr {
			if a.Key == "src" && a.Val == "x" {
				t.Errorf("raw.html holds raw HTML from the page: %v", tok)
			}
			v := strings.ToLower(strings.TrimSpace(a.Val))
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("raw.html holds an event handler: %v", tok)
			}
			if (a.Key == "href" || a.Key == "src") && (strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "data:")) {
				t.Errorf("raw.html holds a script link: %v", tok)
			}
		}
	next:
	}
}

// TestIDsAndNamesSafe gives pages and scenarios hostile names: output file
// names come out as lower-case letters (of any script), digits and '-',
// figure ids in [a-z0-9-], and markup in a scenario or
// group id is refused with a positioned error rather than reduced.
func TestIDsAndNamesSafe(t *testing.T) {
	fence := "```kflow\nid: fine\nbeats: 3\n```\n"
	fsys := fstest.MapFS{
		`"><img src=x onerror=alert(1)>.md`: {Data: []byte("---\ntitle: A\n---\n" + fence)},
		"Ünïcode Page (draft) #2.md":        {Data: []byte("---\ntitle: B\n---\n" + fence)},
		`Sub "><i>Dir/Deep Page.md`:         {Data: []byte("---\ntitle: C\n---\n" + fence)},
		"javascript:alert(1).md":            {Data: []byte("---\ntitle: D\n---\n" + fence)},
	}
	s, err := site.Generate(site.Options{Content: fsys})
	if err != nil {
		t.Fatal(err)
	}
	safeFile := regexp.MustCompile(`^([\p{L}\p{N}\p{Mn}][\p{L}\p{N}\p{Mn}-]*/)?[\p{L}\p{N}\p{Mn}][\p{L}\p{N}\p{Mn}-]*\.(html|css|js|svg)$`)
	for _, f := range s.Files {
		if !safeFile.MatchString(f.Path) || strings.ToLower(f.Path) != f.Path {
			t.Errorf("output file %q is not named from lower-case letters, digits and '-'", f.Path)
		}
	}
	if s.File("ünïcode-page-draft-2.html") == nil {
		t.Error(`"Ünïcode Page (draft) #2.md" was not written to ünïcode-page-draft-2.html`)
	}
	safeID := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*--[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, f := range s.Figures {
		if !safeID.MatchString(f.ID) {
			t.Errorf("figure id %q is not page--scenario in [a-z0-9-]", f.ID)
		}
	}
	if len(s.Figures) != 4 {
		t.Errorf("%d figures, want 4", len(s.Figures))
	}

	bad := "---\ntitle: Bad\n---\n```kflow\nid: \"x\\\"><script>\"\n" +
		"consumer.groups:\n  - {id: \"<b>g</b>\"}\nshare.groups:\n  - {id: \"q onload=x\"}\n```\n"
	_, err = site.Generate(site.Options{Content: fstest.MapFS{"bad.md": {Data: []byte(bad)}}, ContentName: "c"})
	var l sim.ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("want positioned errors, got %v", err)
	}
	want := []struct {
		line int
		has  string
	}{
		{5, `"x\"><script>"`},
		{7, `"<b>g</b>"`},
		{9, `"q onload=x"`},
	}
	if len(l) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(l), len(want), l)
	}
	for i, w := range want {
		if l[i].Line != w.line || !strings.Contains(l[i].Msg, "a-z") {
			t.Errorf("error %d: %v; want one on line %d naming the allowed characters", i, l[i], w.line)
		}
	}
}
