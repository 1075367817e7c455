package site

import (
	"fmt"
	"path"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// resolveLinks checks and rewrites the links of a page that point at other
// pages of the site, so that authors can link the way they would on a
// forge, by source file, and never ship a dead link:
//
//   - "acks.md" or "../ops/acks.md#isr" (a content file, relative to the
//     linking page) becomes "acks.html" or "ops-acks.html#isr";
//   - "acks.html" (an output page, relative to the flat site root) is kept;
//   - either one naming no page of the site is an error at the link.
//
// Links with a scheme ("https:", "mailto:"), in-page anchors ("#isr") and
// other files are left alone. pages maps content paths to pages; outputs
// holds every output page name.
func resolveLinks(pg *Page, pages map[string]*Page, outputs map[string]bool) ErrorList {
	var errs ErrorList
	lines := newLineIndex(pg.src)
	_ = ast.Walk(pg.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		link, ok := n.(*ast.Link)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		dest := string(link.Destination)
		if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "//") || hasScheme(dest) {
			return ast.WalkContinue, nil
		}
		target, frag, hasFrag := strings.Cut(dest, "#")
		if hasFrag {
			frag = "#" + frag
		}
		switch path.Ext(target) {
		case ".md":
			p := path.Join(path.Dir(pg.Path), target)
			to, ok := pages[p]
			if !ok {
				line, col := nodePos(link, pg.src, lines)
				errs = append(errs, Error{File: pg.File, Line: line, Col: col,
					Msg: fmt.Sprintf("link to %q: no page %s in the content folder", dest, p)})
				return ast.WalkContinue, nil
			}
			link.Destination = []byte(outName(to) + frag)
		case ".html":
			if strings.HasPrefix(target, "/") || !outputs[path.Clean(target)] {
				line, col := nodePos(link, pg.src, lines)
				errs = append(errs, Error{File: pg.File, Line: line, Col: col,
					Msg: fmt.Sprintf("link to %q: the site has no page %s (link to the page's .md file, or to SLUG.html)", dest, target)})
			}
		}
		return ast.WalkContinue, nil
	})
	return errs
}

// hasScheme reports whether a link starts with a URL scheme ("https:").
func hasScheme(dest string) bool {
	i := strings.IndexAny(dest, ":/?#")
	return i > 0 && dest[i] == ':'
}

// nodePos approximates where an inline node starts: the first text inside
// it, one column back for the "[" of a link; else the enclosing block's
// first line.
func nodePos(n ast.Node, src []byte, lines lineIndex) (int, int) {
	var start = -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering && start < 0 {
			start = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if start >= 0 {
		line := lines.line(start)
		return line, max(start-lines.start(line), 1)
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			line := lines.line(p.Lines().At(0).Start)
			return line, 1
		}
	}
	return 1, 1
}
