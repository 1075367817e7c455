package svganim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Patch encoding. A figure holds one SVG with the union of every beat's
// marks, in the poster beat's state (marks absent at that beat carry the
// class kf-gone), plus the marks' tracks: for every field of a mark that
// ever changes, the beats where it changes and its new value. The stepper
// shows beat b by setting each tracked field to its value at b, so it can
// jump to any beat in one pass and never replays history. Only fields that
// change are written, once per change, which keeps a figure near the size
// of the information it carries (see Weight).
//
// Track fields: "c" the mark's flags (the classes it does not have at
// every beat, "kf-gone" among them; the stepper keeps the others), "p" its
// position "x,y", "0" "1" "2" its texts, "t" its title, "w" the width of
// its rectangle (only a veil's changes).

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

// fieldValues lists a mark's trackable fields at one beat, in track-field
// order. The class field holds only the mark's flags: its classes that
// are not in base (the classes it has at every beat), plus "kf-gone" when
// it is absent; the stepper keeps the rest of the class attribute.
func fieldValues(m *mark, here bool, base map[string]bool) [7]string {
	var flags []string
	for _, c := range strings.Fields(m.cls) {
		if !base[c] {
			flags = append(flags, c)
		}
	}
	if !here {
		flags = append(flags, "kf-gone")
	}
	return [7]string{strings.Join(flags, " "), strconv.Itoa(m.x) + "," + strconv.Itoa(m.y), m.text[0], m.text[1], m.text[2], m.title, strconv.Itoa(m.w)}
}

// fieldValuesKeepFlags is fieldValues for a mark whose class flags are
// already known.
func fieldValuesKeepFlags(m *mark, flags string) [7]string {
	return [7]string{flags, strconv.Itoa(m.x) + "," + strconv.Itoa(m.y), m.text[0], m.text[1], m.text[2], m.title, strconv.Itoa(m.w)}
}

var fieldNames = [7]string{"c", "p", "0", "1", "2", "t", "w"}

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

// untracked marks are kept up to date by the stepper itself: the beat
// counter shows the beat number the stepper already knows.
var untracked = map[string]bool{"beat": true}

// tracks returns, as JSON, every field of every mark that changes over the
// trace: [markIndex, field, beat, value, beat, value, …], starting at beat
// 0. Fields that never change are not written: the SVG already has them.
func (u *union) tracks() []byte {
	var out []any
	for i := range u.marks {
		if untracked[u.marks[i].id] {
			continue
		}
		base := u.baseClasses(i)
		var cur [7][]any
		var v [7]string
		for bi := range u.state {
			m, here := &u.state[bi][i], u.here[bi][i]
			if bi > 0 && here == u.here[bi-1][i] && m.cls == u.state[bi-1][i].cls {
				// The class flags are those of the beat before.
				v = fieldValuesKeepFlags(m, v[0])
			} else {
				v = fieldValues(m, here, base)
			}
			for f := range v {
				if bi == 0 {
					cur[f] = []any{i, fieldNames[f], 0, v[f]}
					continue
				}
				if last := cur[f][len(cur[f])-1].(string); last != v[f] {
					cur[f] = append(cur[f], bi, v[f])
				}
			}
		}
		for f := range cur {
			if len(cur[f]) > 4 {
				out = append(out, cur[f])
			}
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic("svganim: tracks do not marshal: " + err.Error())
	}
	return b
}
