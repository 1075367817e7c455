package sim

import "fmt"

// partition is one partition of the topic: the controller's view
// (PartitionRegistration: assignment, leader, leader epoch, ISR) together
// with the leader's Partition object (high watermark, remote replica
// states, parked acks=all requests) and every replica's local log.
type partition struct {
	id int
	// assignment is the replica list (during a reassignment: target ++
	// removing). target, adding and removing describe a reassignment in
	// progress (PartitionReassignmentReplicas); all nil when none is.
	// These slices and isr are never edited in place, only replaced, so the
	// recorded beats can share them.
	assignment, target, adding, removing []int
	isr                                  []int
	// leader is 0 while the partition is offline.
	leader int
	epoch  int
	// hw is the leader's high watermark (the last leader's while offline).
	hw int64
	// epochStart is the leader's log end offset when it became leader of
	// the current epoch (Partition.leaderEpochStartOffsetOpt).
	epochStart int64
	// reps holds each broker's replica (index = broker id, nil when the
	// broker holds no replica); remote the leader's view of its followers.
	reps   []*replica
	remote []remoteReplica
	// parked are acks=all requests waiting in purgatory (DelayedProduce).
	parked []parkedProduce
}

// replica is one broker's copy of a partition: its log, its own high
// watermark, its leader-epoch cache (LeaderEpochFileCache) and, when it
// follows, its fetcher's state.
type replica struct {
	log   []Entry
	hw    int64
	cache []epochEntry
	// fetchID numbers the follower's fetch session; bumping it forgets an
	// outstanding fetch (its response will be ignored). outstanding is true
	// while a fetch of the current session awaits its response.
	fetchID     int
	outstanding bool
}

// epochEntry is one entry of a leader-epoch cache: epoch started at offset
// start.
type epochEntry struct {
	epoch int
	start int64
}

// remoteReplica is the leader's record of one follower (Kafka's Replica /
// ReplicaState): its log end offset as of its last fetch (−1 unknown), the
// leader's log end offset and the beat at that previous fetch, and the last
// beat it was known to be caught up.
type remoteReplica struct {
	leo            int64
	lastFetchLEO   int64
	lastFetchTime  int
	lastCaughtUpAt int
}

// parkedProduce is one acks=all request in purgatory: done once the high
// watermark reaches requiredOffset, or expired at deadline.
type parkedProduce struct {
	record         int
	attempt        int
	requiredOffset int64
	deadline       int
}

// leo returns the replica's log end offset.
func (r *replica) leo() int64 { return int64(len(r.log)) }

// latestEpoch returns the newest epoch in the replica's epoch cache, or −1.
func (r *replica) latestEpoch() int {
	if len(r.cache) == 0 {
		return -1
	}
	return r.cache[len(r.cache)-1].epoch
}

// assignEpochStart records that epoch starts at offset start, if epoch is
// newer than every cached one (LeaderEpochFileCache.assign).
func (r *replica) assignEpochStart(epoch int, start int64) {
	if epoch > r.latestEpoch() {
		r.cache = append(r.cache, epochEntry{epoch, start})
	}
}

// appendEntries appends records received from the leader (or written as
// leader), keeping the epoch cache in step.
func (r *replica) appendEntries(es []Entry) {
	for _, en := range es {
		r.assignEpochStart(en.Epoch, r.leo())
		r.log = append(r.log, en)
	}
}

// truncateTo drops every record at offset ≥ off and every cached epoch that
// starts there (UnifiedLog.truncateTo, LeaderEpochFileCache.truncateFromEnd).
// The log is copied, because earlier beats share the old array.
func (r *replica) truncateTo(off int64) {
	if off < r.leo() {
		r.log = append(make([]Entry, 0, off+8), r.log[:off]...)
	}
	n := len(r.cache)
	for n > 0 && r.cache[n-1].start >= off {
		n--
	}
	r.cache = r.cache[:n]
	if r.hw > r.leo() {
		r.hw = r.leo()
	}
}

// endOffsetForEpoch answers OffsetsForLeaderEpoch from this replica's cache
// (LeaderEpochFileCache.endOffsetFor): the largest cached epoch ≤ epoch and
// the offset where it ends (the start of the next cached epoch, or the log
// end offset for the newest). With no such epoch it returns (−1, −1).
func (r *replica) endOffsetForEpoch(epoch int) (int, int64) {
	for i := len(r.cache) - 1; i >= 0; i-- {
		if r.cache[i].epoch <= epoch {
			end := r.leo()
			if i+1 < len(r.cache) {
				end = r.cache[i+1].start
			}
			return r.cache[i].epoch, end
		}
	}
	return -1, -1
}

// rep returns broker b's replica of p, or nil.
func (p *partition) rep(b int) *replica {
	if b < len(p.reps) {
		return p.reps[b]
	}
	return nil
}

// addReplica gives broker b an empty replica of p.
func (p *partition) addReplica(b int) *replica {
	for len(p.reps) <= b {
		p.reps = append(p.reps, nil)
		p.remote = append(p.remote, remoteReplica{leo: -1, lastFetchLEO: -1, lastFetchTime: never, lastCaughtUpAt: never})
	}
	if p.reps[b] == nil {
		p.reps[b] = &replica{log: make([]Entry, 0, 8)}
	}
	return p.reps[b]
}

// inISR reports whether broker b is in p's ISR.
func (p *partition) inISR(b int) bool { return contains(p.isr, b) }

// effectiveMinIsr is min(min.insync.replicas, replica count)
// (Partition.effectiveMinIsr, KAFKA-15583): the replica count includes
// replicas a reassignment is adding.
func (e *engine) effectiveMinIsr(p *partition) int {
	return min(e.sc.Topic.MinInsyncReplicas, len(p.assignment))
}

// isUnderMinIsr reports whether p's ISR is below the effective minimum
// (Partition.isUnderMinIsr).
func (e *engine) isUnderMinIsr(p *partition) bool {
	return len(p.isr) < e.effectiveMinIsr(p)
}

// isCaughtUp is ReplicaState.isCaughtUp: the follower's log end offset
// equals the leader's, or it was caught up within replica.lag.time.max
// beats.
func (e *engine) isCaughtUp(r remoteReplica, leaderLEO int64) bool {
	return r.leo == leaderLEO || e.now-r.lastCaughtUpAt <= e.sc.Topic.ReplicaLagTimeMax
}

// setISR replaces p's ISR with the members of isr, kept in assignment order.
func (p *partition) setISR(isr []int) {
	out := make([]int, 0, len(isr))
	for _, b := range p.assignment {
		if contains(isr, b) {
			out = append(out, b)
		}
	}
	p.isr = out
}

// leaderRep returns the leader's replica, or nil when p is offline.
func (p *partition) leaderRep() *replica {
	if p.leader == 0 {
		return nil
	}
	return p.reps[p.leader]
}

// maybeIncrementLeaderHW is Partition.maybeIncrementLeaderHW: unless the
// partition is under min ISR (frozen since Kafka 3.7, KAFKA-15583), the new
// high watermark is the leader's log end offset lowered to the log end
// offset of every follower in the ISR, and of every follower outside it
// that is caught up and eligible to join (online); an unknown log end offset
// (−1) prevents any increase. The high watermark only ever increases. It
// reports whether it moved; why says what let it move: its Reason (and,
// for ReasonFollowerFetch, Broker and FetchOffset) go into the "hw" event.
func (e *engine) maybeIncrementLeaderHW(p *partition, why Event) bool {
	if p.leader == 0 || e.isUnderMinIsr(p) {
		return false
	}
	lr := p.reps[p.leader]
	leaderLEO := lr.leo()
	cand := leaderLEO
	for _, b := range p.assignment {
		if b == p.leader {
			continue
		}
		rs := p.remote[b]
		if rs.leo >= cand {
			continue
		}
		if p.inISR(b) || (e.isCaughtUp(rs, leaderLEO) && e.brokers[b].online) {
			cand = rs.leo
		}
	}
	if cand <= p.hw {
		return false
	}
	ev := why
	ev.Kind, ev.Partition, ev.FromOffset, ev.ToOffset = KindHW, p.id, p.hw, cand
	e.emit(ev)
	p.hw = cand
	lr.hw = cand
	return true
}

// maybeExpandIsr is Partition.maybeExpandIsr: a follower outside the ISR
// joins once its log end offset reaches both the high watermark and the
// current epoch's start offset (isFollowerInSync) and its broker is online
// (not fenced). The AlterPartition round trip is taken as instant, so the
// committed ISR equals the maximal ISR. It reports whether the ISR grew.
func (e *engine) maybeExpandIsr(p *partition, b int) bool {
	if p.inISR(b) || !contains(p.assignment, b) || !e.brokers[b].online {
		return false
	}
	rs := p.remote[b]
	if rs.leo < p.hw || rs.leo < p.epochStart {
		return false
	}
	old := p.isr
	p.setISR(append(append([]int{}, p.isr...), b))
	e.emit(Event{Kind: KindISRExpand, Partition: p.id, Broker: b, LogEndOffset: rs.leo, HighWatermark: p.hw, From: old, To: p.isr})
	return true
}

// maybeShrinkIsr is Partition.maybeShrinkIsr: every ISR follower that is
// not caught up (isFollowerOutOfSync) leaves the ISR. Kafka runs it every
// replica.lag.time.max/2; the engine runs it every beat. It reports whether
// the ISR shrank.
func (e *engine) maybeShrinkIsr(p *partition) bool {
	leaderLEO := p.reps[p.leader].leo()
	var out []int
	for _, b := range p.isr {
		if b != p.leader && !e.isCaughtUp(p.remote[b], leaderLEO) {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return false
	}
	for _, b := range out {
		old := p.isr
		keep := make([]int, 0, len(old))
		for _, x := range old {
			if x != b {
				keep = append(keep, x)
			}
		}
		p.isr = keep
		e.emit(Event{Kind: KindISRShrink, Partition: p.id, Broker: b, LagTime: e.now - p.remote[b].lastCaughtUpAt, From: old, To: keep})
	}
	return true
}

// handleProduce is the leader's side of a produce request
// (ReplicaManager.appendRecords → Partition.appendRecordsToLeader):
// a broker that is not the partition's leader answers
// NOT_LEADER_OR_FOLLOWER; with acks=all and an ISR below the effective
// min ISR the record is refused before append (NOT_ENOUGH_REPLICAS);
// otherwise it is appended with the current leader epoch. acks=0 gets no
// answer, acks=1 is answered at once, acks=all is parked until the high
// watermark passes it.
func (e *engine) handleProduce(m *message) {
	p := e.parts[m.part]
	reply := message{kind: msgProduceResponse, from: m.to, to: 0, part: m.part, record: m.record, attempt: m.attempt}
	acks := e.sc.Producer.Acks
	if p.leader != m.to {
		if acks != AcksNone {
			reply.errCode = errNotLeaderOrFollower
			e.send(reply)
			e.prod.onAnswering(e, m.record, m.attempt, false)
		}
		return
	}
	if acks == AcksAll && e.isUnderMinIsr(p) {
		e.emit(Event{Kind: KindRefuse, Broker: m.to, Partition: p.id, Record: m.record, ErrorCode: errNotEnoughReplicas,
			ISR: p.isr, MinInsyncReplicas: e.effectiveMinIsr(p)})
		reply.errCode = errNotEnoughReplicas
		e.send(reply)
		e.prod.onAnswering(e, m.record, m.attempt, false)
		return
	}
	lr := p.reps[p.leader]
	off := lr.leo()
	lr.appendEntries([]Entry{{Record: m.record, Epoch: p.epoch}})
	e.emit(Event{Kind: KindAppend, Broker: m.to, Partition: p.id, Record: m.record, Offset: off, LeaderEpoch: p.epoch})
	e.prod.onAppended(e, m.record, off)
	why := Event{Reason: ReasonAppend}
	if len(p.isr) == 1 {
		why.Reason = ReasonLeaderAlone
	}
	e.maybeIncrementLeaderHW(p, why)
	switch acks {
	case AcksLeader:
		e.send(reply)
		e.prod.onAnswering(e, m.record, m.attempt, true)
	case AcksAll:
		p.parked = append(p.parked, parkedProduce{record: m.record, attempt: m.attempt, requiredOffset: off + 1, deadline: e.now + e.sc.Producer.RequestTimeout})
		e.prod.onParked(e, m.record, m.attempt)
	}
}

// maybeCompleteParked is DelayedProduce.tryComplete / onExpiration with
// Partition.checkEnoughReplicasReachOffset: a parked request is done once
// the high watermark reaches its required offset — NONE if the ISR meets
// the effective min ISR, else NOT_ENOUGH_REPLICAS_AFTER_APPEND — and
// otherwise expires with REQUEST_TIMED_OUT at its deadline
// (request.timeout beats after it was parked).
func (e *engine) maybeCompleteParked(p *partition) {
	if len(p.parked) == 0 {
		return
	}
	keep := p.parked[:0]
	for _, pp := range p.parked {
		reply := message{kind: msgProduceResponse, from: p.leader, to: 0, part: p.id, record: pp.record, attempt: pp.attempt}
		switch {
		case p.hw >= pp.requiredOffset:
			if len(p.isr) < e.effectiveMinIsr(p) {
				reply.errCode = errNotEnoughReplicasAfterAppend
			}
		case e.now >= pp.deadline:
			reply.errCode = errRequestTimedOut
		default:
			keep = append(keep, pp)
			continue
		}
		e.send(reply)
		e.prod.onAnswering(e, pp.record, pp.attempt, reply.errCode == errNone)
	}
	p.parked = keep
}

// handleFetch is the leader's side of a follower fetch
// (Partition.fetchRecords / readRecords / updateFollowerFetchState). A
// broker that is not the leader of the epoch the follower names ignores it.
// If the follower's last fetched epoch disagrees with the leader's epoch
// cache, the answer is a diverging epoch and no state changes (KIP-101,
// KAFKA-10554). Otherwise the leader captures its high watermark and log end
// offset before the read, answers with every record from the fetch offset,
// then updates the follower's state (Replica.updateFetchState), tries to add
// it to the ISR and tries to move the high watermark.
func (e *engine) handleFetch(m *message) {
	p := e.parts[m.part]
	if p.leader != m.to || p.epoch != m.epoch || !contains(p.assignment, m.from) {
		return
	}
	lr := p.reps[p.leader]
	reply := message{kind: msgFetchResponse, from: m.to, to: m.from, part: p.id, epoch: p.epoch, fetchID: m.fetchID,
		fetchOffset: m.fetchOffset, hw: p.hw, leo: lr.leo()}
	if m.lastFetchedEpoch >= 0 {
		ep, end := lr.endOffsetForEpoch(m.lastFetchedEpoch)
		if ep < m.lastFetchedEpoch || end < m.fetchOffset {
			reply.diverging, reply.divEpoch, reply.divEnd = true, ep, end
			e.send(reply)
			return
		}
	}
	if m.fetchOffset > lr.leo() {
		panic(fmt.Sprintf("sim: p%d follower %d fetches offset %d past leader %d's log end offset %d without divergence",
			p.id, m.from, m.fetchOffset, p.leader, lr.leo()))
	}
	reply.entries = lr.log[m.fetchOffset:lr.leo():lr.leo()]
	e.send(reply)
	e.updateFollowerFetchState(p, m.from, m.fetchOffset, reply.leo)
}

// updateFollowerFetchState applies Replica.updateFetchStateOrThrow, then
// Partition.maybeExpandIsr and maybeIncrementLeaderHW. With fetch offset F
// at beat now and the leader's log end offset L captured before the read:
// if F ≥ L the follower is caught up now; else if F reaches the leader's
// log end offset at the previous fetch, it was caught up as of that fetch.
func (e *engine) updateFollowerFetchState(p *partition, b int, fetchOffset, leaderLEO int64) {
	rs := &p.remote[b]
	prevLEO := rs.leo
	if fetchOffset >= leaderLEO {
		rs.lastCaughtUpAt = max(rs.lastCaughtUpAt, e.now)
	} else if fetchOffset >= rs.lastFetchLEO {
		rs.lastCaughtUpAt = max(rs.lastCaughtUpAt, rs.lastFetchTime)
	}
	rs.lastFetchLEO = max(leaderLEO, rs.lastFetchLEO)
	rs.lastFetchTime = e.now
	rs.leo = fetchOffset
	// An ISR change is a trigger of its own in Kafka (the AlterPartition
	// response calls maybeIncrementLeaderHW), as is a follower's new log
	// end offset.
	expanded := e.maybeExpandIsr(p, b)
	if prevLEO != rs.leo || expanded {
		e.maybeIncrementLeaderHW(p, Event{Reason: ReasonFollowerFetch, Broker: b, FetchOffset: fetchOffset})
	}
}

// stepLeaders is step 4: every leader runs its ISR expiry (shrinking can
// let the high watermark move) and then completes or expires its parked
// acks=all requests.
func (e *engine) stepLeaders() {
	for _, p := range e.parts {
		if p.leader == 0 {
			continue
		}
		if e.maybeShrinkIsr(p) {
			e.maybeIncrementLeaderHW(p, Event{Reason: ReasonISRShrink})
		}
		e.maybeCompleteParked(p)
	}
}

// contains reports whether xs holds x.
func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// listString writes ids as "[1 2 3]", the canonical list form.
func listString(xs []int) string {
	b := make([]byte, 0, 2+3*len(xs))
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%d", x)
	}
	return string(append(b, ']'))
}
