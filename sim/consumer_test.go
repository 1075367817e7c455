package sim_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/kafkaflow/kflowgen/sim"
)

// consumerDirective runs the golden directives about consumer groups
// (testdata/consumer*.txt); ok is false for other directives.
//
//	groups from=A to=B          each beat's consumer-group events, then each
//	                            group's epoch, members and partitions
//	processed group=G           each member's processed records, "again"
//	                            marking a record the group processed before
//	  [idle=M1,M2]              asserts exactly these members processed
//	                            nothing
//	  [twice=P:O1,O2]           asserts exactly these offsets of P were
//	                            processed twice or more
//
// The assertions fail the test even under -rewrite.
func consumerDirective(t *testing.T, d *datadriven.TestData, tr *sim.Trace) (string, bool) {
	switch d.Cmd {
	case "groups":
		from, to := intArg(t, d, "from"), intArg(t, d, "to")
		var b strings.Builder
		for i := from; i <= to && i < len(tr.Beats); i++ {
			writeGroups(&b, &tr.Beats[i])
		}
		return b.String(), true
	case "processed":
		return processedReport(t, d, tr), true
	}
	return "", false
}

// writeGroups prints one beat's consumer-group events and state.
func writeGroups(b *strings.Builder, bt *sim.Beat) {
	fmt.Fprintf(b, "beat %d\n", bt.Beat)
	for _, ev := range bt.Events {
		if strings.HasPrefix(string(ev.Kind), "consumer-") || ev.Kind == "hw" || ev.Kind == "crash" || ev.Kind == "restart" ||
			ev.Kind == "leader" || ev.Kind == "add-partitions" {
			fmt.Fprintf(b, "  %s\n", ev)
		}
	}
	for _, g := range bt.Groups {
		if g.Type != "consumer" {
			continue
		}
		fmt.Fprintf(b, "  = %s epoch %d |", g.Group, g.GroupEpoch)
		for _, m := range g.Members {
			fmt.Fprintf(b, " %s %s %s", m.Member, m.State, ints(m.Partitions))
			if len(m.Revoking) > 0 {
				fmt.Fprintf(b, " -%s", ints(m.Revoking))
			}
			if len(m.Assigning) > 0 {
				fmt.Fprintf(b, " +%s", ints(m.Assigning))
			}
			if m.Processing > 0 {
				fmt.Fprintf(b, " r%d", m.Processing)
			}
			b.WriteString(" |")
		}
		b.WriteString("\n    ")
		for _, gp := range g.Partitions {
			owner := gp.Owner
			if owner == "" {
				owner = "-"
			}
			fmt.Fprintf(b, " p%d %s pos %d com %d", gp.Partition, owner, gp.Position, gp.Committed)
			if len(gp.Reprocessed) > 0 {
				fmt.Fprintf(b, " again %v", gp.Reprocessed)
			}
			b.WriteString(";")
		}
		b.WriteString("\n")
	}
}

// processedReport lists what each member of a group processed, from the
// structured events, and checks the idle= and twice= claims.
func processedReport(t *testing.T, d *datadriven.TestData, tr *sim.Trace) string {
	var group string
	d.ScanArgs(t, "group", &group)
	type item struct {
		part   int
		offset int64
		rec    int
		again  bool
	}
	done := map[string][]item{}
	var order []string
	twice := map[int][]int64{}
	for _, bt := range tr.Beats {
		for _, g := range bt.Groups {
			if g.Group != group {
				continue
			}
			for _, m := range g.Members {
				if _, seen := done[m.Member]; !seen {
					done[m.Member] = nil
					order = append(order, m.Member)
				}
			}
		}
		for _, ev := range bt.Events {
			if ev.Kind != "consumer-process" || ev.Group != group {
				continue
			}
			done[ev.Member] = append(done[ev.Member], item{ev.Partition, ev.Offset, ev.Record, ev.Reprocessed})
			if ev.Reprocessed && !slices.Contains(twice[ev.Partition], ev.Offset) {
				twice[ev.Partition] = append(twice[ev.Partition], ev.Offset)
			}
		}
	}
	var b strings.Builder
	var idle []string
	for _, m := range order {
		fmt.Fprintf(&b, "%s:", m)
		if len(done[m]) == 0 {
			idle = append(idle, m)
			b.WriteString(" nothing")
		}
		for _, it := range done[m] {
			fmt.Fprintf(&b, " p%d/%d(r%d)", it.part, it.offset, it.rec)
			if it.again {
				b.WriteString("again")
			}
		}
		b.WriteString("\n")
	}
	if d.HasArg("idle") {
		var want string
		d.ScanArgs(t, "idle", &want)
		if got := strings.Join(idle, ","); got != want {
			t.Errorf("%s: idle members %q, want %q", d.Pos, got, want)
		}
	}
	if d.HasArg("twice") {
		var want string
		d.ScanArgs(t, "twice", &want)
		var got []string
		for p := 0; p < 64; p++ {
			if len(twice[p]) == 0 {
				continue
			}
			s := make([]string, len(twice[p]))
			for i, o := range twice[p] {
				s[i] = strconv.FormatInt(o, 10)
			}
			got = append(got, strconv.Itoa(p)+":"+strings.Join(s, ","))
		}
		if g := strings.Join(got, ";"); g != want {
			t.Errorf("%s: processed twice %q, want %q", d.Pos, g, want)
		}
	}
	return b.String()
}

// addRandomConsumerGroups gives a random scenario up to two consumer
// groups with random settings, and a timeline of joins, clean leaves and
// stops that the parser would accept (a member leaves or stops at most
// once, after it joined).
func addRandomConsumerGroups(r *rand.Rand, sc *sim.Scenario) {
	for gi, n := 0, r.IntN(3); gi < n; gi++ {
		g := sim.ConsumerGroupConfig{
			ID:                 fmt.Sprintf("c%d", gi+1),
			Members:            r.IntN(4),
			AutoOffsetReset:    []string{"earliest", "latest"}[r.IntN(2)],
			Assignor:           []string{"uniform", "range"}[r.IntN(2)],
			AutoCommitInterval: 1 + r.IntN(8),
			SessionTimeout:     1 + r.IntN(12),
			Processing:         1 + r.IntN(3),
			MaxPollInterval:    1 + r.IntN(12),
			MaxPollRecords:     1 + r.IntN(4),
		}
		sc.ConsumerGroups = append(sc.ConsumerGroups, g)
		members := g.Members
		var live []int // member numbers that may still leave or stop
		for i := 1; i <= members; i++ {
			live = append(live, i)
		}
		beats := make([]int, r.IntN(8))
		for i := range beats {
			beats[i] = 1 + r.IntN(sc.Beats)
		}
		slices.Sort(beats)
		for _, at := range beats {
			ev := sim.TimelineEvent{At: at, Group: g.ID}
			if len(live) == 0 || r.IntN(3) == 0 {
				if members >= sim.MaxMembers {
					continue
				}
				members++
				live = append(live, members)
				ev.Kind = sim.EventJoin
			} else {
				i := r.IntN(len(live))
				ev.Member = fmt.Sprintf("%s-%d", g.ID, live[i])
				live = slices.Delete(live, i, i+1)
				ev.Kind = []sim.EventKind{sim.EventLeave, sim.EventStop}[r.IntN(2)]
			}
			sc.Timeline = append(sc.Timeline, ev)
		}
	}
}

// TestAssignorsBalanceAndStick checks both assignors on every member and
// partition count up to the limits, from random current targets: every
// partition goes to exactly one member, counts differ by at most one with
// the larger counts first in member order, range hands out contiguous
// ranges in order, and uniform keeps each member's current partitions up
// to its quota.
func TestAssignorsBalanceAndStick(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 848))
	for members := 0; members <= sim.MaxMembers; members++ {
		for parts := 1; parts <= sim.MaxPartitions; parts++ {
			for trial := 0; trial < 20; trial++ {
				// a random current target: each partition with a random
				// member or none, over a possibly smaller partition count
				cur := make([][]int, members)
				for p := 0; p < parts; p++ {
					if members > 0 && r.IntN(4) > 0 {
						m := r.IntN(members)
						cur[m] = append(cur[m], p)
					}
				}
				for _, name := range []string{"uniform", "range"} {
					got := sim.AssignForTest(name, cur, parts)
					where := fmt.Sprintf("%s members=%d partitions=%d current=%v → %v", name, members, parts, cur, got)
					seen := make([]int, parts)
					for i, ps := range got {
						want := parts / max(members, 1)
						if i < parts%max(members, 1) {
							want++
						}
						if len(ps) != want {
							t.Fatalf("%s: member %d has %d partitions, want %d", where, i, len(ps), want)
						}
						for _, p := range ps {
							seen[p]++
						}
						if !slices.IsSorted(ps) {
							t.Fatalf("%s: member %d's list is not sorted", where, i)
						}
					}
					for p, n := range seen {
						if members > 0 && n != 1 {
							t.Fatalf("%s: partition %d assigned %d times", where, p, n)
						}
					}
					switch name {
					case "range":
						next := 0
						for i, ps := range got {
							for _, p := range ps {
								if p != next {
									t.Fatalf("%s: member %d's range is not the next contiguous one", where, i)
								}
								next++
							}
						}
					case "uniform":
						for i, ps := range got {
							kept := 0
							for _, p := range cur[i] {
								if slices.Contains(ps, p) {
									kept++
								}
							}
							if want := min(len(cur[i]), len(ps)); kept != want {
								t.Fatalf("%s: member %d kept %d of its partitions, want %d", where, i, kept, want)
							}
						}
					}
				}
			}
		}
	}
}
