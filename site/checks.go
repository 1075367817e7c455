package site

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/yuin/goldmark/ast"
)

// checkMarkdown reports slips in a page's Markdown that would otherwise
// build without a word:
//
//   - a fenced block whose info string nearly says kflow ("Kflow",
//     "KFLOW", "kflw": kflow in another case, or one edit away) would
//     show up as a plain code block instead of a figure; it is reported
//     at the info string;
//   - a level-1 heading ("# Title" or a "===" underline) would be a second
//     title on a page whose title comes from the front matter (the layout
//     writes it as the page's one <h1>); it is reported at the heading;
//   - raw HTML, a block or an inline tag, is left out of the page (so a
//     page cannot carry script), and with a block whatever it holds, a
//     fence or a heading among them; it is reported at its start. HTML
//     comments may stay.
func checkMarkdown(pg *Page) sim.ErrorList {
	var errs sim.ErrorList
	lines := newLineIndex(pg.src)
	at := func(off int, format string, args ...any) {
		errs = append(errs, sim.Error{File: pg.File, Pos: lines.pos(pg.src, off), Msg: fmt.Sprintf(format, args...)})
	}
	_ = ast.Walk(pg.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			if lang := string(n.Language(pg.src)); n.Info != nil && nearKflow(lang) {
				at(n.Info.Segment.Start, "fence %q is not a figure: did you mean %q?", lang, FenceLanguage)
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			// Raw HTML is not passed through (a page must not carry
			// script), so a block of it, and any fence or heading inside,
			// would vanish without a word. Comments may stay.
			if n.HTMLBlockType != ast.HTMLBlockType2 && n.Lines().Len() > 0 {
				at(n.Lines().At(0).Start, "raw HTML is not allowed in a page (the build would drop this block and anything inside it): write it in Markdown; only HTML comments may stay")
			}
			// A comment's last line is part of it: text after "-->" on
			// that line is left out with the comment.
			if n.HTMLBlockType == ast.HTMLBlockType2 {
				last := n.ClosureLine
				if !n.HasClosure() && n.Lines().Len() > 0 {
					last = n.Lines().At(n.Lines().Len() - 1)
				}
				line := last.Value(pg.src)
				if i := bytes.LastIndex(line, []byte("-->")); i >= 0 && len(bytes.TrimSpace(line[i+3:])) > 0 {
					at(last.Start+i+3, "text after an HTML comment on the same line is left out with the comment: start it on a line of its own")
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				if seg := n.Segments.At(0); !bytes.HasPrefix(seg.Value(pg.src), []byte("<!--")) {
					at(seg.Start, "raw HTML %q is not allowed in a page (the build would drop it): write it in Markdown, e.g. **bold**, *italic*, `code`, [text](page.md)", string(seg.Value(pg.src)))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			if n.Level == 1 {
				what := "an empty level-1 heading"
				if t := plainText(n, pg.src); t != "" {
					what = fmt.Sprintf("heading %q", t)
				}
				at(headingStart(pg, n, lines), "%s is a second title: a page has one title (front matter); use ## for sections", what)
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return errs
}

// nearKflow reports whether a fence's language is a near miss of
// FenceLanguage: not it, but equal to it in lower case or one edit
// (insert, delete, change) away from it.
func nearKflow(lang string) bool {
	return lang != FenceLanguage && lang != "" && editDistance(strings.ToLower(lang), FenceLanguage) <= 1
}

// headingStart returns the byte offset of a heading's first mark: the
// "#" of an ATX heading, or the first character of a setext heading's
// text. An empty ATX heading ("#" alone) has no text to start from, so the
// first "#" after the block before it is taken.
func headingStart(pg *Page, h *ast.Heading, lines lineIndex) int {
	if h.Lines().Len() > 0 {
		text := h.Lines().At(0).Start
		lineStart := lines.start(lines.line(text))
		if i := bytes.IndexByte(pg.src[lineStart:text], '#'); i >= 0 {
			return lineStart + i
		}
		return text
	}
	from := blockEndBefore(pg, h, lines)
	if i := bytes.IndexByte(pg.src[from:], '#'); i >= 0 {
		return from + i
	}
	return from
}

// blockEndBefore returns the offset just past the last text of the block
// before n (an earlier sibling, or one of its ancestors' earlier
// siblings), or the end of the front matter when nothing comes before n.
func blockEndBefore(pg *Page, n ast.Node, lines lineIndex) int {
	for c := n; c != nil; c = c.Parent() {
		for p := c.PreviousSibling(); p != nil; p = p.PreviousSibling() {
			if end := lastStop(pg, p, lines); end >= 0 {
				return end
			}
		}
	}
	return frontMatterEnd(pg.src)
}

// lastStop returns the offset just past the last text n holds, or -1 when
// it holds none. A figure (a kflow fence the transformer replaced) ends
// with its closing fence line.
func lastStop(pg *Page, n ast.Node, lines lineIndex) int {
	end := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if f, ok := c.(*figureNode); ok {
			last := f.OpenLine
			if k := len(f.BodyLines); k > 0 {
				last = f.BodyLines[k-1].Line
			}
			past := len(pg.src) // past the closing fence, line last+1
			if last+2 <= len(lines) {
				past = lines.start(last + 2)
			}
			end = max(end, past)
			return ast.WalkSkipChildren, nil
		}
		if c.Type() == ast.TypeBlock {
			if l := c.Lines(); l.Len() > 0 {
				end = max(end, l.At(l.Len()-1).Stop)
			}
		} else if t, ok := c.(*ast.Text); ok {
			end = max(end, t.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	return end
}

// frontMatterEnd returns the offset just past the line that closes the
// front matter, or 0 when the page has none.
func frontMatterEnd(src []byte) int {
	if !hasFrontMatter(src) {
		return 0
	}
	first := bytes.IndexByte(src, '\n') + 1
	for off := first; off < len(src); {
		next := bytes.IndexByte(src[off:], '\n')
		end := len(src)
		if next >= 0 {
			end = off + next + 1
		}
		if string(bytes.TrimRight(src[off:end], " \r\n")) == "---" {
			return end
		}
		off = end
	}
	return 0
}
