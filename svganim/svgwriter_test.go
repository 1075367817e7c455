package svganim

import (
	"bytes"
	"fmt"
	"testing"

	svg "github.com/ajstarks/svgo"
)

// svgoSVG is writeSVG as it was written with github.com/ajstarks/svgo,
// kept as the reference svgWriter is held to.
func svgoSVG(w *bytes.Buffer, l Layout, label string, marks []mark, gone []bool, inline bool, attrs ...string) {
	if inline {
		attrs = append(attrs, `data-cw="`+itoa(l.CellW)+`"`, `style="--kf-w:`+itoa(l.W*figureScale/10)+`px"`)
	}
	var b bytes.Buffer
	c := svg.New(&b)
	root := []string{fmt.Sprintf(`viewBox="0 0 %d %d"`, l.W, l.H), `class="kf-svg"`, `role="img"`}
	c.Start(l.W*figureScale/10, l.H*figureScale/10, append(root, attrs...)...)
	c.Title(label)
	for i := range marks {
		m := &marks[i]
		c.Group(`class="`+classOf(m, gone != nil && gone[i])+`"`, `transform="translate(`+itoa(m.x)+`,`+itoa(m.y)+`)"`)
		if !inline {
			c.Title(m.title)
		}
		switch m.shape {
		case shBox:
			c.Rect(0, 0, m.w, m.h)
			c.Text(m.w/2, m.h/2+4, m.text[0])
			c.Text(3, 11, m.text[1])
			c.Text(m.w-3, 11, m.text[2])
		case shCell:
			c.Rect(0, 0, m.w, m.h)
			c.Text(m.w/2, m.h/2+4, m.text[0])
		case shStack:
			c.Rect(0, 0, m.w, m.h)
			c.Text(4, 11, m.text[0])
			c.Text(4, 23, m.text[1])
		case shBand:
			c.Rect(0, 0, m.w, m.h)
			c.Text(8, 16, m.text[0])
			c.Text(8, 32, m.text[1])
		case shLane:
			c.Rect(0, 0, m.w, m.h)
			c.Text(8, 16, m.text[0])
			c.Text(laneStatusX, 16, m.text[1])
		case shLabel:
			c.Text(0, 0, m.text[0])
		case shVeil:
			c.Rect(0, 0, m.w, m.h)
		case shTickUp:
			c.Line(0, 0, 0, m.h)
			c.Text(0, -3, m.text[0])
		case shTickDown:
			c.Line(0, 0, 0, m.h)
			c.Text(0, m.h+11, m.text[0])
		case shWire:
			c.Group()
			c.Rect(0, -m.h/2, m.w, m.h)
			c.Text(4, 4, m.text[0])
			c.Gend()
		case shArrow:
			c.Line(5, 0, 5, m.h)
			c.Polyline([]int{1, 5, 9}, []int{m.h - 4, m.h, m.h - 4})
			c.Polyline([]int{1, 5, 9}, []int{4, 0, 4})
		}
		c.Gend()
	}
	c.End()
	out := b.Bytes()
	if inline {
		out = bytes.TrimPrefix(out, []byte(svgProlog))
	}
	w.Write(out)
}

// TestSVGWriterIsSvgo: the SVG writer writes, byte for byte, what svgo
// wrote for every beat of every guide and test figure (inline as a
// poster, and standalone as a frame with every title), and for marks of
// every shape whose texts need escaping: quotes, markup characters,
// control characters, non-ASCII and invalid UTF-8.
func TestSVGWriterIsSvgo(t *testing.T) {
	check := func(name string, l Layout, label string, ms []mark, gone []bool) {
		t.Helper()
		for _, inline := range []bool{false, true} {
			var got, want bytes.Buffer
			writeSVG(&got, l, label, ms, gone, inline, `data-x="1"`)
			svgoSVG(&want, l, label, ms, gone, inline, `data-x="1"`)
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				g, w := got.Bytes(), want.Bytes()
				i := 0
				for i < min(len(g), len(w)) && g[i] == w[i] {
					i++
				}
				t.Fatalf("%s (inline %v): differs from svgo at byte %d:\n got %q\nwant %q", name, inline, i, g[max(0, i-80):min(len(g), i+80)], w[max(0, i-80):min(len(w), i+80)])
			}
		}
	}
	n := 0
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		for bi := range nt.t.Beats {
			ms := s.draw(bi)
			gone := make([]bool, len(ms))
			for i := range gone {
				gone[i] = i%3 == 1
			}
			check(fmt.Sprintf("%s beat %d", nt.name, bi), s.l, nt.t.Title, ms, gone)
			n += len(ms)
		}
	}
	if n == 0 {
		t.Fatal("no marks were drawn")
	}
	odd := []string{"", `say "hi" & <b>'s</b>`, "tab\there\nnew\rline", "π ≥ 2 — ok", "bad \xff\xfe utf-8", "nul \x00 and \x7f del", "\U0001F600"}
	var ms []mark
	for sh := shBox; sh <= shArrow; sh++ {
		for k, txt := range odd {
			ms = append(ms, mark{id: fmt.Sprintf("m%d-%d", sh, k), shape: sh, cls: "kf-x", x: k - 3, y: 7, w: 20 * (k + 1), h: 12,
				text: [3]string{txt, odd[(k+1)%len(odd)], odd[(k+2)%len(odd)]}, title: odd[(k+3)%len(odd)]})
		}
	}
	check("odd texts", NewLayout(Topology{}), `a "label" & <more>`, ms, nil)
}
