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
//     never pass the highest high watermark the partition has had (its
//     leader's, or a deposed leader's that still serves fetches);
//   - consumer groups: one owner per partition, every partition owned
//     and the quotas balanced once reconciled, committed offsets never
//     fall (checkConsumerInvariants in invariants_groups.go);
//   - share groups: the window, record states, holders and delivery
//     counts follow KIP-932 (checkShareInvariants in invariants_groups.go);
//   - the lag clock is the countdown to eviction (checkLagClock);
//   - every answer the producer acts on crossed the wire in one beat: an
//     ack, lost-on-ack or reject event for a record follows a produce
//     response for it, recorded in the beat before, NONE or an error as
//     the event says (checkAnswersCrossed);
//   - with enable.idempotence, no replica's log, a deposed leader's
//     included, holds a record twice within the producer's last five
//     batches (checkIdempotentLogs);
//   - F is a clean failure: a record that settled F was never appended,
//     is in no replica's log on any beat, and no consumer or share group
//     fetched, acquired or processed it (checkCleanFailures).
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
			for ri := range p.Replicas {
				// A deposed leader (isolate) serves consumers below its
				// own high watermark; a follower's is never above its
				// leader's.
				maxHW[pi] = max(maxHW[pi], p.Replicas[ri].HighWatermark)
			}
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
	checkLagClock(sc, t, bad)
	checkIdempotentLogs(sc, t, bad)
	checkAnswersCrossed(t, bad)
	checkCleanFailures(t, bad)
	if sc.Producer.Acks == AcksAll {
		for _, r := range t.Records {
			if r.Outcome == OutcomeL {
				bad(r.SettledAt, "record %d was acknowledged with acks=all and then lost", r.ID)
			}
		}
	}
	return out
}

// checkCleanFailures checks that F means what the guide says: the record
// is not in the log and never will be. A leader appends before it waits
// (Partition.appendRecordsToLeader, then DelayedProduce), so an error
// answered after the append — REQUEST_TIMED_OUT,
// NOT_ENOUGH_REPLICAS_AFTER_APPEND, NOT_LEADER_OR_FOLLOWER from a leader
// that stepped down with the request parked — leaves a copy that followers
// may fetch and consumers read; such a record must settle U. A record that
// settled F has no append, no replica (a deposed leader's included) holds
// it on any beat, and no consumer-fetch, consumer-process or share-acquire
// event names it. Runs without an F record cost one pass over the records.
func checkCleanFailures(t *Trace, bad func(int, string, ...any)) {
	var failed []bool // record id → settled F
	for _, r := range t.Records {
		if r.Outcome != OutcomeF {
			continue
		}
		for len(failed) <= r.ID {
			failed = append(failed, false)
		}
		failed[r.ID] = true
		if len(r.Appends) > 0 {
			a := r.Appends[0]
			bad(r.SettledAt, "record %d settled F, but a leader appended it at offset %d (epoch %d) at beat %d", r.ID, a.Offset, a.LeaderEpoch, a.Beat)
		}
	}
	if failed == nil {
		return
	}
	isF := func(id int) bool { return id > 0 && id < len(failed) && failed[id] }
	for bi := range t.Beats {
		b := &t.Beats[bi]
		for pi := range b.Partitions {
			p := &b.Partitions[pi]
			for ri := range p.Replicas {
				r := &p.Replicas[ri]
				for o, en := range r.Log {
					if isF(en.Record) {
						bad(b.Beat, "p%d broker %d holds record %d at offset %d, which settled F", p.Partition, r.Broker, en.Record, o)
					}
				}
			}
		}
		for i := range b.Events {
			ev := &b.Events[i]
			switch ev.Kind {
			case KindConsumerFetch:
				for _, id := range ev.Records {
					if isF(id) {
						bad(b.Beat, "group %s fetched record %d, which settled F", ev.Group, id)
					}
				}
			case KindConsumerProcess, KindShareAcquire:
				if isF(ev.Record) {
					bad(b.Beat, "group %s got record %d (%s), which settled F", ev.Group, ev.Record, ev.Kind)
				}
			}
		}
	}
}

// checkIdempotentLogs checks, with enable.idempotence, that no replica's
// log holds a record a second time within five entries of its first copy
// on any beat. Every leader append — by the partition's leader or by a
// deposed leader that does not know it was replaced — runs the idempotent
// producer's duplicate check (UnifiedLog.analyzeAndValidateProducerState,
// ProducerStateEntry.findDuplicateBatch over the producer's last
// NUM_BATCHES_TO_RETAIN = 5 batches), and a follower copies its leader's
// log, so a copy within that window means some append skipped the check.
// Kafka Flow has one producer and one record per batch: the sequence
// number is the record id, and the producer's last five batches are the
// log's last five entries. A resend from further back is stored twice in
// Kafka Flow, which leaves out Kafka's OUT_OF_ORDER_SEQUENCE_NUMBER
// refusal (the guide's scope page says so), and is not a breach.
func checkIdempotentLogs(sc *Scenario, t *Trace, bad func(int, string, ...any)) {
	if !sc.Producer.EnableIdempotence {
		return
	}
	var at []int // record id → its latest offset + 1 in the log being read, 0 unseen
	for bi := range t.Beats {
		b := &t.Beats[bi]
		for pi := range b.Partitions {
			p := &b.Partitions[pi]
			for ri := range p.Replicas {
				r := &p.Replicas[ri]
				for o, en := range r.Log {
					for len(at) <= en.Record {
						at = append(at, 0)
					}
					if first := at[en.Record] - 1; first >= 0 && o-first <= producerStateBatches {
						bad(b.Beat, "p%d broker %d holds record %d at offsets %d and %d, among the producer's last %d batches, with enable.idempotence",
							p.Partition, r.Broker, en.Record, first, o, producerStateBatches)
					}
					at[en.Record] = o + 1
				}
				for _, en := range r.Log {
					at[en.Record] = 0
				}
			}
		}
	}
}

// checkAnswersCrossed checks that every produce response the producer acts
// on was sent in the beat before it arrived: a message takes one beat to
// cross, whichever step of the beat sent it (the leader answering a fetch
// in step 3, or the controller's metadata moving a high watermark in step
// 2).
func checkAnswersCrossed(t *Trace, bad func(int, string, ...any)) {
	for bi := 1; bi < len(t.Beats); bi++ {
		b := &t.Beats[bi]
		for _, ev := range b.Events {
			if ev.Kind != KindAck && ev.Kind != KindLostOnAck && ev.Kind != KindReject {
				continue
			}
			positive := ev.Kind != KindReject
			sent := false
			for _, m := range t.Beats[bi-1].Messages {
				if m.Kind == MsgProduceResponse && m.Record == ev.Record && (m.ErrorCode == errNone) == positive && !m.Dropped {
					sent = true
					break
				}
			}
			if !sent {
				bad(b.Beat, "record %d: %s event with no produce response for it sent in beat %d", ev.Record, ev.Kind, b.Beat-1)
			}
		}
	}
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

// checkLagClock checks that the recorded lag clocks (Replica.LagTime) and
// min-ISR facts are the ones the engine acts on, so that a figure that
// draws "lag k/N" and "ISR n / min m" from them counts down to what
// happens:
//   - only ISR followers of a partition with a leader have a lag clock,
//     which is LagNever or a count of beats no larger than the beat
//     number (no "long ago" sentinel leaks into the trace);
//   - every isr-shrink-propose comes on a beat of the isr-expiration task
//     (a multiple of replica.lag.time.max/2, at least 1), for a follower
//     whose lag clock has passed replica.lag.time.max, and tells that
//     clock's value;
//   - on such a beat, every ISR follower whose clock has passed the
//     limit is proposed, unless another ISR change was already in flight
//     (PendingISR, and no shrink proposed that beat);
//   - a follower leaves the ISR by a shrink (isr-shrink) only after the
//     leader proposed it in the same leader epoch;
//   - minInsyncReplicas is min.insync.replicas capped at the replica
//     count, and underMinIsr says whether a led partition's ISR is below
//     it.
func checkLagClock(sc *Scenario, t *Trace, bad func(int, string, ...any)) {
	limit := sc.Topic.ReplicaLagTimeMax
	if t.ReplicaLagTimeMax != limit {
		bad(0, "the trace's replicaLagTimeMax is %d, the topic's replica.lag.time.max %d", t.ReplicaLagTimeMax, limit)
	}
	period := max(1, limit/2)
	over := func(lag int) bool { return lag == LagNever || lag > limit }
	proposed := map[[3]int]bool{} // (partition, leader epoch, broker) proposed for removal
	for bi := range t.Beats {
		b := &t.Beats[bi]
		shrunk := map[[2]int]bool{} // (partition, broker) proposed this beat
		anyShrink := map[int]bool{}
		for _, ev := range b.Events {
			if ev.Kind != KindISRShrinkPropose {
				continue
			}
			shrunk[[2]int{ev.Partition, ev.Broker}] = true
			anyShrink[ev.Partition] = true
			if b.Beat%period != 0 {
				bad(b.Beat, "p%d: broker %d proposed for removal off the isr-expiration schedule (every %d beats)", ev.Partition, ev.Broker, period)
			}
			if ev.Partition < 0 || ev.Partition >= len(b.Partitions) {
				continue
			}
			p := &b.Partitions[ev.Partition]
			proposed[[3]int{p.Partition, p.LeaderEpoch, ev.Broker}] = true
			lag, found := 0, false
			for _, r := range p.Replicas {
				if r.Broker == ev.Broker {
					lag, found = r.LagTime, true
				}
			}
			if !found || lag != ev.LagTime || !over(lag) {
				bad(b.Beat, "p%d: broker %d proposed for removal after %d beats, but its lag clock reads %d/%d", p.Partition, ev.Broker, ev.LagTime, lag, limit)
			}
		}
		for pi := range b.Partitions {
			p := &b.Partitions[pi]
			if want := min(sc.Topic.MinInsyncReplicas, len(p.Assignment)); p.MinInsyncReplicas != want {
				bad(b.Beat, "p%d: minInsyncReplicas %d, want min(min.insync.replicas, replicas) = %d", p.Partition, p.MinInsyncReplicas, want)
			}
			if under := p.Leader != 0 && len(p.ISR) < p.MinInsyncReplicas; p.UnderMinIsr != under {
				bad(b.Beat, "p%d: underMinIsr %v with leader %d, ISR %v and minimum %d", p.Partition, p.UnderMinIsr, p.Leader, p.ISR, p.MinInsyncReplicas)
			}
			for _, r := range p.Replicas {
				if r.LagTime == 0 {
					continue
				}
				if p.Leader == 0 || r.Broker == p.Leader || !contains(p.ISR, r.Broker) {
					bad(b.Beat, "p%d: broker %d has lag clock %d but is not an ISR follower of a led partition", p.Partition, r.Broker, r.LagTime)
					continue
				}
				if r.LagTime < LagNever || r.LagTime > b.Beat {
					bad(b.Beat, "p%d: broker %d's lag clock reads %d, neither a count of beats up to this one nor LagNever", p.Partition, r.Broker, r.LagTime)
					continue
				}
				if bi > 0 && b.Beat%period == 0 && over(r.LagTime) && !shrunk[[2]int{p.Partition, r.Broker}] &&
					(len(p.PendingISR) == 0 || anyShrink[p.Partition]) {
					bad(b.Beat, "p%d: broker %d's lag clock reads %d/%d on an isr-expiration beat with no change in flight, and the leader kept it", p.Partition, r.Broker, r.LagTime, limit)
				}
			}
			for _, ev := range b.Events {
				if ev.Kind != KindISRShrink || ev.Partition != p.Partition {
					continue
				}
				for _, x := range ev.Removing {
					if !proposed[[3]int{p.Partition, p.LeaderEpoch, x}] {
						bad(b.Beat, "p%d: broker %d left the ISR without the leader of epoch %d proposing it", p.Partition, x, p.LeaderEpoch)
					}
				}
			}
		}
	}
}
