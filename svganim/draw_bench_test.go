package svganim

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkDrawGuide draws every scenario of the guide as the site's
// build does (Draw with one worker: the build spreads figures over its
// own), for the cost of drawing alone, without the engine. Besides the
// wall time it reports the process's processor time per op (cpu-ns/op),
// which other work on a shared machine disturbs less.
func BenchmarkDrawGuide(b *testing.B) {
	traces := guideTraces(b)
	b.ReportAllocs()
	b.ResetTimer()
	start := processorTime()
	for range b.N {
		for _, nt := range traces {
			if _, err := Draw(nt.t, Options{Workers: 1}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(processorTime()-start)/float64(b.N), "cpu-ns/op")
}

// processorTime is the user and system time the process has used.
func processorTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
