package sim

// stepFollowers is the follower half of step 5: every online, unpaused
// follower of a led partition that has no fetch outstanding sends one
// (ReplicaFetcherThread), in partition then assignment order.
func (e *engine) stepFollowers() {
	for _, p := range e.parts {
		if p.leader == 0 {
			continue
		}
		for _, b := range p.assignment {
			e.maybeSendFetch(p, b)
		}
	}
}

// maybeSendFetch sends broker b's next fetch for p to the current leader,
// carrying its log end offset as the fetch offset, the epoch of its last
// record (lastFetchedEpoch) and the leader epoch it believes current. A
// follower has at most one fetch outstanding. It reports whether it sent.
func (e *engine) maybeSendFetch(p *partition, b int) bool {
	if p.leader == 0 || b == p.leader || !e.brokers[b].online || e.brokers[b].paused {
		return false
	}
	r := p.rep(b)
	if r == nil || r.outstanding {
		return false
	}
	r.outstanding = true
	e.send(message{kind: msgFetch, from: b, to: p.leader, part: p.id, epoch: p.epoch, fetchID: r.fetchID,
		fetchOffset: r.leo(), lastFetchedEpoch: r.latestEpoch()})
	return true
}

// resetFetcher forgets broker b's outstanding fetch for p: its response,
// if one comes, is ignored (the fetcher was removed or restarted, as
// ReplicaFetcherManager does on a leader change, a pause or a crash).
func (p *partition) resetFetcher(b int) {
	if r := p.rep(b); r != nil {
		r.fetchID++
		r.outstanding = false
	}
}

// handleFetchResponse is the follower's side of a fetch response
// (AbstractFetcherThread.processFetchRequest). A diverging epoch makes the
// follower truncate by leader epoch; otherwise it appends the records and
// sets its high watermark to min(the leader's, its own log end offset)
// (UnifiedLog.updateHighWatermark). Either way it fetches again at once.
func (e *engine) handleFetchResponse(m *message) {
	p := e.parts[m.part]
	r := p.rep(m.to)
	if r == nil || !r.outstanding || r.fetchID != m.fetchID || m.epoch != p.epoch || p.leader == m.to {
		return
	}
	r.outstanding = false
	if m.diverging {
		e.truncateOnDivergence(p, m.to, r, m.divEpoch, m.divEnd)
	} else if m.fetchOffset == r.leo() {
		if len(m.entries) > 0 {
			ev := Event{Kind: KindReplicate, Broker: m.to, Partition: p.id, Offset: m.fetchOffset, Leader: m.from, Records: recordIDs(m.entries)}
			r.appendEntries(m.entries)
			e.emit(ev)
		}
		r.hw = min(m.hw, r.leo())
	}
	e.maybeSendFetch(p, m.to)
}

// truncateOnDivergence is AbstractFetcherThread.getOffsetTruncationState
// (KIP-101, KIP-279, KIP-320): the leader answered that its epoch divEpoch
// ends at divEnd (LeaderEpochFileCache.endOffsetFor, which for an epoch
// older than every one it caches answers that epoch and the start offset
// of its oldest). The follower looks up its own end of divEpoch. If it has
// that epoch, the logs agree up to the smaller of the two ends and diverge
// there: it truncates to it (ReasonDiverged). If its largest epoch ≤
// divEpoch is older, it truncates to the end of that epoch and fetches
// again to learn more (ReasonEpochUnknown). With no epoch of its own at or
// below divEpoch it truncates to the leader's end (ReasonDiverged). Only
// an undefined answer (divEnd −1, which a leader in Kafka Flow never
// gives, since its cache always holds its own epoch) makes it fall back to
// its high watermark, as Kafka does. It never truncates to its high
// watermark otherwise.
func (e *engine) truncateOnDivergence(p *partition, b int, r *replica, divEpoch int, divEnd int64) {
	var to int64
	reason := ReasonDiverged
	if divEnd < 0 {
		to = r.hw
	} else {
		fEpoch, fEnd := r.endOffsetForEpoch(divEpoch)
		switch {
		case fEnd < 0:
			to = min(divEnd, r.leo())
		case fEpoch != divEpoch:
			to = min(fEnd, r.leo())
			reason = ReasonEpochUnknown
		default:
			to = min(fEnd, divEnd, r.leo())
		}
	}
	before := r.leo()
	r.truncateTo(to)
	if r.leo() < before {
		e.emit(Event{Kind: KindTruncate, Broker: b, Partition: p.id, FromOffset: before, ToOffset: to,
			DivergingEpoch: divEpoch, EpochEndOffset: divEnd, Reason: reason})
	}
}

// recordIDs lists the record ids of es.
func recordIDs(es []Entry) []int {
	ids := make([]int, len(es))
	for i, en := range es {
		ids[i] = en.Record
	}
	return ids
}
