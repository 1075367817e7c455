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

// shareDirective runs the golden directives about share groups
// (testdata/share*.txt); ok is false for other directives.
//
//	shares from=A to=B       each beat's share-group events (with the
//	                         high watermark, crashes and elections), then
//	                         each share group's epoch, members and, per
//	                         partition, the start offset and the window:
//	                         offset:state/delivery count/holder
//	life group=G partition=P offset=O
//	                         one record's life in group G: every event
//	                         about it, in beat order
//	  [until=N]              only up to beat N
//	  [holders=M1,M2]        asserts the members that acquired it, in order
//	  [final=STATE]          asserts its state at the last beat (or N)
//	  [deliveries=N]         asserts how many times it was acquired
//	owners group=G at=N      each partition's members at beat N
//	  [shared=P:K,…]         asserts partition P has exactly K members
//
// The assertions fail the test even under -rewrite.
func shareDirective(t *testing.T, d *datadriven.TestData, tr *sim.Trace) (string, bool) {
	switch d.Cmd {
	case "shares":
		from, to := intArg(t, d, "from"), intArg(t, d, "to")
		var b strings.Builder
		for i := from; i <= to && i < len(tr.Beats); i++ {
			writeShares(&b, &tr.Beats[i])
		}
		return b.String(), true
	case "life":
		return lifeReport(t, d, tr), true
	case "owners":
		return ownersReport(t, d, tr), true
	}
	return "", false
}

// writeShares prints one beat's share-group events and state.
func writeShares(b *strings.Builder, bt *sim.Beat) {
	fmt.Fprintf(b, "beat %d\n", bt.Beat)
	for _, ev := range bt.Events {
		if strings.HasPrefix(string(ev.Kind), "share-") || ev.Kind == "hw" || ev.Kind == "crash" || ev.Kind == "restart" ||
			ev.Kind == "leader" || ev.Kind == "offline" || ev.Kind == "add-partitions" ||
			ev.Kind == "isr-shrink" || ev.Kind == "isr-expand" || ev.Kind == "pause" || ev.Kind == "resume" {
			fmt.Fprintf(b, "  %s\n", ev)
		}
	}
	for _, g := range bt.Groups {
		if g.Type != "share" {
			continue
		}
		fmt.Fprintf(b, "  = %s epoch %d |", g.Group, g.GroupEpoch)
		for _, m := range g.Members {
			fmt.Fprintf(b, " %s %s %s", m.Member, m.State, ints(m.Partitions))
			if m.Processing > 0 {
				fmt.Fprintf(b, " r%d", m.Processing)
			}
			b.WriteString(" |")
		}
		b.WriteString("\n")
		for _, gp := range g.Partitions {
			fmt.Fprintf(b, "    p%d spso %d:", gp.Partition, gp.StartOffset)
			for _, r := range gp.Records {
				fmt.Fprintf(b, " %d:%s/%d", r.Offset, r.State, r.DeliveryCount)
				if r.Member != "" {
					fmt.Fprintf(b, "/%s", r.Member)
				}
			}
			b.WriteString("\n")
		}
	}
}

// lifeReport prints every event about one share record and checks the
// optional holders and final assertions.
func lifeReport(t *testing.T, d *datadriven.TestData, tr *sim.Trace) string {
	var group string
	d.ScanArgs(t, "group", &group)
	part, off := intArg(t, d, "partition"), int64(intArg(t, d, "offset"))
	until := len(tr.Beats) - 1
	if d.HasArg("until") {
		until = intArg(t, d, "until")
	}
	var b strings.Builder
	var holders []string
	for i := 0; i <= until && i < len(tr.Beats); i++ {
		bt := &tr.Beats[i]
		for _, ev := range bt.Events {
			if !strings.HasPrefix(string(ev.Kind), "share-") || ev.Partition != part || ev.Offset != off {
				continue
			}
			if ev.Group != group && !strings.HasPrefix(ev.Member, group+"-") {
				continue
			}
			if ev.Kind == "share-spso" || ev.Kind == "share-start" || ev.Kind == "share-offset-unavailable" {
				continue // about the start offset, not this record
			}
			if ev.Kind == "share-acquire" {
				holders = append(holders, ev.Member)
			}
			fmt.Fprintf(&b, "beat %d: %s\n", bt.Beat, ev)
		}
	}
	final, finalText := finalShareState(tr, min(until, len(tr.Beats)-1), group, part, off)
	fmt.Fprintf(&b, "at beat %d: %s\n", min(until, len(tr.Beats)-1), finalText)
	if d.HasArg("holders") {
		var want []string
		for _, a := range d.CmdArgs {
			if a.Key == "holders" {
				want = a.Vals
			}
		}
		if !slices.Equal(want, holders) {
			t.Errorf("%s: holders %v, want %v", d.Pos, holders, want)
		}
	}
	if d.HasArg("deliveries") {
		if n := intArg(t, d, "deliveries"); n != len(holders) {
			t.Errorf("%s: %d deliveries, want %d", d.Pos, len(holders), n)
		}
	}
	if d.HasArg("final") {
		var want string
		d.ScanArgs(t, "final", &want)
		if final != want {
			t.Errorf("%s: final state %s, want %s", d.Pos, final, want)
		}
	}
	return b.String()
}

// finalShareState is a record's state at beat at ("not-acquired" when it
// has not been) and a longer text with its delivery count and finisher.
func finalShareState(tr *sim.Trace, at int, group string, part int, off int64) (state, text string) {
	bt := &tr.Beats[at]
	for _, g := range bt.Groups {
		if g.Group != group {
			continue
		}
		for _, gp := range g.Partitions {
			if gp.Partition != part {
				continue
			}
			for _, r := range append(slices.Clone(gp.Finished), gp.Records...) {
				if r.Offset == off {
					s := r.State + " with delivery count " + strconv.Itoa(r.DeliveryCount)
					if r.Finisher != "" {
						s += " by " + r.Finisher
					}
					return r.State, s
				}
			}
		}
	}
	return "not-acquired", "not acquired"
}

// ownersReport prints which members each partition has at a beat and
// checks the optional shared=P:K assertions.
func ownersReport(t *testing.T, d *datadriven.TestData, tr *sim.Trace) string {
	var group string
	d.ScanArgs(t, "group", &group)
	at := intArg(t, d, "at")
	byPart := map[int][]string{}
	nparts := len(tr.Beats[at].Partitions)
	var b strings.Builder
	for _, g := range tr.Beats[at].Groups {
		if g.Group != group {
			continue
		}
		for _, m := range g.Members {
			for _, p := range m.Partitions {
				byPart[p] = append(byPart[p], m.Member)
			}
			fmt.Fprintf(&b, "%s holds %d partition(s)\n", m.Member, len(m.Partitions))
		}
	}
	for p := 0; p < nparts; p++ {
		fmt.Fprintf(&b, "p%d: %s\n", p, strings.Join(byPart[p], " "))
	}
	for _, a := range d.CmdArgs {
		if a.Key != "shared" {
			continue
		}
		for _, v := range a.Vals {
			ps, ks, _ := strings.Cut(v, ":")
			p, err1 := strconv.Atoi(ps)
			k, err2 := strconv.Atoi(ks)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: shared=%q is not P:K", d.Pos, v)
			}
			if len(byPart[p]) != k {
				t.Errorf("%s: p%d has %d members %v, want %d", d.Pos, p, len(byPart[p]), byPart[p], k)
			}
		}
	}
	return b.String()
}

// addShareGroups gives a random scenario one or two share groups and a
// timeline of joins, leaves and stops (each naming a member that exists
// and is still active then), drawn from seed.
func addShareGroups(sc *sim.Scenario, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x5ba7e))
	keys := sc.Producer.Keys
	for i, n := 0, 1+r.IntN(2); i < n; i++ {
		g := sim.ShareGroupConfig{
			ID:                   fmt.Sprintf("s%d", i+1),
			Members:              r.IntN(5),
			ShareAutoOffsetReset: []string{"earliest", "latest"}[r.IntN(2)],
			RecordLockDuration:   1 + r.IntN(8),
			DeliveryCountLimit:   2 + r.IntN(4),
			Processing:           1 + r.IntN(3),
		}
		if r.IntN(2) == 0 {
			g.SlowKey = keys[r.IntN(len(keys))]
		}
		sc.ShareGroups = append(sc.ShareGroups, g)
		// members' fates: 0 active, 1 left, 2 stopped
		fate := make([]int, g.Members)
		for j, k := 0, r.IntN(6); j < k; j++ {
			ev := sim.TimelineEvent{At: 1 + r.IntN(sc.Beats)}
			switch x := r.IntN(3); {
			case x == 0 && len(fate) < sim.MaxMembers:
				ev.Kind, ev.Group = sim.EventJoin, g.ID
			default:
				m := r.IntN(len(fate) + 1)
				if m == len(fate) || fate[m] != 0 {
					continue
				}
				ev.Kind, ev.Member = sim.EventLeave, fmt.Sprintf("%s-%d", g.ID, m+1)
				fate[m] = 1
				if x == 2 {
					ev.Kind, fate[m] = sim.EventStop, 2
				}
			}
			sc.Timeline = append(sc.Timeline, ev)
			if ev.Kind == sim.EventJoin {
				fate = append(fate, 0)
			}
		}
	}
	// A join must come before a leave or stop of the member it adds: keep
	// the events in the order drawn for equal beats by giving them beats
	// in drawing order where needed.
	last := 0
	for i := range sc.Timeline {
		ev := &sc.Timeline[i]
		if ev.Kind == sim.EventJoin || ev.Kind == sim.EventLeave || ev.Kind == sim.EventStop {
			if ev.At < last {
				ev.At = last
			}
			last = ev.At
		}
	}
	slices.SortStableFunc(sc.Timeline, func(a, b sim.TimelineEvent) int { return a.At - b.At })
}

// TestRandomShareScenarios runs random scenarios (the replication
// generator's, with crashes, pauses, added brokers and partitions) with
// share groups whose members join, leave and stop at random, and checks
// every invariant — the share-group ones included — after every beat.
func TestRandomShareScenarios(t *testing.T) {
	n := *randomRuns / 2
	if testing.Short() {
		n /= 10
	}
	failures := 0
	seen := map[string]int{}
	for seed := uint64(1); seed <= uint64(n) && failures < 5; seed++ {
		sc := randomScenario(seed)
		addShareGroups(sc, seed)
		tr, ok := runChecked(t, seed, sc)
		if !ok {
			failures++
		}
		if tr == nil {
			continue
		}
		for _, b := range tr.Beats {
			for _, ev := range b.Events {
				seen[string(ev.Kind)]++
			}
		}
	}
	// The generator must reach every path of the share engine, or the
	// invariants above prove little.
	for _, kind := range []string{"share-acquire", "share-accept", "share-available", "share-archive", "share-refused",
		"share-spso", "share-join", "share-leave", "share-stop", "share-fence", "share-not-leader", "share-lost"} {
		if seen[kind] == 0 {
			t.Errorf("no random scenario produced a %s event", kind)
		}
	}
}
