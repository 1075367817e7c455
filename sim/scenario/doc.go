// Package scenario reads Kafka Flow's scenario language: the YAML inside a
// ```kflow fence (or a bare scenario file) that describes a small Kafka
// cluster, a producer, consumer and share groups, a timeline of failures
// and the expectations a figure pins. It is the only package that knows the
// fence's syntax; the engine (package sim) sees only the sim.Scenario value
// Parse returns.
//
// # Using it
//
//	sc, errs := scenario.Parse(body)
//	if errs != nil {
//		for _, e := range errs {
//			// e.Pos is relative to body (Col counts characters); add the fence's first line.
//			fmt.Fprintf(w, "%s:%d:%d: %s\n", file, fenceLine+e.Pos.Line-1, e.Pos.Col, e.Msg)
//		}
//		return
//	}
//	trace := sim.Run(sc)
//
// Parse reports every problem it finds, not just the first, sorted by line
// and column (at most 50, then a note saying how many more there are). Each message is lowercase, quotes the token the author wrote,
// and says how to fix it where that helps: an unknown key names the nearest
// valid one ("did you mean "acks"?"), a number out of range gives the range
// and says whether the bound is one of Kafka Flow's size limits (sim.Max*).
//
// # What it checks
//
// Beyond types and ranges, Parse checks everything the engine would
// otherwise trip over, so that sim.Run never sees an impossible scenario:
// replication.factor against the broker count; timeline beats within
// 1..beats; every broker a timeline entry names exists at that beat and is
// in a state the action applies to (crash a running broker, restart a
// crashed one, resume a paused one); add.broker names the next broker id;
// members named by leave and stop have joined (members of group G are G-1,
// G-2, … in joining order, the initial ones at beat 0); and every expect
// entry names a record, partition, broker, group and member that exist at
// its beat, asserts a field that belongs to its subject, and gives a value
// of the right kind.
//
// # What it produces
//
// Omitted settings take the defaults of package sim (defaults.go); the
// replication factor defaults to min(3, brokers). An expect entry that
// asserts several fields becomes one sim.Expectation per field, positioned
// at that field's value, with Want in canonical text: integers in decimal,
// lists as "[1 2 3]" in written order (sim.Check compares isr as a set),
// booleans as "true" or "false", names and outcomes as written.
//
// Positions are 1-based; a column counts characters (Unicode code points)
// from the start of its line, as the YAML library reports them.
//
// YAML features a scenario has no use for — anchors, aliases, tags, several
// documents — are rejected with a positioned error rather than expanded.
package scenario
