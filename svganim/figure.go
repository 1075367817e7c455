package svganim

import (
	"bytes"
	"fmt"

	"github.com/kafkaflow/kflowgen/sim"
)

// Options configure Figure.
type Options struct {
	// ID is the figure's DOM id and the name in its deep links
	// ("#ID@BEAT"); it must be a non-empty string of [a-z0-9-], for
	// example "acks--acks-one-loss" (page slug, two dashes, scenario id).
	ID string
	// Poster is the beat shown before any script runs, and to readers
	// without JavaScript. 0 (unless PosterChosen) picks the beat with the
	// most events (the latest of equals): the turn of the story, where a
	// crash, an election or a verdict meet, rather than a quiet final
	// state that no longer shows what happened; the storyboard below
	// tells the rest.
	Poster int
	// PosterChosen says Poster is the author's choice even when it is 0
	// (the fence's poster: 0).
	PosterChosen bool
	// Open is the beat the stepper opens at, with scripts on: 0, the
	// start of the story, unless the author chose a beat (the fence's
	// poster:). Play runs from it.
	Open int
	// Notes are the author's headlines for some beats (the fence's
	// notes:): a note's text leads its beat's caption, the engine's
	// headline beneath it. A note for a beat outside the trace is an
	// error.
	Notes []sim.Note
	// Workers bounds the goroutines that draw the figure's beats at once:
	// 0 means GOMAXPROCS, 1 draws them on the caller's goroutine. A
	// caller that already spreads figures over GOMAXPROCS workers (the
	// site's build) passes 1, so that the build has one level of workers
	// rather than each of its workers starting GOMAXPROCS of these. The
	// markup is the same for every value.
	Workers int
}

// isSafeID reports whether id is one or more of [a-z0-9-], the ids an
// option may give a figure. It is written out rather than a regexp so the
// playground's WebAssembly module does not link package regexp.
func isSafeID(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Figure renders a whole trace as one HTML <figure class="kflow" id=ID>:
// the title; the frames, encoded as one inline SVG showing the poster beat
// (every mark of every beat is in it, those absent at the poster hidden)
// plus a JSON script holding the marks' titles and tracks, each mark's
// changes beat by beat, which stepper.js (StepperJS) applies (see patch.go;
// it weighs a fraction of one full SVG per beat and draws the same
// pictures), with the marks that changed since the beat before ringed
// (class kf-new, union.changedAt); a key legend whose buttons isolate one
// key; a caption area (aria-live="polite") with the shown beat's caption
// — one headline (the author's note for the beat, else the sentence of
// its most important event by the order of headline.go, cut to
// MaxHeadline), the lines beneath it, and the other events' sentences
// (sim.Event.String) under an "n more" <details>; and the whole
// storyboard as an ordered list of those captions (numbered by beat)
// inside <details>, for readers without JavaScript and for print. The
// stepper adds the controls (first, back, play/pause, forward, last, a
// beat scrubber, a speed select, a beat counter and a link button), which
// do nothing without it, opens the figure at Options.Open, keeps the
// caption area at one height and restores each mark's title (words.go)
// when it is hovered or focused. The page must load stepper.js
// (StepperJS) and templates/figure.css, with kf-words.js (WordsJS,
// written by the site) beside stepper.js. Every user string (title, keys,
// group and member names, notes, event texts) is escaped. The error
// reports an invalid Options.ID, an empty or misnumbered trace, or a
// poster, opening beat or note outside it.
func Figure(t *sim.Trace, o Options) ([]byte, error) {
	if err := CheckID(o.ID); err != nil {
		return nil, err
	}
	d, err := Draw(t, o)
	if err != nil {
		return nil, err
	}
	return d.Markup(o.ID)
}

// CheckID reports an id that Figure, FigureCompare or Drawn.Markup would
// refuse: one that is not one or more of [a-z0-9-].
func CheckID(id string) error {
	if !isSafeID(id) {
		return fmt.Errorf("figure id %q must be made of a-z, 0-9 and -", id)
	}
	return nil
}

// Drawn is a figure drawn but not yet named: everything Figure (or
// FigureCompare) makes of a trace except the DOM id, which appears only
// in the figure's own tag and its title's id, never in the frames, the
// tracks or the captions. Markup names it. One Drawn gives the markup of
// any number of figures of the same trace and options, so that a build
// draws a fence that several pages repeat once (package site); Markup
// only reads the Drawn, so it may be called from several goroutines.
type Drawn struct {
	d figData
}

// Draw draws a whole trace as Figure does, leaving out the id (o.ID is
// not read): Figure(t, o) is Draw(t, o) then Markup(o.ID). Its errors
// are Figure's but the id's.
func Draw(t *sim.Trace, o Options) (*Drawn, error) {
	if err := checkTrace(t); err != nil {
		return nil, err
	}
	last := len(t.Beats) - 1
	poster := o.Poster
	if poster == 0 && !o.PosterChosen {
		poster = PosterBeat(t)
	}
	if err := checkBeats(poster, o.Open, o.Notes, last); err != nil {
		return nil, err
	}
	s := newScene(t)
	s.workers = o.Workers
	d := figData{Title: t.Title, Last: last, Poster: poster, Open: o.Open}
	if d.Title == "" {
		d.Title = t.ID
	}
	notes := notesByBeat(o.Notes)
	for bi := range t.Beats {
		d.Story = append(d.Story, beatCaption(&t.Beats[bi], notes[bi], "", sim.Shown{}).html("", false))
	}
	u := unite(s)
	var buf bytes.Buffer
	ms, gone := u.beat(poster)
	markChanged(ms, u.changedAt(poster))
	writeSVG(&buf, s.l, d.Title, ms, gone, true)
	d.SVG = buf.Bytes()
	scratch := getTracks()
	titles, tracks := u.encodeTo(s.l.CellW, 0, *scratch)
	d.Tracks = figureJSON(titles, tracks)
	putTracks(scratch, tracks)
	u.release()
	d.Caption = beatCaption(&t.Beats[poster], notes[poster], "", sim.Shown{}).html("beat "+itoa(poster)+" — ", true)
	d.Keys = append(d.Keys, s.legendKeys()...)
	return &Drawn{d: d}, nil
}

// Markup is the figure's markup with DOM id id, byte for byte what
// Figure (or FigureCompare) gives with Options.ID id; the error reports
// an id CheckID refuses.
func (dr *Drawn) Markup(id string) ([]byte, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	d := dr.d
	d.ID = id
	var out bytes.Buffer
	out.Grow(d.size())
	d.write(&out)
	return out.Bytes(), nil
}

// PosterBeat is the beat Figure shows by default: the one with the most
// events, the latest among equals, or the last beat when none has any.
func PosterBeat(t *sim.Trace) int {
	best, n := len(t.Beats)-1, 0
	for i, b := range t.Beats {
		if len(b.Events) >= n && len(b.Events) > 0 {
			best, n = i, len(b.Events)
		}
	}
	return best
}

// checkBeats reports a poster, an opening beat or a note outside beats 0
// to last.
func checkBeats(poster, open int, notes []sim.Note, last int) error {
	if poster < 0 || poster > last {
		return fmt.Errorf("poster beat %d is outside the trace (beats 0 to %d)", poster, last)
	}
	if open < 0 || open > last {
		return fmt.Errorf("opening beat %d is outside the trace (beats 0 to %d)", open, last)
	}
	for _, n := range notes {
		if n.At < 0 || n.At > last {
			return fmt.Errorf("the note for beat %d is outside the trace (beats 0 to %d)", n.At, last)
		}
	}
	return nil
}

// figData is what a figure's markup holds besides its SVG. Caption,
// Story, SVG and Tracks are markup already (escaped where they were made);
// ID, Title and the keys' strings are text, escaped as they are written.
type figData struct {
	// Class is the <figure>'s class attribute; "" means "kflow" (Figure's
	// figures; FigureCompare's add kf-cmp).
	Class              string
	ID, Title          string
	Last, Poster, Open int
	Caption            string   // the poster beat's caption, after "beat N — "
	Story              []string // every beat's caption, without the beat number
	SVG                []byte
	Tracks             []byte // the JSON script (figureJSON)
	Keys               []KeyStyle
}

// size is about the length of the figure's markup, for sizing buffers.
func (d *figData) size() int {
	n := len(d.SVG) + len(d.Tracks) + len(d.Caption) + len(d.Title) + 3*len(d.ID) + 1024
	for _, st := range d.Story {
		n += len(st) + len("<li></li>")
	}
	return n + len(d.Keys)*160
}

// write appends the figure's markup to b: the <figure> with its data
// attributes, the title, the view holding the SVG, the key legend (when
// there are keys), the caption area, the storyboard and the tracks'
// script. It is the markup an html/template once wrote, kept byte for
// byte (TestFigureMarkupIsTheTemplates checks it against that template).
func (d *figData) write(b *bytes.Buffer) {
	id := escapeText(d.ID)
	class := d.Class
	if class == "" {
		class = "kflow"
	}
	// Piece by piece: a string built of the pieces first would be made
	// and thrown away (a story's items are thousands a build).
	w := b.WriteString
	w(`<figure class="`)
	w(class)
	w(`" id="`)
	w(id)
	w(`" data-last="`)
	w(itoa(d.Last))
	w(`" data-poster="`)
	w(itoa(d.Poster))
	w(`" data-open="`)
	w(itoa(d.Open))
	w(`" tabindex="0" aria-labelledby="`)
	w(id)
	w(`-t">
<figcaption class="kf-title" id="`)
	w(id)
	w(`-t">`)
	w(escapeText(d.Title))
	w(`</figcaption>
<div class="kf-view">`)
	b.Write(d.SVG)
	w(`</div>`)
	if len(d.Keys) > 0 {
		w("\n" + `<div class="kf-legend" role="group" aria-label="keys: press one to isolate it">`)
		for _, k := range d.Keys {
			slot := itoa(k.Slot)
			w(`<button type="button" class="kf-key k`)
			w(slot)
			w(`" data-k="`)
			w(slot)
			w(`" aria-pressed="false"`)
			if k.Short != k.Key {
				key := escapeText(k.Key)
				w(` title="`)
				w(key)
				w(`" aria-label="key `)
				w(key)
				w(`"`)
			}
			w(`><span class="kf-sw">`)
			w(escapeText(k.Label))
			w(`</span> `)
			w(escapeText(k.Short))
			w(`</button>`)
		}
		w(`</div>`)
	}
	w("\n" + `<div class="kf-capbox"><div class="kf-caption" aria-live="polite">`)
	w(d.Caption)
	w(`</div></div>
<details class="kf-story"><summary>The whole story, beat by beat</summary>
<ol start="0">`)
	for _, st := range d.Story {
		w(`<li>`)
		w(st)
		w(`</li>`)
	}
	w(`</ol></details>
<script type="application/json" class="kf-tracks">`)
	b.Write(d.Tracks)
	w(`</script>
</figure>
`)
}
