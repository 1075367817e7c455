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
	// partitionEpoch is the controller's partition epoch
	// (PartitionRegistration.partitionEpoch): bumped by every change of
	// the ISR, leader or replicas, so an AlterPartition built on an older
	// state is refused (INVALID_UPDATE_VERSION).
	partitionEpoch int
	// pending is the leader's ISR change in flight to the controller
	// (Partition.scala's PendingExpandIsr or PendingShrinkIsr); nil in
	// CommittedPartitionState. While it is set the leader neither shrinks
	// nor expands again, and the high watermark and acks=all use the
	// maximal ISR: the committed ISR plus a replica being added.
	pending *pendingIsr
	// deposed are brokers that led p when they were cut off (isolate) and
	// still believe they do, in an older epoch (isolate.go).
	deposed []*deposedLeader
}

// pendingIsr is one AlterPartition in flight: the ISR the leader proposed
// and the replica it adds (expand) or the replicas it drops (shrink).
type pendingIsr struct {
	expand  bool
	brokers []int
	isr     []int
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
	// heldBackEpoch is the leader epoch in which the leader last told that
	// this follower reached the high watermark but not the epoch's start
	// offset (−1 none), so the refusal is told once per epoch.
	heldBackEpoch int
}

// newRemote is the leader's record of a follower it knows nothing about.
func newRemote() remoteReplica {
	return remoteReplica{leo: -1, lastFetchLEO: -1, lastFetchTime: never, lastCaughtUpAt: never, heldBackEpoch: -1}
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
// exactly as LeaderEpochFileCache.endOffsetFor does. For the newest cached
// epoch: that epoch and the log end offset. For an epoch older than every
// cached one: the epoch asked for and the start offset of the oldest
// cached epoch (the data before it is gone, so that is where a follower
// must start agreeing). Otherwise: the largest cached epoch ≤ epoch and
// the start offset of the next cached epoch, which is where it ends. For
// an epoch newer than every cached one, or an empty cache, it returns
// UNDEFINED (−1, −1).
func (r *replica) endOffsetForEpoch(epoch int) (int, int64) {
	n := len(r.cache)
	if epoch < 0 || n == 0 {
		return -1, -1
	}
	if r.cache[n-1].epoch == epoch {
		return epoch, r.leo()
	}
	hi := 0
	for hi < n && r.cache[hi].epoch <= epoch {
		hi++
	}
	switch {
	case hi == n:
		return -1, -1
	case hi == 0:
		return epoch, r.cache[0].start
	}
	return r.cache[hi-1].epoch, r.cache[hi].start
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
		p.remote = append(p.remote, newRemote())
	}
	if p.reps[b] == nil {
		p.reps[b] = &replica{log: make([]Entry, 0, 8)}
	}
	return p.reps[b]
}

// inISR reports whether broker b is in p's ISR.
func (p *partition) inISR(b int) bool { return contains(p.isr, b) }

// inMaximalISR reports whether broker b is in p's maximal ISR
// (PartitionState.maximalIsr, KIP-497): the committed ISR, plus the
// replica a pending expansion adds. A pending shrink still counts the
// replicas it drops, since the controller may refuse it.
func (p *partition) inMaximalISR(b int) bool {
	return p.inISR(b) || (p.pending != nil && p.pending.expand && contains(p.pending.brokers, b))
}

// maximalISRSize is the size of p's maximal ISR.
func (p *partition) maximalISRSize() int {
	n := len(p.isr)
	if p.pending != nil && p.pending.expand {
		n += len(p.pending.brokers)
	}
	return n
}

// commitISR is the controller changing p's ISR outside an AlterPartition
// (fencing a broker, finishing a reassignment): the partition epoch moves
// on, and the leader, which learns the new state from the metadata log at
// once (Partition.makeLeader → updateAssignmentAndIsr sets a
// CommittedPartitionState), forgets its pending change; the controller will
// refuse that change's request as out of date.
func (p *partition) commitISR(isr []int) {
	p.setISR(isr)
	p.partitionEpoch++
	p.pending = nil
}

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

// lagTime is the lag clock of follower b of p that the trace records
// (Replica.LagTime): the beats since the leader last counted b caught up
// (Replica.lastCaughtUpTimeMs), for an ISR follower the leader sees below
// its log end offset; 0 otherwise. isCaughtUp is false exactly when it
// exceeds replica.lag.time.max.
func (e *engine) lagTime(p *partition, b int) int {
	if p.leader == 0 || b == p.leader || !p.inISR(b) {
		return 0
	}
	rs := p.remote[b]
	if rs.leo == p.reps[p.leader].leo() {
		return 0
	}
	return e.lagClock(rs)
}

// lagClock is the beats since the leader last counted follower rs caught
// up, or LagNever when it never has (lastCaughtUpAt still never).
func (e *engine) lagClock(rs remoteReplica) int {
	if rs.lastCaughtUpAt == never {
		return LagNever
	}
	return e.now - rs.lastCaughtUpAt
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
// partition is under min ISR (frozen since Kafka 3.7, KAFKA-15583; the
// committed ISR counts), the new high watermark is the leader's log end
// offset lowered to the log end offset of every follower in the maximal
// ISR, and of every follower outside it that is caught up and eligible to
// join (online); an unknown log end offset (−1) prevents any increase. The
// high watermark only ever increases. When it moves, the parked acks=all
// requests it passed complete at once (Partition.tryCompleteDelayedRequests
// → DelayedProduce.tryComplete), before anything later in the beat can
// shrink the ISR. It reports whether it moved; why says what let it move:
// its Reason (and, for ReasonFollowerFetch, Broker and FetchOffset) go
// into the "hw" event.
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
		if p.inMaximalISR(b) || (e.isCaughtUp(rs, leaderLEO) && e.brokers[b].online) {
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
	e.completeParked(p)
	return true
}

// maybeExpandIsr is Partition.maybeExpandIsr: unless an ISR change is
// already in flight, a follower outside the ISR is proposed for it once
// its log end offset reaches both the high watermark and the current
// leader epoch's start offset (isFollowerInSync) and its broker is
// eligible (canAddReplicaToIsr: online, not fenced). The proposal is an
// AlterPartition to the controller (PendingExpandIsr): from now the
// follower counts in the maximal ISR; the ISR itself changes when the
// controller commits it, the next beat. A follower that reached the high
// watermark but not the epoch's start offset is held back, and the leader
// says so once per epoch. It reports whether it proposed.
func (e *engine) maybeExpandIsr(p *partition, b int) bool {
	if p.pending != nil || p.inISR(b) || !contains(p.assignment, b) || !e.brokers[b].online {
		return false
	}
	rs := &p.remote[b]
	if rs.leo < p.hw {
		return false
	}
	if rs.leo < p.epochStart {
		if rs.heldBackEpoch != p.epoch {
			rs.heldBackEpoch = p.epoch
			e.emit(Event{Kind: KindISRHeldBack, Partition: p.id, Broker: b, LogEndOffset: rs.leo, HighWatermark: p.hw,
				LeaderEpoch: p.epoch, EpochStartOffset: p.epochStart})
		}
		return false
	}
	e.proposeISR(p, true, []int{b}, append(append([]int{}, p.isr...), b))
	e.emit(Event{Kind: KindISRExpandPropose, Partition: p.id, Broker: b, LogEndOffset: rs.leo, HighWatermark: p.hw,
		LeaderEpoch: p.epoch, EpochStartOffset: p.epochStart})
	return true
}

// maybeShrinkIsr is Partition.maybeShrinkIsr: unless an ISR change is
// already in flight, every ISR follower that is not caught up
// (getOutOfSyncReplicas, isFollowerOutOfSync) is proposed for removal in
// one AlterPartition (PendingShrinkIsr). The maximal ISR still holds them
// until the controller commits the change, the next beat, since it could
// refuse it. stepLeaders runs it on the isr-expiration schedule. It
// reports whether it proposed.
func (e *engine) maybeShrinkIsr(p *partition) bool {
	if p.pending != nil {
		return false
	}
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
	keep := make([]int, 0, len(p.isr))
	for _, x := range p.isr {
		if !contains(out, x) {
			keep = append(keep, x)
		}
	}
	e.proposeISR(p, false, out, keep)
	for _, b := range out {
		e.emit(Event{Kind: KindISRShrinkPropose, Partition: p.id, Broker: b, LagTime: e.lagClock(p.remote[b])})
	}
	return true
}

// proposeISR sends the leader's AlterPartition for p to the controller
// (Partition.submitAlterPartition) and marks the change pending. The
// request carries the leader epoch and partition epoch it was built on.
func (e *engine) proposeISR(p *partition, expand bool, brokers, isr []int) {
	pi := &pendingIsr{expand: expand, brokers: brokers}
	pi.isr = make([]int, 0, len(isr))
	for _, b := range p.assignment {
		if contains(isr, b) {
			pi.isr = append(pi.isr, b)
		}
	}
	p.pending = pi
	e.send(message{kind: msgAlterPartition, from: p.leader, to: controllerNode, part: p.id,
		epoch: p.epoch, partitionEpoch: p.partitionEpoch, alter: pi})
}

// handleAlterPartition is the controller's side of an AlterPartition
// (ReplicationControlManager.alterPartition): a request from a broker that
// no longer leads p in that leader epoch is refused (FENCED_LEADER_EPOCH),
// as is one built on an older partition epoch (INVALID_UPDATE_VERSION) —
// the leader has already learned the newer state and ignores the answer.
// A replica the request adds that is fenced is refused
// (INELIGIBLE_REPLICA), and the leader goes back to its committed state.
// Otherwise the controller commits the proposed ISR with a new partition
// epoch, and the leader, learning it (Partition.handleAlterPartitionUpdate),
// leaves its pending state and may move its high watermark.
//
// The round trip takes one beat: the leader proposes in beat t (while it
// handles a fetch, or in its ISR expiry check), the controller commits in
// step 3 of beat t+1, and the leader knows the result in that same step
// (the engine's metadata is instant).
func (e *engine) handleAlterPartition(m *message) {
	p := e.parts[m.part]
	if p.pending != m.alter {
		// The leader learned a newer state first (an election, a fence, a
		// finished reassignment), which replaced its pending change: the
		// controller's refusal of this request (FENCED_LEADER_EPOCH or
		// INVALID_UPDATE_VERSION) changes nothing.
		return
	}
	if m.alter.expand {
		for _, b := range m.alter.brokers {
			if !e.brokers[b].online {
				e.emit(Event{Kind: KindISRRefused, Partition: p.id, Broker: b, ErrorCode: errIneligibleReplica})
				p.pending = nil
				return
			}
		}
	}
	old := p.isr
	p.setISR(m.alter.isr)
	p.partitionEpoch++
	p.pending = nil
	if m.alter.expand {
		b := m.alter.brokers[0]
		e.emit(Event{Kind: KindISRExpand, Partition: p.id, Broker: b, From: old, To: p.isr})
		// The follower already counted in the maximal ISR: only the
		// committed ISR reaching min.insync.replicas can move the high
		// watermark now.
		e.maybeIncrementLeaderHW(p, Event{Reason: ReasonISRExpand})
		return
	}
	e.emit(Event{Kind: KindISRShrink, Partition: p.id, From: old, To: p.isr, Removing: m.alter.brokers})
	e.maybeIncrementLeaderHW(p, Event{Reason: ReasonISRShrink})
}

// boolInt is 1 for true, 0 for false.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// handleProduce is the leader's side of a produce request
// (ReplicaManager.appendRecords → Partition.appendRecordsToLeader):
// a broker that is not the partition's leader answers
// NOT_LEADER_OR_FOLLOWER, unless it is a deposed leader that does not know
// it was replaced (deposedProduce); the leader appends it (appendAsLeader)
// and moves its high watermark if it can.
func (e *engine) handleProduce(m *message) {
	p := e.parts[m.part]
	if d := p.deposedBy(m.to); d != nil && p.leader != m.to {
		e.deposedProduce(p, d, m)
		return
	}
	if p.leader != m.to {
		if e.sc.Producer.Acks != AcksNone {
			e.send(message{kind: msgProduceResponse, from: m.to, to: 0, part: m.part, record: m.record, attempt: m.attempt,
				errCode: errNotLeaderOrFollower})
			e.prod.onAnswering(e, m.record, m.attempt, false)
		}
		return
	}
	appended, ok := e.appendAsLeader(p, p.epoch, p.isr, &p.parked, m)
	if !ok {
		return
	}
	if appended {
		why := Event{Reason: ReasonAppend}
		if len(p.isr) == 1 {
			why.Reason = ReasonLeaderAlone
		}
		e.maybeIncrementLeaderHW(p, why)
	}
	// ReplicaManager parks an acks=all request and tries it at once
	// (tryCompleteElseWatch): a duplicate whose offset the high watermark
	// already passed is answered now.
	e.completeParked(p)
}

// appendAsLeader is Partition.appendRecordsToLeader → UnifiedLog.appendAsLeader
// on broker m.to, which believes it leads p in leader epoch epoch with ISR
// isr: the partition's leader, or a deposed leader on its stale state (the
// same code runs on both; only the state differs). With acks=all and isr
// below the effective min ISR the record is refused before append
// (NOT_ENOUGH_REPLICAS). Otherwise the producer-state check runs first
// (UnifiedLog.analyzeAndValidateProducerState, duplicateOffset): a
// duplicate is not appended again, and the request is answered with the
// offset it was stored at; a new record is appended with epoch. acks=0 gets
// no answer, acks=1 is answered at once, acks=all is parked in parked
// (DelayedProduce, required offset = the record's offset + 1) for the
// caller's purgatory to complete. It reports whether the record was
// appended, and ok false when it was refused.
func (e *engine) appendAsLeader(p *partition, epoch int, isr []int, parked *[]parkedProduce, m *message) (appended, ok bool) {
	reply := message{kind: msgProduceResponse, from: m.to, to: 0, part: p.id, record: m.record, attempt: m.attempt}
	acks := e.sc.Producer.Acks
	if minIsr := e.effectiveMinIsr(p); acks == AcksAll && len(isr) < minIsr {
		e.emit(Event{Kind: KindRefuse, Broker: m.to, Partition: p.id, Record: m.record, ErrorCode: errNotEnoughReplicas,
			ISR: isr, MinInsyncReplicas: minIsr})
		reply.errCode = errNotEnoughReplicas
		e.send(reply)
		e.prod.onAnswering(e, m.record, m.attempt, false)
		return false, false
	}
	r := p.reps[m.to]
	off := e.duplicateOffset(r, m.record)
	appended = off < 0
	if !appended {
		e.emit(Event{Kind: KindDuplicate, Broker: m.to, Partition: p.id, Record: m.record, Offset: off})
	} else {
		off = r.leo()
		r.appendEntries([]Entry{{Record: m.record, Epoch: epoch}})
		e.emit(Event{Kind: KindAppend, Broker: m.to, Partition: p.id, Record: m.record, Offset: off, LeaderEpoch: epoch})
		e.prod.onAppended(e, m.record, off, epoch)
	}
	switch acks {
	case AcksLeader:
		reply.offset = off
		e.send(reply)
		e.prod.onAnswering(e, m.record, m.attempt, true)
	case AcksAll:
		*parked = append(*parked, parkedProduce{record: m.record, attempt: m.attempt, requiredOffset: off + 1,
			deadline: e.now + e.sc.Producer.RequestTimeout})
		e.prod.onParked(e, m.record, m.attempt)
	}
	return appended, true
}

// producerStateBatches is ProducerStateEntry.NUM_BATCHES_TO_RETAIN: the
// leader remembers the sequence numbers of a producer's last five batches
// per partition, which is why idempotence needs
// max.in.flight.requests.per.connection ≤ 5.
const producerStateBatches = 5

// duplicateOffset is the idempotent check of ProducerStateManager /
// ProducerStateEntry.findDuplicateBatch, which UnifiedLog runs on every
// append from a client (analyzeAndValidateProducerState), so on whichever
// broker believes it leads: with enable.idempotence, a produce request
// whose producer id and sequence number match one of the producer's last
// five batches in lr, the appending broker's log, is a duplicate, answered
// with the offset it was stored at, and not appended again. The producer
// state is read from the log itself, which is what Kafka's amounts to: a
// follower's appends update it too (AppendOrigin.REPLICATION, unchecked),
// and a truncation rebuilds it from what is left
// (UnifiedLog.rebuildProducerState). Kafka Flow has one producer and one
// record per request, so the sequence is the record itself. It returns
// that offset, or −1 (always −1 without idempotence: the leader cannot
// tell a resend from a new record).
func (e *engine) duplicateOffset(lr *replica, record int) int64 {
	if !e.sc.Producer.EnableIdempotence {
		return -1
	}
	for o, n := len(lr.log)-1, 0; o >= 0 && n < producerStateBatches; o, n = o-1, n+1 {
		if lr.log[o].Record == record {
			return int64(o)
		}
	}
	return -1
}

// completeParked is Partition.tryCompleteDelayedRequests for acks=all
// (DelayedProduce.tryComplete with Partition.checkEnoughReplicasReachOffset):
// every parked request whose required offset the high watermark reached is
// answered — NONE if the maximal ISR meets the effective min ISR, else
// NOT_ENOUGH_REPLICAS_AFTER_APPEND (the record is in the log; only the
// answer is negative). It runs whenever the high watermark moves.
func (e *engine) completeParked(p *partition) {
	e.sweepParked(p, false)
}

// expireParked is DelayedProduce.onExpiration, in step 4: a parked request
// still waiting request.timeout beats after it was parked is answered
// REQUEST_TIMED_OUT.
func (e *engine) expireParked(p *partition) {
	e.sweepParked(p, true)
}

// sweepParked answers the leader's parked requests the high watermark
// passed and, when expire is set, those past their deadline; it keeps the
// rest in order.
func (e *engine) sweepParked(p *partition, expire bool) {
	if len(p.parked) == 0 {
		return
	}
	enough := p.maximalISRSize() >= e.effectiveMinIsr(p)
	p.parked = e.answerParked(p.parked, p.leader, p.id, p.hw, enough, expire)
}

// answerParked is the purgatory sweep both a leader and a deposed leader
// run over their parked acks=all requests: each whose required offset the
// high watermark hw reached is answered from broker from — NONE when
// enough (the ISR meets the effective min ISR), else
// NOT_ENOUGH_REPLICAS_AFTER_APPEND — and, with expire, each still waiting
// at its deadline is answered REQUEST_TIMED_OUT. It returns the requests
// left, in order, reusing parked's array.
func (e *engine) answerParked(parked []parkedProduce, from, part int, hw int64, enough, expire bool) []parkedProduce {
	keep := parked[:0]
	for _, pp := range parked {
		reply := message{kind: msgProduceResponse, from: from, to: 0, part: part, record: pp.record, attempt: pp.attempt,
			offset: pp.requiredOffset - 1}
		switch {
		case hw >= pp.requiredOffset:
			if !enough {
				reply.errCode = errNotEnoughReplicasAfterAppend
			}
		case expire && e.now >= pp.deadline:
			reply.errCode = errRequestTimedOut
		default:
			keep = append(keep, pp)
			continue
		}
		e.send(reply)
		e.prod.onAnswering(e, pp.record, pp.attempt, reply.errCode == errNone)
	}
	clear(parked[len(keep):])
	return keep
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
	// Partition.updateFollowerFetchState: propose the follower for the
	// ISR, then move the high watermark if its log end offset changed
	// (a proposed follower already counts in the maximal ISR).
	e.maybeExpandIsr(p, b)
	if prevLEO != rs.leo {
		e.maybeIncrementLeaderHW(p, Event{Reason: ReasonFollowerFetch, Broker: b, FetchOffset: fetchOffset})
	}
}

// stepLeaders is step 4: on the beats of the isr-expiration task every
// leader runs its ISR expiry (a shrink it proposes takes effect when the
// controller commits it, the next beat); then every leader expires its
// parked acks=all requests that ran out of time. Parked requests the high
// watermark passed were already answered when it moved.
func (e *engine) stepLeaders() {
	expiry := e.now%e.isrExpiryPeriod() == 0
	e.answerSteppedDown()
	for _, p := range e.parts {
		for _, d := range p.deposed {
			e.sweepDeposed(p, d, true)
		}
		if p.leader == 0 {
			continue
		}
		if expiry {
			e.maybeShrinkIsr(p)
		}
		e.expireParked(p)
	}
}

// isrExpiryPeriod is the period of ReplicaManager's isr-expiration task,
// replica.lag.time.max/2 beats (at least 1): it runs on the beats that are
// multiples of it, so a follower can stay in the ISR for up to about 1.5 ×
// replica.lag.time.max after it was last caught up.
func (e *engine) isrExpiryPeriod() int {
	return max(1, e.sc.Topic.ReplicaLagTimeMax/2)
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
