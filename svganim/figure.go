package svganim

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// Options configure Figure.
type Options struct {
	// ID is the figure's DOM id and the name in its deep links
	// ("#ID@BEAT"); it must be a non-empty string of [a-z0-9-], for
	// example "acks--acks-one-loss" (page slug, two dashes, scenario id).
	ID string
	// Poster is the beat shown before any script runs, and to readers
	// without JavaScript. 0 picks the beat with the most events (the
	// latest of equals): the turn of the story, where a crash, an
	// election or a verdict meet, rather than a quiet final state that no
	// longer shows what happened; the storyboard below tells the rest.
	Poster int
}

var safeIDPattern = regexp.MustCompile(`^[a-z0-9-]+$`)

// Figure renders a whole trace as one HTML <figure class="kflow" id=ID>:
// the title; the frames, encoded as one inline SVG showing the poster beat
// (every mark of every beat is in it, those absent at the poster hidden)
// plus a JSON script holding the marks' titles and tracks, each mark's
// changes beat by beat, which stepper.js (StepperJS) applies (see patch.go;
// it weighs a fraction of one full SVG per beat and draws the same
// pictures); a key legend whose buttons isolate one key; a caption with
// aria-live="polite" narrating the shown beat's events in the engine's
// canonical wording (sim.Event.String); and the whole storyboard as an
// ordered list of beat captions (numbered by beat) inside <details>, for
// readers without JavaScript and for print. The stepper adds the controls (first, back,
// play/pause, forward, last, a beat scrubber, a speed select, a beat
// counter and a link button), which do nothing without it, and restores
// each mark's title (words.go) when it is hovered or focused. The page
// must load stepper.js (StepperJS) and templates/figure.css, with
// kf-words.js (WordsJS, written by the site) beside stepper.js. Every user string (title, keys,
// group and member names, event texts) is escaped. The error reports an
// invalid Options.ID, an empty or misnumbered trace, or a poster beat
// outside it.
func Figure(t *sim.Trace, o Options) ([]byte, error) {
	if !safeIDPattern.MatchString(o.ID) {
		return nil, fmt.Errorf("figure id %q must be made of a-z, 0-9 and -", o.ID)
	}
	if err := checkTrace(t); err != nil {
		return nil, err
	}
	last := len(t.Beats) - 1
	poster := o.Poster
	if poster == 0 {
		poster = PosterBeat(t)
	}
	if poster < 0 || poster > last {
		return nil, fmt.Errorf("poster beat %d is outside the trace (beats 0 to %d)", poster, last)
	}
	s := newScene(t)
	d := figData{ID: o.ID, Title: t.Title, Last: last, Poster: poster}
	if d.Title == "" {
		d.Title = t.ID
	}
	for bi := range t.Beats {
		d.Story = append(d.Story, storyItem(bi, caption(&t.Beats[bi])))
	}
	u := unite(s)
	var buf bytes.Buffer
	ms, gone := u.beat(poster)
	writeSVG(&buf, s.l, d.Title, ms, gone, true)
	d.SVG = template.HTML(buf.String())
	d.Tracks = template.JS(figureJSON(u.encode(s.l.CellW, 0)))
	d.Caption = caption(&t.Beats[poster])
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

// storyItem is beat bi's caption as the storyboard lists it: without the
// "beat N — " the list's own numbering (start="0") already shows. The
// stepper puts the prefix back when it shows the item as the caption.
func storyItem(bi int, caption string) string {
	return strings.TrimPrefix(caption, "beat "+itoa(bi)+" — ")
}

// caption is one beat's narration: its number and its events in the
// engine's words, or a note that nothing happened.
func caption(b *sim.Beat) string {
	if len(b.Events) == 0 {
		return "beat " + itoa(b.Beat) + " — no events"
	}
	return "beat " + itoa(b.Beat) + " — " + strings.Join(b.Texts(), "; ")
}

type figData struct {
	ID, Title    string
	Last, Poster int
	Caption      string   // the poster beat's caption
	Story        []string // every beat's caption, storyItem
	SVG          template.HTML
	Tracks       template.JS
	Keys         []KeyStyle
}

var figureTmpl = template.Must(template.New("figure").Parse(`<figure class="kflow" id="{{.ID}}" data-last="{{.Last}}" data-poster="{{.Poster}}" tabindex="0" aria-labelledby="{{.ID}}-t">
<figcaption class="kf-title" id="{{.ID}}-t">{{.Title}}</figcaption>
<div class="kf-view">
{{- .SVG -}}
</div>
{{- if .Keys}}
<div class="kf-legend" role="group" aria-label="keys: press one to isolate it">
{{- range .Keys}}<button type="button" class="kf-key k{{.Slot}}" data-k="{{.Slot}}" aria-pressed="false"{{if ne .Short .Key}} title="{{.Key}}" aria-label="key {{.Key}}"{{end}}><span class="kf-sw">{{.Label}}</span> {{.Short}}</button>{{end -}}
</div>
{{- end}}
<p class="kf-caption" aria-live="polite">{{.Caption}}</p>
<details class="kf-story"><summary>The whole story, beat by beat</summary>
<ol start="0">
{{- range .Story}}<li>{{.}}</li>{{end -}}
</ol></details>
<script type="application/json" class="kf-tracks">{{.Tracks}}</script>
</figure>
`))
