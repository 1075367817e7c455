package fence_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
)

const pair = "id: pair\ntitle: acks=1\nproducer: {acks: 1, records: 6}\ntimeline: [{at: 5, crash: 1}]\nbeats: 16\n" +
	"compare: {title: acks=all, producer: {acks: all}}\nexpect:\n  - {record: 2, outcome: L}\n"

// TestFigureIsTheSteps: Figure is Parse, Run and Draw, and gives both
// runs of a fence with compare: their traces and one side-by-side figure
// with the DOM id the options give.
func TestFigureIsTheSteps(t *testing.T) {
	o := fence.Options{ID: func(id string) string { return "page--" + id }}
	r := fence.Figure([]byte(pair), o)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	p := fence.Parse([]byte(pair))
	step := p.Run()
	step.Draw(o)
	if !bytes.Equal(r.HTML, step.HTML) || len(r.HTML) == 0 {
		t.Errorf("Figure drew %d bytes, the steps %d", len(r.HTML), len(step.HTML))
	}
	if r.Trace == nil || r.CompareTrace == nil || r.Trace.Title != "acks=1" || r.CompareTrace.Title != "acks=all" {
		t.Fatalf("traces: %+v, %+v", r.Trace, r.CompareTrace)
	}
	if !bytes.Contains(r.HTML, []byte(`id="page--pair"`)) {
		t.Errorf("the figure does not carry the DOM id the options give")
	}
	if w := p.Work(); w != (fence.Work{RecordBeats: 2 * 17 * 6, Frames: 2 * 17}) {
		t.Errorf("work %+v", w)
	}
}

// TestErrorsStayInTheFence: parse errors and failed expectations come back
// positioned in the fence body, with no file, and no markup is drawn.
func TestErrorsStayInTheFence(t *testing.T) {
	r := fence.Figure([]byte("id: x\nbrokerz: 3\n"), fence.Options{})
	if len(r.Errors) != 1 || r.Errors[0].Error() != `2:1: unknown setting "brokerz" (did you mean "brokers"?)` || r.HTML != nil || r.Trace != nil {
		t.Errorf("parse error: %v, %d bytes", r.Errors, len(r.HTML))
	}
	r = fence.Figure([]byte(strings.Replace(pair, "outcome: L", "outcome: acked", 1)), fence.Options{})
	if len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0].Error(), "8:26: expected outcome acked") || r.HTML != nil {
		t.Errorf("failed expectation: %v, %d bytes", r.Errors, len(r.HTML))
	}
}

// breakAtBeat3 runs the real engine, then gives partition 0 a second
// leader within its epoch at beat 3 — a breach of "one leader per
// partition per leader epoch".
func breakAtBeat3(sc *sim.Scenario) *sim.Trace {
	t := sim.Run(sc)
	p := &t.Beats[3].Partitions[0]
	p.Leader = p.Leader%sc.Brokers + 1
	return t
}

// TestInvariantBreachFailsTheBuild: every build checks the engine's
// invariants on every beat; a trace broken at beat 3 fails the build with
// an internal error at the fence (its first key's line in the page),
// naming the figure and the beat. A fence with compare: has both runs
// checked, the compare run named as such.
func TestInvariantBreachFailsTheBuild(t *testing.T) {
	good := fstest.MapFS{"a.md": {Data: []byte("---\ntitle: A\n---\nText.\n\n```kflow\nid: one\nbeats: 6\n```\n")}}
	if _, err := site.Generate(site.Options{Content: good, ContentName: "content"}); err != nil {
		t.Fatalf("the page does not build with the real engine: %v", err)
	}
	defer fence.SetEngine(breakAtBeat3)()
	_, err := site.Generate(site.Options{Content: good, ContentName: "content"})
	if err == nil {
		t.Fatal("a broken invariant built")
	}
	want := `content/a.md:7:1: internal error: the engine broke one of its invariants in the figure "one", at beat 3: p0 has leaders `
	if !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("got\n%v\nwant one error starting\n%s", err, want)
	}

	r := fence.Figure([]byte(pair), fence.Options{})
	if len(r.Errors) != 2 || r.HTML != nil {
		t.Fatalf("want a breach in each run, no markup; got %v", r.Errors)
	}
	for i, which := range []string{`the figure "pair", at beat 3: `, `the compare run of figure "pair", at beat 3: `} {
		if e := r.Errors[i]; e.Pos != (sim.Pos{Line: 1, Col: 1}) || !strings.Contains(e.Msg, which) || !strings.HasPrefix(e.Msg, fence.InternalError) {
			t.Errorf("error %d: %v, want %q at 1:1", i, e, which)
		}
	}
}

// TestNoOSAccess keeps package fence free of the OS, so that it compiles
// for the browser (GOOS=js GOARCH=wasm) as it does for the build: its
// non-test files import only the packages listed here.
func TestNoOSAccess(t *testing.T) {
	allowed := map[string]bool{
		"bytes":                             true,
		"fmt":                               true,
		"slices":                            true,
		"strings":                           true,
		"github.com/kafkaflow/kflowgen/sim": true,
		"github.com/kafkaflow/kflowgen/sim/scenario": true,
		"github.com/kafkaflow/kflowgen/svganim":      true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[path] {
				t.Errorf("%s imports %q: package fence stays pure (no files, clock or goroutines)", f, path)
			}
		}
	}
}

// TestNotesAndPoster: a fence's notes lead their beats' captions, the
// engine's headline beneath, and its poster: is both the no-JS picture
// and the beat the stepper opens at — also when it is beat 0.
func TestNotesAndPoster(t *testing.T) {
	body := "id: noted\nproducer: {acks: 1, records: 2}\ntimeline: [{at: 3, crash: 1}]\nbeats: 6\n" +
		"notes:\n  - {at: 3, text: \"the leader dies <now>\"}\nposter: 3\n"
	r := fence.Figure([]byte(body), fence.Options{})
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	html := string(r.HTML)
	for _, want := range []string{`data-poster="3" data-open="3"`,
		`<span class="kf-head">beat 3 — the leader dies &lt;now&gt;</span><span class="kf-under">record 1 acknowledged (acks=1), but L: the new leader&#39;s log does not hold it</span>`,
		`<li><span class="kf-head">the leader dies &lt;now&gt;</span><span class="kf-under">record 1 acknowledged (acks=1), but L: the new leader&#39;s log does not hold it</span>`} {
		if !strings.Contains(html, want) {
			t.Errorf("figure lacks %s", want)
		}
	}
	r = fence.Figure([]byte(strings.Replace(body, "poster: 3", "poster: 0", 1)), fence.Options{})
	if !bytes.Contains(r.HTML, []byte(`data-poster="0" data-open="0"`)) {
		t.Errorf("poster: 0 is not kept: %.200s", r.HTML)
	}
	r = fence.Figure([]byte(strings.Replace(body, "poster: 3\n", "", 1)), fence.Options{})
	if !bytes.Contains(r.HTML, []byte(`data-open="0"`)) || bytes.Contains(r.HTML, []byte(`data-poster="0"`)) {
		t.Errorf("without poster: the figure should open at 0 with its most telling poster: %.200s", r.HTML)
	}
}

// TestPageDrawingThenRest: for every fence with knobs in the guide, a
// PageDrawing names the page markup Drawing names (HTML, Plain), without
// Assets; after DrawRest it names exactly what Drawing does, scripts
// included — and with an id the renderer refuses, the same error.
func TestPageDrawingThenRest(t *testing.T) {
	pages, err := fs.Glob(content.FS, "*.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range pages {
		src, err := fs.ReadFile(content.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range site.FindFences(src) {
			r := fence.Parse(f.Body).Run()
			if len(r.Knobs) == 0 || len(r.Errors) > 0 {
				continue
			}
			n++
			for _, id := range []string{"page--fig", "bad id"} {
				o := fence.Options{ID: func(string) string { return id }}
				want := r.Drawing(o).Named(o)
				d := r.PageDrawing(o)
				page := d.Named(o)
				if id == "page--fig" {
					if len(page.Errors) > 0 || !bytes.Equal(page.HTML, want.HTML) || !bytes.Equal(page.Plain, want.Plain) || page.Assets != nil {
						t.Errorf("%s, %s: the page drawing's markup differs from the whole drawing's (errors %v, %d assets)", name, r.Scenario.ID, page.Errors, len(page.Assets))
					}
				}
				d.DrawRest(o)
				got := d.Named(o)
				if !bytes.Equal(got.HTML, want.HTML) || !bytes.Equal(got.Plain, want.Plain) || len(got.Assets) != len(want.Assets) || got.Errors.Error() != want.Errors.Error() {
					t.Fatalf("%s, %s, id %q: after DrawRest: errors %v, want %v", name, r.Scenario.ID, id, got.Errors, want.Errors)
				}
				for i := range want.Assets {
					if !bytes.Equal(got.Assets[i], want.Assets[i]) {
						t.Errorf("%s, %s: combination %d's script differs", name, r.Scenario.ID, i)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the guide has no fence with knobs")
	}
}

// heavy is a fence with every value within its own limit whose knobs
// (24 combinations) and compare: run make 48 runs of 401 beats and 500
// records: 9,624,000 record-beats, beyond what a whole site may take.
const heavy = `id: heavy
beats: 400
brokers: 9
topic: {partitions: 12, replication.factor: 5}
producer: {records: 500, keys: [a, b, c, d, e, f, g, h]}
consumer.groups:
  - {id: c1, members: 12}
share.groups:
  - {id: s1, members: 12}
knobs: {producer.acks: [0, 1, all], topic.min.insync.replicas: [1, 2], producer.max.in.flight.requests.per.connection: [1, 2, 3, 5]}
compare:
  title: other
  producer: {interval: 1, start: 2}
`

// TestOneFenceKeepsTheSiteBudgets: a single fence over the site's
// record-beat or frame budget is refused by Parse, at its first key, so
// that every path that takes one fence (kflowgen figure and sim, the
// playground's Play) refuses it before the engine runs; the budget counts
// every knob combination and both runs.
func TestOneFenceKeepsTheSiteBudgets(t *testing.T) {
	runs := 0
	defer fence.SetEngine(func(sc *sim.Scenario) *sim.Trace { runs++; return sim.Run(sc) })()
	want := "1:1: this figure takes 9624000 record-beats (beats × records, summed over both runs and every knob combination): Kafka Flow allows at most 2000000 in a site; use fewer beats or records, or fewer knob values"
	p := fence.Parse([]byte(heavy))
	if p.Errors.Error() != want || p.Variants != nil || p.ID != "heavy" || p.Work() != (fence.Work{}) {
		t.Errorf("parse: %q, %d variants, id %q", p.Errors.Error(), len(p.Variants), p.ID)
	}
	if r := fence.Play([]byte(heavy), "page"); len(r.Errors) != 1 || r.Errors[0].Error() != want || r.HTML != nil {
		t.Errorf("play: %v", r.Errors)
	}
	// (One fence cannot pass MaxFrames: sim.MaxKnobCombinations × 2 runs
	// × 401 beats is 19,248 frames; Parse checks it all the same.)
	if runs != 0 {
		t.Errorf("the engine ran %d times for fences over the budget", runs)
	}
	// At the budget it is a figure like any other.
	ok := strings.Replace(heavy, "knobs: {producer.acks: [0, 1, all], ", "knobs: {", 1)
	ok = strings.Replace(ok, "records: 500", "records: 311", 1)
	if p := fence.Parse([]byte(ok)); len(p.Errors) > 0 || p.Work().RecordBeats > fence.MaxRecordBeats {
		t.Errorf("under the budget: %v, %+v", p.Errors, p.Work())
	}
}
