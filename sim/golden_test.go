package sim_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
)

// TestGolden runs the story files in testdata/. Each file is a script:
//
//	run                      a scenario (YAML, as in a kflow fence); runs it,
//	                         checks its expect entries and every invariant —
//	                         a failure fails the test even under -rewrite —
//	                         and prints the records' fates
//	story from=A to=B        each beat's events and partition state
//	state at=N               partitions, replicas and the producer rail
//	acked record=R at=N      asserts record R was acknowledged at beat N
//	wire from=A to=B         each beat's messages, as kflowgen sim prints them
//	lag from=A to=B          each beat's ISR against min ISR, each ISR
//	                         follower's lag clock and the ISR change in
//	                         flight, with the beat's ISR events
//	facts at=N               each partition's leader epoch start offset and
//	                         each share partition's finished records at beat
//	                         N; every record's appends; every member's life
//
// Run with -rewrite to regenerate the expected output; read the diff.
func TestGolden(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var sc *sim.Scenario
		var tr *sim.Trace
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "run":
				var errs sim.ErrorList
				sc, errs = scenario.Parse([]byte(d.Input))
				if errs != nil {
					t.Fatalf("%s: scenario does not parse:\n%v", d.Pos, errs)
				}
				tr = sim.Run(sc)
				return runReport(t, d, sc, tr)
			case "story":
				from, to := intArg(t, d, "from"), intArg(t, d, "to")
				var b strings.Builder
				for i := from; i <= to && i < len(tr.Beats); i++ {
					writeBeat(&b, &tr.Beats[i], false)
				}
				return b.String()
			case "state":
				var b strings.Builder
				writeBeat(&b, &tr.Beats[intArg(t, d, "at")], true)
				return b.String()
			case "wire":
				from, to := intArg(t, d, "from"), intArg(t, d, "to")
				var b strings.Builder
				for i := from; i <= to && i < len(tr.Beats); i++ {
					fmt.Fprintf(&b, "beat %d\n", tr.Beats[i].Beat)
					for _, m := range tr.Beats[i].Messages {
						j, err := json.Marshal(m)
						if err != nil {
							t.Fatal(err)
						}
						fmt.Fprintf(&b, "  %s\n", j)
					}
				}
				return b.String()
			case "lag":
				from, to := intArg(t, d, "from"), intArg(t, d, "to")
				var b strings.Builder
				for i := from; i <= to && i < len(tr.Beats); i++ {
					writeLag(&b, sc, &tr.Beats[i])
				}
				return b.String()
			case "facts":
				return writeFacts(t, tr, intArg(t, d, "at"))
			case "acked":
				id, at := intArg(t, d, "record"), intArg(t, d, "at")
				r := tr.Records[id-1]
				if r.AckedAt != at {
					t.Errorf("%s: record %d acknowledged at beat %d, want %d", d.Pos, id, r.AckedAt, at)
				}
				return fmt.Sprintf("record %d acknowledged at beat %d", id, r.AckedAt)
			}
			if out, ok := consumerDirective(t, d, tr); ok {
				return out
			}
			if out, ok := shareDirective(t, d, tr); ok {
				return out
			}
			t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
			return ""
		})
	})
}

// intArg reads a required integer argument.
func intArg(t *testing.T, d *datadriven.TestData, key string) int {
	var s string
	d.ScanArgs(t, key, &s)
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %s=%q is not a number", d.Pos, key, s)
	}
	return n
}

// runReport checks expectations and invariants (failing the test loudly)
// and writes the records' fates.
func runReport(t *testing.T, d *datadriven.TestData, sc *sim.Scenario, tr *sim.Trace) string {
	var b strings.Builder
	fails := sim.Check(sc, tr)
	for _, f := range fails {
		t.Errorf("%s: expectation at %d:%d failed: %s", d.Pos, f.Pos.Line, f.Pos.Col, f.Msg)
		fmt.Fprintf(&b, "FAILED %d:%d: %s\n", f.Pos.Line, f.Pos.Col, f.Msg)
	}
	for _, v := range sim.CheckInvariants(sc, tr) {
		t.Errorf("%s: invariant: %s", d.Pos, v)
		fmt.Fprintf(&b, "INVARIANT %s\n", v)
	}
	fmt.Fprintf(&b, "%d expectations hold\n", len(sc.Expect)-len(fails))
	for _, r := range tr.Records {
		fmt.Fprintf(&b, "record %d key %s p%d offset %d: %s (created %d, acked %d, settled %d)\n",
			r.ID, r.Key, r.Partition, r.Offset, r.Outcome, r.CreatedAt, r.AckedAt, r.SettledAt)
	}
	return b.String()
}

// writeBeat prints one beat: its events, then each partition's state; in
// full mode also every replica's log and the producer rail.
func writeBeat(b *strings.Builder, bt *sim.Beat, full bool) {
	fmt.Fprintf(b, "beat %d\n", bt.Beat)
	for _, ev := range bt.Events {
		fmt.Fprintf(b, "  %s\n", ev)
	}
	for _, p := range bt.Partitions {
		fmt.Fprintf(b, "  = p%d leader %d epoch %d isr %s hw %d |", p.Partition, p.Leader, p.LeaderEpoch, ints(p.ISR), p.HighWatermark)
		for _, r := range p.Replicas {
			state := ""
			if !r.Online {
				state = " down"
			}
			fmt.Fprintf(b, " %d: leo %d hw %d%s |", r.Broker, r.LogEndOffset, r.HighWatermark, state)
		}
		b.WriteString("\n")
		if !full {
			continue
		}
		if len(p.Adding)+len(p.Removing) > 0 {
			fmt.Fprintf(b, "    replicas %s adding %s removing %s\n", ints(p.Assignment), ints(p.Adding), ints(p.Removing))
		}
		for _, r := range p.Replicas {
			fmt.Fprintf(b, "    broker %d log:", r.Broker)
			for o, en := range r.Log {
				fmt.Fprintf(b, " %d:r%d/e%d", o, en.Record, en.Epoch)
			}
			b.WriteString("\n")
		}
	}
	if full {
		b.WriteString("  rail:")
		for _, c := range bt.Producer.Cards {
			fmt.Fprintf(b, " r%d %s", c.Record, c.Stage)
			if c.Outcome != "" {
				fmt.Fprintf(b, " %s", c.Outcome)
			}
			b.WriteString(";")
		}
		b.WriteString("\n")
	}
}

// ints writes a list as "[1 2 3]".
func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// writeFacts prints the facts the trace records beside the state: at beat
// at, each partition's leader epoch start offset and each share
// partition's finished records; over the run, each record's appends and
// each member's life.
func writeFacts(t *testing.T, tr *sim.Trace, at int) string {
	var b strings.Builder
	js := func(v any) string {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(j)
	}
	bt := &tr.Beats[at]
	fmt.Fprintf(&b, "beat %d\n", bt.Beat)
	for _, p := range bt.Partitions {
		fmt.Fprintf(&b, "  p%d leader epoch %d starts at offset %d\n", p.Partition, p.LeaderEpoch, p.LeaderEpochStartOffset)
	}
	for _, g := range bt.Groups {
		for _, gp := range g.Partitions {
			if gp.Share {
				fmt.Fprintf(&b, "  %s p%d finished %s\n", g.Group, gp.Partition, js(append([]sim.ShareRecord{}, gp.Finished...)))
			}
		}
	}
	for _, r := range tr.Records {
		fmt.Fprintf(&b, "record %d appends %s\n", r.ID, js(r.Appends))
	}
	for _, m := range tr.Members {
		fmt.Fprintf(&b, "member %s\n", js(m))
	}
	return b.String()
}

// writeLag prints one beat's numbers of the ISR: per partition the ISR
// size against min ISR, each follower's lag clock against
// replica.lag.time.max, and the ISR change in flight; then the beat's ISR
// events.
func writeLag(b *strings.Builder, sc *sim.Scenario, bt *sim.Beat) {
	fmt.Fprintf(b, "beat %d\n", bt.Beat)
	for _, p := range bt.Partitions {
		fmt.Fprintf(b, "  = p%d ISR %d / min %d", p.Partition, len(p.ISR), p.MinInsyncReplicas)
		if p.UnderMinIsr {
			b.WriteString(" (under)")
		}
		for _, r := range p.Replicas {
			if r.LagTime == sim.LagNever {
				fmt.Fprintf(b, " | %d: lag never/%d", r.Broker, sc.Topic.ReplicaLagTimeMax)
			} else if r.LagTime > 0 {
				fmt.Fprintf(b, " | %d: lag %d/%d", r.Broker, r.LagTime, sc.Topic.ReplicaLagTimeMax)
			}
		}
		if p.PendingISR != nil {
			fmt.Fprintf(b, " | pending %s", ints(p.PendingISR))
		}
		b.WriteString("\n")
	}
	for _, ev := range bt.Events {
		if strings.HasPrefix(string(ev.Kind), "isr-") {
			fmt.Fprintf(b, "  %s\n", ev)
		}
	}
}
