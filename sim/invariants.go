package sim

import (
	"fmt"
	"slices"
)

// CheckInvariants checks the safety properties of Kafka's replication
// protocol on every beat of t, the trace Run returned for sc, comparing
// each beat with the one before. It returns one line per breach, "beat N:
// what broke", in beat order; nil when all hold. The properties:
//
//   - every event is of a known kind, with a reason its kind allows and
//     its canonical text (checkEventShape);
//   - one leader per partition per leader epoch;
//   - the high watermark is at most every ISR member's log end offset;
//   - a leader's high watermark never decreases within its epoch;
//   - every change of a partition's high watermark is told: the beat's
//     high-watermark events for it (KindHW, KindHWNewLeader), chained from
//     the last beat's value, end at this beat's;
//   - with acks=all no acknowledged record is ever lost (L): the
//     high watermark passed it while the ISR met min ISR;
//   - logs are contiguous: a replica's log end offset is its log's
//     length, its high watermark is within it, and epochs never decrease
//     along it; the leader's own high watermark is the partition's;
//   - replicas agree below the high watermark: every ISR member holds the
//     leader's records below min(high watermark, its log end offset), and
//     every replica holds them below its own high watermark;
//   - consumers see only committed offsets: a group's position,
//     committed offset, share-partition start offset and in-flight records
//     never pass the highest high watermark the partition has had;
//   - consumer groups: one owner per partition, every partition owned
//     and the quotas balanced once reconciled, committed offsets never
//     fall (checkConsumerInvariants in invariants_groups.go);
//   - share groups: the window, record states, holders and delivery
//     counts follow KIP-932 (checkShareInvariants in invariants_groups.go).
func CheckInvariants(sc *Scenario, t *Trace) []string {
	var out []string
	bad := func(beat int, format string, args ...any) {
		out = append(out, fmt.Sprintf("beat %d: ", beat)+fmt.Sprintf(format, args...))
	}
	leaders := map[[2]int]int{} // (partition, epoch) → leader
	var maxHW []int64
	for bi := range t.Beats {
		b := &t.Beats[bi]
		for i := range b.Events {
			checkEventShape(b.Beat, &b.Events[i], bad)
		}
		for pi := range b.Partitions {
			p := &b.Partitions[pi]
			if pi >= len(maxHW) {
				maxHW = append(maxHW, 0)
			}
			maxHW[pi] = max(maxHW[pi], p.HighWatermark)
			if p.Leader != 0 {
				k := [2]int{p.Partition, p.LeaderEpoch}
				if l, ok := leaders[k]; ok && l != p.Leader {
					bad(b.Beat, "p%d has leaders %d and %d in epoch %d", p.Partition, l, p.Leader, p.LeaderEpoch)
				}
				leaders[k] = p.Leader
			}
			if bi > 0 && pi < len(t.Beats[bi-1].Partitions) {
				q := &t.Beats[bi-1].Partitions[pi]
				if q.Leader != 0 && q.Leader == p.Leader && q.LeaderEpoch == p.LeaderEpoch && p.HighWatermark < q.HighWatermark {
					bad(b.Beat, "p%d high watermark fell from %d to %d in epoch %d", p.Partition, q.HighWatermark, p.HighWatermark, p.LeaderEpoch)
				}
				checkHWTold(b, p.Partition, q.HighWatermark, p.HighWatermark, bad)
			}
			var leaderLog []Entry
			for ri := range p.Replicas {
				r := &p.Replicas[ri]
				if r.LogEndOffset != int64(len(r.Log)) {
					bad(b.Beat, "p%d broker %d log end offset %d but %d records", p.Partition, r.Broker, r.LogEndOffset, len(r.Log))
				}
				if r.HighWatermark < 0 || r.HighWatermark > r.LogEndOffset {
					bad(b.Beat, "p%d broker %d high watermark %d outside [0, %d]", p.Partition, r.Broker, r.HighWatermark, r.LogEndOffset)
				}
				for o := 1; o < len(r.Log); o++ {
					if r.Log[o].Epoch < r.Log[o-1].Epoch {
						bad(b.Beat, "p%d broker %d epoch falls at offset %d", p.Partition, r.Broker, o)
						break
					}
				}
				if contains(p.ISR, r.Broker) && p.HighWatermark > r.LogEndOffset {
					bad(b.Beat, "p%d high watermark %d above ISR member %d's log end offset %d", p.Partition, p.HighWatermark, r.Broker, r.LogEndOffset)
				}
				if r.Broker == p.Leader {
					leaderLog = r.Log
					if r.HighWatermark != p.HighWatermark {
						bad(b.Beat, "p%d leader %d's high watermark %d differs from the partition's %d", p.Partition, r.Broker, r.HighWatermark, p.HighWatermark)
					}
				}
			}
			if p.Leader == 0 {
				continue
			}
			for ri := range p.Replicas {
				r := &p.Replicas[ri]
				upto := min(r.HighWatermark, r.LogEndOffset)
				if contains(p.ISR, r.Broker) {
					upto = max(upto, min(p.HighWatermark, r.LogEndOffset))
				}
				upto = min(upto, int64(len(leaderLog)))
				for o := int64(0); o < upto; o++ {
					if r.Log[o] != leaderLog[o] {
						bad(b.Beat, "p%d broker %d holds record %d at offset %d below the high watermark, leader %d holds record %d",
							p.Partition, r.Broker, r.Log[o].Record, o, p.Leader, leaderLog[o].Record)
						break
					}
				}
			}
		}
		for gi := range b.Groups {
			g := &b.Groups[gi]
			for _, gp := range g.Partitions {
				if gp.Partition < 0 || gp.Partition >= len(maxHW) {
					bad(b.Beat, "group %s reads partition %d that does not exist", g.Group, gp.Partition)
					continue
				}
				hw := maxHW[gp.Partition]
				if gp.Share {
					if gp.StartOffset > hw {
						bad(b.Beat, "group %s p%d share-partition start offset %d above high watermark %d", g.Group, gp.Partition, gp.StartOffset, hw)
					}
					for _, sr := range gp.Records {
						if sr.Offset >= hw {
							bad(b.Beat, "group %s p%d holds offset %d at or above high watermark %d", g.Group, gp.Partition, sr.Offset, hw)
						}
					}
					continue
				}
				if gp.Position > hw || gp.Committed > hw {
					bad(b.Beat, "group %s p%d position %d / committed %d above high watermark %d", g.Group, gp.Partition, gp.Position, gp.Committed, hw)
				}
			}
		}
	}
	checkConsumerInvariants(t, bad)
	checkShareInvariants(sc, t, bad)
	if sc.Producer.Acks == AcksAll {
		for _, r := range t.Records {
			if r.Outcome == OutcomeL {
				bad(r.SettledAt, "record %d was acknowledged with acks=all and then lost", r.ID)
			}
		}
	}
	return out
}

// checkHWTold checks that beat b's events tell how partition p's high
// watermark went from was (the last beat's) to now: each KindHW or
// KindHWNewLeader event must start where the one before ended, and the
// last must end at now.
func checkHWTold(b *Beat, p int, was, now int64, bad func(int, string, ...any)) {
	cur := was
	for _, ev := range b.Events {
		if ev.Partition != p || (ev.Kind != KindHW && ev.Kind != KindHWNewLeader) {
			continue
		}
		if ev.FromOffset != cur {
			bad(b.Beat, "p%d event %q starts from high watermark %d, but it was %d", p, ev.String(), ev.FromOffset, cur)
		}
		cur = ev.ToOffset
	}
	if cur != now {
		bad(b.Beat, "p%d high watermark %d → %d, but the events tell %d → %d", p, was, now, was, cur)
	}
}

// checkEventShape checks that an event is of a known kind, gives a reason
// its kind allows, and has its canonical text.
func checkEventShape(beat int, ev *Event, bad func(int, string, ...any)) {
	s := specOf(ev.Kind)
	if s == nil {
		bad(beat, "event of unknown kind %q", ev.Kind)
		return
	}
	if (len(s.reasons) > 0 || ev.Reason != "") && !slices.Contains(s.reasons, ev.Reason) {
		bad(beat, "%s event with reason %q (allowed: %v)", ev.Kind, ev.Reason, s.reasons)
	}
	if ev.Text != describe(*ev) {
		bad(beat, "%s event text %q is not its wording %q", ev.Kind, ev.Text, describe(*ev))
	}
}
