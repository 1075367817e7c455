package site

import (
	"bytes"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// FenceLanguage is the info string that marks a fenced code block as a
// Kafka Flow scenario.
const FenceLanguage = "kflow"

// KindFigure is the goldmark node kind that replaces every ```kflow fenced
// code block once the fence transformer has run.
var KindFigure = ast.NewNodeKind("KflowFigure")

// figureNode stands where a ```kflow fence was. The transformer fills the
// fence's text and where it sits in the file; the scenario pass (after
// goldmark's Parse, since transformers cannot fail) fills HTML, which the
// node renderer writes verbatim.
type figureNode struct {
	ast.BaseBlock

	// Ordinal is the fence's place on its page, from 0.
	Ordinal int
	// Body is the fence's content, the scenario text handed to the parser.
	Body []byte
	// BodyLines maps the body's lines (index = body line - 1) to their place
	// in the file: the 1-based file line and how many characters of the
	// file line come before the body line's first character (non-zero for
	// fences inside lists or block quotes).
	BodyLines []lineRef
	// Unclosed says no closing line ended the fence (goldmark's verdict, see
	// closingFenceParser): the fence ran to
	// the end of the page, or of the list item or quote holding it. Fence
	// is the opening line's run of backticks or tildes ("```", "~~~~").
	Unclosed bool
	Fence    string
	// OpenLine is the file line of the opening ``` line; FileLines the
	// number of lines in the file (the text after its last newline counts
	// as a line, even when empty).
	OpenLine, FileLines int

	// ToRoot is the relative path from the figure's page to the site root
	// ("" or "../"), which its link to the playground starts with.
	ToRoot string

	// HTML is the rendered <figure>, set by the scenario pass with
	// result, what the pass computed for this fence.
	HTML   []byte
	result *FigureResult

	// domSlug, domScenario and dom remember the figure's DOM id
	// (FigureID) for the page slug and scenario id it was made of: a page
	// kept from the last build keeps its figures, and a build asks for
	// each one's id several times.
	domSlug, domScenario, dom string
	// keyEngine, keySlug and key remember the fence's CacheKey for the
	// engine version and slug it was made with (the body never changes).
	keyEngine, keySlug, key string
}

// cacheKey returns CacheKey(engineVersion, slug, f.Body), made once while
// neither changes: a page kept from the last build hashes no fence body
// again. Each fence is asked by one goroutine at a time.
func (f *figureNode) cacheKey(engineVersion, slug string) string {
	if f.key == "" || f.keyEngine != engineVersion || f.keySlug != slug {
		f.keyEngine, f.keySlug, f.key = engineVersion, slug, CacheKey(engineVersion, slug, f.Body)
	}
	return f.key
}

// domID returns FigureID(slug, scenarioID), made once while neither
// changes. Only the build's own goroutine calls it.
func (f *figureNode) domID(slug, scenarioID string) string {
	if f.dom == "" || f.domSlug != slug || f.domScenario != scenarioID {
		f.domSlug, f.domScenario, f.dom = slug, scenarioID, FigureID(slug, scenarioID)
	}
	return f.dom
}

// lineRef places one body line in its file. ColOffset counts characters
// (see sim.Pos.Col). Padding is the number of spaces the body line starts
// with that stand for part of a tab in the file (goldmark expands a tab
// that the fence's indentation only partly uses): they come before the
// character after ColOffset and have no characters of their own.
type lineRef struct {
	Line, ColOffset, Padding int
}

// Kind implements ast.Node.
func (n *figureNode) Kind() ast.NodeKind { return KindFigure }

// Dump implements ast.Node.
func (n *figureNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Ordinal": strconv.Itoa(n.Ordinal)}, nil)
}

// filePos turns a position relative to the fence body (1-based line and
// column, as the scenario parser reports it) into a file position. A
// position past the body's last line (an "unexpected end" error) lands on
// the line after the body — the closing ``` — or, for a fence left open at
// the end of the file, on its last line; an empty fence's errors land on its
// opening line.
func (n *figureNode) filePos(p sim.Pos) sim.Pos {
	if p.Line < 1 || len(n.BodyLines) == 0 {
		return sim.Pos{Line: n.OpenLine, Col: 1}
	}
	if p.Line <= len(n.BodyLines) {
		r := n.BodyLines[p.Line-1]
		if c := p.Col - r.Padding; c >= 1 {
			return sim.Pos{Line: r.Line, Col: r.ColOffset + c}
		}
		// Inside the expanded tab: point at the tab itself.
		return sim.Pos{Line: r.Line, Col: max(r.ColOffset, 1)}
	}
	last := n.BodyLines[len(n.BodyLines)-1]
	if last.Line < n.FileLines {
		return sim.Pos{Line: last.Line + 1, Col: 1}
	}
	return sim.Pos{Line: last.Line, Col: last.ColOffset + 1}
}

// figuresKey holds the page's []*figureNode in the parser context.
var figuresKey = parser.NewContextKey()

// fenceTransformer collects ```kflow fenced code blocks and replaces each
// with a figureNode, in the goldmark-mermaid manner: collect during the
// walk, replace after it, so the walk never sees a tree being changed.
type fenceTransformer struct{}

// Transform implements parser.ASTTransformer.
func (fenceTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var fences []*ast.FencedCodeBlock
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if fc, ok := n.(*ast.FencedCodeBlock); ok {
			if string(fc.Language(src)) == FenceLanguage {
				fences = append(fences, fc)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if len(fences) == 0 {
		return
	}
	lines := newLineIndex(src)
	figures := make([]*figureNode, 0, len(fences))
	for i, fc := range fences {
		fig := &figureNode{Ordinal: i, FileLines: len(lines)}
		fig.OpenLine = lines.line(fc.Info.Segment.Start)
		segs := fc.Lines()
		for j := 0; j < segs.Len(); j++ {
			seg := segs.At(j)
			line := lines.line(seg.Start)
			fig.BodyLines = append(fig.BodyLines, lineRef{Line: line, ColOffset: lines.col(src, seg.Start) - 1, Padding: seg.Padding})
			// Value puts the padding's spaces before the line's bytes.
			fig.Body = append(fig.Body, seg.Value(src)...)
		}
		// Whether a closing line ended the fence is goldmark's own verdict
		// (closingFenceParser): without one, the fence swallowed the rest
		// of its page, or of its list item or quote.
		fig.Fence = fenceMarks(src, fc)
		fig.Unclosed = !closedFence(pc, fc)
		fc.Parent().ReplaceChild(fc.Parent(), fc, fig)
		figures = append(figures, fig)
	}
	pc.Set(figuresKey, figures)
}

// pageFigures returns the figures the transformer found, in page order.
func pageFigures(pc parser.Context) []*figureNode {
	f, _ := pc.Get(figuresKey).([]*figureNode)
	return f
}

// figureRenderer writes each figure's precomputed HTML and, under it, a
// link that opens the fence in the playground (playground.EditHref).
type figureRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (figureRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindFigure, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			f := n.(*figureNode)
			_, _ = w.Write(f.HTML)
			if len(f.HTML) > 0 {
				// Every figure opens its fence in the playground; the
				// link works without scripts (it only names a page).
				_, _ = w.WriteString(`<p class="kf-edit"><a href="` + f.ToRoot + playground.EditHref(f.Body) + `">Edit in the playground</a></p>`)
			}
			_ = w.WriteByte('\n')
		}
		return ast.WalkSkipChildren, nil
	})
}

// FenceExtension is the goldmark extension for ```kflow fences: a transformer that
// swaps each fence for a figure node, and a renderer that writes the figure
// the build computed for it. It is stateless; the figures of one parse live
// in that parse's parser.Context.
type FenceExtension struct{}

// Extend implements goldmark.Extender.
func (FenceExtension) Extend(m goldmark.Markdown) {
	// Ahead of goldmark's own fenced code block parser (priority 700),
	// which it wraps, so that it is the one that opens every fence.
	m.Parser().AddOptions(parser.WithBlockParsers(util.Prioritized(closingFenceParser{parser.NewFencedCodeBlockParser()}, 699)))
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(fenceTransformer{}, 100)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(figureRenderer{}, 100)))
}

// lineIndex maps byte offsets of a file to 1-based line numbers.
type lineIndex []int // start offset of each line

func newLineIndex(src []byte) lineIndex {
	// Made at its size, newline by newline with bytes.IndexByte: a page
	// is indexed by several passes (its fences, checks and links), and a
	// loop over every byte was 1.6% of a guide build.
	idx := make(lineIndex, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return idx
		}
		off += i + 1
		idx = append(idx, off)
	}
}

// line returns the 1-based line holding byte offset off.
func (x lineIndex) line(off int) int {
	return sort.Search(len(x), func(i int) bool { return x[i] > off })
}

// col returns the 1-based column, in characters (sim.Pos.Col), of the
// byte at offset off of src: one more than the characters before it on
// its line, each byte that is not valid UTF-8 counting as one.
func (x lineIndex) col(src []byte, off int) int {
	return utf8.RuneCount(src[x.start(x.line(off)):off]) + 1
}

// pos returns the position of the byte at offset off of src.
func (x lineIndex) pos(src []byte, off int) sim.Pos {
	return sim.Pos{Line: x.line(off), Col: x.col(src, off)}
}

// start returns the byte offset where 1-based line l starts.
func (x lineIndex) start(l int) int {
	if l < 1 || l > len(x) {
		return 0
	}
	return x[l-1]
}

// text returns 1-based line l of src, without its newline.
func (x lineIndex) text(src []byte, l int) []byte {
	if l < 1 || l > len(x) {
		return nil
	}
	end := len(src)
	if l < len(x) {
		end = x[l] - 1
	}
	return src[x[l-1]:end]
}

// Fence is one ```kflow fence found in a page by FindFences.
type Fence struct {
	// Body is the scenario text inside the fence.
	Body []byte
	// Line is the file line of the opening ``` line.
	Line int

	fig *figureNode
}

// Pos turns a position relative to the fence body (as scenario.Parse and
// sim.Check report it) into the position in the page.
func (f Fence) Pos(p sim.Pos) sim.Pos {
	return f.fig.filePos(p)
}

// FindFences returns the ```kflow fences of a Markdown page in page order,
// found exactly as a build finds them (front matter skipped, fences inside
// lists and quotes included). It is what `kflowgen sim PAGE.md` uses.
func FindFences(src []byte) []Fence {
	ctx := parser.NewContext(parser.WithIDs(newHeadingIDs()))
	newMarkdown().Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	var fs []Fence
	for _, f := range pageFigures(ctx) {
		fs = append(fs, Fence{Body: f.Body, Line: f.OpenLine, fig: f})
	}
	return fs
}

// fenceMarks returns the run of backticks or tildes that opens fc ("```",
// "~~~~"): the marks just before its info string.
func fenceMarks(src []byte, fc *ast.FencedCodeBlock) string {
	end := fc.Info.Segment.Start
	for end > 0 && (src[end-1] == ' ' || src[end-1] == '\t') {
		end--
	}
	start := end
	for start > 0 && src[start-1] == src[end-1] && (src[end-1] == '`' || src[end-1] == '~') {
		start--
	}
	if start == end {
		return "```"
	}
	return string(src[start:end])
}

// closedKey holds, in the parser context, the set of fenced code blocks a
// closing fence line ended.
var closedKey = parser.NewContextKey()

// closedFence reports whether a closing fence line ended fc (as opposed to
// the end of the page or of the list item or quote holding it).
func closedFence(pc parser.Context, fc *ast.FencedCodeBlock) bool {
	m, _ := pc.Get(closedKey).(map[ast.Node]bool)
	return m[fc]
}

// closingFenceParser is goldmark's own fenced code block parser, watched:
// goldmark's Continue returns parser.Close exactly when the line is the
// fence's closing line, and a fence that its container or the page ends
// is closed without it. It records the first kind in the context, so that
// whether a fence was closed is what CommonMark (goldmark) decided, for
// every nesting of lists, quotes and tabs.
type closingFenceParser struct {
	parser.BlockParser
}

// Continue implements parser.BlockParser.
func (p closingFenceParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	st := p.BlockParser.Continue(node, reader, pc)
	if st&parser.Close != 0 {
		m, _ := pc.Get(closedKey).(map[ast.Node]bool)
		if m == nil {
			m = map[ast.Node]bool{}
			pc.Set(closedKey, m)
		}
		m[node] = true
	}
	return st
}
