// Package fence is the one path from a ```kflow fence's text to its
// figure: the scenario parser (sim/scenario), the engine (sim.Run), the
// expect: checks (sim.Check), the engine's invariants on every beat
// (sim.CheckInvariants) and the renderer (svganim). kflowgen build, serve,
// bench and kflowgen sim all go through it; package site adds only what a
// page adds (where the fence sits in its file, DOM ids, the cache, the
// site's limits).
//
// It is pure: no files, no clock, no goroutines, no global state besides
// the engine hook its tests use, so that it can also be compiled with
// GOOS=js GOARCH=wasm (a playground in the browser) and give there the
// bytes the build gives.
//
// Positions in the errors it returns are relative to the fence body (the
// text given to Parse; File is empty): the caller places them in its file.
//
//	p := fence.Parse(body)              // once per fence
//	r := p.Run()                        // traces, expect failures, invariant breaches
//	r.Draw(fence.Options{})             // the <figure> markup
//	// or all three: r := fence.Figure(body, fence.Options{})
package fence

import (
	"fmt"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/svganim"
)

// InternalError starts the message of a problem that is not the user's
// mistake but a bug in Kafka Flow: a panic in the parser, the engine or
// the renderer, or a breach of one of the engine's invariants. It is
// reported at the fence like any other error, so a build fails instead of
// crashing and serve stays up; tests and fuzzers treat such a message as a
// failure.
const InternalError = "internal error"

// Parsed is one fence read by the scenario parser.
type Parsed struct {
	// Scenario is the fence as written; Compare its compare: run (nil
	// without one). Both are nil when the fence has errors.
	Scenario, Compare *sim.Scenario
	// Errors are the parser's, sorted by position.
	Errors sim.ErrorList
}

// Parse reads one fence body (or a bare scenario file). It never panics:
// a panic in the parser comes back as an InternalError at 1:1.
func Parse(body []byte) (p *Parsed) {
	defer func() {
		if v := recover(); v != nil {
			p = &Parsed{Errors: internal(sim.Pos{Line: 1, Col: 1}, "while reading this fence", v)}
		}
	}()
	sc, variant, errs := scenario.ParseCompare(body)
	if len(errs) > 0 || sc == nil {
		return &Parsed{Errors: errs}
	}
	return &Parsed{Scenario: sc, Compare: variant}
}

// Work is what one fence costs to compute, as the site's limits count it:
// RecordBeats is each run's beats, beat 0 included, times its records (at
// least one), summed over both runs of a fence with compare:; Frames is
// each run's beats, beat 0 included, summed the same way. A fence with
// errors costs nothing (it is never run).
type Work struct {
	RecordBeats, Frames int
}

// Work returns what running and drawing p costs.
func (p *Parsed) Work() Work {
	var w Work
	for _, sc := range []*sim.Scenario{p.Scenario, p.Compare} {
		if sc != nil {
			w.RecordBeats += (sc.Beats + 1) * max(sc.Producer.Records, 1)
			w.Frames += sc.Beats + 1
		}
	}
	return w
}

// Result is a fence run, checked and (after Draw) drawn.
type Result struct {
	// Scenario and Compare are the parsed runs (nil when the fence does
	// not parse); Trace and CompareTrace what the engine recorded for
	// them (nil without the run).
	Scenario, Compare   *sim.Scenario
	Trace, CompareTrace *sim.Trace
	// HTML is the <figure> markup; nil before Draw and when the fence
	// has errors.
	HTML []byte
	// Errors are, in this order: the parser's errors; or the expect:
	// entries the trace contradicts (those of the compare run prefixed
	// "compare run: "), the invariant breaches (InternalError, at the
	// scenario's first key) and a failure to draw. Positions are
	// relative to the fence body.
	Errors sim.ErrorList
}

// runEngine runs a scenario. Tests replace it to break a trace and see the
// invariant check catch it; nothing else assigns it.
var runEngine = sim.Run

// Run simulates p's runs, checks their expect: entries and checks the
// engine's invariants on every beat of each trace. A fence with parse
// errors gives a Result holding just those errors. Run never panics: a
// panic in the engine comes back as an InternalError.
func (p *Parsed) Run() (r *Result) {
	r = &Result{Scenario: p.Scenario, Compare: p.Compare}
	if len(p.Errors) > 0 || p.Scenario == nil {
		r.Errors = append(r.Errors, p.Errors...)
		return r
	}
	defer func() {
		if v := recover(); v != nil {
			r.Errors = append(r.Errors, internal(p.Scenario.Pos, "while running this figure", v)...)
		}
	}()
	r.Trace = runEngine(p.Scenario)
	r.Errors = append(r.Errors, sim.Check(p.Scenario, r.Trace)...)
	if p.Compare != nil {
		r.CompareTrace = runEngine(p.Compare)
		for _, f := range sim.Check(p.Compare, r.CompareTrace) {
			f.Msg = "compare run: " + f.Msg
			r.Errors = append(r.Errors, f)
		}
	}
	r.Errors = append(r.Errors, invariants(p.Scenario, r.Trace, "")...)
	if p.Compare != nil {
		r.Errors = append(r.Errors, invariants(p.Compare, r.CompareTrace, "compare run of ")...)
	}
	return r
}

// invariants checks sc's trace t on every beat and reports the first
// breach, and how many more there are, as one InternalError at the
// scenario's first key, naming the figure and the beat.
func invariants(sc *sim.Scenario, t *sim.Trace, which string) sim.ErrorList {
	breaches := sim.CheckInvariants(sc, t)
	if len(breaches) == 0 {
		return nil
	}
	more := ""
	if n := len(breaches) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return sim.ErrorList{{Pos: sc.Pos, Msg: fmt.Sprintf(
		"%s: the engine broke one of its invariants in the %sfigure %q, at %s%s (a bug in Kafka Flow, not in the page; please report it with this fence)",
		InternalError, which, sc.ID, breaches[0], more)}}
}

// Options configure Draw.
type Options struct {
	// ID returns the figure's DOM id for the scenario's id (the site
	// prefixes the page's slug). Nil means the scenario's id itself.
	ID func(scenarioID string) string
	// Workers bounds the goroutines that draw the beats
	// (svganim.Options.Workers): 0 means GOMAXPROCS, 1 none besides the
	// caller's. It never changes the markup.
	Workers int
}

// Draw renders r's figure into r.HTML: one frame per beat, or both runs
// side by side for a fence with compare:. It does nothing for a fence
// that was not run, or whose run has errors (a failed expectation or a
// breached invariant: the build fails, so no markup is needed). A panic in
// the renderer comes back as an InternalError.
func (r *Result) Draw(o Options) {
	if r.Trace == nil || len(r.Errors) > 0 {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			r.HTML = nil
			r.Errors = append(r.Errors, internal(r.Scenario.Pos, "while drawing this figure", v)...)
		}
	}()
	id := r.Scenario.ID
	if o.ID != nil {
		id = o.ID(id)
	}
	// The fence's poster: chooses both the no-JS picture and where the
	// stepper opens; without it the renderer picks the most telling beat
	// for the picture and the stepper opens at the start.
	so := svganim.Options{ID: id, Notes: r.Scenario.Notes, Workers: o.Workers}
	if r.Scenario.HasPoster {
		so.Poster, so.PosterChosen, so.Open = r.Scenario.Poster, true, r.Scenario.Poster
	}
	var html []byte
	var err error
	if r.Compare == nil {
		html, err = svganim.Figure(r.Trace, so)
	} else {
		html, err = svganim.FigureCompare(r.Trace, r.CompareTrace, so)
	}
	if err != nil {
		r.Errors = append(r.Errors, sim.Error{Pos: r.Scenario.Pos, Msg: "cannot draw the figure: " + err.Error()})
		return
	}
	r.HTML = html
}

// Figure is Parse, Run and Draw in one call: fence text in; markup,
// traces and every error (relative to the body) out.
func Figure(body []byte, o Options) *Result {
	r := Parse(body).Run()
	r.Draw(o)
	return r
}

// internal words a recovered panic as an InternalError at pos.
func internal(pos sim.Pos, during string, v any) sim.ErrorList {
	return sim.ErrorList{{Pos: pos, Msg: fmt.Sprintf(
		"%s %s (a bug in Kafka Flow, not in the page; please report it with this fence): %v", InternalError, during, v)}}
}
