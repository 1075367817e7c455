package svganim

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
)

// stepperModel does in Go what stepper.js does in the browser: it starts
// from the poster SVG's marks and applies the tracks to reach any beat.
// Comparing its result with the directly drawn beat checks the encoding
// without a browser (TestBrowserStepper checks the real script).
type stepperModel struct {
	class  []string // class attribute per mark
	x, y   []int
	texts  [][]string
	titles []string // decoded
	widths []int
	tracks []modelTrack
	cw     int
}

type modelTrack struct {
	mark   int
	field  string
	beats  []int
	vals   []any
	base   string // "c": the classes kept; "v": the text's prefix
	origin int    // "o", "v": x at offset 0
}

func (t modelTrack) at(b int) any {
	i := len(t.beats) - 1
	for i > 0 && t.beats[i] > b {
		i--
	}
	return t.vals[i]
}

// num reads a JSON number decoded into an any.
func num(v any) int { return int(v.(float64)) }

func newStepperModel(t *testing.T, u *union, cw, poster int, data []byte) *stepperModel {
	t.Helper()
	m := &stepperModel{cw: cw}
	for i := range u.marks {
		mk, here := u.at(poster, i)
		m.class = append(m.class, classOf(mk, !here))
		m.x, m.y = append(m.x, mk.x), append(m.y, mk.y)
		m.texts = append(m.texts, append([]string(nil), mk.text[:textCount[mk.shape]]...))
		m.widths = append(m.widths, mk.w)
	}
	var raw struct {
		T []string `json:"t"`
		K [][]any  `json:"k"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.T) != len(u.marks) {
		t.Fatalf("%d titles for %d marks", len(raw.T), len(u.marks))
	}
	for _, e := range raw.T {
		m.titles = append(m.titles, decodeTitle(e))
	}
	for _, a := range raw.K {
		tr := modelTrack{mark: num(a[0]), field: a[1].(string), beats: []int{0}, vals: []any{a[2]}}
		for i, b := 3, 0; i < len(a); i += 2 {
			b += num(a[i])
			tr.beats = append(tr.beats, b)
			tr.vals = append(tr.vals, a[i+1])
		}
		now := tr.at(poster)
		switch tr.field {
		case "c":
			var keep []string
			for _, c := range strings.Fields(m.class[tr.mark]) {
				if !contains(strings.Fields(now.(string)), c) {
					keep = append(keep, c)
				}
			}
			tr.base = strings.Join(keep, " ")
		case "o", "v":
			tr.origin = m.x[tr.mark] - num(now)*cw
			if tr.field == "v" {
				text := m.texts[tr.mark][0]
				tr.base = text[:len(text)-len(itoa(num(now)))]
			}
		}
		m.tracks = append(m.tracks, tr)
	}
	return m
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func (m *stepperModel) show(b int) {
	for _, tr := range m.tracks {
		v := tr.at(b)
		switch tr.field {
		case "c":
			m.class[tr.mark] = strings.TrimSpace(tr.base + " " + v.(string))
		case "p":
			xy := strings.Split(v.(string), ",")
			m.x[tr.mark], _ = strconv.Atoi(xy[0])
			m.y[tr.mark], _ = strconv.Atoi(xy[1])
		case "o", "v":
			m.x[tr.mark] = tr.origin + num(v)*m.cw
			if tr.field == "v" {
				m.texts[tr.mark][0] = tr.base + itoa(num(v))
			}
		case "t":
			m.titles[tr.mark] = decodeTitle(v.(string))
		case "n":
			m.widths[tr.mark] = num(v) * m.cw
		default:
			m.texts[tr.mark][int(tr.field[0]-'0')] = v.(string)
		}
	}
}

func sameClassSet(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) != len(fb) {
		return false
	}
	for _, c := range fa {
		if !contains(fb, c) {
			return false
		}
	}
	return true
}

// TestTracksReproduceEveryBeat: starting from the poster and jumping to
// every beat in a scrambled order, the modelled DOM shows exactly the marks
// that drawing that beat directly gives, and hides every other mark.
func TestTracksReproduceEveryBeat(t *testing.T) {
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		u := unite(s)
		poster := PosterBeat(nt.t)
		m := newStepperModel(t, u, s.l.CellW, poster, figureJSON(u.encode(s.l.CellW, 0)))
		index := map[string]int{}
		for i := range u.marks {
			index[u.marks[i].id] = i
		}
		n := len(nt.t.Beats)
		for k := 0; k < n; k++ {
			b := (k*7 + 3) % n // every beat once, not in order
			if n%7 == 0 {
				b = k
			}
			m.show(b)
			drawn := map[int]bool{}
			for _, d := range s.draw(b) {
				i := index[d.id]
				drawn[i] = true
				if d.id == "beat" {
					continue // the stepper writes the counter itself
				}
				want := classOf(&d, false)
				if !sameClassSet(m.class[i], want) || m.x[i] != d.x || m.y[i] != d.y || m.titles[i] != d.title || m.widths[i] != d.w ||
					strings.Join(m.texts[i], "|") != strings.Join(d.text[:textCount[d.shape]], "|") {
					t.Errorf("%s beat %d mark %s: got class %q pos %d,%d width %d title %q texts %q; want %q %d,%d %d %q %q",
						nt.name, b, d.id, m.class[i], m.x[i], m.y[i], m.widths[i], m.titles[i], m.texts[i], want, d.x, d.y, d.w, d.title, d.text)
				}
			}
			for i := range u.marks {
				if !drawn[i] && !contains(strings.Fields(m.class[i]), "kf-gone") {
					t.Errorf("%s beat %d: mark %s is not drawn at this beat but not hidden", nt.name, b, u.marks[i].id)
				}
			}
		}
	}
}

// TestDrawAllMatchesDraw: drawing every beat at once — in parallel, with
// verdict discs remembered from earlier beats, and each part of
// the picture whose slice of the state did not change keeping its marks
// of the beat before — hands merge each beat in order with frames whose
// marks, the kept ones and the new ones together, are exactly the marks
// drawing that beat alone gives, at one goroutine and at several. It also
// checks that parts do keep marks, so that the frames are deltas.
func TestDrawAllMatchesDraw(t *testing.T) {
	for _, procs := range []int{1, 4} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		kept, drawn := 0, 0
		for _, nt := range allTraces(t) {
			s := newScene(nt.t)
			next := 0
			parts := map[int][]mark{} // each numbered part's marks at the beat before
			s.drawAll(func(bi int, fr *frame) {
				if bi != next {
					t.Fatalf("%s at GOMAXPROCS %d: beat index %d merged when %d was due", nt.name, procs, bi, next)
				}
				next++
				var got []mark
				at := 0
				now := map[int][]mark{}
				for _, pt := range fr.parts {
					fresh := fr.ms[at : at+pt.n]
					at += pt.n
					if pt.id == noPart {
						got = append(got, fresh...)
						continue
					}
					was := parts[pt.id]
					keep := pt.keep
					if keep == keepAll {
						keep = len(was)
					}
					if keep > len(was) {
						t.Fatalf("%s beat %d: part %d keeps %d of its %d marks", nt.name, bi, pt.id, keep, len(was))
					}
					list := append(slices.Clone(was[:keep]), fresh...)
					kept += keep
					now[pt.id] = list
					got = append(got, list...)
				}
				drawn += len(got)
				parts = now
				slices.SortStableFunc(got, func(a, b mark) int {
					return cmp.Or(cmp.Compare(a.layer, b.layer), strings.Compare(a.id, b.id))
				})
				if want := s.draw(bi); !slices.Equal(got, want) {
					t.Errorf("%s at GOMAXPROCS %d beat %d: drawAll's marks differ from draw's", nt.name, procs, bi)
				}
			})
			if next != len(nt.t.Beats) {
				t.Errorf("%s at GOMAXPROCS %d: %d of %d beats merged", nt.name, procs, next, len(nt.t.Beats))
			}
		}
		if kept < drawn/3 {
			t.Errorf("at GOMAXPROCS %d: %d of the %d marks of every beat were kept from the beat before, not a third", procs, kept, drawn)
		}
		t.Logf("at GOMAXPROCS %d: %d of the %d marks of every beat kept from the beat before", procs, kept, drawn)
	}
}

// TestDrawAllPanicReachesCaller: a broken invariant while drawing a beat
// on another goroutine panics in drawAll's caller (where the site turns it
// into an internal error at the fence), after every earlier beat merged.
func TestDrawAllPanicReachesCaller(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	traces := allTraces(t)
	long := traces[0]
	for _, nt := range traces {
		if len(nt.t.Beats) > len(long.t.Beats) {
			long = nt
		}
	}
	s := newScene(long.t)
	s.keys = nil // every keyed mark now indexes past the end
	first := -1
	for bi, b := range long.t.Beats {
		for _, p := range b.Partitions {
			for _, r := range p.Replicas {
				if len(r.Log) > 0 && first < 0 {
					first = bi
				}
			}
		}
	}
	if first < 0 {
		t.Fatalf("%s never has a record in a log", long.name)
	}
	merged := 0
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("drawAll did not panic on %s", long.name)
			}
		}()
		s.drawAll(func(bi int, fr *frame) { merged++ })
	}()
	if merged > first {
		t.Errorf("%d beats merged; the first with a record in a log is beat index %d", merged, first)
	}
}

// TestPooledChunksAreClear: after figures are drawn, at one goroutine and
// at several, every chunk markChunks hands out holds only zero marks, so
// that the pool keeps no figure's strings alive although putChunk clears
// only the marks written.
func TestPooledChunksAreClear(t *testing.T) {
	for _, procs := range []int{1, 4} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, nt := range allTraces(t) {
			if _, err := Draw(nt.t, Options{}); err != nil {
				t.Fatal(err)
			}
		}
		var got []*markChunk
		for range 8 {
			c := getChunk()
			got = append(got, c)
			for i := range c {
				if c[i] != (mark{}) {
					t.Fatalf("at GOMAXPROCS %d: a pooled chunk holds mark %q at %d", procs, c[i].id, i)
				}
			}
		}
		for _, c := range got {
			markChunks.Put(c)
		}
	}
}

// TestPooledTracksStartEmpty: a figure's tracks are written into a buffer
// from trackScratch that another figure left there, grown and full of its
// bytes; the tracks script of a figure, single and compared, is the same
// drawn after a pooled buffer was filled with other bytes as drawn first.
func TestPooledTracksStartEmpty(t *testing.T) {
	src, err := fs.ReadFile(content.FS, "acks.md")
	if err != nil {
		t.Fatal(err)
	}
	base, variant, errs := scenario.ParseCompare([]byte(fences(string(src))[0]))
	if errs != nil || variant == nil {
		t.Fatalf("acks.md fence 1: %v (variant %v)", errs, variant != nil)
	}
	a, b := sim.Run(base), sim.Run(variant)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tracks := func(compare bool) []byte {
		var d *Drawn
		var err error
		if compare {
			d, err = DrawCompare(a, b, Options{})
		} else {
			d, err = Draw(a, Options{})
		}
		if err != nil {
			t.Fatal(err)
		}
		return d.d.Tracks
	}
	for _, compare := range []bool{false, true} {
		want := tracks(compare)
		// The buffer the next figure takes (at one P, the last one Put,
		// the one the pool held taken first): one holding other bytes.
		_ = trackScratch.Get()
		junk := bytes.Repeat([]byte(`["junk"],`), 4096)
		trackScratch.Put(&junk)
		if got := tracks(compare); !bytes.Equal(got, want) {
			t.Errorf("compare %v: after a pooled buffer held other bytes the tracks are\n%.200s\nwant\n%.200s", compare, got, want)
		}
	}
}
