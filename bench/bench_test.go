package bench

import (
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/svganim"
)

// BenchmarkLimitsBuild times a cold build of LimitsPage, in memory:
// parse, run, check, draw, lay out. Budget: BuildBudget.
func BenchmarkLimitsBuild(b *testing.B) {
	fsys := fstest.MapFS{LimitsPath: {Data: LimitsPage()}}
	for b.Loop() {
		if _, err := site.Generate(site.Options{Content: fsys}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLimitsRun times the engine alone on LimitsFence's scenario.
func BenchmarkLimitsRun(b *testing.B) {
	sc, errs := scenario.Parse(LimitsFence())
	if errs != nil {
		b.Fatal(errs)
	}
	recordBeats := 0
	for _, r := range sim.Run(sc).Records {
		recordBeats += sc.Beats - r.CreatedAt + 1
	}
	for b.Loop() {
		sim.Run(sc)
	}
	b.ReportMetric(float64(recordBeats*b.N)/b.Elapsed().Seconds(), "record-beats/s")
}

// BenchmarkLimitsFigure times the renderer alone on LimitsFence's trace.
func BenchmarkLimitsFigure(b *testing.B) {
	sc, errs := scenario.Parse(LimitsFence())
	if errs != nil {
		b.Fatal(errs)
	}
	t := sim.Run(sc)
	for b.Loop() {
		if _, err := svganim.Figure(t, svganim.Options{ID: "limits"}); err != nil {
			b.Fatal(err)
		}
	}
}
