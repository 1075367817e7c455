package sim

import "slices"

// This file is step 6 of a beat: it records the engine's state as the
// trace's Beat (brokers, partitions, the producer rail, consumer and share
// groups) and, after the last beat, every record's fate. The engine never
// reads what it recorded.

// record captures the state at the end of the current beat. Logs, ISRs and
// assignments are shared with the engine: the engine never changes a slice
// it has handed out (logs only grow past the recorded length and are copied
// on truncation; ISR and assignment slices are replaced, never edited).
func (e *engine) record() Beat {
	b := Beat{Beat: e.now}
	b.Events, e.events = carve(e.events, noEvents)
	for i := range b.Events {
		b.Events[i].Text = describe(b.Events[i])
	}
	b.Messages, e.sent = carve(e.sent, noMessages)
	e.lastSent = b.Messages
	b.Brokers = make([]Broker, 0, len(e.brokers)-1)
	for id := 1; id < len(e.brokers); id++ {
		b.Brokers = append(b.Brokers, Broker{Broker: id, Online: e.brokers[id].online, Paused: e.brokers[id].paused,
			Isolated: e.brokers[id].isolated, Fenced: e.brokers[id].fenced})
	}
	b.Partitions = make([]Partition, len(e.parts))
	for i, p := range e.parts {
		bp := Partition{
			Partition:              p.id,
			Leader:                 p.leader,
			LeaderEpoch:            p.epoch,
			LeaderEpochStartOffset: p.epochStart,
			ISR:                    p.isr,
			HighWatermark:          p.hw,
			Assignment:             p.assignment,
			Adding:                 p.adding,
			Removing:               p.removing,
			MinInsyncReplicas:      e.effectiveMinIsr(p),
			UnderMinIsr:            p.leader != 0 && e.isUnderMinIsr(p),
			Replicas:               make([]Replica, len(p.assignment)),
		}
		if p.pending != nil {
			bp.PendingISR = p.pending.isr
		}
		for j, id := range p.assignment {
			r := p.reps[id]
			n := len(r.log)
			bp.Replicas[j] = Replica{
				Broker:        id,
				LogEndOffset:  int64(n),
				HighWatermark: r.hw,
				Online:        e.brokers[id].online,
				LagTime:       e.lagTime(p, id),
				Log:           r.log[:n:n],
			}
		}
		b.Partitions[i] = bp
	}
	b.Producer = e.recordProducer()
	b.Groups = e.recordGroups()
	return b
}

// recordGroups returns the groups' state for the beat being recorded
// (step 6): consumer groups then share groups, each in fence order.
func (e *engine) recordGroups() []Group {
	gs := e.recordConsumerGroups()
	gs = append(gs, e.recordShareGroups()...)
	if len(gs) == 0 {
		return noGroups
	}
	return gs
}

// recordProducer returns the rail at the end of the beat and drops the
// records that settled from the open list.
func (e *engine) recordProducer() Producer {
	pr := &e.prod
	for i := 1; i < len(pr.lost); i++ {
		for j := i; j > 0 && pr.lost[j].id < pr.lost[j-1].id; j-- {
			pr.lost[j], pr.lost[j-1] = pr.lost[j-1], pr.lost[j]
		}
	}
	cards := make([]Card, 0, len(pr.open)+len(pr.lost))
	keep := pr.open[:0]
	li := 0
	for _, r := range pr.open {
		for li < len(pr.lost) && pr.lost[li].id < r.id {
			cards = append(cards, Card{Record: pr.lost[li].id, Stage: stageSettled, Attempt: pr.lost[li].attempt, Outcome: OutcomeL})
			li++
		}
		c := Card{Record: r.id, Stage: r.stage, Attempt: r.attempt}
		if r.outcome != "" {
			c.Outcome = r.outcome
		} else {
			keep = append(keep, r)
		}
		cards = append(cards, c)
	}
	for ; li < len(pr.lost); li++ {
		cards = append(cards, Card{Record: pr.lost[li].id, Stage: stageSettled, Attempt: pr.lost[li].attempt, Outcome: OutcomeL})
	}
	clear(pr.open[len(keep):])
	pr.open = keep
	pr.lost = pr.lost[:0]
	return Producer{Cards: cards}
}

// recordOutcomes returns every created record's fate.
func (e *engine) recordOutcomes() []Record {
	out := make([]Record, len(e.records))
	for i, r := range e.records {
		o := r.outcome
		if o == "" {
			o = OutcomePending
		}
		out[i] = Record{ID: r.id, Key: r.key, Partition: r.part, Offset: r.offset, Outcome: o,
			CreatedAt: r.createdAt, SettledAt: r.settledAt, AckedAt: r.ackedAt, Appends: nonNil(r.appends)}
	}
	return out
}

// recordConsumerGroups returns the consumer groups' state for the beat
// being recorded, in fence order.
func (e *engine) recordConsumerGroups() []Group {
	out := make([]Group, 0, len(e.groups.consumer))
	for _, g := range e.groups.consumer {
		rg := Group{Group: g.cfg.ID, Type: "consumer", GroupEpoch: g.epoch,
			Members: make([]Member, len(g.members)), Partitions: make([]GroupPartition, len(g.parts))}
		for i, m := range g.members {
			rm := Member{Member: m.name, Number: m.number, Partitions: slices.Clone(m.owned), State: memberStateActive}
			if rm.Partitions == nil {
				rm.Partitions = []int{}
			}
			for _, p := range m.owned {
				if !slices.Contains(m.target, p) {
					rm.Revoking = append(rm.Revoking, p)
				}
			}
			for _, p := range m.target {
				if !slices.Contains(m.owned, p) {
					rm.Assigning = append(rm.Assigning, p)
				}
			}
			switch {
			case m.state != "":
				rm.State = m.state
			case len(rm.Revoking) > 0:
				rm.State = memberStateRevoking
			case len(rm.Assigning) > 0:
				rm.State = memberStateAssigning
			}
			if m.busy.rec != 0 && m.doneAt > e.now {
				rm.Processing = m.busy.rec
			}
			rg.Members[i] = rm
		}
		for _, m := range g.stale {
			rm := Member{Member: m.name, Partitions: []int{}, State: memberStateStale}
			if m.busy.rec != 0 && m.doneAt > e.now {
				rm.Processing = m.busy.rec
			}
			rg.Members = append(rg.Members, rm)
		}
		for p := range g.parts {
			gp := &g.parts[p]
			rp := GroupPartition{Partition: p, Position: -1, Committed: gp.committed,
				Reprocessed: gp.reprocessed[:len(gp.reprocessed):len(gp.reprocessed)]}
			if gp.owner != nil {
				rp.Owner = gp.owner.name
				if f := gp.owner.fetch[p]; !f.resetting {
					rp.Position = f.position
				}
			}
			rg.Partitions[p] = rp
		}
		out = append(out, rg)
	}
	return out
}

// recordShareGroups returns each share group's state for the beat.
func (e *engine) recordShareGroups() []Group {
	var out []Group
	for _, g := range e.groups.share.groups {
		rg := Group{Group: g.cfg.ID, Type: "share", GroupEpoch: g.epoch, Members: []Member{}, Partitions: []GroupPartition{}}
		for _, m := range g.members {
			if m.gone {
				continue
			}
			rm := Member{Member: m.name, Number: m.number, Partitions: append([]int{}, m.assigned...), State: "active"}
			if m.stopped {
				rm.State = "stopped"
			}
			if len(m.queue) > 0 && m.queue[0].started {
				rm.Processing = m.queue[0].record
			}
			rg.Members = append(rg.Members, rm)
		}
		for _, sp := range g.parts {
			if !sp.started {
				continue
			}
			gp := GroupPartition{Partition: sp.id, Share: true, StartOffset: sp.spso,
				Records: make([]ShareRecord, len(sp.window)), Finished: sp.finished[:len(sp.finished):len(sp.finished)]}
			for i, r := range sp.window {
				gp.Records[i] = ShareRecord{Offset: sp.spso + int64(i), State: r.state, DeliveryCount: r.count,
					Member: r.member, Finisher: r.finisher}
			}
			rg.Partitions = append(rg.Partitions, gp)
		}
		out = append(out, rg)
	}
	return out
}

// newLife records that member (number n) joined group now and returns its
// index in e.lives.
func (e *engine) newLife(group, typ, member string, n int) int {
	e.lives = append(e.lives, MemberLife{Group: group, Type: typ, Member: member, Number: n,
		JoinedAt: e.now, LeftAt: -1, FencedAt: -1, StaleAt: -1})
	return len(e.lives) - 1
}

// recordMembers lists every member that ever joined: consumer groups, then
// share groups, in fence order, each group's members by number.
func (e *engine) recordMembers() []MemberLife {
	out := []MemberLife{}
	for _, g := range e.groups.consumer {
		for _, i := range g.lives {
			out = append(out, e.lives[i])
		}
	}
	for _, g := range e.groups.share.groups {
		for _, m := range g.members {
			out = append(out, e.lives[m.life])
		}
	}
	return out
}

// carve ends a beat's list of events or messages: it returns the list as
// recorded, capped at its length (none: the shared empty list), and the
// list the next beat appends to, which starts where it ends, in the room
// left in its array. Beats are alike, so when that room would not hold as
// many again the next list gets an array of its own for several beats of
// as many (listChunk): one array for many beats' lists, where growing each
// beat's list by doubling cost more than the lists (an Event is 600 bytes,
// a Message 336). The recorded list is never appended to again.
func carve[T any](list, none []T) (recorded, next []T) {
	n := len(list)
	if n == 0 {
		return none, list
	}
	recorded, next = list[:n:n], list[n:n]
	if cap(next) < n {
		next = make([]T, 0, max(listChunk, 4*n))
	}
	return recorded, next
}

// listChunk is the fewest events or messages carve gives a new array room
// for.
const listChunk = 32
