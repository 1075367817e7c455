package site

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	stdhtml "html"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/frontmatter"
)

// Page is one content page after parsing: its front matter, its Markdown
// tree and its figures (not yet computed).
type Page struct {
	// Path is the page's path inside the content folder, slash-separated
	// ("acks.md").
	Path string
	// File is the path used in error messages ("content/acks.md").
	File string
	// Slug prefixes the DOM id of every figure on the page. It comes from
	// Path, reduced to [a-z0-9-] ("ops/acks.md" → "ops-acks"), so it is
	// unique in the site.
	Slug string
	// Out is the page's output file, relative to the site root
	// ("acks.html", "ops/acks.html"; see Section).
	Out string
	// Title, Weight and Summary come from the front matter. Pages are
	// ordered by (Weight, Title, Path).
	Title   string
	Weight  int
	Summary string
	// Headings lists the page's level-2 headings for its table of contents.
	Headings []Heading

	src []byte
	// srcDigest is src's SHA-256 for the page's PageCache key, taken by
	// the first build that needs it (pageKey) and kept with the page, so
	// a save does not hash every unchanged page's source again; zero
	// until then.
	srcDigest [sha256.Size]byte
	// keyData and keyJSON are the layout data the page's last PageCache
	// key was made of and its JSON (dataJSON); keyJSON is nil until then.
	keyData layoutData
	keyJSON []byte

	// keyMemo is the page's last PageCache key with its inputs
	// (pageKey), nil until then; linkChecks counts the checks that
	// rewrote its links (checkPageLinks), which keyMemo compares.
	keyMemo    *keyMemo
	linkChecks int

	doc     ast.Node
	figures []*figureNode
	// unread says why the page's text was left unread ("is not UTF-8
	// text"), its own error saying where; "" when it was read. Its
	// figures and headings are then unknown, so a link to one of them
	// cannot be checked (checkFragments).
	unread string
	// links are the page's links and images in document order, found
	// once (pageLinks, which sets linksFound); linkOrig holds each one's
	// destination as written, before resolveLinks and checkFragments
	// rewrote it, and linkStrs the same as strings.
	links      []linkRef
	linksFound bool
	linkOrig   [][]byte
	linkStrs   []string
	// autolinks are its URL autolinks ("<https://…>"), found by the same
	// walk: each one's URL and the offset of its "<" in src (-1 when it
	// was not found there). Their destination is never rewritten; only
	// its scheme is checked.
	autolinks []autolink
	// headingIDs is the set of its headings' ids (hasHeadingID).
	headingIDs map[string]bool
}

// Heading is one entry of a page's table of contents.
type Heading struct {
	ID, Text string
}

// frontMatterFields are the keys a page's front matter may hold.
var frontMatterFields = []string{"summary", "title", "weight"}

// frontMatterWants says what each front matter field's value is, for a
// message about a value that is not one.
var frontMatterWants = map[string]string{
	"title":   "a line of text such as title: Acks",
	"summary": "a line of text",
	"weight":  "a whole number such as weight: 10",
}

// frontAlias is the message for an alias (*name) standing for field's
// value: what is not supported, and what the field wants, when field is
// one of the front matter's.
func frontAlias(field, name string) string {
	if want := frontMatterWants[field]; want != "" {
		return fmt.Sprintf("%s: aliases (*%s) are not supported in front matter: write the value out, %s", field, name, want)
	}
	return fmt.Sprintf("aliases (*%s) are not supported in front matter: write the value out", name)
}

// unknownAnchor reports whether err is the YAML library's error for an
// alias to an anchor the text does not define, and the anchor's name.
func unknownAnchor(err error) (string, bool) {
	_, rest, ok := strings.Cut(err.Error(), "unknown anchor '")
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, "' referenced")
	return name, ok
}

// newMarkdown returns the goldmark instance every page is parsed and
// rendered with: CommonMark plus GitHub's tables and strikethrough, automatic
// heading ids, YAML front matter, kflow fences, and headings with anchors.
// Raw HTML in pages is left out (goldmark's default), so a page cannot
// inject script.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithExtensions(
			&frontmatter.Extender{Formats: []frontmatter.Format{{Name: "YAML", Delim: '-', Unmarshal: yaml.Unmarshal}}},
			extension.Table,
			extension.Strikethrough,
			FenceExtension{},
		),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(headingRenderer{}, 100))),
	)
}

// unreadNesting is Page.unread for a page whose lists and quotes nest
// deeper than MaxNesting.
const unreadNesting = "nests lists and quotes too deep to be read"

// parsePage parses one page's front matter and Markdown. It returns the
// page and every problem with its front matter; figures are found but not
// yet computed.
func parsePage(md goldmark.Markdown, p, file string, src []byte) (*Page, sim.ErrorList) {
	// A byte-order mark (some Windows editors write one) is not part of
	// the text; the front matter's "---" must be the first thing.
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	pg := &Page{Path: p, File: file, Slug: Slug(p), src: src}
	if errs := CheckNesting(file, src); errs != nil {
		// Parsing such a page is what takes minutes: leave it unparsed.
		pg.doc, pg.unread = ast.NewDocument(), unreadNesting
		return pg, errs
	}
	var errs sim.ErrorList
	ctx := parser.NewContext(parser.WithIDs(newHeadingIDs()))
	pg.doc = md.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	if errs := checkNestingDepth(pg); errs != nil {
		pg.doc, pg.unread = ast.NewDocument(), unreadNesting
		return pg, errs
	}
	pg.figures = pageFigures(ctx)
	for _, f := range pg.figures {
		if f.Unclosed {
			errs = append(errs, sim.Error{File: file, Pos: sim.Pos{Line: f.OpenLine, Col: 1},
				Msg: fmt.Sprintf("this %skflow fence is never closed: add a line %s after the scenario, inside the list item or quote that holds the fence (everything below it was read as part of it)", f.Fence, f.Fence)})
		}
	}
	if !utf8.Valid(src) {
		errs = append(errs, sim.Error{File: file, Pos: firstInvalidUTF8(src),
			Msg: "the page is not UTF-8 text: save it as UTF-8 (this byte is not a UTF-8 character)"})
		pg.figures = nil // a fence holding the byte would only say it again
		pg.unread = "is not UTF-8 text"
		return pg, errs
	}

	if !hasFrontMatter(src) {
		msg := "missing front matter: start the page with a line ---, then title: …, then ---"
		switch first, _, _ := bytes.Cut(src, []byte("\n")); string(bytes.TrimRight(first, " \r")) {
		case "---":
			msg = "front matter is not closed: add a line --- after its last field"
		case "+++":
			// Hugo's TOML front matter.
			msg = "front matter in TOML (between +++ lines) is not read: write it in YAML between --- lines (title = \"A\" becomes title: A)"
		}
		errs = append(errs, sim.Error{File: file, Pos: sim.Pos{Line: 1, Col: 1}, Msg: msg})
		return pg, errs
	}
	data := frontmatter.Get(ctx)
	var node yaml.Node
	if data == nil {
		msg := "front matter is not closed: add a line --- after it"
		if first, _, _ := bytes.Cut(src, []byte("\n")); string(bytes.TrimRight(first, "\r")) != "---" {
			msg = "the line that opens the front matter must be --- alone: remove the spaces after it"
		}
		errs = append(errs, sim.Error{File: file, Pos: sim.Pos{Line: 1, Col: 1}, Msg: msg})
		return pg, errs
	}
	if err := data.Decode(&node); err != nil {
		// The YAML starts on the file's second line. YAMLError keeps the
		// place inside the YAML, so a lone \r (a line break to YAML, not
		// to the file) or an "unexpected end" cannot name a line past the
		// front matter's closing ---.
		yml := frontMatterYAML(src)
		pos, msg := scenario.YAMLError(yml, err, "front matter")
		if name, ok := unknownAnchor(err); ok {
			// An alias to an anchor the front matter lacks: said as
			// readFrontMatter says an alias, with the field it stands for.
			line, _, _ := bytes.Cut(bytes.Split(yml, []byte("\n"))[pos.Line-1], []byte(":"))
			msg = frontAlias(strings.TrimSpace(string(line)), name)
		} else {
			msg = "front matter: " + msg
		}
		pos.Line = min(pos.Line+1, frontMatterEndLine(src))
		errs = append(errs, sim.Error{File: file, Pos: pos, Msg: msg})
		return pg, errs
	}
	errs = append(errs, pg.readFrontMatter(&node)...)
	errs = append(errs, checkMarkdown(pg)...)
	pg.Headings = headings(pg.doc, src)
	return pg, errs
}

// MaxPageTitle is the longest page title, in characters (the front
// matter's title heads the page, names it in the contents and the browser
// tab); a figure's title has the same limit (scenario title).
const MaxPageTitle = 120

// MaxPageSummary is the longest page summary, in characters (the
// front matter's summary is one line under the page's name in the
// contents).
const MaxPageSummary = 300

// frontText reads a front matter field that holds one line of text with
// the rules of a fence's text settings: a scalar with a value (not ~ or
// null), no control character, and, when not empty, at least one visible
// character. It returns the text with the spaces around it trimmed; on a
// problem it reports it through at and returns false.
func frontText(v *yaml.Node, name string, at func(*yaml.Node, string, ...any)) (string, bool) {
	switch {
	case v.Kind != yaml.ScalarNode:
		at(v, "%s must be a line of text", name)
		return "", false
	case yamlNull(v):
		at(v, "%s has no value: write a line of text (a bare ~ or null is YAML's nothing)", name)
		return "", false
	}
	for _, r := range v.Value {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			at(v, "%s must be a non-empty line of text (one line, no control characters)", name)
			return "", false
		}
		if sim.BidiControl(r) {
			at(v, "%s holds the bidirectional control %U, which shows text in another order than it is written: take it out", name, r)
			return "", false
		}
	}
	t := strings.TrimSpace(v.Value)
	if v.Value != "" && !visibleText(t) {
		at(v, "%s has no visible character (only spaces or invisible ones such as U+200B): write some text", name)
		return "", false
	}
	return t, true
}

// yamlNull reports whether a scalar is YAML's null written plainly (~,
// null, or nothing): "~" in quotes is text.
func yamlNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0
}

// visibleText reports whether s has a character that shows: not a space,
// nor a format character such as a zero-width space.
func visibleText(s string) bool {
	for _, r := range s {
		if unicode.IsGraphic(r) && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// frontMatterEndLine is the file line of the --- that closes the front
// matter (the last line of the file when none does).
func frontMatterEndLine(src []byte) int {
	lines := bytes.Split(src, []byte("\n"))
	for i := 1; i < len(lines); i++ {
		if string(bytes.TrimRight(lines[i], " \r")) == "---" {
			return i + 1
		}
	}
	return len(lines)
}

// frontMatterYAML is the text between the front matter's --- lines.
func frontMatterYAML(src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	end := frontMatterEndLine(src) - 1 // index of the closing ---
	return bytes.Join(lines[1:max(end, 1)], nil)
}

// hasFrontMatter reports whether src opens with a --- line that a later
// --- line closes.
func hasFrontMatter(src []byte) bool {
	lines := bytes.Split(src, []byte("\n"))
	if len(lines) == 0 || string(bytes.TrimRight(lines[0], " \r")) != "---" {
		return false
	}
	for _, l := range lines[1:] {
		if string(bytes.TrimRight(l, " \r")) == "---" {
			return true
		}
	}
	return false
}

// LooksLikePage reports whether src reads as a Markdown page rather than a
// bare scenario, for an input whose name does not say (kflowgen sim
// /dev/stdin): it opens with front matter (a --- line that a later ---
// line closes), or a line opens a code fence (``` or ~~~ after at most
// three spaces), which no scenario's YAML can hold unindented (a backtick
// cannot start a YAML value, and a ~~~ line is not a mapping).
func LooksLikePage(src []byte) bool {
	if hasFrontMatter(src) {
		return true
	}
	for line := range bytes.SplitSeq(src, []byte("\n")) {
		l := bytes.TrimLeft(line, " ")
		if len(line)-len(l) <= 3 && (bytes.HasPrefix(l, []byte("```")) || bytes.HasPrefix(l, []byte("~~~"))) {
			return true
		}
	}
	return false
}

// readFrontMatter checks and stores the front matter's fields. The YAML
// starts on the file's second line, hence the +1 on every line.
func (pg *Page) readFrontMatter(doc *yaml.Node) sim.ErrorList {
	var errs sim.ErrorList
	at := func(n *yaml.Node, msg string, args ...any) {
		errs = append(errs, sim.Error{File: pg.File, Pos: sim.Pos{Line: n.Line + 1, Col: n.Column}, Msg: fmt.Sprintf(msg, args...)})
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		errs = append(errs, sim.Error{File: pg.File, Pos: sim.Pos{Line: 1, Col: 1}, Msg: "front matter is empty: it needs at least title: …"})
		return errs
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		at(m, "front matter must be keys and values such as title: Acks")
		return errs
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		// YAML's references: the library leaves an alias a node of its
		// own (the value it names is not read), so each is said for what
		// it is, with what the field wants, rather than as a wrong type.
		// An anchor alone changes no value and is read past.
		switch {
		case k.Kind == yaml.AliasNode:
			at(k, "aliases (*%s) are not supported in front matter: write the field's name out (%s)", k.Value, strings.Join(frontMatterFields, ", "))
			continue
		case k.Kind == yaml.ScalarNode && k.Tag == "!!merge":
			at(k, "merge keys (<<) are not supported in front matter: write each field out (%s)", strings.Join(frontMatterFields, ", "))
			continue
		case v.Kind == yaml.AliasNode && frontMatterWants[k.Value] != "":
			at(v, "%s", frontAlias(k.Value, v.Value))
			seen[k.Value] = true
			continue
		}
		if seen[k.Value] {
			at(k, "duplicate front matter field %q", k.Value)
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "title":
			t, ok := frontText(v, "title", at)
			switch {
			case !ok:
				continue
			case t == "":
				at(v, "title must be a non-empty line of text (one line, no control characters)")
				continue
			case utf8.RuneCountInString(t) > MaxPageTitle:
				at(v, "title is %d characters: Kafka Flow allows at most %d (it heads the page and names it in the contents)", utf8.RuneCountInString(t), MaxPageTitle)
				continue
			}
			pg.Title = t
		case "summary":
			t, ok := frontText(v, "summary", at)
			if !ok {
				continue
			}
			if n := utf8.RuneCountInString(t); n > MaxPageSummary {
				at(v, "summary is %d characters: Kafka Flow allows at most %d (it is a line under the page's name in the contents)", n, MaxPageSummary)
				continue
			}
			pg.Summary = t
		case "weight":
			w, err := strconv.Atoi(v.Value)
			digits := strings.TrimPrefix(strings.TrimPrefix(v.Value, "-"), "+")
			switch {
			case v.Kind != yaml.ScalarNode:
				at(v, "weight must be a whole number, such as 10")
				continue
			case yamlNull(v):
				at(v, "weight has no value: write a whole number, such as 10")
				continue
			case v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
				at(v, "weight: %q is not a whole number (write it without quotes)", v.Value)
				continue
			case errors.Is(err, strconv.ErrRange):
				at(v, "weight: %q is too large: pages are ordered by weight, so small numbers such as 10, 20, 30 will do", v.Value)
				continue
			case err != nil:
				at(v, "weight: %q is not a whole number", v.Value)
				continue
			case strings.HasPrefix(v.Value, "+"):
				at(v, "weight: %q has a plus sign: write the number without it", v.Value)
				continue
			case len(digits) > 1 && digits[0] == '0':
				at(v, "weight: %q has a leading zero: write it without (some YAML readers take 010 for octal 8)", v.Value)
				continue
			}
			pg.Weight = w
		default:
			msg := fmt.Sprintf("unknown front matter field %q", k.Value)
			if near := nearest(k.Value, frontMatterFields); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			} else {
				msg += " (fields: " + strings.Join(frontMatterFields, ", ") + ")"
			}
			at(k, "%s", msg)
		}
	}
	if pg.Title == "" && !seen["title"] {
		errs = append(errs, sim.Error{File: pg.File, Pos: sim.Pos{Line: 1, Col: 1}, Msg: "front matter has no title (add title: …)"})
	}
	return errs
}

// nearest returns the candidate within edit distance 2 of s (the closest,
// first in order on a tie), or "".
func nearest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Slug turns a page's path inside the content folder into the prefix of
// its figures' DOM ids: without ".md", lower case, every run of characters outside
// [a-z0-9] replaced by one '-' ("Replicas & HW.md" → "replicas-hw",
// "ops/acks.md" → "ops-acks"). An empty result becomes "page".
func Slug(p string) string {
	return safeID(strings.TrimSuffix(p, path.Ext(p)), "page")
}

// safeID reduces s to [a-z0-9-] (fence.SafeID).
func safeID(s, def string) string { return fence.SafeID(s, def) }

// FigureID is the DOM id of a figure (fence.FigureID): the page slug,
// "--", then the scenario id, reduced to [a-z0-9-] (each part on its own,
// so the "--" separator stays).
func FigureID(slug, scenarioID string) string { return fence.FigureID(slug, scenarioID) }

// headings lists the level-2 headings of doc with their ids.
func headings(doc ast.Node, src []byte) []Heading {
	var hs []Heading
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if id, ok := h.AttributeString("id"); ok && h.Level == 2 {
			if b, ok := id.([]byte); ok {
				hs = append(hs, Heading{ID: string(b), Text: plainText(h, src)})
			}
		}
		return ast.WalkSkipChildren, nil
	})
	return hs
}

// plainText is the text under n as a reader sees it (emphasis and code
// spans flattened): backslash escapes and entity references are resolved
// the way goldmark's HTML renderer resolves them ("Acks &amp; ISR" and
// "\\*" read "Acks & ISR" and "*"), code spans keep their text as written,
// and a soft line break is a space. The result is text, not HTML: the
// templates escape it.
func plainText(n ast.Node, src []byte) string {
	w := new(textWriter)
	hw := html.DefaultWriter
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.CodeSpan:
			for k := t.FirstChild(); k != nil; k = k.NextSibling() {
				if txt, ok := k.(*ast.Text); ok {
					v := txt.Segment.Value(src)
					if cut, nl := bytes.CutSuffix(v, []byte("\n")); nl {
						v = append(cut[:len(cut):len(cut)], ' ')
					}
					hw.RawWrite(w, v)
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if t.IsRaw() {
				hw.RawWrite(w, t.Segment.Value(src))
			} else {
				hw.Write(w, t.Segment.Value(src))
			}
			if t.SoftLineBreak() {
				_ = w.WriteByte(' ')
			}
		case *ast.String:
			switch {
			case t.IsCode():
				_, _ = w.Write(t.Value)
			case t.IsRaw():
				hw.RawWrite(w, t.Value)
			default:
				hw.Write(w, t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return stdhtml.UnescapeString(w.String())
}

// textWriter is a strings.Builder that goldmark's writers take as it is
// (a util.BufWriter), where they would put a bufio.Writer of 4 KB between
// them and anything else; its String is its bytes, not a copy. Nothing it
// holds waits to be flushed.
type textWriter struct{ strings.Builder }

// Available is the room left before the builder grows.
func (w *textWriter) Available() int { return w.Cap() - w.Len() }

// Buffered is 0: every byte written is in the builder.
func (*textWriter) Buffered() int { return 0 }

// Flush does nothing.
func (*textWriter) Flush() error { return nil }

// headingRenderer writes headings with their id and a "#" anchor link to
// themselves, so every section can be linked to.
type headingRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (headingRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		n := node.(*ast.Heading)
		level := "0123456"[n.Level]
		var id []byte
		if v, ok := n.AttributeString("id"); ok {
			id, _ = v.([]byte)
		}
		if entering {
			_, _ = w.WriteString("<h")
			_ = w.WriteByte(level)
			if len(id) > 0 {
				_, _ = w.WriteString(` id="`)
				_, _ = w.Write(util.EscapeHTML(id))
				_ = w.WriteByte('"')
			}
			_ = w.WriteByte('>')
			return ast.WalkContinue, nil
		}
		if len(id) > 0 {
			_, _ = w.WriteString(` <a class="anchor" href="#`)
			_, _ = w.Write(util.EscapeHTML(id))
			_, _ = w.WriteString(`" aria-label="Link to this section">#</a>`)
		}
		_, _ = w.WriteString("</h")
		_ = w.WriteByte(level)
		_, _ = w.WriteString(">\n")
		return ast.WalkContinue, nil
	})
}

// readPages reads every *.md file under fsys in lexical path order.
// Files and folders whose names start with "." or "_" are skipped, except
// _index.md, a folder's index page (Section). A *.md that is not a
// regular file, nor a symbolic link to one, is an error positioned at it
// (file names prefixed with contentName), and the walk goes on, so every
// such file is reported at once; so is a folder that cannot be read. Only
// a content folder that cannot be read at all ends it, with that error.
//
// A symbolic link to a folder is followed, as Hugo follows one: its pages
// are pages of the folder the link stands in, under the link's name. A link
// through which the walk comes back to a folder it is already in (the link
// leads to itself, to a folder above it, or to one that holds the content
// folder, directly or through more links) would be followed forever: that
// is an error at the link, naming the folder it comes back to, and nothing
// under the link is read. A link to nothing, or to something that is
// neither a folder nor a page, is left alone unless its name ends in .md.
//
// Every other file the walk meets is returned in files, the files the
// site publishes as they are (Hugo's page bundles keep an image beside its
// page): a regular file, or a link to one, whose name is not an editor's
// temporary file (IgnoredName: serve does not rebuild when one changes,
// so a build must not publish it either) nor Go source (publishedName).
// Any other kind of file (a pipe, a device) is an error at it.
//
// A followed link through which the walk reaches out, the folder the site
// is written to (nil for none), is an error at the link too: each build
// would publish the previous site inside the new one, a level deeper.
func readPages(fsys fs.FS, contentName string, out *outFolder) (paths, files []string, err error) {
	var errs sim.ErrorList
	var links []string       // links to folders followed, outer first
	bad := map[string]bool{} // followed links that loop
	underBad := func(p string) bool {
		for _, l := range links {
			if bad[l] && (p == l || strings.HasPrefix(p, l+"/")) {
				return true
			}
		}
		return false
	}
	var visit fs.WalkDirFunc
	visit = func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err // the content folder itself
			}
			if errors.Is(err, fs.ErrNotExist) {
				// Listed by its parent, gone before it was read: it
				// was deleted (an editor's temporary folder).
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			// A folder that cannot be listed (or an entry gone since
			// it was): reported at it, and the walk goes on, so that
			// every such folder is reported at once.
			errs = append(errs, sim.Error{File: path.Join(contentName, p), Pos: sim.Pos{Line: 1, Col: 1},
				Msg: "cannot read this folder: " + sim.EscapeName(readReason(err))})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) && (d.IsDir() || name != "_index.md") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if underBad(p) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		// A link the build would not read (an editor's backup) is left
		// alone, as any such file is.
		if d.Type()&fs.ModeSymlink != 0 && publishedName(name) {
			if at, ok := out.linkInto(p); ok {
				errs = append(errs, sim.Error{File: path.Join(contentName, p), Pos: sim.Pos{Line: 1, Col: 1},
					Msg: "this symbolic link points into the output folder " + sim.EscapeName(out.name) + " (" + sim.EscapeName(at) +
						"), which the build replaces: each build would read what the previous one wrote; remove the link or build into another folder (--out)"})
				return nil
			}
		}
		isLink := d.Type()&fs.ModeSymlink != 0 && path.Ext(name) != ".md"
		var info fs.FileInfo
		if isLink {
			if info, err = fs.Stat(fsys, p); err != nil || !info.IsDir() {
				// A link that is not a folder is a file to publish, and
				// must lead to a regular one, as a page's link must: one
				// to a device, to nothing or round to itself is an
				// error at it, not a file quietly left out.
				if !publishedName(name) {
					return nil
				}
				if why := notAPage(fsys, p, d.Type()); why != "" {
					errs = append(errs, sim.Error{File: path.Join(contentName, p), Pos: sim.Pos{Line: 1, Col: 1},
						Msg: why + "; a file the site publishes must be a regular file (or a link to one)"})
					return nil
				}
				if why := markdownNotPage(name); why != "" {
					errs = append(errs, sim.Error{File: path.Join(contentName, p), Pos: sim.Pos{Line: 1, Col: 1}, Msg: why})
					return nil
				}
				files = append(files, p)
				return nil
			}
		}
		// Only a link can bring the walk back to a folder it is in: check
		// each link, and each folder under one.
		if blame := deepestLink(links, p, isLink); blame != "" && (isLink || d.IsDir()) {
			if info == nil {
				if info, err = fs.Stat(fsys, p); err != nil {
					return err
				}
			}
			// refuse reports the link once (what it reaches, then
			// why) and reads nothing under it.
			refuse := func(reaches, why string) error {
				if !bad[blame] {
					bad[blame] = true
					at := ""
					if blame != p {
						at = " (at " + sim.EscapeName(path.Join(contentName, p)) + ")"
					}
					errs = append(errs, sim.Error{File: path.Join(contentName, blame), Pos: sim.Pos{Line: 1, Col: 1},
						Msg: "following this symbolic link " + reaches + at + ", " + why})
				}
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if out != nil && out.info != nil && os.SameFile(info, out.info) {
				return refuse("reaches the output folder "+sim.EscapeName(out.name),
					"which the build replaces: each build would publish the previous site inside the new one, one level deeper; remove the link or build into another folder (--out)")
			}
			if loop, ok := walkedInto(fsys, p, info); ok {
				return refuse("comes back to "+sim.EscapeName(path.Join(contentName, loop)),
					"a folder the walk is already in, so its pages would never end; remove the link or point it elsewhere")
			}
		}
		if isLink {
			links = append(links, p)
			return fs.WalkDir(fsys, p, visit)
		}
		if !d.IsDir() && path.Ext(name) == ".md" {
			// Reading a named pipe or a device would block or never end;
			// a symbolic link counts by what it points at.
			if why := notAPage(fsys, p, d.Type()); why != "" {
				errs = append(errs, sim.Error{File: path.Join(contentName, p), Pos: sim.Pos{Line: 1, Col: 1},
					Msg: why + "; a page must be a regular file (or a link to one)"})
				return nil
			}
			paths = append(paths, p)
		} else if !d.IsDir() && publishedName(name) {
			if !d.Type().IsRegular() {
				errs = append(errs, sim.Error{File: path.Join(contentName, p), Pos: sim.Pos{Line: 1, Col: 1},
					Msg: "this is " + fileKind(d.Type()) + "; a file the site publishes must be a regular file (or a link to one)"})
				return nil
			}
			if why := markdownNotPage(name); why != "" {
				errs = append(errs, sim.Error{File: path.Join(contentName, p), Pos: sim.Pos{Line: 1, Col: 1}, Msg: why})
				return nil
			}
			files = append(files, p)
		}
		return nil
	}
	if err := fs.WalkDir(fsys, ".", visit); err != nil {
		return nil, nil, err
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, nil, errs
	}
	return paths, files, nil
}

// markdownNotPage says why a file named like Markdown but not *.md
// ("UP.MD", "notes.markdown") is an error: it would be published as a
// file, not read as a page, and so go missing from the contents without a
// word. It returns "" for other names.
func markdownNotPage(name string) string {
	ext := path.Ext(name)
	switch strings.ToLower(ext) {
	case ".md", ".markdown", ".mdown", ".mkd", ".mkdn":
		return fmt.Sprintf("pages are files named *.md, in lower case, and this one would be published as a file, not a page: rename it %s", sim.EscapeName(strings.TrimSuffix(name, ext)+".md"))
	}
	return ""
}

// outFolder is the output folder readPages must not walk into: its name as
// the user gave it, what os.Stat said of it (nil when it does not exist
// yet), its absolute path with every link resolved (resolvePath), and the
// operating system's path of the content folder ("" when the content is
// not a folder of it).
type outFolder struct {
	name       string
	info       fs.FileInfo
	abs        string
	contentDir string
}

// linkInto reports whether the symbolic link at p (slash-separated, in the
// content folder) leads, through any chain of links, to the output folder
// or into it, and returns where it leads (resolved as resolvePath does).
// Unlike a Stat it needs no target to exist: on the first build the
// output folder is not made yet, and the next build would read, through
// the link, what the previous one wrote.
func (o *outFolder) linkInto(p string) (string, bool) {
	if o == nil || o.contentDir == "" || o.abs == "" {
		return "", false
	}
	cur := filepath.Join(o.contentDir, filepath.FromSlash(p))
	for range 40 { // as many links as Linux follows (ELOOP)
		t, err := os.Readlink(cur)
		if err != nil {
			break // not a link (any more): cur is where it leads
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(cur), t)
		}
		cur = t
	}
	at := resolvePath(cur)
	if at == o.abs && o.info != nil {
		return "", false // the walk's own check names a link to the folder itself
	}
	return at, at == o.abs || strings.HasPrefix(at, o.abs+string(filepath.Separator))
}

// resolvePath is p made absolute with the links of its longest existing
// leading part resolved (filepath.EvalSymlinks), the rest, which does not
// exist yet, joined on unchanged; "" when the working folder is unknown.
func resolvePath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	rest := ""
	for dir := abs; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		up := filepath.Dir(dir)
		if up == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = up
	}
}

// publishedName reports whether a file of the content folder with this
// name, not a page, is published: not an editor's temporary file
// (IgnoredName), and not Go source, since a content folder may be the Go
// package that embeds its pages, as this repository's is (content/embed.go).
func publishedName(name string) bool {
	return !IgnoredName(name) && path.Ext(name) != ".go"
}

// IgnoredName reports whether a file name is hidden or one of the
// temporary files editors write next to the file being saved: vim's swap
// files and its "4913" write test, backups ending in "~", Emacs' lock
// (.#name) and auto-save (#name#) files, JetBrains' safe-write files, and
// *.tmp, *.swp/.swo/.swx, *.bak. The build does not publish such a file
// from the content folder, and serve does not rebuild when one changes.
func IgnoredName(name string) bool {
	switch {
	case name == "4913",
		strings.HasPrefix(name, "."),
		strings.HasSuffix(name, "~"),
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),
		strings.Contains(name, "___jb_"):
		return true
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".swp", ".swo", ".swx", ".tmp", ".bak":
		return true
	}
	return false
}

// deepestLink is p itself when p is a link about to be followed, else the
// innermost followed link that holds p, or "" when none does.
func deepestLink(links []string, p string, isLink bool) string {
	if isLink {
		return p
	}
	best := ""
	for _, l := range links {
		if strings.HasPrefix(p, l+"/") && len(l) > len(best) {
			best = l
		}
	}
	return best
}

// walkedInto returns the folder on p's path above it ("." included) that
// is the folder p is (info), if any. Every endless walk through links
// passes a folder it is already in, so this check ends each one.
func walkedInto(fsys fs.FS, p string, info fs.FileInfo) (string, bool) {
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		if up, err := fs.Stat(fsys, dir); err == nil && os.SameFile(up, info) {
			return dir, true
		}
		if dir == "." {
			return "", false
		}
	}
}

// notAPage says why the *.md at p, of type t, cannot be read as a page,
// or "" when it can: it is a regular file or a symbolic link to one.
func notAPage(fsys fs.FS, p string, t fs.FileMode) string {
	if t.IsRegular() {
		return ""
	}
	if t&fs.ModeSymlink == 0 {
		return "this is " + fileKind(t)
	}
	info, err := fs.Stat(fsys, p)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return "this symbolic link leads, through links, back to itself"
	case errors.Is(err, fs.ErrNotExist):
		return "this symbolic link points to nothing (its target does not exist)"
	case err != nil:
		return "this symbolic link cannot be followed: " + sim.EscapeName(err.Error())
	case !info.Mode().IsRegular():
		return "this symbolic link points to " + fileKind(info.Mode().Type())
	}
	return ""
}

// fileKind names a file type that is not a regular file, with its article.
func fileKind(t fs.FileMode) string {
	switch {
	case t.IsDir():
		return "a folder"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// firstInvalidUTF8 is the position of the first byte of src that does not
// start a valid UTF-8 character (its column counts characters, as every
// position does: see sim.Pos).
func firstInvalidUTF8(src []byte) sim.Pos {
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += n
	}
	return sim.Pos{Line: line, Col: col}
}
