package sim

// A network partition (timeline isolate and heal). An isolated broker
// keeps running and keeps serving the clients that reach it, but loses the
// controller and the other brokers: no message crosses between it and
// them (cutOff). The controller stops hearing its heartbeats and fences it
// after broker.session.timeout beats (BrokerHeartbeatManager,
// ReplicationControlManager.handleBrokerFenced): it leaves every ISR it is
// not the last member of, and the partitions it led get new leaders from
// the rest of the ISR, with a new leader epoch. The isolated broker learns
// none of this. It still believes it leads those partitions in the old
// epoch — a deposed leader — and keeps appending what producers with stale
// metadata send it: acks=0 and acks=1 writes are answered; an acks=all
// write waits for a high watermark that cannot move, since its followers
// cannot fetch and its AlterPartition cannot reach the controller, and
// ends REQUEST_TIMED_OUT. On heal it reaches the controller again, is
// unfenced, learns the new leader epoch from the metadata and steps down
// (Partition.makeFollower): its parked requests are answered
// NOT_LEADER_OR_FOLLOWER, and its fetcher, following the new leader,
// truncates what it appended after the logs diverged. What it
// acknowledged meanwhile settles L then: no leader holds it any more.

// deposedLeader is a broker that led a partition when it was cut off and
// has not learned that the controller replaced it: its own Partition
// state as leader of the old epoch.
type deposedLeader struct {
	broker int
	epoch  int
	// epochStart is the start offset of epoch (the partition's when it was
	// cut off), where a ListOffsets for latest checks its high watermark.
	epochStart int64
	// isr is the ISR as it last knew it; hw its high watermark, which
	// moves only while that ISR is itself alone.
	isr    []int
	hw     int64
	parked []parkedProduce
}

// deposedBy returns the deposed leader of p that broker b is, or nil.
func (p *partition) deposedBy(b int) *deposedLeader {
	for _, d := range p.deposed {
		if d.broker == b {
			return d
		}
	}
	return nil
}

// cutOff reports whether message m cannot cross the network because one
// end is an isolated broker and the other a broker or the controller;
// clients (the producer and the group members, node 0) still reach it.
func (e *engine) cutOff(m *message) bool {
	if m.from == 0 || m.to == 0 {
		return false
	}
	isolated := func(n int) bool { return n > 0 && e.brokers[n].isolated }
	return isolated(m.from) || isolated(m.to)
}

// checkSessions is the controller's heartbeat check
// (BrokerHeartbeatManager): a broker isolated for broker.session.timeout
// beats is fenced this beat.
func (e *engine) checkSessions() {
	for b := 1; b < len(e.brokers); b++ {
		br := &e.brokers[b]
		if br.online && br.isolated && !br.fenced && e.now-br.isolatedAt >= e.sc.BrokerSessionTimeout {
			br.fenced = true
			e.sessionFenced = append(e.sessionFenced, b)
			e.emit(Event{Kind: KindBrokerFence, Broker: b, Partition: -1, SessionTimeout: e.sc.BrokerSessionTimeout})
		}
	}
}

// maybeDepose runs when the controller is about to replace p's leader: a
// leader that is still running but cut off does not hear of it, so it
// keeps its leader state (epoch, ISR, high watermark, parked requests) as
// a deposed leader.
func (e *engine) maybeDepose(p *partition) {
	b := p.leader
	if b == 0 || !e.brokers[b].online || !e.brokers[b].isolated || p.deposedBy(b) != nil {
		return
	}
	isr := p.isr
	if !contains(isr, b) {
		isr = append(append([]int{}, isr...), b)
	}
	d := &deposedLeader{broker: b, epoch: p.epoch, epochStart: p.epochStart, isr: isr, hw: p.hw, parked: p.parked}
	p.parked = nil
	p.deposed = append(p.deposed, d)
}

// dropDeposed forgets every deposed leader state of broker b, which
// crashed: its parked requests die with it, and the records the producer
// had sent it are unknown now.
func (e *engine) dropDeposed(b int) {
	for _, p := range e.parts {
		if d := p.deposedBy(b); d != nil {
			p.removeDeposed(d)
			e.prod.onUnknown(e, p, func(r *record) bool { return r.sentTo == b })
		}
	}
}

// removeDeposed drops d from p's deposed leaders: its broker healed (and
// learned the current metadata) or crashed. A replica that a reassignment
// removed while the broker was cut off (maybeCompleteReassignment kept
// it) is deleted now.
func (p *partition) removeDeposed(d *deposedLeader) {
	keep := p.deposed[:0]
	for _, x := range p.deposed {
		if x != d {
			keep = append(keep, x)
		}
	}
	clear(p.deposed[len(keep):])
	p.deposed = keep
	if b := d.broker; !contains(p.assignment, b) && !contains(p.target, b) {
		p.reps[b] = nil
		p.remote[b] = newRemote()
	}
}

// answerSteppedDown sends the NOT_LEADER_OR_FOLLOWER answers of the
// requests that brokers which stepped down this beat had parked.
func (e *engine) answerSteppedDown() {
	for _, m := range e.steppedDown {
		e.send(m)
		e.prod.onAnswering(e, m.record, m.attempt, false)
	}
	e.steppedDown = e.steppedDown[:0]
}

// heal is the controller hearing from broker b again: it unfences b, which
// learns the current metadata. Where b was a deposed leader it steps down:
// every request it parked is answered NOT_LEADER_OR_FOLLOWER, and it
// follows the current leader (its next fetch finds where the logs
// diverged). Then, as for a restart, b takes the lead of any partition
// left without a leader whose ISR still names it.
func (e *engine) heal(b int) {
	e.brokers[b].fenced = false
	e.resetFetchers(b)
	for _, p := range e.parts {
		d := p.deposedBy(b)
		if d == nil {
			continue
		}
		// The answers leave in step 4 (stepLeaders), so that, like every
		// message, they cross in one beat.
		for _, pp := range d.parked {
			e.steppedDown = append(e.steppedDown, message{kind: msgProduceResponse, from: b, to: 0, part: p.id,
				record: pp.record, attempt: pp.attempt, errCode: errNotLeaderOrFollower})
		}
		p.removeDeposed(d)
		e.emit(Event{Kind: KindStepDown, Partition: p.id, Broker: b, Leader: p.leader, LeaderEpoch: p.epoch, FromEpoch: d.epoch})
		if p.leader != 0 {
			e.prod.onNewLeaderLog(e, p)
		}
	}
	for _, p := range e.parts {
		if p.leader == 0 && p.inISR(b) {
			e.electLeader(p, b, ReasonHealed)
		}
	}
}

// deposedProduce is a deposed leader d answering a produce request as if
// it still led p in its old epoch: the leader's own append
// (appendAsLeader, Partition.appendRecordsToLeader on its stale state, so
// the min ISR refusal and the idempotent producer's duplicate check of
// ProducerStateManager apply as on any leader) with d's epoch, ISR and
// purgatory. Its high watermark moves only when its ISR is itself alone
// (no follower fetches from it).
func (e *engine) deposedProduce(p *partition, d *deposedLeader, m *message) {
	if _, ok := e.appendAsLeader(p, d.epoch, d.isr, &d.parked, m); !ok {
		return
	}
	r := p.reps[d.broker]
	if len(d.isr) == 1 && len(d.isr) >= e.effectiveMinIsr(p) && r.leo() > d.hw {
		d.hw = r.leo()
		r.hw = d.hw
	}
	e.sweepDeposed(p, d, false)
}

// sweepDeposed answers d's parked requests its high watermark passed and,
// with expire, those past their deadline (REQUEST_TIMED_OUT), as a leader
// does (answerParked), judged by the ISR d still believes in.
func (e *engine) sweepDeposed(p *partition, d *deposedLeader, expire bool) {
	d.parked = e.answerParked(d.parked, d.broker, p.id, d.hw, len(d.isr) >= e.effectiveMinIsr(p), expire)
}

// heldByDeposed reports whether a deposed leader of p holds record r at
// its offset.
func (p *partition) heldByDeposed(r *record) bool {
	for _, d := range p.deposed {
		log := p.reps[d.broker].log
		if r.offset < int64(len(log)) && log[r.offset].Record == r.id {
			return true
		}
	}
	return false
}
