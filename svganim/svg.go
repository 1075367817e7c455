package svganim

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"

	"github.com/kafkaflow/kflowgen/sim"
)

// shapeClass names each shape in CSS, so figure.css can place and size the
// texts of a mark without per-element attributes.
var shapeClass = [...]string{shBox: "sb", shCell: "sc", shStack: "ss", shBand: "sn", shLane: "sn sh", shLabel: "sl", shVeil: "sv", shTickUp: "su", shTickDown: "sd", shWire: "sw", shArrow: "sa"}

// textCount is how many <text> children each shape always has (empty ones
// included), so the stepper can address a text by its index.
var textCount = [...]int{shBox: 3, shCell: 1, shStack: 2, shBand: 2, shLane: 2, shLabel: 1, shVeil: 0, shTickUp: 1, shTickDown: 1, shWire: 1, shArrow: 0}

// classOf is the class attribute of a mark: "m", its shape's class, its
// own classes, and "kf-gone" when the mark is absent at this beat.
func classOf(m *mark, gone bool) string {
	c := "m " + shapeClass[m.shape]
	if m.cls != "" {
		c += " " + m.cls
	}
	if gone {
		c += " kf-gone"
	}
	return c
}

// writeMark writes one mark as a group translated to its origin, with its
// title as an SVG <title> unless noTitle (a figure's poster, whose titles
// the stepper restores from the figure's JSON). Its class and title are
// the only attributes or texts that come from outside this package's
// constants: the class is built from [a-z0-9-] pieces, and every text is
// escaped as text (svgWriter.text).
func writeMark(c *svgWriter, m *mark, gone, noTitle bool) {
	c.group(m, gone)
	if !noTitle {
		c.title(m.title)
	}
	switch m.shape {
	case shBox:
		c.rect(0, 0, m.w, m.h)
		c.text(m.w/2, m.h/2+4, m.text[0])
		c.text(3, 11, m.text[1])
		c.text(m.w-3, 11, m.text[2])
	case shCell:
		c.rect(0, 0, m.w, m.h)
		c.text(m.w/2, m.h/2+4, m.text[0])
	case shStack:
		c.rect(0, 0, m.w, m.h)
		c.text(4, 11, m.text[0])
		c.text(4, 23, m.text[1])
	case shBand:
		c.rect(0, 0, m.w, m.h)
		c.text(8, 16, m.text[0])
		c.text(8, 32, m.text[1])
	case shLane:
		c.rect(0, 0, m.w, m.h)
		c.text(8, 16, m.text[0])
		c.text(laneStatusX, 16, m.text[1])
	case shLabel:
		c.text(0, 0, m.text[0])
	case shVeil:
		c.rect(0, 0, m.w, m.h)
	case shTickUp:
		c.line(0, 0, 0, m.h)
		c.text(0, -3, m.text[0])
	case shTickDown:
		c.line(0, 0, 0, m.h)
		c.text(0, m.h+11, m.text[0])
	case shWire:
		// The inner group is what figure.css slides as the token appears.
		c.raw("<g >\n")
		c.rect(0, -m.h/2, m.w, m.h)
		c.text(4, 4, m.text[0])
		c.raw("</g>\n")
	case shArrow:
		// Both heads are drawn; figure.css shows the one its direction
		// (kf-up or kf-down) needs.
		c.line(5, 0, 5, m.h)
		c.arrowHeads(m.h)
	default:
		panic(fmt.Sprintf("svganim: mark %q has unknown shape %d", m.id, m.shape))
	}
	c.raw("</g>\n")
}

// svgWriter writes SVG elements into a buffer, byte for byte as
// github.com/ajstarks/svgo writes them (its methods Start, Title, Group,
// Rect, Text, Line, Polyline, Gend and End; TestSVGWriterIsSvgo holds it
// to that), with strconv appends instead of svgo's fmt calls: the
// figures' posters and frames were a tenth of a build's processor time,
// most of it fmt.
type svgWriter struct {
	w *bytes.Buffer
}

func (c *svgWriter) raw(s string) { c.w.WriteString(s) }

// appendAttr appends name="n".
func appendAttr(b []byte, name string, n int) []byte {
	b = append(b, name...)
	b = append(b, '=', '"')
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, '"')
}

// start is svgo's Start: the XML prolog (unless inline), <svg with its
// width, height and each attribute on a line of its own, then the
// namespaces.
func (c *svgWriter) start(w, h int, attrs []string, inline bool) {
	b := c.w.AvailableBuffer()
	if !inline {
		b = append(b, svgProlog...)
	}
	b = append(b, "<svg "...)
	b = appendAttr(b, "width", w)
	b = append(b, ' ')
	b = appendAttr(b, "height", h)
	for _, a := range attrs {
		b = append(b, "\n     "...)
		b = append(b, a...)
	}
	b = append(b, svgNamespaces...)
	c.w.Write(b)
}

// svgNamespaces is what svgo's Start ends the <svg> tag with.
const svgNamespaces = "\n     xmlns=\"http://www.w3.org/2000/svg\"\n     xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"

// title is svgo's Title: <title>, s escaped, </title>.
func (c *svgWriter) title(s string) {
	c.w.WriteString("<title>")
	escapeXMLText(c.w, s)
	c.w.WriteString("</title>\n")
}

// group opens a mark's group, as svgo's Group with its class and
// transform attributes (classOf, without building the class string).
func (c *svgWriter) group(m *mark, gone bool) {
	b := c.w.AvailableBuffer()
	b = append(b, `<g class="m `...)
	b = append(b, shapeClass[m.shape]...)
	if m.cls != "" {
		b = append(b, ' ')
		b = append(b, m.cls...)
	}
	if gone {
		b = append(b, " kf-gone"...)
	}
	b = append(b, `" transform="translate(`...)
	b = strconv.AppendInt(b, int64(m.x), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(m.y), 10)
	b = append(b, ")\" >\n"...)
	c.w.Write(b)
}

// rect is svgo's Rect without styles.
func (c *svgWriter) rect(x, y, w, h int) {
	b := c.w.AvailableBuffer()
	b = append(b, "<rect "...)
	b = appendAttr(b, "x", x)
	b = append(b, ' ')
	b = appendAttr(b, "y", y)
	b = append(b, ' ')
	b = appendAttr(b, "width", w)
	b = append(b, ' ')
	b = appendAttr(b, "height", h)
	b = append(b, " />\n"...)
	c.w.Write(b)
}

// line is svgo's Line without styles.
func (c *svgWriter) line(x1, y1, x2, y2 int) {
	b := c.w.AvailableBuffer()
	b = append(b, "<line "...)
	b = appendAttr(b, "x1", x1)
	b = append(b, ' ')
	b = appendAttr(b, "y1", y1)
	b = append(b, ' ')
	b = appendAttr(b, "x2", x2)
	b = append(b, ' ')
	b = appendAttr(b, "y2", y2)
	b = append(b, " />\n"...)
	c.w.Write(b)
}

// arrowHeads is an arrow's two heads, svgo's Polyline of the points
// (1,h-4) (5,h) (9,h-4) and then of (1,4) (5,0) (9,4).
func (c *svgWriter) arrowHeads(h int) {
	b := c.w.AvailableBuffer()
	b = append(b, `<polyline points="1,`...)
	b = strconv.AppendInt(b, int64(h-4), 10)
	b = append(b, " 5,"...)
	b = strconv.AppendInt(b, int64(h), 10)
	b = append(b, " 9,"...)
	b = strconv.AppendInt(b, int64(h-4), 10)
	b = append(b, "\" />\n<polyline points=\"1,4 5,0 9,4\" />\n"...)
	c.w.Write(b)
}

// text is svgo's Text without styles: t escaped as XML text.
func (c *svgWriter) text(x, y int, t string) {
	b := c.w.AvailableBuffer()
	b = append(b, "<text "...)
	b = appendAttr(b, "x", x)
	b = append(b, ' ')
	b = appendAttr(b, "y", y)
	b = append(b, " >"...)
	c.w.Write(b)
	escapeXMLText(c.w, t)
	c.w.WriteString("</text>\n")
}

// escapeXMLText writes s escaped as encoding/xml's EscapeText escapes it
// (what svgo's text methods call): written as it is when it holds only
// printable ASCII other than the five it escapes, which is every text of
// the guide's figures; anything else goes through EscapeText itself.
func escapeXMLText(w *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < ' ' || c >= 0x7f, c == '"', c == '\'', c == '&', c == '<', c == '>':
			_ = xml.EscapeText(w, []byte(s)) // a bytes.Buffer never fails
			return
		}
	}
	w.WriteString(s)
}

// laneStatusX is where a broker lane's status starts on its header line,
// past its name ("broker 12" in 13-unit bold).
const laneStatusX = 80

// figureScale is the drawn size per user unit, in tenths.
const figureScale = 13

// markBytes is about what one mark takes in a figure's poster SVG (168
// bytes on average over the guide's figures), for sizing its buffer once
// instead of doubling it as it is written.
const markBytes = 176

// svgProlog is what svgo's Start writes before <svg>; an inline SVG in
// HTML drops it.
const svgProlog = "<?xml version=\"1.0\"?>\n<!-- Generated by SVGo -->\n"

// writeSVG writes an <svg> element of the layout's size holding marks (and
// the marks in gone, hidden), with attrs added to the root element.
// Without inline the output is a standalone SVG document with svgo's XML
// prolog and every mark has its <title>; with inline the prolog is
// dropped, for embedding in HTML as a figure's poster: the marks' titles
// are left to the figure's JSON, and the root's data-cw gives the stepper
// the width of one offset (Layout.CellW).
func writeSVG(w *bytes.Buffer, l Layout, label string, marks []mark, gone []bool, inline bool, attrs ...string) {
	if inline {
		// --kf-w, the drawn width, lets figure.css keep a narrow screen
		// from shrinking the picture below half of it (it scrolls instead).
		attrs = append(attrs, `data-cw="`+itoa(l.CellW)+`"`, `style="--kf-w:`+itoa(l.W*figureScale/10)+`px"`)
	}
	w.Grow(len(svgProlog) + 256 + len(marks)*markBytes)
	c := &svgWriter{w}
	root := []string{`viewBox="0 0 ` + itoa(l.W) + ` ` + itoa(l.H) + `"`, `class="kf-svg"`, `role="img"`}
	// The viewBox is in user units; the width and height say how large to
	// draw it when there is room (figureScale), and CSS shrinks it to fit.
	c.start(l.W*figureScale/10, l.H*figureScale/10, append(root, attrs...), inline)
	c.title(label)
	for i := range marks {
		writeMark(c, &marks[i], gone != nil && gone[i], inline)
	}
	c.raw("</svg>\n")
}

// beatIndex returns the index in t.Beats of beat number beat.
func beatIndex(t *sim.Trace, beat int) (int, error) {
	if err := checkTrace(t); err != nil {
		return 0, err
	}
	if beat < 0 || beat >= len(t.Beats) {
		return 0, fmt.Errorf("beat %d is outside the trace (beats 0 to %d)", beat, len(t.Beats)-1)
	}
	return beat, nil
}

// checkTrace reports a trace the renderer cannot draw: no beats, or beats
// not numbered 0, 1, 2, … in order.
func checkTrace(t *sim.Trace) error {
	if t == nil || len(t.Beats) == 0 {
		return fmt.Errorf("trace has no beats")
	}
	for i, b := range t.Beats {
		if b.Beat != i {
			return fmt.Errorf("trace beat %d is numbered %d; beats must run 0, 1, 2, … in order", i, b.Beat)
		}
	}
	return nil
}

// frameLabel is the <title> of a frame: the figure's title and the beat.
func frameLabel(t *sim.Trace, bi int) string {
	name := t.Title
	if name == "" {
		name = t.ID
	}
	return name + " — beat " + itoa(t.Beats[bi].Beat)
}

// Frame renders one beat of a trace as a standalone SVG document (XML
// prolog, then <svg viewBox="0 0 W H">): the beat counter, the producer
// rail and its record cards, a lane per broker with its replica of each
// partition (offset cells coloured by key, leader and ISR badges, the
// high watermark and log end offset), and a lane per consumer or share
// group. Coordinates are integers in user units; colours come from CSS
// classes and custom properties (templates/figure.css), so the same bytes
// serve light and dark themes. beat counts from 0 (the initial state);
// the error says when the trace is empty, misnumbered, or has no such
// beat. State marks that look different from the beat before (they
// appeared, moved or changed class or text) carry the class kf-new, which
// figure.css draws as a ring; messages on the wire never do (ringable).
func Frame(t *sim.Trace, beat int) ([]byte, error) {
	bi, err := beatIndex(t, beat)
	if err != nil {
		return nil, err
	}
	s := newScene(t)
	ms := s.draw(bi)
	if bi > 0 {
		// Marks that look different from the beat before carry kf-new,
		// as in a figure (union.changedAt).
		before := map[string]*mark{}
		prev := s.draw(bi - 1)
		for i := range prev {
			before[prev[i].id] = &prev[i]
		}
		hot := make([]bool, len(ms))
		for i := range ms {
			m := &ms[i]
			p, ok := before[m.id]
			hot[i] = ringable(m) && (!ok || !sameLook(p, m))
		}
		markChanged(ms, hot)
	}
	var buf bytes.Buffer
	writeSVG(&buf, s.l, frameLabel(t, bi), ms, nil, false)
	return buf.Bytes(), nil
}
