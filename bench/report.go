package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Write prints the report as tables, each measure beside its budget and
// "ok" or "MISSED" (byte budgets gate, see Missed; time budgets are
// printed for comparison). Numbers are integers or fixed-point decimals built from
// integers, never formatted floats.
func (r *Report) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format+"\n", args...) }
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "MISSED"
	}

	p("Kafka Flow benchmark (GOMAXPROCS %d; each build timed %d times: median wall time, fastest, median CPU time)", r.GOMAXPROCS, r.Runs)
	p("")
	p("build\twall\tfastest\tCPU\tbudget (wall)\t")
	for _, b := range []struct {
		name string
		t    Timing
	}{
		{"  guide, first in process", r.First},
		{"  guide, cold", r.Cold},
		{"  guide, warm (as serve rebuilds)", r.Warm},
		{"  limits page alone, cold", r.LimitsBuild},
	} {
		if b.t == (Timing{}) {
			continue
		}
		p("%s\t%s\t%s\t%s\t≤ %s\t%s", b.name, ms(b.t.Median), ms(b.t.Min), ms(b.t.CPU), ms(BuildBudget), verdict(b.t.Median <= BuildBudget))
	}
	p("")
	p("invariant check\twall\tfastest\tCPU\tshare of the cold build's CPU\t(sim.CheckInvariants on every beat of every figure, one core; part of every build above)")
	for _, x := range []struct {
		name     string
		t, build Timing
	}{{"  guide", r.Invariants, r.Cold}, {"  limits page", r.LimitsInvariants, r.LimitsBuild}} {
		if x.t == (Timing{}) {
			continue
		}
		share := "-"
		if x.build.CPU > 0 {
			share = strconv.FormatInt(int64(x.t.CPU*100/x.build.CPU), 10) + "%"
		}
		p("%s\t%s\t%s\t%s\t%s\t", x.name, ms(x.t.Median), ms(x.t.Min), ms(x.t.CPU), share)
	}
	p("")
	p("guide\t%d pages, %d figures, %d beats", r.Pages, r.Figures, r.Beats)
	perBeat := func(n int) string {
		if r.Beats == 0 {
			return "-"
		}
		return strconv.Itoa(n / r.Beats)
	}
	p("site bytes\t%d raw, %d gzip (%s raw, %s gzip per beat)", r.Raw, r.Gzip, perBeat(r.Raw), perBeat(r.Gzip))
	if pw := r.Playground; pw.WasmRaw > 0 {
		p("playground .wasm\t%d raw, %d gzip\t≤ %d gzip\t%s\t(kflow-wasm.js, its base64 for file://: %d raw, %d gzip)",
			pw.WasmRaw, pw.WasmGzip, WasmGzipBudget, verdict(pw.WasmGzip <= WasmGzipBudget), pw.Asset, pw.AssetGzip)
	}
	if t := r.PlaygroundRun; t != nil {
		p("playground Run → first frame\tmedian %s, p99 %s, max %s\t≤ %s\t%s\t(Chromium, %d guide fences × %d; in the module median %s, p99 %s; the first Run %s; slowest %s; page open to engine ready %s)",
			ms(t.Median), ms(t.P99), ms(t.Max), ms(RunBudget), verdict(t.P99 <= RunBudget), t.Fences, t.Passes, ms(t.ModuleMedian), ms(t.ModuleP99), ms(t.First), t.Slowest, ms(t.Start))
	}
	p("")
	p("page (first paint)\tHTML gzip B\tCSS+JS gzip B\ttotal B\tbudget\t")
	for _, x := range r.PageWeights {
		p("  %s\t%d\t%d\t%d\t≤ %d\t%s", x.Path, x.HTML, x.Loads, x.Total(), PageBudget, verdict(x.Total() <= PageBudget))
	}
	if r.Scripts > 0 {
		p("figure scripts (stepper.js + kf-words.js)\t%d gzip B\t\t\t≤ %d\t%s", r.Scripts, ScriptBudget, verdict(r.Scripts <= ScriptBudget))
	}
	if len(r.Knobs) > 0 {
		p("")
		p("knobs (first paint, gzip B)\twith\twithout\tadded\tbudget\t\tcombinations\tloaded on demand B (largest)")
		for _, k := range r.Knobs {
			p("  %s\t%d\t%d\t%s%%\t≤ %s%%\t%s\t%d\t%d (%d)", k.ID, k.With, k.Without, thousandthsPercent(k.Permille()),
				thousandthsPercent(KnobBudgetPermille), verdict(k.Permille() <= KnobBudgetPermille), k.Variants, k.Scripts, k.Largest)
		}
		p("  (a flip's redraw, to a loaded combination: go test ./site -run '^$' -bench BrowserKnobFlip; budget p99 ≤ 4 ms, reported, not gated)")
	}
	p("")
	p("figure (informational)\tbeats\traw B\tgzip B\tgzip/beat\tbound B\tratio\tno-JS B\tno-JS ratio")
	fig := func(id string, x FigureWeight) {
		_, gb := x.PerBeat()
		p("  %s\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%s", id, x.Beats, x.Raw, x.Gzip, gb, x.Bound,
			thousandths(x.Permille()), x.NoScript, thousandths(x.NoScriptPermille()))
	}
	for _, x := range r.Weights {
		fig(x.ID, x)
	}
	if r.LimitsWeight.Beats > 0 {
		fig("(limits page) at-the-limits", FigureWeight{Weight: r.LimitsWeight})
	}
	p("")
	p("engine\tbeats/s\trecord-beats/s\tper CPU second\tbudget (wall)\t")
	for _, e := range []struct {
		name string
		s    Speed
	}{{"  guide scenarios", r.Engine}, {"  limits scenario", r.LimitsEngine}} {
		if e.s.Runs == 0 {
			continue
		}
		p("%s\t%s\t%s\t%s\t≥ %s\t%s", e.name, group(e.s.BeatsPerSecond()), group(e.s.RecordBeatsPerSecond()),
			group(e.s.RecordBeatsPerCPUSecond()), group(EngineBudget), verdict(e.s.RecordBeatsPerSecond() >= EngineBudget))
	}
	return tw.Flush()
}

// ms prints d in milliseconds with one decimal ("12.3 ms").
func ms(d time.Duration) string {
	tenths := d.Microseconds() / 100
	return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10) + " ms"
}

// thousandths prints n/1000 with three decimals ("1.234").
func thousandths(n int) string {
	return strconv.Itoa(n/1000) + "." + fmt.Sprintf("%03d", n%1000)
}

// group prints n with its digits in groups of three ("1,234,567").
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
