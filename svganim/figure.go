package svganim

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"

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

var safeIDPattern = regexp.MustCompile(`^[a-z0-9-]+$`)

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
	if !safeIDPattern.MatchString(o.ID) {
		return nil, fmt.Errorf("figure id %q must be made of a-z, 0-9 and -", o.ID)
	}
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
	d := figData{ID: o.ID, Title: t.Title, Last: last, Poster: poster, Open: o.Open}
	if d.Title == "" {
		d.Title = t.ID
	}
	notes := notesByBeat(o.Notes)
	for bi := range t.Beats {
		d.Story = append(d.Story, beatCaption(&t.Beats[bi], notes[bi], "").html("", false))
	}
	u := unite(s)
	var buf bytes.Buffer
	ms, gone := u.beat(poster)
	markChanged(ms, u.changedAt(poster))
	writeSVG(&buf, s.l, d.Title, ms, gone, true)
	d.SVG = template.HTML(buf.String())
	d.Tracks = template.JS(figureJSON(u.encode(s.l.CellW, 0)))
	d.Caption = beatCaption(&t.Beats[poster], notes[poster], "").html("beat "+itoa(poster)+" — ", true)
	d.Keys = append(d.Keys, s.keys...)
	var out bytes.Buffer
	if err := figureTmpl.Execute(&out, d); err != nil {
		return nil, fmt.Errorf("figure %s: %w", o.ID, err)
	}
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

type figData struct {
	ID, Title          string
	Last, Poster, Open int
	Caption            template.HTML   // the poster beat's caption, after "beat N — "
	Story              []template.HTML // every beat's caption, without the beat number
	SVG                template.HTML
	Tracks             template.JS
	Keys               []KeyStyle
}

var figureTmpl = template.Must(template.New("figure").Parse(`<figure class="kflow" id="{{.ID}}" data-last="{{.Last}}" data-poster="{{.Poster}}" data-open="{{.Open}}" tabindex="0" aria-labelledby="{{.ID}}-t">
<figcaption class="kf-title" id="{{.ID}}-t">{{.Title}}</figcaption>
<div class="kf-view">
{{- .SVG -}}
</div>
{{- if .Keys}}
<div class="kf-legend" role="group" aria-label="keys: press one to isolate it">
{{- range .Keys}}<button type="button" class="kf-key k{{.Slot}}" data-k="{{.Slot}}" aria-pressed="false"{{if ne .Short .Key}} title="{{.Key}}" aria-label="key {{.Key}}"{{end}}><span class="kf-sw">{{.Label}}</span> {{.Short}}</button>{{end -}}
</div>
{{- end}}
<div class="kf-capbox"><div class="kf-caption" aria-live="polite">{{.Caption}}</div></div>
<details class="kf-story"><summary>The whole story, beat by beat</summary>
<ol start="0">
{{- range .Story}}<li>{{.}}</li>{{end -}}
</ol></details>
<script type="application/json" class="kf-tracks">{{.Tracks}}</script>
</figure>
`))
