// Package bench measures Kafka Flow against its budgets and is what
// `kflowgen bench` runs. It answers three questions about a guide: how
// long a build takes, how much the pages weigh, and how fast the engine
// is. Only the byte budgets gate (Report.Missed): sizes are the same on
// every machine, timings are not, so timings are printed beside their
// budgets and never fail a run.
//
// # Build time
//
// Run builds the guide the way the commands do: site.Generate, then
// Site.WriteDir into a temporary folder (the build command), and
// serve.Server.Rebuild with every scenario already in serve's cache (a
// save in watch mode that changed no fence). Each is timed several times;
// the report gives the median and fastest wall time and the median
// processor time. Wall time is what the budget (BuildBudget, half a second
// on two cores) speaks of; processor time is printed beside it because a
// busy machine stretches the one and not the other.
//
// # Weight
//
// Every output file is counted raw and gzip-compressed on its own (as a
// static host serves it). Each page is weighed at first paint: its HTML
// plus every stylesheet and script it loads, each compressed on its own;
// the budget (PageBudget) is 40 KB. The figures' scripts, stepper.js and
// kf-words.js, have a budget of their own (ScriptBudget, 8 KB gzip
// together). Each figure is also weighed with svganim.Measure, for
// information: its gzip size against its information bound, the gzip
// size of svganim.Delta, the compact per-beat state delta of the same
// trace (a side-by-side figure against both of its traces' deltas); the
// no-JS columns weigh, the same way, what a reader without JavaScript gets
// (svganim.NoScriptPart: the figure without the stepper's JSON and without
// the poster's hidden marks). The bound is no longer a budget: the no-JS
// poster and storyboard a figure carries sit above it by design.
//
// # Engine speed
//
// sim.Run is timed over the guide's scenarios, and over the scenario at
// every limit, for a few hundred milliseconds each. A record-beat is one
// record alive for one beat, counted from the beat it was created to the
// last; the budget (EngineBudget) is a million a second.
//
// # Limits
//
// LimitsPage is a page whose one fence sits at every size limit of package
// sim at once (beats, brokers, partitions, replication factor, records,
// keys, groups, members, timeline entries, expectations and fence bytes).
// Its expectations follow from the numbering rules alone, so it builds
// whatever the engine decides later. The benchmark times its build; the
// tests check that it is at each limit, that it builds, and that one step
// past any limit is refused with a positioned error naming the limit.
//
// Timing uses the wall clock here and nowhere else: nothing this package
// measures ever reaches a built site.
package bench
