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
	// without one). Both are nil when the fence has errors. For a fence
	// with knobs: they are the default combination's.
	Scenario, Compare *sim.Scenario
	// Knobs are the fence's knobs (none without knobs:), and Variants
	// every combination of their values (scenario.Fence); Default is the
	// index of the default combination. A fence without knobs has one
	// variant, Scenario and Compare.
	Knobs    []scenario.Knob
	Variants []scenario.Variant
	Default  int
	// Errors are the parser's, sorted by position.
	Errors sim.ErrorList
	// ID is the fence's id: and IDPos where its value is written, read
	// also when the fence has errors (scenario.IDOf); "" when it has none
	// that reads.
	ID    string
	IDPos sim.Pos
}

// Parse reads one fence body (or a bare scenario file). It never panics:
// a panic in the parser comes back as an InternalError at 1:1.
func Parse(body []byte) (p *Parsed) {
	defer func() {
		if v := recover(); v != nil {
			p = &Parsed{Errors: internal(sim.Pos{Line: 1, Col: 1}, "while reading this fence", v)}
		}
	}()
	f, errs := scenario.ParseFence(body)
	if len(errs) > 0 || f == nil {
		id, pos := scenario.IDOf(body)
		return &Parsed{Errors: errs, ID: id, IDPos: pos}
	}
	v := f.Variants[f.Default]
	p = &Parsed{Scenario: v.Scenario, Compare: v.Compare, Knobs: f.Knobs, Variants: f.Variants, Default: f.Default,
		ID: v.Scenario.ID, IDPos: v.Scenario.IDPos}
	if errs := overBudget(v.Scenario.Pos, p.Work()); errs != nil {
		return &Parsed{Errors: errs, ID: p.ID, IDPos: p.IDPos}
	}
	return p
}

// The budgets of a whole site, which one fence alone must also keep:
// kflowgen build sums them over every figure (package site), while Parse
// refuses a single fence beyond either, so that kflowgen figure, kflowgen
// sim and the playground, which take one fence, refuse it too, before
// anything is simulated. Without it a fence with every value within its
// own limit but knobs × compare: (48 runs of 401 beats, 500 records, 9
// brokers, 48 members) took kflowgen figure 46 s and 4.1 GB into a 196 MB
// page, and froze a playground tab for 41 s from a 265-byte link.
const (
	// MaxRecordBeats bounds the work of a whole build: the sum over every
	// figure (both runs of a side-by-side one, every knob combination) of
	// its beats, counting beat 0, times its records (at least one)
	// (Work.RecordBeats). A figure at every scenario limit is 401 × 500 =
	// 200,500 record-beats; the guide, every knob combination counted, is
	// under 1% of the limit (site TestReferenceGuideShareOfSiteLimits).
	MaxRecordBeats = 2_000_000
	// MaxFrames bounds the frames of a whole build, summed the same way
	// (Work.Frames): each frame draws every broker, partition and member,
	// however few records there are, so a site of one-record figures at
	// the broker, partition and member limits needs this bound too. Set
	// on the peak resident set of `kflowgen build` (/usr/bin/time's
	// maximum resident set, two cores), to stay within the 1 GB a build
	// may take at 1,000 pages: 187 such figures of 401 frames (74,987
	// frames, the heaviest there are) peak at 816 MB, and 1,000 pages made
	// of the guide holding 1,500 figures (bench.GuideSite: 74,821 frames,
	// knob combinations counted) at 830 to 933 MB over four builds
	// (kflowgen bench --against-hugo's largest). The guide has under 5% of
	// it (the number kflowgen build's summary prints, counted as here).
	MaxFrames = 75_000
)

// overBudget reports, at pos (the scenario's first key), a fence whose
// work w alone is over MaxRecordBeats or MaxFrames, in the words kflowgen
// build uses for the figure that takes a site past them; nil if it keeps
// both.
func overBudget(pos sim.Pos, w Work) sim.ErrorList {
	switch {
	case w.RecordBeats > MaxRecordBeats:
		return sim.ErrorList{{Pos: pos, Msg: fmt.Sprintf("this figure takes %d record-beats (beats × records, summed over both runs and every knob combination): Kafka Flow allows at most %d in a site; use fewer beats or records, or fewer knob values", w.RecordBeats, MaxRecordBeats)}}
	case w.Frames > MaxFrames:
		return sim.ErrorList{{Pos: pos, Msg: fmt.Sprintf("this figure takes %d frames (beats, counting beat 0, summed over both runs and every knob combination): Kafka Flow allows at most %d in a site; use fewer beats or fewer knob values", w.Frames, MaxFrames)}}
	}
	return nil
}

// label names a combination of knob values in messages and links
// ("producer.acks=0, topic.partitions=3").
func (p *Parsed) label(choice []int) string {
	f := scenario.Fence{Knobs: p.Knobs}
	return f.Label(choice)
}

// Work is what one fence costs to compute, as the site's limits count it:
// RecordBeats is each run's beats, beat 0 included, times its records (at
// least one), summed over both runs of a fence with compare: and over
// every combination of a fence with knobs:; Frames is each run's beats,
// beat 0 included, summed the same way. A fence with errors costs nothing
// (it is never run).
type Work struct {
	RecordBeats, Frames int
}

// Work returns what running and drawing p costs.
func (p *Parsed) Work() Work {
	var w Work
	for _, v := range p.Variants {
		for _, sc := range []*sim.Scenario{v.Scenario, v.Compare} {
			if sc != nil {
				w.RecordBeats += (sc.Beats + 1) * max(sc.Producer.Records, 1)
				w.Frames += sc.Beats + 1
			}
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
	// Knobs, Variants and Default are the parse's (Parsed); Runs holds
	// each variant's traces, Runs[Default] being Trace and CompareTrace.
	// Assets holds, after Draw, the script of each variant but the
	// default (nil there, and nil for a fence without knobs), which the
	// page loads when a reader first picks that combination
	// (svganim.KnobFigure): the site writes Assets[i] to
	// VariantFile(figure id, i).
	Knobs    []scenario.Knob
	Variants []scenario.Variant
	Default  int
	Runs     []Run
	Assets   [][]byte
	// Plain is, for a fence with knobs, the default combination drawn as
	// a figure of its own, without controls or table: what the page
	// would hold without knobs (kflowgen bench weighs the difference).
	Plain []byte
	// Errors are, in this order: the parser's errors; or the expect:
	// entries the trace contradicts (those of the compare run prefixed
	// "compare run: "), the invariant breaches (InternalError, at the
	// scenario's first key) and a failure to draw. Positions are
	// relative to the fence body.
	Errors sim.ErrorList
	// ID and IDPos are the parse's (Parsed): the fence's id also when it
	// has errors.
	ID    string
	IDPos sim.Pos
}

// Run is one variant's traces: Trace, and CompareTrace for a fence with
// compare: (else nil).
type Run struct{ Trace, CompareTrace *sim.Trace }

// VariantFile is the name, in the site's asset folder, of the script
// holding variant i of the figure with DOM id figureID; stepper.js loads
// it from beside itself.
func VariantFile(figureID string, i int) string {
	return fmt.Sprintf("v/%s.%d.js", figureID, i)
}

// runEngine runs a scenario. Tests replace it to break a trace and see the
// invariant check catch it; nothing else assigns it.
var runEngine = sim.Run

// Run simulates p's runs, checks their expect: entries and checks the
// engine's invariants on every beat of each trace. A fence with parse
// errors gives a Result holding just those errors. Run never panics: a
// panic in the engine comes back as an InternalError.
func (p *Parsed) Run() (r *Result) {
	r = &Result{Scenario: p.Scenario, Compare: p.Compare, Knobs: p.Knobs, Variants: p.Variants, Default: p.Default, ID: p.ID, IDPos: p.IDPos}
	if len(p.Errors) > 0 || p.Scenario == nil {
		r.Errors = append(r.Errors, p.Errors...)
		return r
	}
	defer func() {
		if v := recover(); v != nil {
			r.Errors = append(r.Errors, internal(p.Scenario.Pos, "while running this figure", v)...)
		}
	}()
	// The default first, so that its problems come first; a problem
	// only another combination has names that combination.
	order := []int{p.Default}
	for i := range p.Variants {
		if i != p.Default {
			order = append(order, i)
		}
	}
	r.Runs = make([]Run, len(p.Variants))
	for _, i := range order {
		v := p.Variants[i]
		prefix := ""
		if i != p.Default {
			prefix = "with " + p.label(v.Choice) + ": "
		}
		run := Run{Trace: runEngine(v.Scenario)}
		for _, f := range sim.Check(v.Scenario, run.Trace) {
			f.Msg = prefix + f.Msg
			r.Errors = append(r.Errors, f)
		}
		if v.Compare != nil {
			run.CompareTrace = runEngine(v.Compare)
			for _, f := range sim.Check(v.Compare, run.CompareTrace) {
				f.Msg = prefix + "compare run: " + f.Msg
				r.Errors = append(r.Errors, f)
			}
		}
		combo := ""
		if i != p.Default {
			combo = " with " + p.label(v.Choice)
		}
		r.Errors = append(r.Errors, invariants(v.Scenario, run.Trace, "", combo)...)
		if v.Compare != nil {
			r.Errors = append(r.Errors, invariants(v.Compare, run.CompareTrace, "compare run of ", combo)...)
		}
		r.Runs[i] = run
	}
	r.Trace, r.CompareTrace = r.Runs[p.Default].Trace, r.Runs[p.Default].CompareTrace
	return r
}

// invariants checks sc's trace t on every beat and reports the first
// breach, and how many more there are, as one InternalError at the
// scenario's first key, naming the figure, the combination of knob values
// (combo: " with producer.acks=0", or "") and the beat.
func invariants(sc *sim.Scenario, t *sim.Trace, which, combo string) sim.ErrorList {
	breaches := sim.CheckInvariants(sc, t)
	if len(breaches) == 0 {
		return nil
	}
	more := ""
	if n := len(breaches) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return sim.ErrorList{{Pos: sc.Pos, Msg: fmt.Sprintf(
		"%s: the engine broke one of its invariants in the %sfigure %q%s, at %s%s (a bug in Kafka Flow, not in the page; please report it with this fence)",
		InternalError, which, sc.ID, combo, breaches[0], more)}}
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
// the renderer comes back as an InternalError. Draw(o) is
// r.Drawing(o).Named(o), kept in r.
func (r *Result) Draw(o Options) { r.draw(o, true) }

// draw is Draw; with all false, a fence with knobs gets its page markup
// (r.HTML, r.Plain) but no Assets: only the default combination is drawn,
// and DrawVariant draws the others when they are wanted.
func (r *Result) draw(o Options, all bool) { *r = *r.drawing(o, all).Named(o) }

// Drawing is a fence's figure drawn once for any number of DOM ids: every
// picture, track and caption of every combination, which do not depend on
// the id (svganim.Drawn). Named gives the figure for one id. A build whose
// pages repeat one fence body (the same text gives the same scenario,
// traces and pictures) runs and draws it once and names it on each page.
// A Drawing is only read once made, so Named may be called from several
// goroutines at once.
type Drawing struct {
	r   *Result
	all bool
	// figs holds each combination's pictures (one entry for a fence
	// without knobs; nil where a combination is not drawn, or failed).
	figs []*svganim.Drawn
	// failed is the combination that failed to draw (-1: none), err its
	// error, and panicked the message of a panic while drawing.
	failed   int
	err      error
	panicked sim.ErrorList
}

// Drawing draws r's pictures with o.Workers goroutines, without naming
// them (o.ID is not called). For a fence that was not run, or whose run
// has errors, there is nothing to draw, and Named returns a copy of r as
// it is.
func (r *Result) Drawing(o Options) *Drawing { return r.drawing(o, true) }

func (r *Result) drawing(o Options, all bool) (d *Drawing) {
	d = &Drawing{r: r, all: all, failed: -1}
	if r.Trace == nil || len(r.Errors) > 0 {
		return d
	}
	defer func() {
		if v := recover(); v != nil {
			d.figs, d.panicked = nil, internal(r.Scenario.Pos, "while drawing this figure", v)
		}
	}()
	if len(r.Knobs) == 0 {
		d.figs = make([]*svganim.Drawn, 1)
		if d.figs[0], d.err = drawRun(r.Scenario, r.Compare, r.Runs[0], o.Workers); d.err != nil {
			d.failed = 0
		}
		return d
	}
	// Every combination is drawn (or, for !all, the default alone), one
	// after another; each spreads its beats over Workers
	// (svganim.Options.Workers), as a figure does.
	d.figs = make([]*svganim.Drawn, len(r.Variants))
	for i, v := range r.Variants {
		if !all && i != r.Default {
			continue
		}
		if d.figs[i], d.err = drawRun(v.Scenario, v.Compare, r.Runs[i], o.Workers); d.err != nil {
			d.figs[i], d.failed = nil, i
			return d
		}
	}
	return d
}

// Named returns a copy of the Result the Drawing was made from, with the
// figure named by o.ID in its HTML (and, for a fence with knobs, Assets and
// Plain), or with the error that stopped it appended to its Errors: what
// Draw(o) leaves in the Result. The copy shares the Result's scenarios and
// traces. A panic in the renderer comes back as an InternalError.
func (d *Drawing) Named(o Options) (n *Result) {
	c := *d.r
	n = &c
	r := d.r
	if r.Trace == nil || len(r.Errors) > 0 {
		return n
	}
	n.Errors = append(sim.ErrorList(nil), r.Errors...)
	if d.panicked != nil {
		n.Errors = append(n.Errors, d.panicked...)
		return n
	}
	defer func() {
		if v := recover(); v != nil {
			n.HTML, n.Assets, n.Plain = nil, nil, nil
			n.Errors = append(n.Errors, internal(r.Scenario.Pos, "while drawing this figure", v)...)
		}
	}()
	id := r.figureID(o)
	if len(r.Knobs) == 0 {
		err := svganim.CheckID(id)
		if err == nil {
			err = d.err
		}
		if err == nil {
			n.HTML, err = d.figs[0].Markup(id)
		}
		if err != nil {
			n.Errors = append(n.Errors, sim.Error{Pos: r.Scenario.Pos, Msg: "cannot draw the figure: " + err.Error()})
		}
		return n
	}
	// A bad id fails the first combination drawn, as a failure to draw
	// it would.
	first, err := 0, svganim.CheckID(id)
	if !d.all {
		first = r.Default
	}
	if err == nil && d.err != nil {
		first, err = d.failed, d.err
	}
	if err != nil {
		n.Errors = append(n.Errors, sim.Error{Pos: r.Scenario.Pos, Msg: "cannot draw the figure with " + r.label(r.Variants[first].Choice) + ": " + err.Error()})
		return n
	}
	// The outcome table needs only the traces, which Run made for every
	// combination.
	vs := make([]svganim.Variant, len(r.Variants))
	for i, v := range r.Variants {
		run := r.Runs[i]
		vs[i] = svganim.Variant{Choice: v.Choice, Runs: []*sim.Trace{run.Trace}}
		if run.CompareTrace != nil {
			vs[i].Runs = append(vs[i].Runs, run.CompareTrace)
		}
		if d.figs[i] != nil {
			if vs[i].HTML, err = d.figs[i].Markup(id); err != nil {
				n.Errors = append(n.Errors, sim.Error{Pos: r.Scenario.Pos, Msg: "cannot draw the figure with " + r.label(v.Choice) + ": " + err.Error()})
				return n
			}
		}
	}
	knobs := r.svgKnobs()
	var html []byte
	var assets [][]byte
	if d.all {
		html, assets, err = svganim.KnobFigure(id, knobs, vs, r.Default)
	} else {
		html, err = svganim.KnobPage(id, knobs, vs, r.Default)
	}
	if err != nil {
		n.Errors = append(n.Errors, sim.Error{Pos: r.Scenario.Pos, Msg: "cannot draw the figure: " + err.Error()})
		return n
	}
	n.HTML, n.Assets, n.Plain = html, assets, vs[r.Default].HTML
	return n
}

// DrawVariant draws combination i of a fence with knobs that Draw (or
// Play) has drawn, and returns its script: the bytes Draw puts in
// Assets[i] (svganim.KnobAsset), for the same Options. It returns nil for
// the default combination, which the figure already holds, and an error
// for a fence without a drawn figure, without knobs, or an i out of range.
// A panic in the renderer comes back as an InternalError.
func (r *Result) DrawVariant(o Options, i int) (script []byte, err error) {
	if r.HTML == nil || len(r.Knobs) == 0 || i < 0 || i >= len(r.Variants) || len(r.Runs) != len(r.Variants) {
		return nil, fmt.Errorf("no combination %d to draw: the figure is not drawn or has %d", i, len(r.Variants))
	}
	if i == r.Default {
		return nil, nil
	}
	if len(r.Assets) == len(r.Variants) {
		return r.Assets[i], nil
	}
	defer func() {
		if v := recover(); v != nil {
			script, err = nil, internal(r.Scenario.Pos, "while drawing this figure", v)[0]
		}
	}()
	v, id := r.Variants[i], r.figureID(o)
	err = svganim.CheckID(id)
	var fig *svganim.Drawn
	if err == nil {
		fig, err = drawRun(v.Scenario, v.Compare, r.Runs[i], o.Workers)
	}
	var html []byte
	if err == nil {
		html, err = fig.Markup(id)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot draw the figure with %s: %w", r.label(v.Choice), err)
	}
	return svganim.KnobAsset(id, i, html)
}

// figureID is the DOM id o gives r's figure.
func (r *Result) figureID(o Options) string {
	if o.ID != nil {
		return o.ID(r.Scenario.ID)
	}
	return r.Scenario.ID
}

// svgKnobs is r's knobs as the renderer takes them.
func (r *Result) svgKnobs() []svganim.Knob {
	knobs := make([]svganim.Knob, len(r.Knobs))
	for i, k := range r.Knobs {
		knobs[i] = svganim.Knob{Name: k.Name, Path: k.Path, Group: k.Group, Values: k.Values, LeftOnly: k.LeftOnly}
	}
	return knobs
}

// label names a combination of r's knob values.
func (r *Result) label(choice []int) string {
	f := scenario.Fence{Knobs: r.Knobs}
	return f.Label(choice)
}

// drawRun draws one run (and its compare run) as a figure yet to be
// named (svganim.Drawn.Markup gives its markup for a DOM id).
func drawRun(sc, cmp *sim.Scenario, run Run, workers int) (*svganim.Drawn, error) {
	// The fence's poster: chooses both the no-JS picture and where the
	// stepper opens; without it the renderer picks the most telling beat
	// for the picture and the stepper opens at the start.
	so := svganim.Options{Notes: sc.Notes, Workers: workers}
	if sc.HasPoster {
		so.Poster, so.PosterChosen, so.Open = sc.Poster, true, sc.Poster
	}
	if cmp == nil {
		return svganim.Draw(run.Trace, so)
	}
	return svganim.DrawCompare(run.Trace, run.CompareTrace, so)
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
