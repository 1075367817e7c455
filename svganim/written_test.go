package svganim

import (
	"bytes"
	"strings"
	"testing"

	svg "github.com/ajstarks/svgo"
)

// TestWrittenMarksAreSvgos: a picture whose marks come from written (the
// marks svgo wrote for an earlier picture) is byte for byte the picture
// svgo writes mark by mark, inline (titles left out) and standalone, at
// the first beat, the last and the poster beat of every test trace; and a
// full cache keeps no more.
func TestWrittenMarksAreSvgos(t *testing.T) {
	t.Cleanup(written.reset)
	// Kept from beat to beat and picture to picture, as in a build: a
	// mark gone at one beat and shown at another, or written with and
	// without its title, must not be taken for the other.
	written.reset()
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		u := unite(s)
		for _, bi := range []int{0, len(nt.t.Beats) - 1, PosterBeat(nt.t)} {
			ms, gone := u.beat(bi)
			for _, inline := range []bool{true, false, true} {
				want := svgoAlone(s.l, ms, gone, inline)
				var got bytes.Buffer
				writeSVG(&got, s.l, "label", ms, gone, inline)
				if !bytes.Equal(got.Bytes(), want) {
					t.Fatalf("%s beat %d inline %v: the picture differs from svgo's own, first at byte %d", nt.name, bi, inline, diffAt(got.String(), string(want)))
				}
			}
		}
	}
	written.reset()
	ms := []mark{{id: "a", shape: shLabel, text: [3]string{"a"}}}
	for i := range maxWritten {
		written.put(&writtenKey{m: mark{id: "filler-" + itoa(i)}}, nil)
	}
	var b bytes.Buffer
	writeSVG(&b, Layout{W: 10, H: 10}, "full", ms, nil, true)
	if _, kept := written.get(&writtenKey{m: ms[0], noTitles: true}); kept {
		t.Errorf("a full cache kept another mark")
	}
	if !strings.Contains(b.String(), "<text") {
		t.Errorf("with the cache full, the mark was not written: %s", b.String())
	}
}

// svgoAlone is writeSVG's picture with every mark written by svgo.
func svgoAlone(l Layout, ms []mark, gone []bool, inline bool) []byte {
	var w bytes.Buffer
	var attrs []string
	if inline {
		attrs = append(attrs, `data-cw="`+itoa(l.CellW)+`"`, `style="--kf-w:`+itoa(l.W*figureScale/10)+`px"`)
	}
	c := svg.New(&w)
	c.Start(l.W*figureScale/10, l.H*figureScale/10, append([]string{`viewBox="0 0 ` + itoa(l.W) + ` ` + itoa(l.H) + `"`, `class="kf-svg"`, `role="img"`}, attrs...)...)
	c.Title("label")
	var scratch []byte
	for i := range ms {
		writeMark(c, &ms[i], gone != nil && gone[i], inline, &scratch)
	}
	c.End()
	if inline {
		return bytes.TrimPrefix(w.Bytes(), []byte(svgProlog))
	}
	return w.Bytes()
}
