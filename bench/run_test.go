package bench

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/svganim"
)

// TestRunCountsWhatTheBuildBuilt runs the benchmark on a small guide (one
// fence with a compare run) and checks its counts against a build of the
// same pages: pages, figures, beats, bytes, and one weight per figure, in
// site order, with the figure measured exactly as the build drew it; the
// engine runs all four scenarios.
func TestRunCountsWhatTheBuildBuilt(t *testing.T) {
	fsys := fstest.MapFS{
		"index.md": {Data: []byte("---\ntitle: Home\n---\nHello.\n")},
		"b.md": {Data: []byte("---\ntitle: B\nweight: 2\n---\n```kflow\nid: two\nbeats: 9\nproducer: {acks: 1}\n" +
			"compare: {title: acks=all, producer: {acks: all}}\n```\n")},
		"a.md": {Data: []byte("---\ntitle: A\nweight: 1\n---\n```kflow\nid: one\nbeats: 6\n```\n\n" +
			"```kflow\nid: crash\nbeats: 12\ntimeline:\n  - {at: 3, crash: 1}\n```\n")},
	}
	r, err := Run(Options{Content: fsys, Runs: 1, EngineTime: time.Millisecond, SkipLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := site.Generate(site.Options{Content: fsys})
	if err != nil {
		t.Fatal(err)
	}
	raw, gz, beats := 0, 0, 0
	for _, f := range s.Files {
		raw += len(f.Data)
		gz += GzipSize(f.Data)
	}
	for _, f := range s.Figures {
		beats += f.Beats
	}
	if r.Pages != 2 || r.Figures != 3 || r.Beats != beats || beats != 7+13+10 || r.Raw != raw || r.Gzip != gz {
		t.Errorf("report: %d pages, %d figures, %d beats, %d raw, %d gzip; the build: 2, 3, %d, %d, %d",
			r.Pages, r.Figures, r.Beats, r.Raw, r.Gzip, beats, raw, gz)
	}
	// The playground's module: its raw size, the committed gzip, and the
	// site's base64 carrier, about 4/3 of the gzip.
	wasm, _ := playground.Wasm()
	wasmGz, _ := playground.WasmGz()
	if pw := r.Playground; pw.WasmRaw != len(wasm) || pw.WasmGzip != len(wasmGz) || pw.WasmGzip >= pw.WasmRaw ||
		pw.Asset != len(s.File("assets/kflow-wasm.js")) || pw.Asset < pw.WasmGzip*4/3 || pw.AssetGzip <= 0 {
		t.Errorf("playground weight %+v; the module is %d bytes, %d gzip", pw, len(wasm), len(wasmGz))
	}
	var ids []string
	for i, w := range r.Weights {
		ids = append(ids, w.ID)
		if w.Raw != s.Figures[i].Bytes || w.Beats != s.Figures[i].Beats || w.Gzip <= 0 || w.Bound <= 0 {
			t.Errorf("weight %+v does not describe the built figure %+v", w, s.Figures[i])
		}
	}
	if got := strings.Join(ids, " "); got != "a--one a--crash b--two" {
		t.Errorf("figures in order %q", got)
	}
	if r.Engine.Runs < 4 || r.Engine.Runs%4 != 0 || r.Engine.RecordBeats <= 0 {
		t.Errorf("engine figures %+v", r.Engine)
	}
}

// TestReportWrite prints a report with known figures: each budget line
// says ok or MISSED by the rule, and numbers come out as integers or fixed
// decimals.
func TestReportWrite(t *testing.T) {
	r := &Report{
		GOMAXPROCS: 2, Runs: 5,
		First:       Timing{Median: 80 * time.Millisecond, Min: 80 * time.Millisecond, CPU: 70 * time.Millisecond},
		Cold:        Timing{Median: 123456 * time.Microsecond, Min: 100 * time.Millisecond, CPU: 90 * time.Millisecond},
		Warm:        Timing{Median: 12 * time.Millisecond, Min: 11 * time.Millisecond, CPU: 9 * time.Millisecond},
		LimitsBuild: Timing{Median: 1500 * time.Millisecond, Min: 1400 * time.Millisecond, CPU: 1300 * time.Millisecond},
		Pages:       3, Figures: 2, Beats: 40, Raw: 40000, Gzip: 8000,
		Weights: []FigureWeight{
			{Page: "a.html", ID: "a--light", Weight: svganim.Weight{Beats: 20, Raw: 9000, Gzip: 1000, Bound: 600}},
			{Page: "a.html", ID: "a--heavy", Weight: svganim.Weight{Beats: 20, Raw: 9000, Gzip: 1300, Bound: 600}},
		},
		PageWeights:      []PageWeight{{Path: "a.html", HTML: 9000, Loads: 20000}, {Path: "b.html", HTML: 30000, Loads: 20000}},
		Scripts:          6000,
		Engine:           Speed{Runs: 10, Beats: 500, RecordBeats: 3_000_000, Took: 2 * time.Second, CPU: time.Second},
		LimitsEngine:     Speed{Runs: 1, Beats: 400, RecordBeats: 500_000, Took: time.Second, CPU: time.Second},
		Invariants:       Timing{Median: 12 * time.Millisecond, Min: 10 * time.Millisecond, CPU: 9 * time.Millisecond},
		LimitsInvariants: Timing{Median: 700 * time.Millisecond, Min: 660 * time.Millisecond, CPU: 650 * time.Millisecond},
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`guide, cold +123\.4 ms +100\.0 ms +90\.0 ms +≤ 500\.0 ms +ok`),
		regexp.MustCompile(`limits page alone, cold +1500\.0 ms .* MISSED`),
		regexp.MustCompile(`site bytes +40000 raw, 8000 gzip \(1000 raw, 200 gzip per beat\)`),
		// The information bound is reported, no longer a budget.
		regexp.MustCompile(`a--light +20 +9000 +1000 +50 +600 +1\.666 +0 +0\.000\n`),
		regexp.MustCompile(`a--heavy +20 +9000 +1300 +65 +600 +2\.166 +0 +0\.000\n`),
		regexp.MustCompile(`a\.html +9000 +20000 +29000 +≤ 40000 +ok`),
		regexp.MustCompile(`b\.html +30000 +20000 +50000 +≤ 40000 +MISSED`),
		regexp.MustCompile(`figure scripts \(stepper\.js \+ kf-words\.js\) +6000 gzip B +≤ 8000 +ok`),
		regexp.MustCompile(`guide scenarios +250 +1,500,000 +3,000,000 +≥ 1,000,000 +ok`),
		regexp.MustCompile(`limits scenario +400 +500,000 +500,000 +≥ 1,000,000 +MISSED`),
		regexp.MustCompile(`(?m)^  guide +12\.0 ms +10\.0 ms +9\.0 ms +10%`),
		regexp.MustCompile(`(?m)^  limits page +700\.0 ms +660\.0 ms +650\.0 ms +50%`),
	} {
		if !want.MatchString(out) {
			t.Errorf("no line matches %s in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "e+") || strings.Contains(out, "%!") {
		t.Errorf("a number was printed with a float or wrong verb:\n%s", out)
	}
	// Only byte budgets gate: the page over 40 KB, not the slow build
	// or the slow engine.
	if m := r.Missed(); len(m) != 1 || !strings.HasPrefix(m[0], "b.html weighs 50000 bytes gzip") {
		t.Errorf("missed %q, want only b.html's page budget", m)
	}
	r.Scripts = ScriptBudget + 1
	if m := r.Missed(); len(m) != 2 || !strings.Contains(m[1], "figure scripts") {
		t.Errorf("missed %q, want the page and the scripts", m)
	}
}

// TestPageWeights: a page weighs its HTML and every stylesheet and
// script it loads, each compressed on its own, and the guide's pages and
// scripts hold their byte budgets.
func TestPageWeights(t *testing.T) {
	s, err := site.Generate(site.Options{Content: content.FS})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := weighPages(s)
	if err != nil {
		t.Fatal(err)
	}
	// The guide's pages (and its home page) hold the budget; a page the
	// site adds of its own (the playground) is reported by bench, not
	// held here.
	guide := map[string]bool{"index.html": true}
	for _, pg := range s.Pages {
		guide[pg.Slug+".html"] = true
	}
	var own []PageWeight
	byPath := map[string]PageWeight{}
	for _, p := range pages {
		byPath[p.Path] = p
		if guide[p.Path] {
			own = append(own, p)
		} else if p.Total() > PageBudget {
			t.Logf("%s (not a guide page) weighs %d bytes gzip at first paint, over the budget of %d", p.Path, p.Total(), PageBudget)
		}
	}
	r := &Report{PageWeights: own, Scripts: scriptWeight(s)}
	for _, m := range r.Missed() {
		t.Error(m)
	}
	acks, ok := byPath["acks.html"]
	if !ok || len(own) != len(guide) {
		t.Fatalf("weighed %d guide pages, want %d", len(own), len(guide))
	}
	// The Acks page has a figure with knobs: it loads their stylesheet
	// too (kf-knobs.js loads only at a reader's first pick).
	want := []string{"assets/site.css", "assets/figure.css", "assets/kf-knobs.css", "assets/kf-words.js", "assets/stepper.js"}
	if strings.Join(acks.Loaded, " ") != strings.Join(want, " ") {
		t.Errorf("acks.html loads %q, want %q", acks.Loaded, want)
	}
	n := GzipSize(s.File("acks.html"))
	for _, f := range want {
		n += GzipSize(s.File(f))
	}
	if acks.Total() != n {
		t.Errorf("acks.html weighs %d, want %d", acks.Total(), n)
	}
	if r.Scripts != GzipSize(svganim.StepperJS())+GzipSize(svganim.WordsJS()) {
		t.Errorf("scripts weigh %d", r.Scripts)
	}
	t.Logf("scripts %d B gzip; heaviest guide page %s", r.Scripts, heaviest(own))
}

func heaviest(ps []PageWeight) string {
	best := ps[0]
	for _, p := range ps {
		if p.Total() > best.Total() {
			best = p
		}
	}
	return best.Path + " " + itoaB(best.Total()) + " B"
}

func itoaB(n int) string { return strconv.Itoa(n) }

// TestRunTimesThePlayground runs the benchmark with a Chromium on a small
// guide and checks the playground's timings are there and consistent: one
// run per fence and pass, ordered median ≤ p99 ≤ max, the module's part
// of a run as well, the slowest named by its scenario id, and the line in
// the report. It asserts no speed.
func TestRunTimesThePlayground(t *testing.T) {
	chromium := browsertest.Chromium(t)
	fsys := fstest.MapFS{
		"a.md": {Data: []byte("---\ntitle: A\n---\n```kflow\nid: one\nbeats: 6\n```\n\n" +
			"```kflow\nid: crash\nbeats: 12\ntimeline:\n  - {at: 3, crash: 1}\n```\n")},
	}
	r, err := Run(Options{Content: fsys, Runs: 1, EngineTime: time.Millisecond, SkipLimits: true, Chromium: chromium, PlaygroundPasses: 2})
	if err != nil {
		t.Fatal(err)
	}
	pt := r.PlaygroundRun
	if pt == nil {
		t.Fatal("no playground timings with a Chromium given")
	}
	if pt.Fences != 2 || pt.Passes != 2 || len(pt.runs) != 4 || pt.First != pt.runs[0] || pt.Start <= 0 ||
		pt.Median <= 0 || pt.Median > pt.P99 || pt.P99 > pt.Max || pt.Max != slices.Max(pt.runs) || (pt.Slowest != "one" && pt.Slowest != "crash") ||
		pt.ModuleMedian <= 0 || pt.ModuleMedian > pt.ModuleP99 || pt.ModuleP99 > pt.Max {
		t.Errorf("playground timings %+v", *pt)
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`playground Run → first frame +median [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms +≤ 250.0 ms +(ok|MISSED) +\(Chromium, 2 guide fences × 2; in the module median [0-9.]+ ms, p99 [0-9.]+ ms;`).Match(b.Bytes()) {
		t.Errorf("the report has no playground line:\n%s", b.String())
	}
	// Without a browser, nothing is timed and nothing is printed.
	r, err = Run(Options{Content: fsys, Runs: 1, EngineTime: time.Millisecond, SkipLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if r.Write(&b); r.PlaygroundRun != nil || strings.Contains(b.String(), "playground Run") {
		t.Errorf("timed the playground without a browser: %+v", r.PlaygroundRun)
	}
}
