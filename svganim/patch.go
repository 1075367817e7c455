package svganim

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
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
//
// No mark changes its size: unite refuses one that does.
//
// The stepper derives the constants of "o" and "v" from the poster, where
// the mark shows its values at the poster beat.

// union is every mark of a trace with its state at every beat, kept as
// each mark's changes: most marks stay the same for most beats, and a
// figure at the limits has thousands of marks over hundreds of beats.
type union struct {
	marks []mark    // static fields (id, layer, shape, w, h) and first-appearance values
	runs  [][]state // runs[i]: mark i's states, the first at beat 0, then one per change
	beats int       // how many beats the trace has
	arena markArena // where the states' marks are
}

// state is a mark's state from beat bi until its next state: drawn (here) or
// absent, and its fields (an absent mark keeps those it last had). The
// fields are shared, not copied: a mark that leaves, or comes back as it
// was, points at the fields it had (unite allocates them from a
// markArena), and a state is a few words instead of a whole mark.
type state struct {
	bi   int
	here bool
	m    *mark
}

// markArena hands out marks from chunks, so that keeping one per change
// of a mark costs a copy and not an allocation. Its chunks come from
// markChunks and go back there when its union is done with (release).
type markArena struct {
	cur    []mark
	chunks []*markChunk
}

// keep returns a copy of m that lives as long as the arena's marks.
func (a *markArena) keep(m *mark) *mark {
	if len(a.cur) == cap(a.cur) {
		c := getChunk()
		a.chunks = append(a.chunks, c)
		a.cur = c[:0]
	}
	a.cur = append(a.cur, *m)
	return &a.cur[len(a.cur)-1]
}

// markChunk is a block of marks: a markArena's, or a beat's drawing
// buffer (drawAll). 1,024 marks hold a figure's kept states in one or two
// (the guide's hold 30 to 1,900) and any beat's marks.
type markChunk [1024]mark

// markChunks holds the chunks that figures drawn before are done with.
// A build draws figure after figure, each keeping its marks (about
// 160 bytes each) only while it is drawn; a chunk taken from here instead
// of made is memory already in use, where a new one is fresh memory that
// costs a page fault for every 4 KB written the first time. What a
// chunk held before does not matter: every mark is written before it is
// read. A chunk in markChunks is all zero marks (putChunk), so that the
// pool keeps no strings alive.
var markChunks = sync.Pool{New: func() any { return new(markChunk) }}

func getChunk() *markChunk { return markChunks.Get().(*markChunk) }

// putChunk gives c back to markChunks; nothing may read or write it after.
// Its first n marks, past which nothing was written since getChunk, are
// cleared first: most figures fill a fraction of a chunk, and clearing
// a whole one (160 KB) was 2% of a build's processor time.
func putChunk(c *markChunk, n int) {
	clear(c[:min(n, len(c))])
	markChunks.Put(c)
}

// release gives u's marks back to markChunks: u and every mark of its
// states is garbage after (what it returned, beat's marks and encode's
// tracks, are copies).
func (u *union) release() {
	for i, c := range u.arena.chunks {
		n := len(c) // all full but the last
		if i == len(u.arena.chunks)-1 {
			n = len(u.arena.cur)
		}
		putChunk(c, n)
	}
	*u = union{}
}

// at returns mark i's state at beat index bi and whether it is drawn then.
func (u *union) at(bi, i int) (*mark, bool) {
	rs := u.runs[i]
	k := sort.Search(len(rs), func(k int) bool { return rs[k].bi > bi }) - 1
	return rs[k].m, rs[k].here
}

// beat returns every mark's state at beat index bi, in u.marks' order, and
// which of them are absent then.
func (u *union) beat(bi int) (ms []mark, gone []bool) {
	ms, gone = make([]mark, len(u.marks)), make([]bool, len(u.marks))
	for i := range u.marks {
		m, here := u.at(bi, i)
		ms[i], gone[i] = *m, !here
	}
	return ms, gone
}

// unite draws every beat of s and lines the marks up across beats. A mark
// absent at a beat keeps the values of its nearest earlier appearance (or
// of its first one, before it appears), so that appearing changes only its
// class. Beats are drawn in parallel (drawAll) and merged in beat order.
func unite(s *scene) *union {
	index := map[string]int{}
	var all []*mark // each mark's first appearance, kept in the arena
	var runs [][]state
	var prev, cur []int // the marks drawn at the previous and this beat, in drawing order
	var seen []int      // seen[i]: 1 + the last beat index mark i was drawn at
	var pos []int       // pos[i]: where in its beat's drawing order mark i was then
	var arena markArena
	// parts[k]: the marks part k of a frame had at the beat it was last
	// drawn at, partAt[k] 1 + that beat's index.
	parts := make([][]int, s.parts)
	partAt := make([]int, s.parts)
	s.drawAll(func(bi int, fr *frame) {
		cur = cur[:0]
		shift := 0
		next := 0 // fr.ms[next] is the next mark drawn afresh
		for _, pt := range fr.parts {
			var list *[]int // the part's marks, when it has a number
			keep := pt.keep
			if pt.id != noPart {
				list = &parts[pt.id]
				if keep != 0 && partAt[pt.id] != bi {
					panic(fmt.Sprintf("svganim: part %d keeps marks at beat index %d but was not drawn at the beat before", pt.id, bi))
				}
				if keep == keepAll {
					keep = len(*list)
				}
				if keep > len(*list) {
					panic(fmt.Sprintf("svganim: part %d keeps %d marks at beat index %d of the %d it had", pt.id, keep, bi, len(*list)))
				}
				for _, i := range (*list)[:keep] {
					// As it was: its last state stands, drawn at bi.
					if seen[i] == bi+1 {
						panic(fmt.Sprintf("svganim: mark %q is drawn twice at beat index %d", all[i].id, bi))
					}
					seen[i], pos[i] = bi+1, len(cur)
					cur = append(cur, i)
				}
				*list = (*list)[:keep]
				partAt[pt.id] = bi + 1
			} else if keep != 0 {
				panic("svganim: a part without a number keeps marks")
			}
			for x := next; x < next+pt.n; x++ {
				m := &fr.ms[x]
				j := len(cur) // m's place in the beat's drawing order
				// Beats draw their marks in much the same order: try the mark
				// drawn at the same place the beat before, give or take the
				// marks that came or went since.
				i := -1
				if q := j + shift; q >= 0 && q < len(prev) && all[prev[q]].id == m.id {
					i = prev[q]
				} else if k, ok := index[m.id]; ok {
					i = k
					if seen[i] == bi {
						shift = pos[i] - j
					}
				}
				if i < 0 {
					i = len(all)
					index[m.id] = i
					k := arena.keep(m)
					all = append(all, k)
					seen = append(seen, 0)
					pos = append(pos, 0)
					// Room for a few changes: most marks change a few times.
					rs := make([]state, 0, 4)
					if bi == 0 {
						rs = append(rs, state{0, true, k})
					} else {
						rs = append(rs, state{0, false, k}, state{bi, true, k})
					}
					runs = append(runs, rs)
				} else {
					if o := all[i]; o.layer != m.layer || o.shape != m.shape || o.h != m.h || o.w != m.w {
						panic(fmt.Sprintf("svganim: mark %q changes its layer, shape or size between beats", m.id))
					}
					if seen[i] == bi+1 {
						panic(fmt.Sprintf("svganim: mark %q is drawn twice at beat index %d", m.id, bi))
					}
					switch r := &runs[i][len(runs[i])-1]; {
					case *r.m != *m:
						runs[i] = append(runs[i], state{bi, true, arena.keep(m)})
					case !r.here:
						runs[i] = append(runs[i], state{bi, true, r.m}) // back as it left
					}
				}
				seen[i], pos[i] = bi+1, j
				cur = append(cur, i)
				if list != nil {
					*list = append(*list, i)
				}
			}
			next += pt.n
		}
		// The marks drawn at the beat before and not at this one leave.
		for _, i := range prev {
			if seen[i] != bi+1 {
				if r := &runs[i][len(runs[i])-1]; r.here {
					runs[i] = append(runs[i], state{bi, false, r.m})
				}
			}
		}
		prev, cur = cur, prev
	})
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return before(all[order[a]], all[order[b]]) })
	u := &union{marks: make([]mark, len(all)), runs: make([][]state, len(all)), beats: len(s.t.Beats), arena: arena}
	for p, i := range order {
		u.marks[p] = *all[i]
		u.runs[p] = runs[i]
	}
	return u
}

// untracked marks are kept up to date by the stepper itself: the beat
// counter shows the beat number the stepper already knows.
var untracked = map[string]bool{"beat": true}

// flags is a mark's class field: its classes that are not in base (the
// classes it has at every beat), plus "kf-gone" when it is absent.
func flags(m *mark, here bool, base []string) string {
	// Most marks have one class of their own at most: that class, or
	// nothing, is returned as it is, without building a string.
	extra, n := "", 0
	for c := range strings.FieldsSeq(m.cls) {
		if !slices.Contains(base, c) {
			extra, n = c, n+1
		}
	}
	switch {
	case n == 0 && here:
		return ""
	case n == 0:
		return "kf-gone"
	case n == 1 && here:
		return extra
	}
	var b strings.Builder
	for c := range strings.FieldsSeq(m.cls) {
		if !slices.Contains(base, c) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c)
		}
	}
	if !here {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("kf-gone")
	}
	return b.String()
}

// baseClasses is the set of classes mark i has at every beat, in the order
// of its first state's class attribute, appended to base[:0]. A mark has a
// handful of classes, so a slice serves as the set, and encode passes the
// same one for every mark.
func (u *union) baseClasses(i int, base []string) []string {
	rs := u.runs[i]
	base = base[:0]
	for c := range strings.FieldsSeq(rs[0].m.cls) {
		base = append(base, c)
	}
	for k := 1; k < len(rs) && len(base) > 0; k++ {
		if rs[k].m.cls == rs[k-1].m.cls {
			continue // the same classes as the run before
		}
		base = slices.DeleteFunc(base, func(c string) bool { return !hasClass(rs[k].m.cls, c) })
	}
	return base
}

// hasClass reports whether the class attribute cls holds the class c.
func hasClass(cls, c string) bool {
	for f := range strings.FieldsSeq(cls) {
		if f == c {
			return true
		}
	}
	return false
}

// posMode chooses how mark i's position is tracked (see the track fields):
// "v" or "o" when it follows its offset in steps of cw, else "p".
func (u *union) posMode(i, cw int) string {
	rs := u.runs[i]
	m0 := rs[0].m
	follows, numbered, fixedY := m0.od && cw > 0, m0.od, true
	prefix := strings.TrimSuffix(m0.text[0], itoa64(m0.o))
	for k := range rs {
		m := rs[k].m
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
// after the first's); cw is the layout's offset width (Layout.CellW). The
// tracks come as their JSON, each track an array, separated by commas
// and without the brackets of the list that holds them (figureJSON), so
// that a second panel's are appended to the first's (joinTracks).
//
// A field's track is made only when its value first changes (most never
// do), each value is compared as the string or int it is, and a
// position's "x,y" is written only when it moved: most of a figure's
// marks and fields keep their value, and this is the figure's busiest
// loop. A track is written as JSON while it is made, into a buffer of its
// field that every mark reuses, so no value is boxed or kept.
func (u *union) encode(cw, first int) (titles []string, tracks []byte) {
	return u.encodeTo(cw, first, nil)
}

// encodeTo is encode appending the tracks to tracks (joinTracks), which
// may hold another panel's: a figure's tracks are written into one buffer,
// a trackScratch that figureJSON copies out, rather than into a new one
// that doubles as it grows.
func (u *union) encodeTo(cw, first int, tracks []byte) (titles []string, _ []byte) {
	if len(u.marks) > 0 {
		titles = make([]string, 0, len(u.marks)) // nil without marks, as figureJSON wants
	}
	// Titles repeat across marks and beats (986 distinct of the 6,367 the
	// guide's figures encode), and encoding one is a strings.Replacer
	// pass over it: each is encoded once.
	coded := make(map[string]string, len(u.marks))
	encode := func(t string) string {
		c, ok := coded[t]
		if !ok {
			c = encodeTitle(t)
			coded[t] = c
		}
		return c
	}
	// Each field's track of the mark at hand, and its classes that it has
	// at every beat, reused from mark to mark.
	var buf [7]trackJSON
	var base []string
	for i := range u.marks {
		rs := u.runs[i]
		title0 := encode(rs[0].m.title)
		titles = append(titles, title0)
		if untracked[u.marks[i].id] {
			continue
		}
		if len(rs) == 1 {
			continue // drawn at every beat, never changed: no field has a track
		}
		base = u.baseClasses(i, base)
		pos := u.posMode(i, cw)
		fields := [7]string{"c", pos, "0", "1", "2", "t", ""}
		if pos == "v" {
			fields[2] = "" // the offset writes the first text
		}
		// last holds each field's value as of its last change (a string
		// field's in s, an int field's in n), at the beat index at;
		// started says which fields' tracks buf holds for this mark.
		var last [7]struct {
			s string
			n int
		}
		var at [7]int
		var started [7]bool
		// value writes field f's last value to its track.
		value := func(f int) {
			switch fields[f] {
			case "o", "v":
				buf[f] = buf[f].int(last[f].n)
			default:
				buf[f] = buf[f].str(last[f].s)
			}
		}
		var x, y int // the position "p" last written
		fl := ""
		// A mark's classes go back and forth between a few sets (a lane
		// online and offline, a card's stages): the flags of the last
		// few are kept, by class attribute and presence.
		var seen [4]struct {
			cls, fl string
			here    bool
		}
		nseen := 0
		for k := range rs {
			// Each run starts where something about the mark may have
			// changed since the beat before, which is the run before.
			bi, m, here := rs[k].bi, rs[k].m, rs[k].here
			var p *state
			if k > 0 {
				p = &rs[k-1]
				if here == p.here && (m == p.m || sameState(m, p.m)) {
					continue
				}
			}
			if p == nil || here != p.here || m.cls != p.m.cls {
				j := 0
				for j < min(nseen, len(seen)) && (seen[j].here != here || seen[j].cls != m.cls) {
					j++
				}
				if j < min(nseen, len(seen)) {
					fl = seen[j].fl
				} else {
					fl = flags(m, here, base)
					seen[nseen%len(seen)].cls, seen[nseen%len(seen)].fl, seen[nseen%len(seen)].here = m.cls, fl, here
					nseen++
				}
			}
			for f, name := range fields {
				var s string
				var n int
				isInt := false
				switch name {
				case "":
					continue
				case "c":
					s = fl
				case "p":
					if p != nil && m.x == x && m.y == y {
						continue // unchanged: "x,y" as last written
					}
					s = itoa(m.x) + "," + itoa(m.y)
					x, y = m.x, m.y
				case "o", "v":
					n, isInt = int(m.o), true
				case "0", "1", "2":
					s = m.text[name[0]-'0']
				case "t":
					switch {
					case p == nil:
						s = title0
					case m.title == p.m.title:
						continue
					default:
						s = encode(m.title)
					}
				}
				switch {
				case p == nil:
					last[f].s, last[f].n = s, n
				case isInt && n != last[f].n, !isInt && s != last[f].s:
					if !started[f] {
						// The track starts at its first change, with the
						// value the field had until then.
						started[f] = true
						buf[f] = buf[f][:0].int(first + i).str(fields[f])
						value(f)
					}
					last[f].s, last[f].n = s, n
					buf[f] = buf[f].int(bi - at[f])
					value(f)
					at[f] = bi
				}
			}
		}
		for f := range buf {
			if started[f] {
				tracks = joinTracks(tracks, buf[f].end())
			}
		}
	}
	return titles, tracks
}

// trackJSON is one track's JSON array as it is written: "[" and the values
// so far, each after a comma but the first; end closes it.
type trackJSON []byte

// int appends the value n.
func (t trackJSON) int(n int) trackJSON {
	if len(t) == 0 {
		t = append(t, '[')
	} else {
		t = append(t, ',')
	}
	return strconv.AppendInt(t, int64(n), 10)
}

// str appends the value s, a JSON string.
func (t trackJSON) str(s string) trackJSON {
	if len(t) == 0 {
		t = append(t, '[')
	} else {
		t = append(t, ',')
	}
	return appendJSONString(t, s)
}

// end returns the track's array closed; a track without values is "[]".
func (t trackJSON) end() []byte {
	if len(t) == 0 {
		t = append(t, '[')
	}
	return append(t, ']')
}

// joinTracks appends the tracks' JSON more (one or more arrays separated by
// commas, as encode returns them) to tracks.
func joinTracks(tracks, more []byte) []byte {
	if len(more) == 0 {
		return tracks
	}
	if len(tracks) > 0 {
		tracks = append(tracks, ',')
	}
	return append(tracks, more...)
}

// sameState reports whether a mark has the same fields at two beats.
func sameState(a, b *mark) bool {
	return a.x == b.x && a.y == b.y && a.w == b.w && a.o == b.o && a.cls == b.cls && a.text == b.text && a.title == b.title
}

// trackScratch holds the buffers figures' tracks were written into
// (encodeTo) and figureJSON has copied out. Grown by doubling, a new
// buffer per figure cost the build of bench's varied 288-page site about
// 27 MB of arrays for about 8 MB of tracks (allocation profile; the build
// allocated 542 MB in all with them, 513 MB with this pool). A buffer
// taken from here is memory already in use, where a new one is fresh
// memory and a page fault for every 4 KB written the first time (see
// markChunks). What it held does not matter: getTracks empties it, and it
// holds bytes only, no pointers.
var trackScratch = sync.Pool{New: func() any { return new([]byte) }}

// getTracks returns an empty buffer for a figure's tracks; putTracks gives
// it back, with what it grew to, once nothing reads it (figureJSON copied it).
func getTracks() *[]byte { b := trackScratch.Get().(*[]byte); *b = (*b)[:0]; return b }

func putTracks(b *[]byte, tracks []byte) {
	*b = tracks[:0]
	trackScratch.Put(b)
}

// figureJSON is the figure's JSON script: {"t": titles, "k": tracks},
// written as encoding/json's Marshal would write it (a nil titles is
// null); tracks is the tracks' arrays as encode writes them (trackJSON,
// joinTracks).
func figureJSON(titles []string, tracks []byte) []byte {
	n := len(`{"t":[],"k":[]}`) + len(tracks)
	for _, t := range titles {
		n += len(t) + len(`"",`)
	}
	b := make([]byte, 0, n+n/16)
	b = append(b, `{"t":`...)
	if titles == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range titles {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, t)
		}
		b = append(b, ']')
	}
	b = append(b, `,"k":[`...)
	b = append(b, tracks...)
	return append(b, "]}"...)
}

// changedAt reports, for each mark of u, whether beat index bi draws it
// differently from the beat before: it appeared, or its place, size,
// offset, classes or texts changed (its title alone does not count: it
// explains, it is not seen). This is what the figure marks as changed at
// bi (class kf-new), computed from the drawn states of two consecutive
// recorded beats; the stepper derives the same set from the tracks. Only
// marks that can ring (ringable) are marked. Beat 0 has no beat before
// it: nothing is marked.
func (u *union) changedAt(bi int) []bool {
	out := make([]bool, len(u.marks))
	if bi <= 0 {
		return out
	}
	for i := range u.marks {
		if !ringable(&u.marks[i]) {
			continue
		}
		rs := u.runs[i]
		k := sort.Search(len(rs), func(k int) bool { return rs[k].bi >= bi })
		if k == 0 || k == len(rs) || rs[k].bi != bi || !rs[k].here {
			continue
		}
		was, now := &rs[k-1], &rs[k]
		out[i] = !was.here || !sameLook(was.m, now.m)
	}
	return out
}

// ringable reports whether a change of m is marked with a ring (kf-new).
// State marks are: cells, badges, ticks, labels, lanes. The beat counter
// changes every beat, so it is not; nor are the messages on the wire,
// tokens and their arrows, since each beat's messages are new by nature —
// ringing them all would crowd the beats where the state marks' rings
// matter. stepper.js skips the same shapes by class (sw, sa). A cell the
// high watermark passes rings: it has just become readable.
func ringable(m *mark) bool {
	return !untracked[m.id] && m.shape != shWire && m.shape != shArrow
}

// sameLook reports whether a mark looks the same at two beats: sameState
// without the title.
func sameLook(a, b *mark) bool {
	return a.x == b.x && a.y == b.y && a.w == b.w && a.o == b.o && a.cls == b.cls && a.text == b.text
}

// markChanged adds the class kf-new to the marks of ms that hot marks.
func markChanged(ms []mark, hot []bool) {
	for i := range ms {
		if hot[i] {
			ms[i].cls = strings.TrimSpace(ms[i].cls + " kf-new")
		}
	}
}
