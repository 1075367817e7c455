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
	for _, ev := range bt.Happened {
		if strings.HasPrefix(ev.Kind, "consumer-") || ev.Kind == "hw" || ev.Kind == "crash" || ev.Kind == "restart" ||
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
		for _, ev := range bt.Happened {
			if ev.Kind != "consumer-process" || ev.Group != group {
				continue
			}
			done[ev.Member] = append(done[ev.Member], item{ev.Partition, ev.Offset, ev.Record, ev.Detail == "again"})
			if ev.Detail == "again" && !slices.Contains(twice[ev.Partition], ev.Offset) {
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
