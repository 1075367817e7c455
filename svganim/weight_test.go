package svganim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

func TestWeightReport(t *testing.T) {
	tr := acksOneLoss()
	fig, err := Figure(tr, Options{ID: "w"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("acks-one-loss (hand): %s", Measure(tr, fig))
}

func TestWeightFullFrames(t *testing.T) {
	tr := acksOneLoss()
	fig := fullFrames(tr, "w")
	t.Logf("acks-one-loss (hand), full frames: %s", Measure(tr, fig))
}

func TestWeightGuide(t *testing.T) {
	for _, nt := range append(guideTraces(t), testdataTraces(t)...) {
		fig, err := Figure(nt.t, Options{ID: "w"})
		if err != nil {
			t.Fatal(err)
		}
		tracks, frames := Measure(nt.t, fig), Measure(nt.t, fullFrames(nt.t, "w"))
		t.Logf("%-16s tracks: %s", nt.name, tracks)
		t.Logf("%-16s frames: %s", nt.name, frames)
		// The encoding Figure uses must beat full frames, raw and gzip.
		if tracks.Gzip >= frames.Gzip || tracks.Raw*5 >= frames.Raw {
			t.Errorf("%s: tracks weigh %d B gzip, %d B raw; full frames %d B gzip, %d B raw", nt.name, tracks.Gzip, tracks.Raw, frames.Gzip, frames.Raw)
		}
	}
}

// fullFrames renders the figure the simple way, one complete SVG per beat
// with all but the poster hidden, the encoding Figure started with. It is
// kept here only to measure what the tracks save.
func fullFrames(t *sim.Trace, id string) []byte {
	s := newScene(t)
	poster := PosterBeat(t)
	var b bytes.Buffer
	b.WriteString(`<figure class="kflow" id="` + id + `">`)
	for bi := range t.Beats {
		if bi == poster {
			b.WriteString(`<div class="kf-frame">`)
		} else {
			b.WriteString(`<div class="kf-frame" hidden>`)
		}
		// Each frame carries its marks' titles, as a frame of its own must.
		var f bytes.Buffer
		writeSVG(&f, s.l, t.Title, s.draw(bi), nil, false)
		b.Write(bytes.TrimPrefix(f.Bytes(), []byte(svgProlog)))
		b.WriteString(`</div>`)
	}
	// The same controls, legend, caption and storyboard as Figure's.
	fig, err := Figure(t, Options{ID: id})
	if err != nil {
		panic(err)
	}
	f := string(fig)
	b.WriteString(f[strings.Index(f, `</div>`)+len(`</div>`) : strings.Index(f, `<script type="application/json"`)])
	b.WriteString("</figure>\n")
	return b.Bytes()
}

// TestNoScriptPart: what a reader without scripts gets keeps the poster
// beat's marks, every storyboard caption and the legend, and loses only
// the stepper's JSON and the marks hidden at the poster.
func TestNoScriptPart(t *testing.T) {
	tr := acksOneLoss()
	fig, err := Figure(tr, Options{ID: "w"})
	if err != nil {
		t.Fatal(err)
	}
	part := string(NoScriptPart(fig))
	if strings.Contains(part, "kf-tracks") || strings.Contains(part, "kf-gone") {
		t.Errorf("the no-JS part keeps the JSON or a hidden mark")
	}
	s := newScene(tr)
	shown := len(s.draw(PosterBeat(tr)))
	if got := strings.Count(part, `<g class="m `); got != shown {
		t.Errorf("the no-JS part has %d marks; the poster beat draws %d", got, shown)
	}
	if got, want := strings.Count(part, "<li>"), len(tr.Beats); got != want {
		t.Errorf("the no-JS part has %d storyboard captions, want %d", got, want)
	}
	w := Measure(tr, fig)
	if w.NoScript <= 0 || w.NoScript >= w.Gzip {
		t.Errorf("no-JS part %d B gzip, whole figure %d B", w.NoScript, w.Gzip)
	}
}
