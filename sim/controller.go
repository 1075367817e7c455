package sim

// applyTimeline is step 1: it applies one scheduled timeline event. A
// crash takes the broker offline at once (its log survives); a restart
// brings it back; pause and resume stop and start its replica fetchers
// (it keeps leading what it leads). Events that do not apply to the
// broker's state (crashing a broker that is down) change nothing.
func (e *engine) applyTimeline(ev TimelineEvent) {
	switch ev.Kind {
	case EventCrash:
		b := ev.Broker
		if !e.validBroker(b) || !e.brokers[b].online {
			return
		}
		e.brokers[b] = broker{}
		e.resetFetchers(b)
		e.fenced = append(e.fenced, b)
		e.emit(Event{Kind: KindCrash, Broker: b, Partition: -1})
		e.dropDeposed(b)
	case EventRestart:
		b := ev.Broker
		if !e.validBroker(b) || e.brokers[b].online {
			return
		}
		e.brokers[b] = broker{online: true}
		e.resetFetchers(b)
		e.restarted = append(e.restarted, b)
		e.emit(Event{Kind: KindRestart, Broker: b, Partition: -1})
	case EventPause:
		b := ev.Broker
		if !e.validBroker(b) || !e.brokers[b].online || e.brokers[b].paused {
			return
		}
		e.brokers[b].paused = true
		e.resetFetchers(b)
		e.emit(Event{Kind: KindPause, Broker: b, Partition: -1})
	case EventResume:
		b := ev.Broker
		if !e.validBroker(b) || !e.brokers[b].paused {
			return
		}
		e.brokers[b].paused = false
		e.emit(Event{Kind: KindResume, Broker: b, Partition: -1})
	case EventIsolate:
		b := ev.Broker
		if !e.validBroker(b) || !e.brokers[b].online || e.brokers[b].isolated {
			return
		}
		e.brokers[b].isolated, e.brokers[b].isolatedAt = true, e.now
		e.resetFetchers(b)
		e.emit(Event{Kind: KindIsolate, Broker: b, Partition: -1})
	case EventHeal:
		b := ev.Broker
		if !e.validBroker(b) || !e.brokers[b].isolated {
			return
		}
		e.brokers[b].isolated = false
		e.healed = append(e.healed, b)
		e.emit(Event{Kind: KindHeal, Broker: b, Partition: -1})
	case EventAddBroker:
		e.addBroker()
	case EventAddPartitions:
		e.addPartitions(ev.Count)
	default:
		e.applyGroupEvent(ev)
	}
}

// validBroker reports whether b names an existing broker.
func (e *engine) validBroker(b int) bool { return b >= 1 && b < len(e.brokers) }

// resetFetchers forgets every outstanding fetch broker b has.
func (e *engine) resetFetchers(b int) {
	for _, p := range e.parts {
		p.resetFetcher(b)
	}
}

// stepController is step 2, the KRaft controller
// (ReplicationControlManager, PartitionChangeBuilder). For each broker
// that crashed this beat, in timeline order, it fences the broker at once
// (Kafka waits broker.session.timeout; the engine takes it as zero beats),
// removes it from every ISR unless it is the last member — where another
// broker leads, that leader may move its high watermark at once — and
// re-elects where it led. Then it elects a leader for every offline partition whose
// ISR holds a restarted broker, and completes reassignments whose target
// replicas are all in the ISR.
func (e *engine) stepController() {
	e.checkSessions()
	fence := func(b int, why string) {
		for _, p := range e.parts {
			if p.inISR(b) && len(p.isr) > 1 {
				old := p.isr
				p.commitISR(without(p.isr, b))
				e.emit(Event{Kind: KindISRFence, Partition: p.id, Broker: b, From: old, To: p.isr})
				if p.leader != b && p.leader != 0 {
					// The leader learns the smaller ISR from the metadata
					// (Partition.makeLeader, which ends in
					// maybeIncrementLeaderHW whether or not the leader
					// epoch changed): the high watermark no longer waits
					// for b, and parked acks=all requests it passes
					// complete now, as after a shrink the leader proposed.
					e.maybeIncrementLeaderHW(p, Event{Reason: ReasonISRFence})
				}
			}
			if p.leader == b {
				e.electLeader(p, b, why)
			}
		}
	}
	for _, b := range e.fenced {
		fence(b, ReasonOffline)
	}
	for _, b := range e.sessionFenced {
		fence(b, ReasonFenced)
	}
	for _, b := range e.restarted {
		for _, p := range e.parts {
			if p.leader == 0 && p.inISR(b) {
				e.electLeader(p, b, ReasonRestarted)
			}
		}
	}
	for _, b := range e.healed {
		e.heal(b)
	}
	e.fenced, e.restarted = e.fenced[:0], e.restarted[:0]
	e.sessionFenced, e.healed = e.sessionFenced[:0], e.healed[:0]
	for _, p := range e.parts {
		e.maybeCompleteReassignment(p)
	}
}

// electLeader is PartitionChangeBuilder.electAnyLeader without unclean
// election or ELR: the first replica in assignment order that is online
// and in the ISR becomes leader; with none the partition goes offline
// (leader 0). Either way the leader epoch is bumped. cause is the broker
// whose change forced the election and why ("offline", "restarted",
// "removed").
func (e *engine) electLeader(p *partition, cause int, why string) {
	nb := 0
	for _, b := range p.assignment {
		if p.inISR(b) && e.brokers[b].online && !e.brokers[b].fenced {
			nb = b
			break
		}
	}
	e.changeLeader(p, nb, cause, why)
}

// changeLeader installs nb (0 for none) as p's leader with a new epoch.
// Every follower's fetch session restarts, parked requests are dropped
// (their producer sees U), and the producer's unanswered requests for p
// settle U; a share group's records acquired at the old leader are
// available again (reloadShareState); then the new leader takes over
// (becomeLeader) and every acknowledged record its log lacks settles L.
func (e *engine) changeLeader(p *partition, nb, cause int, why string) {
	moved := p.leader != nb
	e.maybeDepose(p)
	p.epoch++
	p.partitionEpoch++
	p.pending = nil
	p.parked = nil
	for _, b := range p.assignment {
		p.resetFetcher(b)
	}
	if nb == 0 {
		p.leader = 0
		e.emit(Event{Kind: KindOffline, Partition: p.id, LeaderEpoch: p.epoch, Cause: cause, ISR: p.isr})
		e.prod.onLeaderChange(e, p)
		if moved {
			e.reloadShareState(p)
		}
		return
	}
	e.emit(Event{Kind: KindLeader, Partition: p.id, Broker: nb, LeaderEpoch: p.epoch, Cause: cause, Reason: why})
	e.prod.onLeaderChange(e, p)
	if moved {
		e.reloadShareState(p)
	}
	e.becomeLeader(p, nb)
	e.prod.onNewLeaderLog(e, p)
	e.maybeIncrementLeaderHW(p, Event{Reason: ReasonNewLeaderAlone})
}

// becomeLeader is Partition.makeLeader for broker b at p's current epoch:
// no truncation; the epoch starts at b's log end offset
// (maybeAssignEpochStartOffset); the high watermark is b's own, the one
// it learned as a follower, which is usually below the last leader's and
// can be above it (when that leader had itself stepped back); an
// "hw-new-leader" event tells either change; every follower's log end
// offset becomes
// unknown, and ISR members count as caught up now, others never
// (Replica.resetReplicaState).
func (e *engine) becomeLeader(p *partition, b int) {
	p.leader = b
	r := p.reps[b]
	r.outstanding = false
	r.assignEpochStart(p.epoch, r.leo())
	p.epochStart = r.leo()
	if r.hw != p.hw {
		e.emit(Event{Kind: KindHWNewLeader, Partition: p.id, Broker: b, FromOffset: p.hw, ToOffset: r.hw})
	}
	p.hw = r.hw
	for _, f := range p.assignment {
		if f == b {
			continue
		}
		caught := never
		if p.inISR(f) {
			caught = e.now
		}
		p.remote[f] = newRemote()
		p.remote[f].lastCaughtUpAt = caught
	}
}

// createPartition creates partition id with replicas ((id + i) mod N) + 1
// for i = 0 … RF−1 (N the broker count now), its online replicas as the
// ISR and the first online one as leader at epoch 0
// (ReplicationControlManager.createPartitions). With no replica online it
// starts offline with its first replica as the ISR.
func (e *engine) createPartition(id int) {
	n := len(e.brokers) - 1
	rf := min(e.sc.Topic.ReplicationFactor, n)
	p := &partition{id: id}
	p.assignment = placement(id, rf, n)
	for _, b := range p.assignment {
		p.addReplica(b)
	}
	var isr []int
	for _, b := range p.assignment {
		if e.brokers[b].online {
			isr = append(isr, b)
		}
	}
	e.parts = append(e.parts, p)
	if len(isr) == 0 {
		p.isr = []int{p.assignment[0]}
		return
	}
	p.setISR(isr)
	e.becomeLeader(p, isr[0])
}

// placement returns partition p's replicas among n brokers:
// ((p + i) mod n) + 1 for i = 0 … rf−1.
func placement(p, rf, n int) []int {
	out := make([]int, rf)
	for i := range out {
		out[i] = (p+i)%n + 1
	}
	return out
}

// addPartitions creates count new partitions (CreatePartitions). Records
// created from now on are routed over the larger partition count; records
// already created keep their partition.
func (e *engine) addPartitions(count int) {
	first := len(e.parts)
	for i := 0; i < count; i++ {
		e.createPartition(first + i)
	}
	e.emit(Event{Kind: KindAddPartitions, Partition: -1, Added: count, Partitions: len(e.parts)})
}

// addBroker adds broker N+1 and, as Kafka Flow's model choice (Kafka
// itself moves nothing until asked), starts a reassignment of every
// partition to ((p + i) mod N') + 1 with the new broker count N'
// (PartitionReassignmentReplicas): adding = target − current, removing =
// current − target, replicas during the move = target ++ removing, so the
// replica count is temporarily larger. New replicas start empty and fetch.
func (e *engine) addBroker() {
	id := len(e.brokers)
	e.brokers = append(e.brokers, broker{online: true})
	e.emit(Event{Kind: KindAddBroker, Broker: id, Partition: -1})
	n := id
	for _, p := range e.parts {
		rf := len(p.assignment)
		if p.target != nil {
			rf = len(p.target)
		}
		target := placement(p.id, min(rf, n), n)
		adding := sortedInts(minus(target, p.assignment))
		removing := sortedInts(minus(p.assignment, target))
		if len(adding) == 0 && len(removing) == 0 {
			continue
		}
		old := p.assignment
		p.target, p.adding, p.removing = target, adding, removing
		p.assignment = append(append([]int{}, target...), removing...)
		for _, b := range adding {
			p.addReplica(b)
			p.remote[b] = newRemote()
		}
		p.commitISR(p.isr)
		e.emit(Event{Kind: KindReassign, Partition: p.id, From: old, To: target, Adding: adding, Removing: removing})
	}
}

// maybeCompleteReassignment is the controller's
// PartitionReassignmentReplicas.maybeCompleteReassignment: once every
// target replica is in the ISR, the replicas become the target and the
// removed ones leave the ISR and are deleted. A leader being removed hands
// over to the first target replica in the new ISR, with a new epoch. It
// reports whether it completed.
func (e *engine) maybeCompleteReassignment(p *partition) bool {
	if p.target == nil {
		return false
	}
	for _, b := range p.target {
		if !p.inISR(b) {
			return false
		}
	}
	removing := p.removing
	p.assignment = p.target
	p.target, p.adding, p.removing = nil, nil, nil
	p.commitISR(p.isr)
	e.emit(Event{Kind: KindReassignDone, Partition: p.id, To: p.assignment, Removing: removing})
	if contains(removing, p.leader) {
		e.electLeader(p, p.leader, ReasonRemoved)
	} else {
		e.maybeIncrementLeaderHW(p, Event{Reason: ReasonReassignmentDone})
	}
	for _, b := range removing {
		// A deposed leader is cut off from the controller and never hears
		// that its replica was removed, so it keeps its log and goes on
		// answering from it; the log goes when it learns (removeDeposed).
		// In Kafka a broker deletes a partition only on the controller's
		// word (ReplicaManager.applyDelta, StopReplica).
		if p.deposedBy(b) != nil {
			continue
		}
		p.reps[b] = nil
		p.remote[b] = newRemote()
	}
	return true
}

// without returns xs minus x, as a new slice.
func without(xs []int, x int) []int {
	out := make([]int, 0, len(xs))
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// minus returns the members of a not in b, in a's order.
func minus(a, b []int) []int {
	var out []int
	for _, x := range a {
		if !contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// sortedInts sorts xs in place (insertion sort: lists are tiny) and
// returns it.
func sortedInts(xs []int) []int {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs
}
