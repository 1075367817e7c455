package svganim

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// FigureCompare renders two traces of one story under two settings (a
// fence and its compare run, see sim/scenario.ParseCompare) as one HTML
// <figure class="kflow kf-cmp" id=ID> that steps both together: the same
// controls, key legend, caption and storyboard as Figure, but the view
// holds two panels, left the first trace and right the second, each headed
// by its trace's title (side by side where the page is wide enough, one
// under the other where it is not; templates/figure.css). Both panels are
// drawn in one layout of both traces' topologies (MergeTopology), so they
// are equally wide and their lanes and rows line up. The figure runs
// to the longer trace's last beat; the shorter one stays on its last beat.
// Each beat's caption tells both runs: the first run's headline leads,
// "beat N — TITLE-A: headline", the second's follows beneath it (both
// beneath the author's note, when the beat has one), and every other
// event, after its run's title, is under "n more". Options.Poster 0
// (unless PosterChosen) picks the beat with the most events in both runs
// together. The second panel has no beat counter of its own (the one
// in the first and the controls show the beat). Errors are Figure's, for
// either trace.
func FigureCompare(a, b *sim.Trace, o Options) ([]byte, error) {
	if err := CheckID(o.ID); err != nil {
		return nil, err
	}
	d, err := DrawCompare(a, b, o)
	if err != nil {
		return nil, err
	}
	return d.Markup(o.ID)
}

// DrawCompare draws two traces as FigureCompare does, leaving out the id
// (o.ID is not read): FigureCompare(a, b, o) is DrawCompare(a, b, o) then
// Markup(o.ID). Its errors are FigureCompare's but the id's.
func DrawCompare(a, b *sim.Trace, o Options) (*Drawn, error) {
	for _, t := range []*sim.Trace{a, b} {
		if err := checkTrace(t); err != nil {
			return nil, err
		}
	}
	last := max(len(a.Beats), len(b.Beats)) - 1
	poster := o.Poster
	if poster == 0 && !o.PosterChosen {
		poster = comparePoster(a, b)
	}
	if err := checkBeats(poster, o.Open, o.Notes, last); err != nil {
		return nil, err
	}
	names := [2]string{panelName(a), panelName(b)}
	labels := runLabels(names)
	d := figData{Title: names[0] + " vs " + names[1], Last: last, Poster: poster, Open: o.Open}
	notes := notesByBeat(o.Notes)
	for bi := 0; bi <= last; bi++ {
		d.Story = append(d.Story, compareCaptionParts(bi, labels, a, b, notes[bi]).html("", false))
	}
	var view bytes.Buffer
	view.WriteString(`<div class="kf-pair">`)
	var titles []string
	scratch := getTracks()
	tracks := *scratch
	offset := 0
	seen := map[KeyStyle]bool{}
	// Both panels are drawn in one layout, of both traces' topologies
	// together: equal widths, and every lane and row at the same height
	// in both, so that the eye compares them across.
	l := NewLayout(MergeTopology(TopologyOf(a), TopologyOf(b)))
	scenes := [2]*scene{newSceneIn(a, l), newSceneIn(b, l)}
	scenes[0].workers, scenes[1].workers = o.Workers, o.Workers
	widest := max(scenes[0].l.W, scenes[1].l.W)
	for i, t := range []*sim.Trace{a, b} {
		s := scenes[i]
		u := unite(s)
		if i == 1 {
			u.drop("beat")
		}
		at := min(poster, len(t.Beats)-1)
		ms, gone := u.beat(at)
		if at == poster { // a run that ended earlier changes nothing more
			markChanged(ms, u.changedAt(at))
		}
		// A panel grows with its picture's width, so that side by side
		// both are drawn at the same scale; stacked, it takes the share
		// of the width its picture has of the wider one (--kf-pw), for
		// the same reason.
		fmt.Fprintf(&view, `<div class="kf-panel" style="flex-grow:%d;--kf-pw:%d%%"><p class="kf-ptitle">%s</p>`,
			s.l.W, s.l.W*100/widest, escapeCaption(names[i]))
		writeSVG(&view, s.l, names[i], ms, gone, true)
		view.WriteString(`</div>`)
		// The stepper numbers the marks of both panels in document order,
		// so the second panel's marks come after the first's.
		var ti []string
		ti, tracks = u.encodeTo(s.l.CellW, offset, tracks)
		titles = append(titles, ti...)
		offset += len(u.marks)
		u.release()
		for _, k := range s.legendKeys() {
			if !seen[k] {
				seen[k] = true
				d.Keys = append(d.Keys, k)
			}
		}
	}
	view.WriteString(`</div>`)
	d.SVG = view.Bytes()
	d.Tracks = figureJSON(titles, tracks)
	putTracks(scratch, tracks)
	d.Caption = compareCaptionParts(poster, labels, a, b, notes[poster]).html("beat "+itoa(poster)+" — ", true)
	// One class marks the figure as a pair, for the wider layout; a pair
	// too wide to read side by side is stacked on every screen.
	d.Class = "kflow kf-cmp"
	if scenes[0].l.W+scenes[1].l.W > sideBySideMax {
		d.Class = "kflow kf-cmp kf-stack"
	}
	return &Drawn{d: d}, nil
}

// sideBySideMax is the widest pair of pictures, in user units together,
// drawn side by side. The widened column of a side-by-side figure holds
// about 890 px of pictures on a 1280 px desktop screen; past 880 units its
// 12-unit type would draw under 12 px, so the panels stack, each at up to
// its full size. Pictures are laid out to at most maxWidth (430) units, so
// most pairs sit side by side.
const sideBySideMax = 880

// panelName is what labels a trace's panel and its part of the caption:
// its title, or its id when it has none.
func panelName(t *sim.Trace) string {
	if t.Title != "" {
		return t.Title
	}
	return t.ID
}

// runLabels is what names each run in a side-by-side figure's captions,
// before its sentences: the shortest part of its panel's name that tells
// the two runs apart. A name is its settings, then perhaps " — " and what
// the run shows ("acks=1 — broker 1, cut off, acknowledges five records
// that are lost"); the label is the settings alone, and of settings
// written as a list ("acks=0, min.insync.replicas=2") the first one the
// two runs set differently ("min.insync.replicas=2"). Where that does not
// tell them apart (one list is the other's start), the labels are the
// settings whole, and where even those are equal, the names whole. The
// panel titles above the pictures keep the names whole; the captions
// repeat a run's label before each of its sentences, and on a phone a
// long one took two of the caption's lines in every beat.
func runLabels(names [2]string) [2]string {
	var set [2]string
	var parts [2][]string
	for i, n := range names {
		set[i], _, _ = strings.Cut(n, " — ")
		parts[i] = strings.Split(set[i], ", ")
	}
	if set[0] == set[1] {
		return names
	}
	for k := 0; k < min(len(parts[0]), len(parts[1])); k++ {
		if parts[0][k] != parts[1][k] {
			return [2]string{parts[0][k], parts[1][k]}
		}
	}
	return set
}

// comparePoster is the beat with the most events in both traces together,
// the latest among equals, or the last beat when neither has any.
func comparePoster(a, b *sim.Trace) int {
	last := max(len(a.Beats), len(b.Beats)) - 1
	best, n := last, 0
	for bi := 0; bi <= last; bi++ {
		c := 0
		for _, t := range []*sim.Trace{a, b} {
			if bi < len(t.Beats) {
				c += len(t.Beats[bi].Events)
			}
		}
		if c >= n && c > 0 {
			best, n = bi, c
		}
	}
	return best
}

// drop removes the mark with the given id from every beat of u, if present.
func (u *union) drop(id string) {
	for i := range u.marks {
		if u.marks[i].id != id {
			continue
		}
		u.marks = append(u.marks[:i:i], u.marks[i+1:]...)
		u.runs = append(u.runs[:i:i], u.runs[i+1:]...)
		return
	}
}
