package site

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer/html"
	"golang.org/x/text/unicode/norm"
)

// resolveLinks checks and rewrites the links and image sources of a page
// that point into the site, so that authors can link the way they would
// on a forge, by source file, and never ship a dead link:
//
//   - "acks.md" or "../ops/acks.md#isr" (a content file, relative to the
//     linking page) becomes a link relative to the linking page's output
//     file: "acks.html", or "../ops/acks.html#isr" from a page of another
//     section (Section);
//   - "acks.html" or "../ops/index.html" (an output page, relative to the
//     linking page's output file) is kept, and so is "playground.html",
//     which every site has, its "#f=" fence checked to decode and parse;
//   - "ops/" (a section's folder, by its content name or its output
//     name; "./" or "../" for the root section) becomes a link to the
//     section's index page, "ops/index.html", which opens from disk too;
//   - any other relative link or image source must name a file of the
//     content folder the site publishes (staticFiles), by its content
//     path or its output path, and becomes a link to its output path
//     (linkContext.other);
//   - one naming nothing the site publishes is an error at the link
//     ("file:line:col: link to "nosuch": …", or "image "x.png": …").
//
// Links with a scheme ("https:", "mailto:", "data:image/png;…") and links
// starting "//" are left alone, and so is the query of a link to a page;
// a link goldmark would write empty (html.IsDangerousURL: "javascript:",
// "vbscript:", "file:", and "data:" but for PNG, GIF, JPEG and WebP
// images) is an error naming its scheme. The fragment
// of a link to a page of the site, or of an in-page link ("#isr"), is
// returned to be checked by checkFragments once the figures are known.
//
// deps, when not nil, receives every fact of the site beyond pg itself
// that the result (with checkFragments') read: see linkDep.
func resolveLinks(pg *Page, lc *linkContext, deps *[]linkDep) ([]fragLink, sim.ErrorList) {
	var errs sim.ErrorList
	var frags []fragLink
	var lines lineIndex // made at the first error, for its position
	// Past MaxLinkErrors, the page's bad links are counted, not each
	// reported and positioned.
	shown, hidden, firstHidden := 0, 0, linkRef{}
	refs := pageLinks(pg)
	for _, a := range pg.autolinks {
		// goldmark writes a dangerous autolink's href empty, as for a link.
		if !html.IsDangerousURL(a.url) {
			continue
		}
		p := sim.Pos{Line: 1, Col: 1}
		if a.at >= 0 {
			p = pg.lines(&lines).pos(pg.src, a.at)
		}
		errs = append(errs, sim.Error{File: pg.File, Pos: p, Msg: fmt.Sprintf("link to %q: ", a.url) + unpublished(string(a.url))})
	}
	for i, ref := range refs {
		// A page kept from the last build (PageCache) holds the links
		// that build rewrote: start again from what the author wrote.
		*ref.dest = pg.linkOrig[i]
		dest := pg.linkStrs[i]
		fail := func(format string, args ...any) {
			if shown == MaxLinkErrors {
				if hidden++; hidden == 1 {
					firstHidden = ref
				}
				return
			}
			shown++
			what := "link to"
			if ref.image {
				what = "image"
			}
			errs = append(errs, sim.Error{File: pg.File, Pos: ref.pos(pg.src, pg.lines(&lines)),
				Msg: fmt.Sprintf("%s %q: ", what, dest) + fmt.Sprintf(format, args...)})
		}
		if html.IsDangerousURL(*ref.dest) {
			// goldmark writes such a link as href="" (a link to the page
			// itself) and such an image as src="": say so where it is.
			fail("%s", unpublished(dest))
			continue
		}
		if dest == "" || strings.HasPrefix(dest, "//") || hasScheme(dest) {
			continue
		}
		rawTarget, frag, hasFrag := strings.Cut(dest, "#")
		beforeQuery := rawTarget
		rawTarget, _, hasQuery := strings.Cut(rawTarget, "?") // a query names no other file
		rest := dest[len(rawTarget):]                         // the query and fragment, kept as written
		target := rawTarget
		if t, err := url.PathUnescape(rawTarget); err == nil {
			target = t // "a%20b.md" names the file "a b.md"
		}
		fl := fragLink{from: pg, to: pg, ref: ref, dest: dest, frag: frag}
		switch {
		case target == "":
			addDep(deps, linkDep{kind: depSelf, frag: hasFrag})
		case strings.HasPrefix(target, "/"):
			fail("a path from the server's root breaks when the site is served from a sub-path or opened from disk: write it relative to this page")
			continue
		case strings.EqualFold(path.Ext(target), ".md"):
			p := path.Join(path.Dir(pg.Path), target)
			addDep(deps, linkDep{kind: depSource, key: p, frag: hasFrag})
			to, ok := lc.byPath[p]
			if !ok {
				// Typed in the other Unicode normalization than the
				// file's name (é, or e and a combining accent), the
				// link is to that page: the names print alike.
				if to = lc.samePageNormalized(p); to != nil {
					addDep(deps, linkDep{kind: depSource, key: to.Path, frag: hasFrag})
				}
			}
			if to == nil {
				fail("no page %s in the content folder", sim.EscapeName(p))
				continue
			}
			fl.to, fl.page = to, relHref(pg.Out, to.Out)
			*ref.dest = []byte(fl.page + rest)
		case strings.EqualFold(path.Ext(target), ".html"):
			// Relative to the linking page's folder in the output.
			out := path.Join(path.Dir(pg.Out), target)
			if out == playground.PageFile {
				// Every site has the playground; a "#f=" on the link
				// carries a fence (playground.DecodeFragment), which
				// must read and parse there.
				if f, ok := strings.CutPrefix(frag, "f="); ok {
					if why := linkedFenceProblem(f); why != "" {
						fail("%s", why)
						continue
					}
				}
				fl.page = path.Clean(target)
				fl.to = nil
				break
			}
			addDep(deps, linkDep{kind: depOutput, key: out, frag: hasFrag})
			if strings.HasPrefix(out, "../") || !lc.outputs[out] && !lc.staticOut[out] {
				fail("the site has no page %s (link to the page's .md file, or to SLUG.html)", sim.EscapeName(target))
				continue
			}
			fl.page = path.Clean(target)
			fl.to = lc.byOut[out] // nil for a file published as it is
		default:
			key := otherKey(pg, target)
			addDep(deps, linkDep{kind: depOther, key: key, frag: hasFrag})
			out, why := lc.other(key)
			if out == "" {
				switch {
				case hasFrag && strings.Contains(frag, "."):
					why = strings.TrimSuffix(why, linkHelp) + `: a "#" starts the link's fragment, so write %23 for a "#" in a file name`
				case hasQuery && strings.Contains(beforeQuery[len(rawTarget):], "."):
					why = strings.TrimSuffix(why, linkHelp) + `: a "?" starts the link's query, so write %3F for a "?" in a file name`
				case ref.image:
					why = strings.TrimSuffix(why, linkHelp)
				}
				fail("%s", why)
				continue
			}
			fl.page = (&url.URL{Path: relHref(pg.Out, out)}).String()
			*ref.dest = []byte(fl.page + rest)
			fl.to = nil
			if path.Base(out) == "index.html" {
				fl.to = lc.byOut[out] // a section's index page; nil for a generated list
			}
		}
		if hasFrag && fl.to != nil {
			frags = append(frags, fl) // positioned only if it fails (fragLink.position)
		}
	}
	if hidden > 0 {
		errs = append(errs, sim.Error{File: pg.File, Pos: firstHidden.pos(pg.src, pg.lines(&lines)), Msg: tooManyLinkErrors(hidden)})
	}
	return frags, errs
}

// MaxLinkErrors bounds the bad links reported of one page by each of the
// two link checks (the files they name, then the headings, figures and
// beats): past it, one more error says how many are not shown. A page of
// 31,250 bad links printed them all, and positioning each counted its
// line's characters again (try12 T10).
const MaxLinkErrors = 50

func tooManyLinkErrors(n int) string {
	if n == 1 {
		return fmt.Sprintf("too many bad links on this page: 1 more from here on is not shown (at most %d are)", MaxLinkErrors)
	}
	return fmt.Sprintf("too many bad links on this page: %d more from here on are not shown (at most %d are)", n, MaxLinkErrors)
}

// linkedFenceProblem says why the fence a link to the playground carries
// after "#f=" would not open there: a fragment that does not decode, or a
// fence that does not parse (its first error, positioned in the fence);
// "" if it opens.
func linkedFenceProblem(frag string) string {
	body, err := playground.DecodeFragment(frag)
	if err != nil {
		return "the playground cannot read the fence in this link (" + strings.TrimPrefix(err.Error(), "fragment: ") + ")"
	}
	if p := fence.Parse(body); len(p.Errors) > 0 {
		e := p.Errors[0]
		return fmt.Sprintf("the fence in this link does not parse, at %d:%d of the fence: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return ""
}

// samePageNormalized is the page whose content path is p in another
// Unicode normalization (NFC or NFD), the first in path order; nil if
// there is none.
func (lc *linkContext) samePageNormalized(p string) *Page {
	want := norm.NFC.String(p)
	var found *Page
	for k, pg := range lc.byPath {
		if k != p && norm.NFC.String(k) == want && (found == nil || k < found.Path) {
			found = pg
		}
	}
	return found
}

// otherKey is what linkContext.other looks a link up by: the target
// relative to the content folder and relative to the output folder, and
// whether it is written as a folder ("ops/", ".", "..").
func otherKey(pg *Page, target string) string {
	folder := "f"
	if strings.HasSuffix(target, "/") || path.Base(target) == "." || path.Base(target) == ".." {
		folder = "d"
	}
	return folder + "\x00" + path.Join(path.Dir(pg.Path), target) + "\x00" + path.Join(path.Dir(pg.Out), target)
}

// other resolves a link that names neither a page's .md file nor an
// output page (otherKey): a section's folder ("ops/", by its content
// folder or its output folder) gives the section's index page; a file
// gives what the site publishes at it. It returns the output path,
// relative to the site root, or "" and what is wrong.
func (lc *linkContext) other(key string) (out, why string) {
	kind, rest, _ := strings.Cut(key, "\x00")
	cpath, opath, _ := strings.Cut(rest, "\x00")
	inside := func(p string) bool { return p != ".." && !strings.HasPrefix(p, "../") }
	// The index page of the section the target names as a folder, if
	// it names one.
	index, dir := "", cpath
	if dir == "." {
		dir = "" // the root section
	}
	if inside(cpath) && lc.secByDir[dir] != nil {
		index = lc.secByDir[dir].Out()
	} else if oi := path.Join(opath, "index.html"); inside(opath) && lc.outputs[oi] {
		index = oi
	}
	switch {
	case kind == "d" && index != "":
		return index, ""
	case kind == "d":
		return "", fmt.Sprintf("no section folder %s in the content folder"+linkHelp, sim.EscapeName(cpath))
	}
	if o, ok := lc.static[cpath]; ok && inside(cpath) {
		return o, ""
	}
	if inside(opath) && lc.staticOut[opath] {
		return opath, ""
	}
	switch {
	case index != "":
		return "", fmt.Sprintf("%s is a section's folder: write %s/ for its index page", sim.EscapeName(cpath), path.Base(cpath))
	case lc.byPath[cpath+".md"] != nil:
		return "", fmt.Sprintf("the content folder has no file %s: did you mean the page %s.md?", sim.EscapeName(cpath), path.Base(cpath))
	}
	return "", fmt.Sprintf("the content folder has no file %s", sim.EscapeName(cpath)) + linkHelp
}

// linkHelp ends a message about a link that names nothing: what a link
// may name.
const linkHelp = " (link to a page's .md file, to a folder of pages as FOLDER/, or to a file kept in the content folder)"

// pageLinks returns pg's links and images in document order, found by one
// walk of its document the first time (a page kept by the PageCache keeps
// them), and records each one's destination as the author wrote it
// (pg.linkOrig), which every build starts again from.
func pageLinks(pg *Page) []linkRef {
	if pg.linksFound {
		return pg.links
	}
	pg.linksFound = true
	var from map[ast.Node]int // per block, where the next autolink's "<" is looked for
	_ = ast.Walk(pg.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var ref linkRef
		switch n := n.(type) {
		case *ast.Link:
			ref = linkRef{node: n, dest: &n.Destination}
		case *ast.Image:
			ref = linkRef{node: n, dest: &n.Destination, image: true}
		case *ast.AutoLink:
			if n.AutoLinkType == ast.AutoLinkURL {
				if from == nil {
					from = map[ast.Node]int{}
				}
				pg.autolinks = append(pg.autolinks, findAutolink(pg.src, n, from))
			}
			return ast.WalkContinue, nil
		default:
			return ast.WalkContinue, nil
		}
		pg.links = append(pg.links, ref)
		pg.linkOrig = append(pg.linkOrig, *ref.dest)
		pg.linkStrs = append(pg.linkStrs, string(*ref.dest))
		return ast.WalkContinue, nil
	})
	return pg.links
}

// unpublished says why a link to dest, a URL goldmark writes empty, is
// an error.
func unpublished(dest string) string {
	scheme, _, _ := strings.Cut(dest, ":")
	return "links with the scheme " + strings.ToLower(strings.TrimSpace(scheme)) + ": are not published (the page would get an empty link in their place); link to an https: address or a file of the site"
}

// autolink is one URL autolink of a page: its URL as written and the
// offset of its "<" in the page's source, or -1.
type autolink struct {
	url []byte
	at  int
}

// findAutolink finds n ("<URL>"; goldmark keeps no position for it) in the
// text of its block, after the block's autolinks already found (from).
func findAutolink(src []byte, n *ast.AutoLink, from map[ast.Node]int) autolink {
	a := autolink{url: n.URL(src), at: -1}
	b := n.Parent()
	for b != nil && b.Type() != ast.TypeBlock {
		b = b.Parent()
	}
	if b == nil || b.Lines().Len() == 0 {
		return a
	}
	lines := b.Lines()
	start, end := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	if f, ok := from[b]; ok {
		start = f
	}
	if i := bytes.Index(src[start:end], append(append([]byte("<"), a.url...), '>')); i >= 0 {
		a.at = start + i
		from[b] = a.at + len(a.url) + 2
	}
	return a
}

// linkRef is one link ("[text](dest)") or image ("![alt](src)") of a
// page: the node, for its position, and its destination, which the build
// rewrites.
type linkRef struct {
	node  ast.Node
	dest  *[]byte
	image bool
}

// pos is where the link is written: its "[", or an image's "!".
func (r linkRef) pos(src []byte, lines lineIndex) sim.Pos {
	p := nodePos(r.node, src, lines)
	if r.image && p.Col > 1 {
		p.Col--
	}
	return p
}

// lines returns the page's line index, made into *x the first time.
func (pg *Page) lines(x *lineIndex) lineIndex {
	if *x == nil {
		*x = newLineIndex(pg.src)
	}
	return *x
}

// fragLink is a link with a fragment to a page of the site (or to its own
// page): "acks.md#isr", "acks.md#acks-one-loss@12", "#isr".
type fragLink struct {
	from, to *Page
	ref      linkRef
	dest     string // as written
	page     string // the output page the link now points at; "" for an in-page link
	frag     string // the fragment, without "#"
}

// position is where the link is written in its page.
func (l fragLink) position() sim.Pos {
	return l.ref.pos(l.from.src, newLineIndex(l.from.src))
}

// pageFigure is what a link needs to know of a figure: its scenario id,
// its full id (FigureID, made once: every link to the page compares it),
// last beat and knobs, and with knobs the last beat of each combination
// and the fence's own (FigureResult.Lasts).
type pageFigure struct {
	id, full string
	last     int
	knobs    []KnobInfo
	lasts    []int
	def      int
}

// lastOf returns the last beat of the combination a link's knob query
// picks (checked by checkKnobQuery; the knobs it leaves out keep the
// fence's own values) and that combination's name ("" for the fence's
// own). Combinations are numbered as fence.Parsed.Variants is, the last
// knob varying fastest.
func (f *pageFigure) lastOf(query string) (int, string) {
	if len(f.lasts) == 0 || query == "" {
		return f.last, ""
	}
	choice := make([]int, len(f.knobs))
	for k, i := len(f.knobs)-1, f.def; k >= 0; k-- {
		choice[k], i = i%len(f.knobs[k].Values), i/len(f.knobs[k].Values)
	}
	for _, part := range strings.Split(query, "&") {
		path, value, _ := strings.Cut(part, "=")
		for k, kn := range f.knobs {
			if kn.Path == path {
				choice[k] = slices.Index(kn.Values, value)
			}
		}
	}
	i := 0
	var label []string
	for k, kn := range f.knobs {
		i = i*len(kn.Values) + choice[k]
		label = append(label, kn.Path+"="+kn.Values[choice[k]])
	}
	if i == f.def || i >= len(f.lasts) {
		return f.last, ""
	}
	return f.lasts[i], strings.Join(label, ", ")
}

// checkFragments checks each fragment against the page it points at and
// rewrites the short forms of figure links. A fragment names one of:
//
//   - a heading of the page ("#isr"), as the build gives it its id, the
//     page's top ("#", "#top") or its main text ("#main");
//   - a figure by its DOM id ("#acks--acks-one-loss") or, for short, by its
//     scenario id ("#acks-one-loss", rewritten to the DOM id);
//   - one beat of a figure, either way ("#acks-one-loss@12" or
//     "#acks--acks-one-loss@12"), the beat no later than the figure's last;
//   - a combination of a figure's knob values, with or without a beat
//     ("#acks-one-loss@12?producer.acks=0&topic.partitions=3",
//     "#acks-one-loss?producer.acks=0"): each knob named once, by its
//     path, with one of its values.
//
// figs lists each page's figures in page order; broken lists, the same
// way, its fences that did not parse (their id as written, last -1; id ""
// when not even the id could be read). A link naming a broken figure
// cannot be checked (its beats and knobs are not known), and says so
// beside the fence's own error, so that a bad beat or knob value is not
// found only once the fence is mended; a link naming nothing on a page
// whose broken fence has no id may name that one, and is left to the
// fence's error. So is a link into a page whose text was not read at all
// (Page.unread: not UTF-8, say), whose figures are unknown (and its
// headings too, when it was not parsed): a link that names none it knows
// says it could not be checked, where it said the page had no such figure.
func checkFragments(links []fragLink, figs, broken map[*Page][]pageFigure) sim.ErrorList {
	var errs sim.ErrorList
	// Links from one page that cannot be checked for one reason (into one
	// broken figure, or one unread page) are one error, at the first of
	// them, so that a typo in a fence linked from a dozen places is not
	// buried under a dozen errors saying only that (try12 T2).
	type unchecked struct {
		from *Page
		why  string
	}
	type fold struct {
		at        int // the error's index in errs
		dest, why string
		more      int // links folded into it
	}
	var folds []fold
	foldOf := map[unchecked]int{} // index in folds
	// Past MaxLinkErrors errors of a page, its bad links are counted (and
	// the first of them kept, for the error that says how many).
	type excess struct {
		n     int
		first fragLink
	}
	shown := map[*Page]int{}
	hidden := map[*Page]*excess{}
	var hiddenOrder []*Page
	room := func(l fragLink) bool {
		if shown[l.from] < MaxLinkErrors {
			shown[l.from]++
			return true
		}
		h := hidden[l.from]
		if h == nil {
			h = &excess{first: l}
			hidden[l.from] = h
			hiddenOrder = append(hiddenOrder, l.from)
		}
		h.n++
		return false
	}
	cannot := func(l fragLink, why string) {
		k := unchecked{l.from, why}
		if i, ok := foldOf[k]; ok {
			folds[i].more++
			return
		}
		if !room(l) {
			return
		}
		foldOf[k] = len(folds)
		folds = append(folds, fold{at: len(errs), dest: l.dest, why: why})
		errs = append(errs, sim.Error{File: l.from.File, Pos: l.position(), Follows: true})
	}
	for _, l := range links {
		head, query, hasQuery := strings.Cut(l.frag, "?")
		name, beat, isBeat := strings.Cut(head, "@")
		fail := func(format string, args ...any) {
			if !room(l) {
				return
			}
			errs = append(errs, sim.Error{File: l.from.File, Pos: l.position(),
				Msg: fmt.Sprintf("link to %q: ", l.dest) + fmt.Sprintf(format, args...)})
		}
		// The full id first: a figure "a--intro" on page a is not the
		// figure "intro", whose full id is "a--intro" too… only on a
		// page named a. A short id names the figure with that scenario id.
		var fig *pageFigure
		for i, f := range figs[l.to] {
			if name == f.full {
				fig = &figs[l.to][i]
				break
			}
		}
		if fig == nil {
			for i, f := range figs[l.to] {
				if name == f.id {
					fig = &figs[l.to][i]
					if !isBeat && hasHeadingID(l.to, name) {
						fail("%s has both a heading and a figure with the id %q: write the figure's full id, %q, or the heading's", l.to.File, name, f.full)
						fig = nil
						name = ""
					}
					break
				}
			}
		}
		if fig != nil {
			name = fig.full
		}
		if name == "" {
			continue // reported as ambiguous
		}
		if fig == nil && (isBeat || hasQuery || !hasHeadingID(l.to, name) && name != "" && !strings.EqualFold(name, "top") && name != "main") {
			// Not a figure that built, nor a heading: on a page left
			// unread, or a broken one?
			if l.to.unread != "" {
				cannot(l, fmt.Sprintf("%s %s (its own error says where)", l.to.File, l.to.unread))
				continue
			}
			if b := brokenFigure(broken[l.to], name); b != nil {
				cannot(l, fmt.Sprintf("figure %q of %s does not build (its fence's error says why)", b.id, l.to.File))
				continue
			}
			if brokenFigure(broken[l.to], "") != nil {
				continue // the fence whose id could not be read may be this one
			}
		}
		if fig != nil && hasQuery {
			if msg := checkKnobQuery(fig, query); msg != "" {
				fail("%s", msg)
				continue
			}
		}
		suffix := ""
		if hasQuery {
			suffix = "?" + query
		}
		switch {
		case fig == nil && (isBeat || hasQuery):
			fail("%s has no figure %q%s", l.to.File, name, figureList(figs[l.to]))
		case fig == nil && (name == "" || strings.EqualFold(name, "top") || name == "main"):
			// The page's top (HTML scrolls there for "#" and "#top") and
			// the main text (the layout's id="main").
		case fig == nil && !hasHeadingID(l.to, name):
			fail("%s has no heading or figure with the id %q%s", l.to.File, name, figureList(figs[l.to]))
		case fig != nil && isBeat:
			n, err := strconv.Atoi(beat)
			if err != nil || n < 0 || strconv.Itoa(n) != beat {
				fail("%q is not a beat number (write #FIGURE@BEAT, e.g. #%s@3)", beat, fig.id)
			} else if last, combo := fig.lastOf(query); n > last {
				if combo != "" {
					combo = " with " + combo
				}
				fail("figure %q ends at beat %d%s", fig.id, last, combo)
			} else {
				*l.ref.dest = []byte(l.page + "#" + name + "@" + beat + suffix)
			}
		case fig != nil:
			*l.ref.dest = []byte(l.page + "#" + name + suffix)
		}
	}
	for _, f := range folds {
		msg := fmt.Sprintf("link to %q: %s, so this link could not be checked", f.dest, f.why)
		if f.more > 0 {
			links := " more links"
			if f.more == 1 {
				links = " more link"
			}
			msg = fmt.Sprintf("link to %q and %d%s on this page: %s, so they could not be checked", f.dest, f.more, links, f.why)
		}
		errs[f.at].Msg = msg
	}
	for _, pg := range hiddenOrder {
		h := hidden[pg]
		errs = append(errs, sim.Error{File: pg.File, Pos: h.first.position(), Msg: tooManyLinkErrors(h.n)})
	}
	return errs
}

// brokenFigure returns the broken figure of a page that name names by its
// id or full id, or, for name "", one whose id could not be read; nil when
// there is none.
func brokenFigure(broken []pageFigure, name string) *pageFigure {
	for i, b := range broken {
		if name == "" && b.id == "" || name != "" && (name == b.id || name == b.full) {
			return &broken[i]
		}
	}
	return nil
}

// checkKnobQuery checks the knob values a figure link names after "?":
// "producer.acks=0&topic.partitions=3". It returns what is wrong, or "".
func checkKnobQuery(fig *pageFigure, query string) string {
	if len(fig.knobs) == 0 {
		return fmt.Sprintf("figure %q has no knobs, so a link cannot pick their values (drop the part from \"?\")", fig.id)
	}
	var paths []string
	for _, k := range fig.knobs {
		paths = append(paths, k.Path)
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(query, "&") {
		path, value, ok := strings.Cut(part, "=")
		if !ok {
			return fmt.Sprintf("%q does not pick a knob value: write KNOB=VALUE, such as %s=%s", part, fig.knobs[0].Path, fig.knobs[0].Values[0])
		}
		var knob *KnobInfo
		for i := range fig.knobs {
			if fig.knobs[i].Path == path {
				knob = &fig.knobs[i]
			}
		}
		switch {
		case knob == nil:
			return fmt.Sprintf("figure %q has no knob %q (its knobs: %s)", fig.id, path, strings.Join(paths, ", "))
		case seen[path]:
			return fmt.Sprintf("knob %s is named twice", path)
		case !slices.Contains(knob.Values, value):
			return fmt.Sprintf("knob %s of figure %q has no value %q (its values: %s)", path, fig.id, value, strings.Join(knob.Values, ", "))
		}
		seen[path] = true
	}
	return ""
}

// figureList ends an error about a missing figure with the page's figure
// ids, so the author sees what there is to link to.
func figureList(figs []pageFigure) string {
	if len(figs) == 0 {
		return ""
	}
	ids := make([]string, len(figs))
	for i, f := range figs {
		ids[i] = f.id
	}
	return " (its figures: " + strings.Join(ids, ", ") + ")"
}

// hasHeadingID reports whether a heading of pg has the id. The page's
// heading ids are gathered on the first call, in one walk of its tree,
// and kept with the page (a page kept by PageCache keeps its tree).
func hasHeadingID(pg *Page, id string) bool {
	if pg.headingIDs == nil {
		pg.headingIDs = map[string]bool{}
		_ = ast.Walk(pg.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			h, ok := n.(*ast.Heading)
			if !entering || !ok {
				return ast.WalkContinue, nil
			}
			if v, ok := h.AttributeString("id"); ok {
				if b, ok := v.([]byte); ok {
					pg.headingIDs[string(b)] = true
				}
			}
			return ast.WalkSkipChildren, nil
		})
	}
	if pg.headingIDs[id] {
		return true
	}
	// A link may write a heading's letters percent-encoded ("#%C3%BCber"),
	// which a browser decodes before it looks for the id.
	dec, err := url.PathUnescape(id)
	return err == nil && dec != id && pg.headingIDs[dec]
}

// hasScheme reports whether a link starts with a URL scheme ("https:").
func hasScheme(dest string) bool {
	i := strings.IndexAny(dest, ":/?#")
	return i > 0 && dest[i] == ':'
}

// nodePos approximates where an inline node starts: the first text inside
// it, one column back for the "[" of a link; else the enclosing block's
// first line.
func nodePos(n ast.Node, src []byte, lines lineIndex) sim.Pos {
	var start = -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering && start < 0 {
			start = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if start >= 0 {
		p := lines.pos(src, start)
		p.Col = max(p.Col-1, 1)
		return p
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return sim.Pos{Line: lines.line(p.Lines().At(0).Start), Col: 1}
		}
	}
	return sim.Pos{Line: 1, Col: 1}
}
