package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneGCCollectsOnlyPastTheFirstLimit checks the build's collector
// settings: none but the memory limit's at buildFirstCollection until a
// collection has run, then buildGCPercent under buildMemoryLimit; and that
// GOGC or GOMEMLIMIT, when set, is left alone.
func TestTuneGCCollectsOnlyPastTheFirstLimit(t *testing.T) {
	percent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	p0, l0 := percent(), limit()
	t.Cleanup(func() {
		debug.SetGCPercent(p0)
		debug.SetMemoryLimit(l0)
	})

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
	if p, l := percent(), limit(); p >= 0 || l != buildFirstCollection {
		t.Fatalf("before a collection: GC percent %d, memory limit %d; want off (negative) and %d", p, l, buildFirstCollection)
	}
	// The switch is made by a cleanup, which runs on its own goroutine
	// after the collection that finds its object unreachable.
	for i := 0; i < 200 && percent() < 0; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p, l := percent(), limit(); p != buildGCPercent || l != buildMemoryLimit {
		t.Fatalf("after a collection: GC percent %d, memory limit %d; want %d and %d", p, l, buildGCPercent, buildMemoryLimit)
	}

	// GOGC set: the percent is the user's, the limit still the build's.
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOGC", "100")
	tuneGC()
	if p, l := percent(), limit(); p != 100 || l != buildMemoryLimit {
		t.Fatalf("with GOGC=100: GC percent %d, memory limit %d; want 100 and %d", p, l, buildMemoryLimit)
	}
	// GOMEMLIMIT set: the limit is the user's, the percent the build's.
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "1GiB")
	tuneGC()
	if p, l := percent(), limit(); p != buildGCPercent || l != math.MaxInt64 {
		t.Fatalf("with GOMEMLIMIT=1GiB: GC percent %d, memory limit %d; want %d and unchanged", p, l, buildGCPercent)
	}
}
