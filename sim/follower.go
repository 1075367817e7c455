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
// (KIP-101, KIP-279): the follower finds its own largest epoch ≤ the
// leader's diverging epoch. If they match it truncates to the smaller of
// the two end offsets; if its epoch is older it truncates to the end of its
// own epoch and asks again; with no such epoch it truncates to the leader's
// end offset. It never truncates to its high watermark.
func (e *engine) truncateOnDivergence(p *partition, b int, r *replica, divEpoch int, divEnd int64) {
	fEpoch, fEnd := r.endOffsetForEpoch(divEpoch)
	var to int64
	switch {
	case fEpoch < 0:
		to = min(divEnd, r.leo())
	case fEpoch != divEpoch:
		to = min(fEnd, r.leo())
	default:
		to = min(fEnd, divEnd, r.leo())
	}
	if to < 0 {
		to = 0
	}
	before := r.leo()
	r.truncateTo(to)
	if r.leo() < before {
		e.emit(Event{Kind: KindTruncate, Broker: b, Partition: p.id, FromOffset: before, ToOffset: to, DivergingEpoch: divEpoch})
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
