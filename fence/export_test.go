package fence

import "github.com/kafkaflow/kflowgen/sim"

// SetEngine replaces the engine Run uses, for tests of package fence_test
// that break a trace on purpose, and returns the function that puts the
// real one back. It exists only in this package's tests.
func SetEngine(run func(*sim.Scenario) *sim.Trace) (restore func()) {
	old := runEngine
	runEngine = run
	return func() { runEngine = old }
}
