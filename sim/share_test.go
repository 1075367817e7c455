package sim_test

import (
	"fmt"
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
//	  [holders=M1,M2]        asserts the members that acquired it, in order
//	  [final=STATE]          asserts its state at the last beat
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
	for _, ev := range bt.Happened {
		if strings.HasPrefix(ev.Kind, "share-") || ev.Kind == "hw" || ev.Kind == "crash" || ev.Kind == "restart" ||
			ev.Kind == "leader" || ev.Kind == "offline" || ev.Kind == "add-partitions" {
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
	var b strings.Builder
	var holders []string
	for i := range tr.Beats {
		bt := &tr.Beats[i]
		for _, ev := range bt.Happened {
			if !strings.HasPrefix(ev.Kind, "share-") || ev.Partition != part || ev.Offset != off {
				continue
			}
			if ev.Group != group && !strings.HasPrefix(ev.Member, group+"-") {
				continue
			}
			if ev.Kind == "share-spso" {
				continue // names the old start offset, not this record
			}
			if ev.Kind == "share-acquire" {
				holders = append(holders, ev.Member)
			}
			fmt.Fprintf(&b, "beat %d: %s\n", bt.Beat, ev)
		}
	}
	final, finalText := finalShareState(tr, group, part, off)
	fmt.Fprintf(&b, "final: %s\n", finalText)
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

// finalShareState is a record's state at the last beat ("not acquired"
// when it never was) and a longer text with its delivery count and
// finisher.
func finalShareState(tr *sim.Trace, group string, part int, off int64) (state, text string) {
	bt := &tr.Beats[len(tr.Beats)-1]
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
					s := r.State + " after " + strconv.Itoa(r.DeliveryCount) + " deliveries"
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
