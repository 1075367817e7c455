package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// fieldGetter reads the actual value an expectation is about from a trace,
// in the canonical text form of Expectation.Want. ok is false when the
// subject does not exist (the returned text then says why).
type fieldGetter func(t *Trace, ex *Expectation) (got string, ok bool)

// expectFields maps each expect field to its getter: partition and replica
// fields, then consumer-group and share-group fields.
var expectFields = map[string]fieldGetter{
	"outcome":       recordOutcome,
	"leader":        partitionField(func(p *Partition) string { return strconv.Itoa(p.Leader) }),
	"leaderEpoch":   partitionField(func(p *Partition) string { return strconv.Itoa(p.LeaderEpoch) }),
	"isr":           partitionField(func(p *Partition) string { return listString(p.ISR) }),
	"highWatermark": partitionField(func(p *Partition) string { return strconv.FormatInt(p.HighWatermark, 10) }),
	"logEndOffset":  replicaField(func(r *Replica) string { return strconv.FormatInt(r.LogEndOffset, 10) }),
	"online":        replicaField(func(r *Replica) string { return strconv.FormatBool(r.Online) }),
	// lagTime is the follower's lag clock (Replica.LagTime), in beats.
	"lagTime": replicaField(func(r *Replica) string { return strconv.Itoa(r.LagTime) }),
	// Consumer groups: owner (a member name, "" for none), position and
	// committed (offsets, −1 for none).
	"owner":     groupPartitionField(func(gp *GroupPartition) string { return gp.Owner }),
	"position":  groupPartitionField(func(gp *GroupPartition) string { return strconv.FormatInt(gp.Position, 10) }),
	"committed": groupPartitionField(func(gp *GroupPartition) string { return strconv.FormatInt(gp.Committed, 10) }),
	// Share groups: the share-partition start offset, and the state and
	// delivery count of one offset.
	"startOffset": sharePartitionField(func(gp *GroupPartition, _ *Expectation) (string, bool) {
		return strconv.FormatInt(gp.StartOffset, 10), true
	}),
	"state": sharePartitionField(func(gp *GroupPartition, ex *Expectation) (string, bool) {
		r, why := shareRecordAt(gp, ex.Offset)
		if r == nil {
			return why, false
		}
		return r.State, true
	}),
	"deliveryCount": sharePartitionField(func(gp *GroupPartition, ex *Expectation) (string, bool) {
		r, why := shareRecordAt(gp, ex.Offset)
		if r == nil {
			return why, false
		}
		return strconv.Itoa(r.DeliveryCount), true
	}),
}

// Check compares every expect entry of sc with t (the trace Run returned
// for sc) and returns the failures in scenario order; nil when all hold.
// Each failure is positioned at the entry's field value in the scenario
// text (File is empty) and names the field, the subject and both values,
// e.g. "expected highWatermark 3 at beat 12 on partition 0, got 2". A
// record's outcome is its final one; every other field is read at beat
// At. Lists (isr) compare as sets and are written "[1 2 3]".
func Check(sc *Scenario, t *Trace) ErrorList {
	var out ErrorList
	for i := range sc.Expect {
		ex := &sc.Expect[i]
		get, known := expectFields[ex.Field]
		if !known {
			out = append(out, Error{Pos: ex.Pos, Msg: fmt.Sprintf("expect field %q is not known to the engine", ex.Field)})
			continue
		}
		got, ok := get(t, ex)
		if ok && sameValue(ex.Field, ex.Want, got) {
			continue
		}
		want := ex.Want
		if want == "" {
			want = `""` // an owner of nobody, which would read as a gap
		}
		if !ok {
			out = append(out, Error{Pos: ex.Pos, Msg: fmt.Sprintf("expected %s %s%s, but %s", ex.Field, want, subjectText(ex), got)})
			continue
		}
		if got == "" {
			got = `""`
		}
		out = append(out, Error{Pos: ex.Pos, Msg: fmt.Sprintf("expected %s %s%s, got %s", ex.Field, want, subjectText(ex), got)})
	}
	return out
}

// sameValue compares want and got; lists compare as sets.
func sameValue(field, want, got string) bool {
	if field != "isr" {
		return want == got
	}
	return canonicalList(want) == canonicalList(got)
}

// canonicalList sorts the numbers of a "[3 1 2]" list.
func canonicalList(s string) string {
	var xs []int
	for _, f := range strings.Fields(strings.Trim(s, "[]")) {
		x, err := strconv.Atoi(f)
		if err != nil {
			return s
		}
		xs = append(xs, x)
	}
	slices.Sort(xs)
	return listString(xs)
}

// subjectText words an expectation's subject, e.g. " at beat 12 on
// partition 0 broker 2" or " for record 3".
func subjectText(ex *Expectation) string {
	if ex.Field == "outcome" {
		return " for record " + strconv.Itoa(ex.Record)
	}
	s := " at beat " + strconv.Itoa(ex.At)
	if ex.Group != "" {
		s += " in group " + ex.Group
	}
	s += " on partition " + strconv.Itoa(ex.Partition)
	if ex.Broker > 0 {
		s += " broker " + strconv.Itoa(ex.Broker)
	}
	if ex.Field == "state" || ex.Field == "deliveryCount" {
		s += " offset " + strconv.FormatInt(ex.Offset, 10)
	}
	return s
}

// recordOutcome reads a record's final outcome.
func recordOutcome(t *Trace, ex *Expectation) (string, bool) {
	for i := range t.Records {
		if t.Records[i].ID == ex.Record {
			return t.Records[i].Outcome, true
		}
	}
	return fmt.Sprintf("record %d was never created (the producer made %d)", ex.Record, len(t.Records)), false
}

// beatPartition returns partition p as recorded at beat at, or a reason it
// does not exist. Group field getters use it too.
func beatPartition(t *Trace, at, p int) (*Partition, string) {
	if at < 0 || at >= len(t.Beats) {
		return nil, fmt.Sprintf("beat %d is outside the run (beats 0 to %d)", at, len(t.Beats)-1)
	}
	b := &t.Beats[at]
	if p < 0 || p >= len(b.Partitions) {
		return nil, fmt.Sprintf("partition %d does not exist at beat %d", p, at)
	}
	return &b.Partitions[p], ""
}

// partitionField makes a getter for a field of a partition at a beat.
func partitionField(f func(p *Partition) string) fieldGetter {
	return func(t *Trace, ex *Expectation) (string, bool) {
		p, why := beatPartition(t, ex.At, ex.Partition)
		if p == nil {
			return why, false
		}
		return f(p), true
	}
}

// replicaField makes a getter for a field of one broker's replica of a
// partition at a beat.
func replicaField(f func(r *Replica) string) fieldGetter {
	return func(t *Trace, ex *Expectation) (string, bool) {
		p, why := beatPartition(t, ex.At, ex.Partition)
		if p == nil {
			return why, false
		}
		for i := range p.Replicas {
			if p.Replicas[i].Broker == ex.Broker {
				return f(&p.Replicas[i]), true
			}
		}
		return fmt.Sprintf("broker %d holds no replica of partition %d at beat %d (replicas %s)",
			ex.Broker, ex.Partition, ex.At, listString(p.Assignment)), false
	}
}

// init teaches Check the consumer-group expect fields: owner (a member
// name, "" for none), position and committed (offsets, −1 for none).
// groupPartitionField makes a getter for a field of a consumer group's
// partition at a beat.
func groupPartitionField(f func(gp *GroupPartition) string) fieldGetter {
	return func(t *Trace, ex *Expectation) (string, bool) {
		if _, why := beatPartition(t, ex.At, ex.Partition); why != "" {
			return why, false
		}
		for _, g := range t.Beats[ex.At].Groups {
			if g.Group != ex.Group || g.Type != "consumer" {
				continue
			}
			for i := range g.Partitions {
				if g.Partitions[i].Partition == ex.Partition {
					return f(&g.Partitions[i]), true
				}
			}
			return fmt.Sprintf("group %s does not see partition %d at beat %d", ex.Group, ex.Partition, ex.At), false
		}
		return fmt.Sprintf("there is no consumer group %q", ex.Group), false
	}
}

// sharePartitionField makes a getter for a field of a share group's
// partition at a beat (startOffset, and state and deliveryCount of one
// offset).
func sharePartitionField(f func(gp *GroupPartition, ex *Expectation) (string, bool)) fieldGetter {
	return func(t *Trace, ex *Expectation) (string, bool) {
		if _, why := beatPartition(t, ex.At, ex.Partition); why != "" {
			return why, false
		}
		for _, g := range t.Beats[ex.At].Groups {
			if g.Group != ex.Group {
				continue
			}
			if g.Type != "share" {
				return "group " + ex.Group + " is a consumer group", false
			}
			for i := range g.Partitions {
				if g.Partitions[i].Partition == ex.Partition {
					return f(&g.Partitions[i], ex)
				}
			}
			return "group " + ex.Group + " has not started reading partition " + strconv.Itoa(ex.Partition) +
				" by beat " + strconv.Itoa(ex.At), false
		}
		return "group " + ex.Group + " does not exist", false
	}
}

// shareRecordAt finds offset o in a share partition: in the window, or
// below it among the finished records (their final state). Offsets past
// the window have never been acquired.
func shareRecordAt(gp *GroupPartition, o int64) (*ShareRecord, string) {
	if o < gp.StartOffset {
		for i := range gp.Finished {
			if gp.Finished[i].Offset == o {
				return &gp.Finished[i], ""
			}
		}
		return nil, "offset " + strconv.FormatInt(o, 10) + " is below where the group started (share.auto.offset.reset)"
	}
	for i := range gp.Records {
		if gp.Records[i].Offset == o {
			return &gp.Records[i], ""
		}
	}
	return nil, "offset " + strconv.FormatInt(o, 10) + " has not been acquired yet (start offset " +
		strconv.FormatInt(gp.StartOffset, 10) + ", " + strconv.Itoa(len(gp.Records)) + " in flight)"
}
