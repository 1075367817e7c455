package bench

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing/fstest"
	"time"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/serve"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/svganim"
)

// Time budgets: reported beside each timing, never gating (timings depend
// on the machine and its load). The byte budgets, which gate, are in
// pages.go.
const (
	// BuildBudget is the most a build of the guide may take on a 2-core
	// machine, cold or warm.
	BuildBudget = 500 * time.Millisecond
	// EngineBudget is the least number of record-beats the engine must
	// simulate per second.
	EngineBudget = 1_000_000
	// WasmGzipBudget is issue 15's bound on the playground's WebAssembly
	// module, gzipped: 1.5 MB (decimal, 1,500,000 bytes).
	WasmGzipBudget = 1_500_000
)

// Options configure Run.
type Options struct {
	// Content holds the guide's pages. Required.
	Content fs.FS
	// ContentName names the content folder in error messages.
	ContentName string
	// Runs is how many timed builds make each build figure (their median
	// is reported, with the fastest). Zero means 5.
	Runs int
	// EngineTime is how long the engine is run for each speed figure.
	// Zero means 300 ms.
	EngineTime time.Duration
	// SkipLimits leaves out the page at every limit (its figures stay
	// zero), for quick runs and tests.
	SkipLimits bool
	// Chromium is the browser the playground's Run is timed in
	// (PlaygroundTimes); "" leaves that out (FindChromium finds one).
	Chromium string
	// PlaygroundPasses is how many times every fence of the guide is run
	// in the playground. Zero means 3.
	PlaygroundPasses int
}

// Report holds every figure the benchmark measures. Sizes are bytes;
// durations are wall-clock time on this machine.
type Report struct {
	// GOMAXPROCS is the number of processors Go used.
	GOMAXPROCS int
	// Runs is the number of timed builds behind each Timing.
	Runs int
	// First is the very first build in the process: templates parsed,
	// every scenario parsed, run, checked and drawn, every file written
	// to a fresh folder, as `kflowgen build` does.
	First Timing
	// Cold times more builds like First (nothing cached, written to disk).
	Cold Timing
	// Warm times serve's rebuild (serve.Server.Rebuild) with every
	// scenario's result in its cache: the site generated and written to
	// a new folder, as after a save that changed only prose.
	Warm Timing
	// Pages, Figures and Beats count the built guide; Beats sums every
	// figure's frames (beat 0 included).
	Pages, Figures, Beats int
	// Raw and Gzip total every output file, each compressed on its own at
	// gzip's default level (as a static host serves it).
	Raw, Gzip int
	// PageWeights lists every HTML page in path order with what it loads
	// at first paint (PageBudget); Scripts is the gzip size of the
	// figures' scripts together (ScriptBudget).
	PageWeights []PageWeight
	Scripts     int
	// Knobs weighs each figure with knobs against its page without them
	// (KnobBudgetPermille).
	Knobs []KnobWeight
	// Weights lists every figure in page order, with its size against its
	// information bound: informational, no longer a budget.
	Weights []FigureWeight
	// Engine is the engine's speed over the guide's scenarios; Limits its
	// speed on LimitsPage's scenario.
	Engine, LimitsEngine Speed
	// LimitsBuild times cold builds of LimitsPage alone; LimitsWeight is
	// its figure's weight.
	LimitsBuild  Timing
	LimitsWeight svganim.Weight
	// Invariants times sim.CheckInvariants over every beat of every
	// figure of the guide, on one core, Runs passes: the part of each
	// build above spent checking the engine's invariants (every build
	// checks them). LimitsInvariants is the same for LimitsPage's figure.
	Invariants, LimitsInvariants Timing
	// Playground weighs the playground's WebAssembly module.
	Playground PlaygroundWeight
	// PlaygroundRun times the playground's Run in Chromium; nil when no
	// browser was given (Options.Chromium).
	PlaygroundRun *PlaygroundTimes
}

// PlaygroundWeight is the size of the playground's WebAssembly module
// (the parser, engine and renderer; package playground): WasmRaw its
// bytes, WasmGzip its gzip as committed (zopfli, inside playground/kflow-wasm.js),
// Asset the site's kflow-wasm.js that carries it as base64 (so that it
// loads from file://) and AssetGzip that file at gzip's default level.
type PlaygroundWeight struct {
	WasmRaw, WasmGzip, Asset, AssetGzip int
}

// Timing is the median and the fastest wall-clock time of several timed
// runs, and the median processor time (user and system, every thread of
// the process) that one run used. On a busy machine wall time grows while
// processor time stays; on an idle one, with the work spread over the
// cores, wall time is the smaller.
type Timing struct {
	Median, Min, CPU time.Duration
}

// FigureWeight is one figure's weight: its page, its DOM id and its sizes
// against the information bound (svganim.Measure).
type FigureWeight struct {
	Page, ID string
	svganim.Weight
}

// Speed is how much the engine simulated in how long. A record-beat is one
// record alive for one beat: a record created at beat c of a B-beat run
// counts B−c+1 (as sim's BenchmarkRun counts them).
type Speed struct {
	Runs, Beats, RecordBeats int
	// Took is the wall time of the runs, CPU their processor time.
	Took, CPU time.Duration
}

// BeatsPerSecond is the beats simulated per second of wall time, rounded
// down.
func (s Speed) BeatsPerSecond() int64 { return perSecond(s.Beats, s.Took) }

// RecordBeatsPerSecond is the record-beats simulated per second of wall
// time, rounded down.
func (s Speed) RecordBeatsPerSecond() int64 { return perSecond(s.RecordBeats, s.Took) }

// RecordBeatsPerCPUSecond is the record-beats simulated per second of
// processor time (0 where it is not measured): the engine's speed on an
// idle core.
func (s Speed) RecordBeatsPerCPUSecond() int64 { return perSecond(s.RecordBeats, s.CPU) }

func perSecond(n int, d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(float64(n) / d.Seconds())
}

// Run builds the guide the way the build command and serve do, times it,
// weighs it, and times the engine. It writes builds into a temporary
// folder, which it removes. A guide that does not build is an error (the
// sim.ErrorList).
func Run(o Options) (*Report, error) {
	if o.Content == nil {
		return nil, errors.New("no content to measure")
	}
	if o.Runs <= 0 {
		o.Runs = 5
	}
	if o.EngineTime <= 0 {
		o.EngineTime = 300 * time.Millisecond
	}
	tmp, err := os.MkdirTemp("", "kflowgen-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "public")
	r := &Report{GOMAXPROCS: runtime.GOMAXPROCS(0), Runs: o.Runs}

	opts := site.Options{Content: o.Content, ContentName: o.ContentName, KeepRuns: true}
	build := func(opts site.Options) (*site.Site, time.Duration, error) {
		start := time.Now()
		s, err := site.Generate(opts)
		if err != nil {
			return nil, 0, err
		}
		if err := s.WriteDir(out, ""); err != nil {
			return nil, 0, err
		}
		return s, time.Since(start), nil
	}
	var s *site.Site
	if r.First, err = timeRuns(1, func() (d time.Duration, err error) {
		s, d, err = build(opts)
		return d, err
	}); err != nil {
		return nil, err
	}
	if r.Cold, err = timeRuns(o.Runs, func() (time.Duration, error) {
		_, d, err := build(opts)
		return d, err
	}); err != nil {
		return nil, err
	}
	// Warm: serve's own rebuild, after its first build filled the cache.
	srv, err := serve.New(serve.Options{Content: o.Content, ContentName: o.ContentName})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	if r.Warm, err = timeRuns(o.Runs, func() (time.Duration, error) {
		start := time.Now()
		b := srv.Rebuild()
		d := time.Since(start)
		if b.Err == nil && b.Misses > 0 {
			return 0, fmt.Errorf("serve's rebuild simulated %d scenarios again; the cache did not hold", b.Misses)
		}
		return d, b.Err
	}); err != nil {
		return nil, err
	}

	r.Pages, r.Figures = len(s.Pages), len(s.Figures)
	for _, f := range s.Figures {
		r.Beats += f.Beats
	}
	for _, f := range s.Files {
		r.Raw += len(f.Data)
		r.Gzip += GzipSize(f.Data)
	}
	if r.PageWeights, err = weighPages(s); err != nil {
		return nil, err
	}
	r.Scripts = scriptWeight(s)
	if r.Knobs, err = weighKnobs(s, r.PageWeights); err != nil {
		return nil, err
	}
	wasm, err := playground.Wasm()
	if err != nil {
		return nil, err
	}
	gz, err := playground.WasmGz()
	if err != nil {
		return nil, err
	}
	r.Playground = PlaygroundWeight{WasmRaw: len(wasm), WasmGzip: len(gz)}
	if a := s.File(wasmCarrier); a != nil {
		r.Playground.Asset, r.Playground.AssetGzip = len(a), GzipSize(a)
	}

	// Weigh the figures and time the engine on what the first build
	// computed: its scenarios, traces and markup, nothing derived again.
	var runs []*fence.Result
	for _, f := range s.Figures {
		if f.Run == nil || f.Run.HTML == nil {
			return nil, fmt.Errorf("figure %s of %s: the build kept no run of it", f.ID, f.Page)
		}
		r.Weights = append(r.Weights, FigureWeight{Page: f.Page, ID: f.ID, Weight: weigh(f.Run)})
		runs = append(runs, f.Run)
	}
	r.Engine = engineSpeed(runs, o.EngineTime)
	r.Invariants = invariantTime(runs, o.Runs)
	if o.Chromium != "" {
		// out holds the last cold build of the guide (the limits page,
		// below, is built over it).
		fences, err := guideFences(o.Content)
		if err != nil {
			return nil, err
		}
		passes := o.PlaygroundPasses
		if passes <= 0 {
			passes = 3
		}
		if r.PlaygroundRun, err = timePlayground(o.Chromium, out, fences, passes); err != nil {
			return nil, err
		}
	}

	if o.SkipLimits {
		return r, nil
	}
	lopts := site.Options{Content: fstest.MapFS{LimitsPath: {Data: LimitsPage()}}, ContentName: "limits", KeepRuns: true}
	var ls *site.Site
	if r.LimitsBuild, err = timeRuns(o.Runs, func() (d time.Duration, err error) {
		ls, d, err = build(lopts)
		return d, err
	}); err != nil {
		return nil, err
	}
	if len(ls.Figures) != 1 || ls.Figures[0].Run == nil {
		return nil, errors.New("the limits page: want one figure, computed")
	}
	lrun := ls.Figures[0].Run
	r.LimitsEngine = engineSpeed([]*fence.Result{lrun}, o.EngineTime)
	r.LimitsInvariants = invariantTime([]*fence.Result{lrun}, o.Runs)
	r.LimitsWeight = weigh(lrun)
	return r, nil
}

// weigh measures a built figure against its information bound. A
// side-by-side figure's bound is the gzip size of both traces' deltas, one
// after the other: it shows both.
func weigh(run *fence.Result) svganim.Weight {
	w := svganim.Measure(run.Trace, run.HTML)
	if run.Compare != nil {
		w.Beats = max(len(run.Trace.Beats), len(run.CompareTrace.Beats))
		w.Bound = GzipSize(append(svganim.Delta(run.Trace), svganim.Delta(run.CompareTrace)...))
	}
	return w
}

// invariantTime times n passes of sim.CheckInvariants over every trace of
// runs (both runs of a fence with compare:): the part of each build above
// spent checking the engine's invariants, on one core. Its CPU time is
// the figure to read on a busy machine.
func invariantTime(runs []*fence.Result, n int) Timing {
	t, _ := timeRuns(n, func() (time.Duration, error) {
		start := time.Now()
		for _, run := range runs {
			sim.CheckInvariants(run.Scenario, run.Trace)
			if run.Compare != nil {
				sim.CheckInvariants(run.Compare, run.CompareTrace)
			}
		}
		return time.Since(start), nil
	})
	return t
}

// timeRuns runs f n times and returns the median and fastest wall time
// and the median processor time.
func timeRuns(n int, f func() (time.Duration, error)) (Timing, error) {
	ds := make([]time.Duration, 0, n)
	cpu := make([]time.Duration, 0, n)
	for range n {
		c := cpuTime()
		d, err := f()
		if err != nil {
			return Timing{}, err
		}
		ds = append(ds, d)
		cpu = append(cpu, cpuTime()-c)
	}
	slices.Sort(ds)
	slices.Sort(cpu)
	return Timing{Median: ds[len(ds)/2], Min: ds[0], CPU: cpu[len(cpu)/2]}, nil
}

// engineSpeed runs every scenario of runs (both runs of a fence with
// compare:) in turn until at least d has passed; the record-beats of each
// come from the trace the build recorded.
func engineSpeed(runs []*fence.Result, d time.Duration) (s Speed) {
	var scs []*sim.Scenario
	var recordBeats []int
	for _, run := range runs {
		for _, x := range []struct {
			sc *sim.Scenario
			t  *sim.Trace
		}{{run.Scenario, run.Trace}, {run.Compare, run.CompareTrace}} {
			if x.sc == nil {
				continue
			}
			n := 0
			for _, rec := range x.t.Records {
				n += x.sc.Beats - rec.CreatedAt + 1
			}
			scs, recordBeats = append(scs, x.sc), append(recordBeats, n)
		}
	}
	if len(scs) == 0 {
		return s
	}
	start, c := time.Now(), cpuTime()
	defer func() { s.CPU = cpuTime() - c }()
	for s.Took < d {
		for i, sc := range scs {
			sim.Run(sc)
			s.Runs++
			s.Beats += sc.Beats
			s.RecordBeats += recordBeats[i]
		}
		s.Took = time.Since(start)
	}
	return s
}

// GzipSize is the size of b compressed by gzip at its default level.
func GzipSize(b []byte) int {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	_, _ = z.Write(b) // writes into memory cannot fail
	_ = z.Close()
	return buf.Len()
}
