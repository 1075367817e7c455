package svganim

import (
	"encoding/json"
	"strings"
	"testing"
)

// stepperModel does in Go what stepper.js does in the browser: it starts
// from the poster SVG's marks and applies the tracks to reach any beat.
// Comparing its result with the directly drawn beat checks the encoding
// without a browser (TestBrowserStepper checks the real script).
type stepperModel struct {
	class  []string // class attribute per mark
	pos    []string // "x,y"
	texts  [][]string
	titles []string
	widths []string
	tracks []modelTrack
	bases  map[int]string
}

type modelTrack struct {
	mark  int
	field string
	beats []int
	vals  []string
}

func (t modelTrack) at(b int) string {
	i := len(t.beats) - 1
	for i > 0 && t.beats[i] > b {
		i--
	}
	return t.vals[i]
}

func newStepperModel(t *testing.T, u *union, poster int, tracksJSON []byte) *stepperModel {
	t.Helper()
	m := &stepperModel{bases: map[int]string{}}
	for i := range u.marks {
		mk := &u.state[poster][i]
		m.class = append(m.class, classOf(mk, !u.here[poster][i]))
		m.pos = append(m.pos, itoa(mk.x)+","+itoa(mk.y))
		m.texts = append(m.texts, append([]string(nil), mk.text[:textCount[mk.shape]]...))
		m.titles = append(m.titles, mk.title)
		m.widths = append(m.widths, itoa(mk.w))
	}
	var raw [][]any
	if err := json.Unmarshal(tracksJSON, &raw); err != nil {
		t.Fatal(err)
	}
	for _, a := range raw {
		tr := modelTrack{mark: int(a[0].(float64)), field: a[1].(string)}
		for i := 2; i < len(a); i += 2 {
			tr.beats = append(tr.beats, int(a[i].(float64)))
			tr.vals = append(tr.vals, a[i+1].(string))
		}
		if tr.field == "c" {
			drop := strings.Fields(tr.at(poster))
			var keep []string
			for _, c := range strings.Fields(m.class[tr.mark]) {
				if !contains(drop, c) {
					keep = append(keep, c)
				}
			}
			m.bases[len(m.tracks)] = strings.Join(keep, " ")
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
	for k, tr := range m.tracks {
		v := tr.at(b)
		switch tr.field {
		case "c":
			m.class[tr.mark] = strings.TrimSpace(m.bases[k] + " " + v)
		case "p":
			m.pos[tr.mark] = v
		case "t":
			m.titles[tr.mark] = v
		case "w":
			m.widths[tr.mark] = v
		default:
			m.texts[tr.mark][int(tr.field[0]-'0')] = v
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
		m := newStepperModel(t, u, poster, u.tracks())
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
				if !sameClassSet(m.class[i], want) || m.pos[i] != itoa(d.x)+","+itoa(d.y) || m.titles[i] != d.title || m.widths[i] != itoa(d.w) ||
					strings.Join(m.texts[i], "|") != strings.Join(d.text[:textCount[d.shape]], "|") {
					t.Errorf("%s beat %d mark %s: got class %q pos %s title %q texts %q; want %q %d,%d %q %q",
						nt.name, b, d.id, m.class[i], m.pos[i], m.titles[i], m.texts[i], want, d.x, d.y, d.title, d.text)
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
