package sim

// This file is the share-partition state a partition's leader keeps for a
// share group (SharePartition): its start offset and in-flight window,
// acquisition and its locks, acknowledgements, and the fetches parked
// until there is something to acquire. share.go holds the members and the
// coordinator.

// sharePartition is the state a partition's leader keeps for one share
// group (SharePartition): the share-partition start offset (SPSO), the
// in-flight records from SPSO to SPEO, and the fetches parked waiting for
// records.
type sharePartition struct {
	id int
	// started is set once the share-partition start offset is known; told
	// says a failed lookup was announced.
	started, told bool
	spso          int64
	window        []*inflight // offsets spso, spso+1, …
	waiting       []parkedShareFetch
	// finished holds every record that left the window, in offset order;
	// recorded beats share it (append only).
	finished []ShareRecord
}

// inflight is one in-flight record (InFlightState).
type inflight struct {
	record int
	state  string
	count  int
	// saved is the delivery count the share coordinator holds for the
	// record: the count at its last change of state other than an
	// acquisition (the leader writes the state on acknowledgement, release
	// and lock expiry, SharePartition.writeShareGroupState, never on
	// acquire), 0 until then. A new leader starts from it (reloadShareState).
	saved    int
	member   string
	lockEnd  int // the beat the lock expires
	finisher string
}

// parkedShareFetch is a ShareFetch waiting at the leader.
type parkedShareFetch struct {
	member string
	broker int
}

// startSharePartition initialises g's state for partition q at its leader
// when a member first fetches it, in step 5 (SharePartitionManager creates
// the SharePartition on the first ShareFetch, and SharePartition.
// maybeInitialize asks ListOffsets): the share-partition start offset
// follows share.auto.offset.reset — latest is the leader's high watermark
// at that moment, earliest offset 0 (the log start; Kafka Flow keeps every
// record). A consumer group joining in the same beat reads the same high
// watermark. It reports false when the lookup fails — no leader, or
// OFFSET_NOT_AVAILABLE at a new leader whose high watermark is still below
// its epoch's start offset (KIP-207; see listOffset): the member does not
// fetch, and asks again next beat, as Kafka's initialisation fails and the
// next ShareFetch tries again.
func (e *engine) startSharePartition(g *shareGroup, q int) bool {
	sp := g.parts[q]
	if sp.started {
		return true
	}
	a := e.listOffset(e.parts[q].leader, q, g.cfg.ShareAutoOffsetReset == "latest")
	if a.code != errNone {
		if !sp.told {
			e.emit(Event{Kind: KindShareOffsetUnavailable, Partition: q, Group: g.cfg.ID, ErrorCode: a.code,
				Broker: a.broker, HighWatermark: a.hw, LeaderEpoch: a.epoch, EpochStartOffset: a.epochStart})
			sp.told = true
		}
		return false
	}
	sp.started, sp.spso = true, a.offset
	e.emit(Event{Kind: KindShareStart, Partition: q, Group: g.cfg.ID, Offset: sp.spso, AutoOffsetReset: g.cfg.ShareAutoOffsetReset})
	return true
}

// at returns the in-flight record at offset o, or nil.
func (sp *sharePartition) at(o int64) *inflight {
	i := o - sp.spso
	if i < 0 || i >= int64(len(sp.window)) {
		return nil
	}
	return sp.window[i]
}

// dropWaiting forgets the fetches member parked on sp.
func (sp *sharePartition) dropWaiting(member string) {
	kept := sp.waiting[:0]
	for _, w := range sp.waiting {
		if w.member != member {
			kept = append(kept, w)
		}
	}
	sp.waiting = kept
}

// releaseRecord returns an acquired record to available, or archives it
// when its delivery count has reached the limit (InFlightState: a record
// at the limit never becomes available again). why is the Reason of the
// event and member the member it was released from.
func (e *engine) releaseRecord(g *shareGroup, sp *sharePartition, off int64, r *inflight, why, member string) {
	r.member = ""
	r.lockEnd = 0
	kind := KindShareAvailable
	r.state = ShareAvailable
	if r.count >= g.cfg.DeliveryCountLimit {
		kind, r.state = KindShareArchive, ShareArchived
	}
	r.saved = r.count
	e.emit(Event{Kind: kind, Partition: sp.id, Group: g.cfg.ID, Offset: off, Record: r.record,
		DeliveryCount: r.count, Reason: why, Member: member})
}

// releaseOnClose releases a record acquired by member, whose share session
// closed, the way Kafka 4.1 does (SharePartition.releaseAcquiredRecords with
// DeliveryCountOps.DECREASE): available again with the delivery count
// given back, whatever the limit (InFlightState.tryUpdateState archives at
// the limit only for other operations).
func (e *engine) releaseOnClose(g *shareGroup, sp *sharePartition, off int64, r *inflight, member string) {
	r.member, r.lockEnd, r.state = "", 0, ShareAvailable
	r.count--
	r.saved = r.count
	e.emit(Event{Kind: KindShareAvailable, Partition: sp.id, Group: g.cfg.ID, Offset: off, Record: r.record,
		DeliveryCount: r.count, Reason: ReasonLeft, Member: member})
}

// reloadShareState is what every share group's state for partition p
// becomes when p's leader changes (or p goes offline): the old leader's
// share-partition state lived in its memory, and the new leader loads the
// one the share coordinator holds (SharePartition.maybeInitialize reads it
// with ReadShareGroupState). That state has every acknowledgement, release
// and lock expiry, and the start offset, but no acquisition: a record that
// was acquired is available again at once, its lock gone, with the
// delivery count saved at its last written change (0 for a record never
// released), so the delivery that was under way is not counted (KIP-932
// calls the delivery count approximate for this reason). Its member's
// acknowledgement, if it comes, is refused (INVALID_RECORD_STATE).
func (e *engine) reloadShareState(p *partition) {
	for _, g := range e.groups.share.groups {
		if p.id >= len(g.parts) || !g.parts[p.id].started {
			continue
		}
		sp := g.parts[p.id]
		for i, r := range sp.window {
			if r.state != ShareAcquired {
				continue
			}
			member := r.member
			r.state, r.member, r.lockEnd, r.count = ShareAvailable, "", 0, r.saved
			e.emit(Event{Kind: KindShareAvailable, Partition: sp.id, Group: g.cfg.ID, Offset: sp.spso + int64(i), Record: r.record,
				DeliveryCount: r.count, Reason: ReasonLeaderChange, Member: member})
		}
	}
}

// expireLocks releases every record of sp whose acquisition lock ran out
// (SharePartition.releaseAcquisitionLockOnTimeout).
func (e *engine) expireLocks(g *shareGroup, sp *sharePartition) {
	for i, r := range sp.window {
		if r.state == ShareAcquired && r.lockEnd <= e.now {
			e.releaseRecord(g, sp, sp.spso+int64(i), r, ReasonLockExpired, r.member)
		}
	}
	e.maybeAdvanceSPSO(g, sp)
}

// maybeAdvanceSPSO moves SPSO past the longest run of terminal records at
// the start of the window (SharePartition.maybeUpdateCachedStateAndOffsets,
// findLastOffsetAcknowledged); a non-terminal record at SPSO holds it.
func (e *engine) maybeAdvanceSPSO(g *shareGroup, sp *sharePartition) {
	n := 0
	for n < len(sp.window) && terminal(sp.window[n].state) {
		n++
	}
	if n == 0 {
		return
	}
	for i := 0; i < n; i++ {
		r := sp.window[i]
		sp.finished = append(sp.finished, ShareRecord{Offset: sp.spso + int64(i), State: r.state,
			DeliveryCount: r.count, Finisher: r.finisher})
	}
	old := sp.spso
	sp.spso += int64(n)
	sp.window = append([]*inflight(nil), sp.window[n:]...)
	e.emit(Event{Kind: KindShareSPSO, Partition: sp.id, Group: g.cfg.ID, FromOffset: old, ToOffset: sp.spso})
}

// terminal reports whether a record state is final.
func terminal(state string) bool { return state == ShareAcknowledged || state == ShareArchived }

// handleShareRequest handles a ShareFetch or ShareAcknowledge at a broker:
// a broker that does not lead the partition refuses it; the leader expires
// due locks, applies the acknowledgements, moves SPSO and parks the fetch.
func (e *engine) handleShareRequest(g *shareGroup, mem *shareMember, m *message) {
	p := e.parts[m.part]
	if p.leader != m.to {
		// NOT_LEADER_OR_FOLLOWER: the request, acknowledgements included,
		// fails; the member retries with the current leader.
		if m.share.fetch {
			e.send(message{kind: msgGroup, from: m.to, to: 0, part: m.part, group: g.cfg.ID, member: mem.name,
				share: &shareMsg{response: true, errCode: errNotLeaderOrFollower}})
			mem.slots[m.part].state = slotAnswered
		}
		e.emit(Event{Kind: KindShareNotLeader, Partition: m.part, Group: g.cfg.ID, Member: mem.name, Broker: m.to,
			ErrorCode: errNotLeaderOrFollower, LostAcknowledgements: len(m.share.acks)})
		return
	}
	if m.part >= len(g.parts) || !g.parts[m.part].started {
		panic("sim: share request for a partition group " + g.cfg.ID + " never started")
	}
	sp := g.parts[m.part]
	e.expireLocks(g, sp)
	for _, a := range m.share.acks {
		e.applyShareAck(g, sp, mem, a)
	}
	e.maybeAdvanceSPSO(g, sp)
	if m.share.fetch {
		sp.waiting = append(sp.waiting, parkedShareFetch{member: mem.name, broker: m.to})
		mem.slots[m.part].state = slotParked
	}
}

// applyShareAck applies one acknowledgement at the leader. It counts only
// while the record is acquired by the acknowledging member; otherwise Kafka
// answers INVALID_RECORD_STATE and nothing changes.
func (e *engine) applyShareAck(g *shareGroup, sp *sharePartition, mem *shareMember, a shareAck) {
	r := sp.at(a.offset)
	if r == nil || r.state != ShareAcquired || r.member != mem.name {
		rec := 0
		if r != nil {
			rec = r.record
		}
		e.emit(Event{Kind: KindShareRefused, Partition: sp.id, Group: g.cfg.ID, Member: mem.name, Offset: a.offset,
			Record: rec, AcknowledgeType: a.typ.String(), ErrorCode: errInvalidRecordState})
		return
	}
	switch a.typ {
	case ackAccept:
		r.state, r.member, r.lockEnd, r.finisher, r.saved = ShareAcknowledged, "", 0, mem.name, r.count
		e.emit(Event{Kind: KindShareAccept, Partition: sp.id, Group: g.cfg.ID, Member: mem.name, Offset: a.offset,
			Record: r.record, DeliveryCount: r.count})
	case ackRelease:
		e.releaseRecord(g, sp, a.offset, r, ReasonReleased, mem.name)
	case ackReject:
		r.state, r.member, r.lockEnd, r.saved = ShareArchived, "", 0, r.count
		e.emit(Event{Kind: KindShareArchive, Partition: sp.id, Group: g.cfg.ID, Offset: a.offset, Record: r.record,
			DeliveryCount: r.count, Reason: ReasonRejected, Member: mem.name})
	}
}

// serveShareFetches answers parked fetches in arrival order: a fetch whose
// broker no longer leads is dropped (its member reconnects), one from a
// stopped member lapses, and the others each acquire up to
// shareMaxRecordsPerFetch records; a fetch that acquires nothing stays
// parked.
func (e *engine) serveShareFetches(g *shareGroup, sp *sharePartition) {
	p := e.parts[sp.id]
	var kept []parkedShareFetch
	for _, w := range sp.waiting {
		_, mem := e.findShareMember(w.member)
		if mem.stopped || mem.gone {
			continue
		}
		if p.leader != w.broker || !contains(mem.assigned, sp.id) {
			mem.slots[sp.id].state = slotIdle
			continue
		}
		got := e.acquireShare(g, sp, mem, p)
		if len(got) == 0 {
			kept = append(kept, w)
			continue
		}
		e.send(message{kind: msgGroup, from: w.broker, to: 0, part: sp.id, group: g.cfg.ID, member: mem.name,
			share: &shareMsg{response: true, records: got}})
		mem.slots[sp.id].state = slotAnswered
	}
	sp.waiting = kept
}

// acquireShare takes up to shareMaxRecordsPerFetch records for mem: available
// records in the window first, then new records from SPEO+1 while the
// window is under shareMaxRecordLocks; all of them below the current
// leader's high watermark.
// Each acquisition increments the record's delivery count and locks it to
// mem for the group's lock duration.
func (e *engine) acquireShare(g *shareGroup, sp *sharePartition, mem *shareMember, p *partition) []heldRecord {
	var got []heldRecord
	take := func(off int64, r *inflight) {
		r.state, r.member = ShareAcquired, mem.name
		r.count++
		r.lockEnd = e.now + g.cfg.RecordLockDuration
		got = append(got, heldRecord{part: sp.id, offset: off, record: r.record, count: r.count})
		e.emit(Event{Kind: KindShareAcquire, Partition: sp.id, Group: g.cfg.ID, Member: mem.name, Offset: off,
			Record: r.record, DeliveryCount: r.count, LockedUntil: r.lockEnd})
	}
	for i, r := range sp.window {
		off := sp.spso + int64(i)
		if len(got) == shareMaxRecordsPerFetch || off >= p.hw {
			// A fetch reads the log only up to the high watermark; a new
			// leader's can be below the last one's for a while.
			break
		}
		if r.state == ShareAvailable {
			take(off, r)
		}
	}
	lead := p.leaderRep()
	for len(got) < shareMaxRecordsPerFetch && len(sp.window) < shareMaxRecordLocks {
		off := sp.spso + int64(len(sp.window))
		if off >= p.hw || lead == nil || off >= lead.leo() {
			break
		}
		r := &inflight{record: lead.log[off].Record, state: ShareAvailable}
		sp.window = append(sp.window, r)
		take(off, r)
	}
	return got
}
