package svganim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Patch encoding. A figure holds one SVG with the union of every beat's
// marks, in the poster beat's state (marks absent at that beat carry the
// class kf-gone), plus a JSON object {"t": titles, "k": tracks}: the title
// of every mark at beat 0, in document order, written with encodeTitle
// (words.go), and the marks' tracks: for every field of a mark that ever
// changes, its value at beat 0 and then, for each change, the number of
// beats since the previous change and the new value:
//
//	[mark, field, value0, beatsLater, value, beatsLater, value, …]
//
// The stepper shows beat b by setting each tracked field to its value at
// b, so it can jump to any beat in one pass and never replays history; a
// step to a neighbouring beat touches only the fields that change between
// the two. Only fields that change are written, once per change, which
// keeps a figure near the size of the information it carries (see
// Weight).
//
// Track fields:
//
//	"c"            the mark's flags: the classes it does not have at every beat,
//	               "kf-gone" among them (the stepper keeps the others)
//	"p"            its position "x,y"
//	"o"            the offset it stands at (mark.o): its x is that offset's x
//	               in the row (the SVG's data-cw user units per offset) plus a
//	               constant, its y never changes
//	"v"            as "o", and its first text is a constant prefix followed by
//	               the offset ("HW 3")
//	"0" "1" "2"    its texts
//	"t"            its title, encoded
//	"n"            the width of its rectangle in offsets (only a veil's width
//	               changes; unite refuses any other mark that changes size)
//
// The stepper derives the constants of "o" and "v" from the poster, where
// the mark shows its values at the poster beat.

// union is every mark of a trace with its state at every beat.
type union struct {
	marks []mark   // static fields (id, layer, shape, w, h) and beat-0 values
	state [][]mark // state[bi][i]: mark i at beat index bi (absent: filled)
	here  [][]bool // here[bi][i]: mark i is drawn at beat bi
}

// unite draws every beat of s and lines the marks up across beats. A mark
// absent at a beat keeps the values of its nearest earlier appearance (or
// of its first one, before it appears), so that appearing changes only its
// class.
func unite(s *scene) *union {
	beats := make([][]mark, len(s.t.Beats))
	index := map[string]int{}
	var all []mark
	for bi := range beats {
		beats[bi] = s.draw(bi)
		for _, m := range beats[bi] {
			i, ok := index[m.id]
			if !ok {
				index[m.id] = len(all)
				all = append(all, m)
				continue
			}
			if o := &all[i]; o.layer != m.layer || o.shape != m.shape || o.h != m.h || o.w != m.w && m.shape != shVeil {
				panic(fmt.Sprintf("svganim: mark %q changes its layer, shape or size between beats", m.id))
			}
		}
	}
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return before(&all[order[a]], &all[order[b]]) })
	u := &union{marks: make([]mark, len(all))}
	pos := make([]int, len(all)) // old index → sorted position
	for p, i := range order {
		u.marks[p] = all[i]
		pos[i] = p
	}
	for id, i := range index {
		index[id] = pos[i]
	}
	u.state = make([][]mark, len(beats))
	u.here = make([][]bool, len(beats))
	for bi, ms := range beats {
		st := make([]mark, len(u.marks))
		here := make([]bool, len(u.marks))
		if bi > 0 {
			copy(st, u.state[bi-1])
		} else {
			copy(st, u.marks)
		}
		for _, m := range ms {
			i := index[m.id]
			st[i] = m
			here[i] = true
		}
		u.state[bi] = st
		u.here[bi] = here
	}
	// Before its first appearance a mark already wears the values it first
	// appears with (the copy above gave it those through u.marks).
	return u
}

// untracked marks are kept up to date by the stepper itself: the beat
// counter shows the beat number the stepper already knows.
var untracked = map[string]bool{"beat": true}

// flags is a mark's class field: its classes that are not in base (the
// classes it has at every beat), plus "kf-gone" when it is absent.
func flags(m *mark, here bool, base map[string]bool) string {
	var f []string
	for _, c := range strings.Fields(m.cls) {
		if !base[c] {
			f = append(f, c)
		}
	}
	if !here {
		f = append(f, "kf-gone")
	}
	return strings.Join(f, " ")
}

// baseClasses is the set of classes mark i has at every beat.
func (u *union) baseClasses(i int) map[string]bool {
	base := map[string]bool{}
	for _, c := range strings.Fields(u.state[0][i].cls) {
		base[c] = true
	}
	for bi := 1; bi < len(u.state); bi++ {
		if u.state[bi][i].cls == u.state[bi-1][i].cls {
			continue // the same classes as the beat before
		}
		now := map[string]bool{}
		for _, c := range strings.Fields(u.state[bi][i].cls) {
			now[c] = true
		}
		for c := range base {
			if !now[c] {
				delete(base, c)
			}
		}
	}
	return base
}

// posMode chooses how mark i's position is tracked (see the track fields):
// "v" or "o" when it follows its offset in steps of cw, else "p".
func (u *union) posMode(i, cw int) string {
	m0 := &u.state[0][i]
	follows, numbered, fixedY := m0.od && cw > 0, m0.od, true
	prefix := strings.TrimSuffix(m0.text[0], itoa64(m0.o))
	for bi := range u.state {
		m := &u.state[bi][i]
		fixedY = fixedY && m.y == m0.y
		follows = follows && m.od && m.x-int(m.o)*cw == m0.x-int(m0.o)*cw
		numbered = numbered && m.text[0] == prefix+itoa64(m.o)
	}
	switch {
	case follows && fixedY && numbered:
		return "v"
	case follows && fixedY:
		return "o"
	}
	return "p"
}

// encode returns the figure's titles and tracks for u's marks, numbered
// from first (a figure of two panels numbers the second panel's marks
// after the first's); cw is the layout's offset width (Layout.CellW).
func (u *union) encode(cw, first int) (titles []string, tracks [][]any) {
	for i := range u.marks {
		titles = append(titles, encodeTitle(u.state[0][i].title))
		if untracked[u.marks[i].id] {
			continue
		}
		base := u.baseClasses(i)
		pos := u.posMode(i, cw)
		fields := []string{"c", pos, "0", "1", "2", "t", ""}
		if pos == "v" {
			fields[2] = "" // the offset writes the first text
		}
		if u.marks[i].shape == shVeil {
			fields[6] = "n"
			for bi := range u.state {
				if cw <= 0 || u.state[bi][i].w%cw != 0 {
					panic(fmt.Sprintf("svganim: veil %q is %d wide, not a whole number of offsets of %d", u.marks[i].id, u.state[bi][i].w, cw))
				}
			}
		}
		var cur [7][]any
		var last [7]any
		var at [7]int
		fl := ""
		for bi := range u.state {
			m, here := &u.state[bi][i], u.here[bi][i]
			if bi > 0 && here == u.here[bi-1][i] && sameState(m, &u.state[bi-1][i]) {
				continue // most marks, most beats: nothing to write
			}
			if bi == 0 || here != u.here[bi-1][i] || m.cls != u.state[bi-1][i].cls {
				fl = flags(m, here, base)
			}
			for f, name := range fields {
				var v any
				switch name {
				case "":
					continue
				case "c":
					v = fl
				case "p":
					v = itoa(m.x) + "," + itoa(m.y)
				case "o", "v":
					v = int(m.o)
				case "0", "1", "2":
					v = m.text[name[0]-'0']
				case "t":
					if bi > 0 && m.title == u.state[bi-1][i].title {
						continue
					}
					v = encodeTitle(m.title)
				case "n":
					v = m.w / cw
				}
				switch {
				case bi == 0:
					cur[f] = []any{first + i, name, v}
				case v != last[f]:
					cur[f] = append(cur[f], bi-at[f], v)
					at[f] = bi
				}
				last[f] = v
			}
		}
		for f := range cur {
			if len(cur[f]) > 3 {
				tracks = append(tracks, cur[f])
			}
		}
	}
	return titles, tracks
}

// sameState reports whether a mark has the same fields at two beats.
func sameState(a, b *mark) bool {
	return a.x == b.x && a.y == b.y && a.w == b.w && a.o == b.o && a.cls == b.cls && a.text == b.text && a.title == b.title
}

// figureJSON is the figure's JSON script: {"t": titles, "k": tracks}.
func figureJSON(titles []string, tracks [][]any) []byte {
	if tracks == nil {
		tracks = [][]any{}
	}
	b, err := json.Marshal(struct {
		T []string `json:"t"`
		K [][]any  `json:"k"`
	}{titles, tracks})
	if err != nil {
		panic("svganim: tracks do not marshal: " + err.Error())
	}
	return b
}
