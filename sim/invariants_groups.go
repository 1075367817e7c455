package sim

import "slices"

// This file holds the group invariants CheckInvariants runs on every beat:
// consumer groups (KIP-848) and share groups (KIP-932).

// checkConsumerInvariants checks the consumer-group properties of every
// beat of t and reports each breach through bad:
//
//   - a partition has at most one owner: it is in at most one member's
//     partitions, and the partition's owner is that member;
//   - once a group has reconciled (no member revoking, assigning, leaving
//     or stopped) and has a member, every partition has an owner, and every
//     member owns what the assignor's quota allows (counts differ by at
//     most one);
//   - a group's committed offset never decreases, except after an
//     OFFSET_OUT_OF_RANGE reset of that partition, which may move it back;
//   - a member processes only records below the high watermark the
//     partition had reached by then;
//   - a member that left on max.poll.interval (state stale) owns nothing,
//     and is no member for the checks above;
//   - a start by auto.offset.reset=latest is at most the high watermark and
//     never below the start offset of the leader's epoch (KIP-207).
//
// Position and committed offset at most the high watermark are checked
// with the other group fields in CheckInvariants.
func checkConsumerInvariants(t *Trace, bad func(beat int, format string, args ...any)) {
	type key struct {
		group string
		part  int
	}
	last := map[key]int64{}
	var maxHW []int64
	for bi := range t.Beats {
		b := &t.Beats[bi]
		for _, p := range b.Partitions {
			for len(maxHW) <= p.Partition {
				maxHW = append(maxHW, 0)
			}
			maxHW[p.Partition] = max(maxHW[p.Partition], p.HighWatermark)
			for _, r := range p.Replicas {
				maxHW[p.Partition] = max(maxHW[p.Partition], r.HighWatermark) // a deposed leader's too
			}
		}
		for _, ev := range b.Events {
			switch ev.Kind {
			case KindConsumerReset:
				delete(last, key{ev.Group, ev.Partition})
			case KindConsumerProcess:
				if ev.Partition >= len(maxHW) || ev.Offset >= maxHW[ev.Partition] {
					bad(b.Beat, "%s processed p%d offset %d at or above the high watermark", ev.Member, ev.Partition, ev.Offset)
				}
			case KindConsumerAssign, KindConsumerStart:
				if ev.AutoOffsetReset == "latest" && ev.Offset >= 0 && ev.Broker != 0 {
					checkDeposedLatestStart(b, ev.Partition, ev.Offset, ev.Broker, ev.Member, bad)
				} else if ev.AutoOffsetReset == "latest" && ev.Offset >= 0 {
					checkLatestStart(b, ev.Partition, ev.Offset, ev.Member, bad)
				}
			}
			if ev.Kind == KindConsumerReset && ev.AutoOffsetReset == "latest" && ev.ToOffset >= 0 {
				checkLatestStart(b, ev.Partition, ev.ToOffset, ev.Member, bad)
			}
		}
		for gi := range b.Groups {
			g := &b.Groups[gi]
			if g.Type != "consumer" {
				continue
			}
			owners := map[int]string{}
			settled := slices.ContainsFunc(g.Members, func(m Member) bool { return m.State != memberStateStale })
			least, most := -1, -1
			for _, m := range g.Members {
				if m.State == memberStateStale {
					if len(m.Partitions) > 0 {
						bad(b.Beat, "group %s: %s left on max.poll.interval but owns %v", g.Group, m.Member, m.Partitions)
					}
					continue
				}
				if m.State != memberStateActive {
					settled = false
				}
				n := len(m.Partitions)
				if least < 0 || n < least {
					least = n
				}
				most = max(most, n)
				for _, p := range m.Partitions {
					if o, dup := owners[p]; dup {
						bad(b.Beat, "group %s p%d owned by both %s and %s", g.Group, p, o, m.Member)
					}
					owners[p] = m.Member
				}
			}
			for _, gp := range g.Partitions {
				if gp.Owner != owners[gp.Partition] {
					bad(b.Beat, "group %s p%d owner %q but member list says %q", g.Group, gp.Partition, gp.Owner, owners[gp.Partition])
				}
				if settled && gp.Owner == "" {
					bad(b.Beat, "group %s reconciled but p%d has no owner", g.Group, gp.Partition)
				}
				k := key{g.Group, gp.Partition}
				if prev, ok := last[k]; ok && gp.Committed < prev {
					bad(b.Beat, "group %s p%d committed offset fell from %d to %d", g.Group, gp.Partition, prev, gp.Committed)
				}
				last[k] = gp.Committed
			}
			if settled && most-least > 1 {
				bad(b.Beat, "group %s reconciled but members own between %d and %d partitions", g.Group, least, most)
			}
		}
	}
}

// checkShareInvariants checks the share-group properties of KIP-932 on
// every beat of t (part of CheckInvariants): the window runs contiguously
// from SPSO and does not start with a finished record (SPSO moves only
// across a contiguous run of acknowledged or archived records, and never
// passes one that is not finished); a record is held by exactly one
// current member while acquired and by none otherwise; delivery counts stay
// within 0..group.share.delivery.count.limit (at least 1 while acquired),
// rise only by one, with an acquisition, and fall only by one, when a
// leaving member's share session closes and gives the count back (Kafka
// 4.1) or a new leader loads the state, where the acquisition was never
// written; acknowledged and archived are terminal; SPSO never
// falls; every record below SPSO is listed finished; nothing at or above
// the high watermark is ever acquired; a start by
// share.auto.offset.reset=latest is at most the high watermark and never
// below the start offset of the leader's epoch (KIP-207).
func checkShareInvariants(sc *Scenario, t *Trace, bad func(beat int, format string, args ...any)) {
	limits := map[string]int{}
	for _, g := range sc.ShareGroups {
		limits[g.ID] = g.DeliveryCountLimit
	}
	type key struct {
		group string
		part  int
	}
	type recKey struct {
		key
		offset int64
	}
	first := map[key]int64{}         // the SPSO a partition started at
	lastSPSO := map[key]int64{}      // SPSO at the previous beat
	last := map[recKey]ShareRecord{} // a record's last seen state
	for bi := range t.Beats {
		b := &t.Beats[bi]
		givenBack := map[recKey]bool{}
		for _, ev := range b.Events {
			if ev.Kind == KindShareAcquire && (ev.Partition >= len(b.Partitions) || ev.Offset >= b.Partitions[ev.Partition].HighWatermark) {
				bad(b.Beat, "%s acquired p%d offset %d at or above the high watermark", ev.Member, ev.Partition, ev.Offset)
			}
			if ev.Kind == KindShareStart && ev.AutoOffsetReset == "latest" {
				checkLatestStart(b, ev.Partition, ev.Offset, "group "+ev.Group, bad)
			}
			if ev.Kind == KindShareAvailable && (ev.Reason == ReasonLeft || ev.Reason == ReasonLeaderChange) {
				givenBack[recKey{key{ev.Group, ev.Partition}, ev.Offset}] = true
			}
		}
		for gi := range b.Groups {
			g := &b.Groups[gi]
			if g.Type != "share" {
				continue
			}
			limit := limits[g.Group]
			members := map[string]bool{}
			for _, m := range g.Members {
				members[m.Member] = true
			}
			for _, gp := range g.Partitions {
				k := key{g.Group, gp.Partition}
				if _, ok := first[k]; !ok {
					first[k] = gp.StartOffset
					lastSPSO[k] = gp.StartOffset
				}
				if gp.StartOffset < lastSPSO[k] {
					bad(b.Beat, "group %s p%d share-partition start offset fell from %d to %d", g.Group, gp.Partition, lastSPSO[k], gp.StartOffset)
				}
				lastSPSO[k] = gp.StartOffset
				if int64(len(gp.Finished)) != gp.StartOffset-first[k] {
					bad(b.Beat, "group %s p%d lists %d finished records below start offset %d (started at %d)",
						g.Group, gp.Partition, len(gp.Finished), gp.StartOffset, first[k])
				}
				for i, f := range gp.Finished {
					if f.Offset != first[k]+int64(i) || !terminal(f.State) {
						bad(b.Beat, "group %s p%d start offset passed offset %d in state %s", g.Group, gp.Partition, f.Offset, f.State)
					}
					if prev, ok := last[recKey{k, f.Offset}]; ok && terminal(prev.State) && prev.State != f.State {
						bad(b.Beat, "group %s p%d offset %d left the window %s after being %s", g.Group, gp.Partition, f.Offset, f.State, prev.State)
					}
				}
				for i, r := range gp.Records {
					rk := recKey{k, r.Offset}
					if r.Offset != gp.StartOffset+int64(i) {
						bad(b.Beat, "group %s p%d window not contiguous: offset %d at position %d from start offset %d",
							g.Group, gp.Partition, r.Offset, i, gp.StartOffset)
					}
					if i == 0 && terminal(r.State) {
						bad(b.Beat, "group %s p%d start offset %d stays on a %s record", g.Group, gp.Partition, gp.StartOffset, r.State)
					}
					switch {
					case r.State == ShareAcquired && !members[r.Member]:
						bad(b.Beat, "group %s p%d offset %d acquired by %q, not a member", g.Group, gp.Partition, r.Offset, r.Member)
					case r.State != ShareAcquired && r.Member != "":
						bad(b.Beat, "group %s p%d offset %d is %s but held by %s", g.Group, gp.Partition, r.Offset, r.State, r.Member)
					case r.State == ShareAcknowledged && r.Finisher == "":
						bad(b.Beat, "group %s p%d offset %d acknowledged by nobody", g.Group, gp.Partition, r.Offset)
					case r.State != ShareAvailable && r.State != ShareAcquired && !terminal(r.State):
						bad(b.Beat, "group %s p%d offset %d in unknown state %q", g.Group, gp.Partition, r.Offset, r.State)
					}
					if r.DeliveryCount < 0 || r.DeliveryCount > limit || (r.State == ShareAcquired && r.DeliveryCount < 1) {
						bad(b.Beat, "group %s p%d offset %d %s with delivery count %d outside 1..%d", g.Group, gp.Partition, r.Offset,
							r.State, r.DeliveryCount, limit)
					}
					if r.State == ShareAvailable && r.DeliveryCount >= limit {
						bad(b.Beat, "group %s p%d offset %d available again at the delivery count limit %d", g.Group, gp.Partition, r.Offset, limit)
					}
					if prev, ok := last[rk]; ok {
						if terminal(prev.State) && prev != r {
							bad(b.Beat, "group %s p%d offset %d changed from %s to %s", g.Group, gp.Partition, r.Offset, prev.State, r.State)
						}
						givenBackNow := r.DeliveryCount == prev.DeliveryCount-1 && r.State == ShareAvailable && givenBack[rk]
						if (r.DeliveryCount < prev.DeliveryCount && !givenBackNow) || r.DeliveryCount > prev.DeliveryCount+1 {
							bad(b.Beat, "group %s p%d offset %d delivery count went from %d to %d", g.Group, gp.Partition, r.Offset, prev.DeliveryCount, r.DeliveryCount)
						}
						if r.DeliveryCount == prev.DeliveryCount+1 && r.State != ShareAcquired {
							bad(b.Beat, "group %s p%d offset %d delivery count rose without an acquisition", g.Group, gp.Partition, r.Offset)
						}
					} else if r.DeliveryCount != 1 || r.State != ShareAcquired {
						bad(b.Beat, "group %s p%d offset %d entered the window %s with delivery count %d", g.Group, gp.Partition, r.Offset, r.State, r.DeliveryCount)
					}
					last[rk] = r
				}
			}
		}
	}
}

// checkDeposedLatestStart checks a start offset a latest reset took from
// broker d, a leader cut off by isolate that does not know it was
// replaced: d is cut off, does not lead p, and the offset is its own high
// watermark (recorded on its replica).
func checkDeposedLatestStart(b *Beat, p int, start int64, d int, who string, bad func(beat int, format string, args ...any)) {
	if p < 0 || p >= len(b.Partitions) {
		return
	}
	pt := &b.Partitions[p]
	hw := int64(-1)
	for _, r := range pt.Replicas {
		if r.Broker == d {
			hw = r.HighWatermark
		}
	}
	if pt.Leader == d || d < 1 || d > len(b.Brokers) || !b.Brokers[d-1].Isolated || start != hw {
		bad(b.Beat, "%s started p%d at %d by latest from broker %d, which leads it, is not cut off or has high watermark %d",
			who, p, start, d, hw)
	}
}

// checkLatestStart checks a start offset a latest reset chose at beat b:
// at most p's high watermark, and not below the start offset of its
// leader's epoch, read from the leader's log (the first record of that
// epoch, or the log end offset when the leader has appended none yet).
func checkLatestStart(b *Beat, p int, start int64, who string, bad func(beat int, format string, args ...any)) {
	if p < 0 || p >= len(b.Partitions) {
		return
	}
	pt := &b.Partitions[p]
	if start > pt.HighWatermark {
		bad(b.Beat, "%s started p%d at %d by latest, above the high watermark %d", who, p, start, pt.HighWatermark)
	}
	for _, r := range pt.Replicas {
		if pt.Leader == 0 || r.Broker != pt.Leader {
			continue
		}
		es := r.LogEndOffset
		for o, en := range r.Log {
			if en.Epoch >= pt.LeaderEpoch {
				es = int64(o)
				break
			}
		}
		if start < es {
			bad(b.Beat, "%s started p%d at %d by latest, below epoch %d's start offset %d", who, p, start, pt.LeaderEpoch, es)
		}
	}
}
