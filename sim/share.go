package sim

import (
	"strconv"
	"strings"
)

// This file is the share-group engine (KIP-932, Kafka 4.1): membership and
// the SimpleAssignor target (share_assignor.go), the share-partition state
// each partition's leader keeps for a group (SharePartition), and the
// members' loop of fetching, acquiring, processing and acknowledging. The
// hooks in groups.go call into it. Model choices, each said again on the
// guide's Share group, Acquisition lock and Delivery count pages:
//
//   - Share-partition state (SPSO, in-flight records, their states, delivery
//     counts and locks) belongs to the group and survives leader changes,
//     as Kafka's share coordinator persists it; fetches and
//     acknowledgements go to the partition's current leader.
//   - A member fetches each partition it is assigned with at most one
//     ShareFetch outstanding. The leader parks a fetch until it can acquire
//     something (Kafka's fetch waits fetch.max.wait and the client asks
//     again at once, which the engine collapses into one wait), then
//     acquires at most shareMaxRecordsPerFetch records for it: available
//     records inside the window first, then new records below the high
//     watermark, lowest offset first. Parked fetches are served in arrival
//     order in step 5, after lock expiry.
//   - A member processes the records it received one at a time, in arrival
//     order, for the group's processing beats each; a record received in
//     beat r with processing P is done in beat r+P. When the last record of
//     a batch is done, the member sends its acknowledgements with its next
//     ShareFetch to that partition (implicit acknowledgement: the next poll
//     carries them). Acknowledgements lost with their request are not
//     resent; the locks expire instead.
//   - Processing is a property of the record, decided once by the seeded
//     generator: about one record in twenty (shareFailOneIn) fails every
//     time and its member RELEASEs it, so it is delivered exactly
//     group.share.delivery.count.limit times and then archived. A record
//     whose key is the group's slow.key takes longer than its lock on its
//     first delivery (processing + lock duration beats): the lock expires,
//     the record becomes available, another fetch acquires it with delivery
//     count 2, and that delivery is accepted; the first member's late
//     ACCEPT is refused (Kafka answers INVALID_RECORD_STATE).
//   - A lock taken in beat a expires at the start of beat a +
//     group.share.record.lock.duration (before any acknowledgement handled
//     in that beat).
//   - Membership: join, leave and stop as for consumer groups. A leaving
//     member's acquired records are released at once (Kafka releases them
//     when the share session closes); a stopped member does nothing more
//     and its parked fetches lapse (nobody renews them), so its locks
//     expire; the coordinator fences it after shareSessionTimeout beats
//     (group.share.session.timeout.ms; Kafka's default is 45000 ms) and
//     releases what it still holds. Every membership change and every
//     partition-count change bumps the group epoch and recomputes the
//     SimpleAssignor target, which members adopt at once (no revocation
//     handshake: a share partition may have several members anyway).
//     Every partition of the topic is assignable from its creation.

// Share-group constants Kafka Flow fixes rather than exposing as fence keys.
const (
	// shareMaxRecordLocks is group.share.partition.max.record.locks, the
	// in-flight record limit per share partition: 200, the default of
	// Kafka 4.0's ShareGroupConfig (later versions raise it to 2000). New
	// records are acquired only while SPEO − SPSO + 1 is below it.
	shareMaxRecordLocks = 200
	// shareMaxRecordsPerFetch is how many records one ShareFetch acquires at
	// most. Kafka's share consumer asks for max.poll.records (500 by
	// default) and the leader acquires whole producer batches; Kafka Flow's
	// producer batches are single records and its members behave like
	// consumers configured with max.poll.records=1, so each lock belongs to
	// one record a member is working on, and no record waits behind
	// another while its lock runs.
	shareMaxRecordsPerFetch = 1
	// shareSessionTimeout is group.share.session.timeout in beats: how long
	// the coordinator waits for a stopped member before fencing it
	// (Kafka: group.share.session.timeout.ms = 45000).
	shareSessionTimeout = DefaultSessionTimeout
	// shareFailOneIn: about one record in this many fails on every
	// delivery and ends archived at the delivery count limit.
	shareFailOneIn = 20
)

// Record states of a share partition (RecordState), as the trace spells
// them. acknowledged and archived are terminal.
const (
	ShareAvailable    = "available"
	ShareAcquired     = "acquired"
	ShareAcknowledged = "acknowledged"
	ShareArchived     = "archived"
)

// ackType is an acknowledgement type (AcknowledgeType): ACCEPT →
// acknowledged, RELEASE → available again (archived at the delivery count
// limit), REJECT → archived.
type ackType uint8

const (
	ackAccept ackType = iota + 1
	ackRelease
	ackReject
)

// String returns the type as Kafka's AcknowledgeType names it.
func (a ackType) String() string {
	switch a {
	case ackAccept:
		return "ACCEPT"
	case ackRelease:
		return "RELEASE"
	default:
		return "REJECT"
	}
}

// shareState is every share group's state (a field of groupsState).
type shareState struct {
	groups []*shareGroup // in fence order
	// fails[id] says record id fails on every delivery (decided once).
	fails []bool
}

// shareGroup is one share group: its members in joining order (index =
// N−1, departed members kept as nil-equivalent with gone set), its epoch
// and one share partition per topic partition.
type shareGroup struct {
	cfg   *ShareGroupConfig
	epoch int
	// nparts is the partition count the last assignment used.
	nparts  int
	members []*shareMember
	parts   []*sharePartition // index = partition id
}

// shareMember is one member of a share group, as the member itself (its
// fetch slots, the records it is processing, its unsent acknowledgements)
// and as the coordinator knows it (assigned partitions, stopped, gone).
type shareMember struct {
	name      string
	gone      bool // left or fenced
	stopped   bool
	stoppedAt int
	assigned  []int // ascending
	slots     []shareSlot
	queue     []heldRecord
	acks      [][]shareAck // per partition, waiting to be sent
}

// shareSlot is a member's fetch state for one partition.
type shareSlot struct {
	state  slotState
	broker int // the broker the request went to
	sentAt int
}

type slotState uint8

const (
	slotIdle     slotState = iota // may fetch
	slotSent                      // request on the wire
	slotParked                    // waiting at the leader
	slotAnswered                  // response on the wire
	slotHolding                   // records received, being processed
)

// heldRecord is a delivered record in a member's queue.
type heldRecord struct {
	part    int
	offset  int64
	record  int
	count   int // delivery count of this delivery
	started bool
	doneAt  int
}

// shareAck is one acknowledgement a member sends.
type shareAck struct {
	offset int64
	typ    ackType
}

// shareMsg is the payload of a share-group message: a ShareFetch (fetch
// true; acks ride on it) or a ShareAcknowledge (fetch false), and the
// fetch's response (records or an error).
type shareMsg struct {
	fetch    bool
	acks     []shareAck
	response bool
	records  []heldRecord
	errCode  string
}

// sharePartition is the state a partition's leader keeps for one share
// group (SharePartition): the share-partition start offset (SPSO), the
// in-flight records from SPSO to SPEO, and the fetches parked waiting for
// records.
type sharePartition struct {
	id      int
	started bool
	spso    int64
	window  []*inflight // offsets spso, spso+1, …
	waiting []parkedShareFetch
	// finished holds every record that left the window, in offset order;
	// recorded beats share it (append only).
	finished []ShareRecord
}

// inflight is one in-flight record (InFlightState).
type inflight struct {
	record   int
	state    string
	count    int
	member   string
	lockEnd  int // the beat the lock expires
	finisher string
}

// parkedShareFetch is a ShareFetch waiting at the leader.
type parkedShareFetch struct {
	member string
	broker int
}

// initShareGroups creates the scenario's share groups; their initial
// members join at beat 0.
func (e *engine) initShareGroups() {
	if len(e.sc.ShareGroups) == 0 {
		return
	}
	// Decide each record's fate once, from the engine's one generator.
	e.groups.share.fails = make([]bool, e.sc.Producer.Records+1)
	for id := 1; id <= e.sc.Producer.Records; id++ {
		e.groups.share.fails[id] = e.randIntN(shareFailOneIn) == 0
	}
	for i := range e.sc.ShareGroups {
		g := &shareGroup{cfg: &e.sc.ShareGroups[i]}
		e.groups.share.groups = append(e.groups.share.groups, g)
		for j := 0; j < g.cfg.Members; j++ {
			g.addMember()
		}
		if g.cfg.Members > 0 {
			e.rebalanceShare(g, "")
		}
	}
}

// addMember adds member GROUP-N, N the next number in joining order.
func (g *shareGroup) addMember() *shareMember {
	m := &shareMember{name: g.cfg.ID + "-" + strconv.Itoa(len(g.members)+1)}
	g.members = append(g.members, m)
	return m
}

// findShareMember finds a member by name in any share group.
func (e *engine) findShareMember(name string) (*shareGroup, *shareMember) {
	for _, g := range e.groups.share.groups {
		for _, m := range g.members {
			if m.name == name {
				return g, m
			}
		}
	}
	return nil, nil
}

// applyShareEvent applies join, leave or stop to a share group; it reports
// whether the event was about a share group.
func (e *engine) applyShareEvent(ev TimelineEvent) bool {
	switch ev.Kind {
	case EventJoin:
		for _, g := range e.groups.share.groups {
			if g.cfg.ID == ev.Group {
				m := g.addMember()
				e.emit(Event{Kind: "share-join", Partition: -1, Group: g.cfg.ID, Member: m.name})
				e.rebalanceShare(g, "")
				return true
			}
		}
	case EventLeave:
		if g, m := e.findShareMember(ev.Member); m != nil {
			if !m.gone {
				e.emit(Event{Kind: "share-leave", Partition: -1, Group: g.cfg.ID, Member: m.name})
				e.removeShareMember(g, m, "left the group")
			}
			return true
		}
	case EventStop:
		if _, m := e.findShareMember(ev.Member); m != nil {
			if !m.gone && !m.stopped {
				m.stopped, m.stoppedAt = true, e.now
				e.emit(Event{Kind: "share-stop", Partition: -1, Group: e.groupOf(m), Member: m.name})
			}
			return true
		}
	}
	return false
}

// groupOf returns the id of m's group.
func (e *engine) groupOf(m *shareMember) string {
	g, _ := e.findShareMember(m.name)
	return g.cfg.ID
}

// removeShareMember takes m out of g (leave or fence): the records it holds
// are released (SharePartition.releaseAcquiredRecords: back to available,
// delivery count unchanged, archived at the limit), its parked fetches
// dropped, and the group rebalances.
func (e *engine) removeShareMember(g *shareGroup, m *shareMember, why string) {
	m.gone = true
	for _, sp := range g.parts {
		if sp == nil {
			continue
		}
		sp.dropWaiting(m.name)
		for i, r := range sp.window {
			if r.state == ShareAcquired && r.member == m.name {
				e.releaseRecord(g, sp, sp.spso+int64(i), r, "released: "+m.name+" "+why)
			}
		}
		e.maybeAdvanceSPSO(g, sp)
	}
	m.assigned = nil
	m.queue = nil
	e.rebalanceShare(g, m.name)
}

// rebalanceShare bumps g's epoch and gives its members the SimpleAssignor
// target over the topic's current partitions. gone names a member that just
// left (for the event); members are taken in joining order, which is member
// number order.
func (e *engine) rebalanceShare(g *shareGroup, gone string) {
	g.epoch++
	var live []*shareMember
	var old [][]int
	for _, m := range g.members {
		if !m.gone {
			live = append(live, m)
			old = append(old, m.assigned)
		}
	}
	g.nparts = len(e.parts)
	target := simpleAssign(len(live), len(e.parts), old)
	var parts []string
	for i, m := range live {
		m.assigned = target[i]
		for _, q := range m.assigned {
			e.startSharePartition(g, q)
		}
		parts = append(parts, m.name+" "+listString(m.assigned))
	}
	detail := strings.Join(parts, ", ")
	if detail == "" {
		detail = "no members"
	}
	e.emit(Event{Kind: "share-assign", Partition: -1, Group: g.cfg.ID, Epoch: g.epoch,
		Value: int64(desiredSharing(len(live), len(e.parts))), Detail: detail})
}

// startSharePartition initialises g's state for partition q the first
// time a member is assigned it: SPSO from share.auto.offset.reset —
// latest is the partition's high watermark now, earliest is offset 0 (the
// log start; Kafka Flow keeps every record).
func (e *engine) startSharePartition(g *shareGroup, q int) {
	for len(g.parts) <= q {
		g.parts = append(g.parts, &sharePartition{id: len(g.parts)})
	}
	sp := g.parts[q]
	if sp.started {
		return
	}
	sp.started = true
	if g.cfg.ShareAutoOffsetReset == "latest" {
		sp.spso = e.parts[q].hw
	}
	e.emit(Event{Kind: "share-start", Partition: q, Group: g.cfg.ID, Offset: sp.spso, Detail: g.cfg.ShareAutoOffsetReset})
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
// at the limit never becomes available again).
func (e *engine) releaseRecord(g *shareGroup, sp *sharePartition, off int64, r *inflight, why string) {
	r.member = ""
	r.lockEnd = 0
	if r.count >= g.cfg.DeliveryCountLimit {
		r.state = ShareArchived
		e.emit(Event{Kind: "share-archive", Partition: sp.id, Group: g.cfg.ID, Offset: off, Record: r.record,
			Value: int64(r.count), Detail: why})
		return
	}
	r.state = ShareAvailable
	e.emit(Event{Kind: "share-available", Partition: sp.id, Group: g.cfg.ID, Offset: off, Record: r.record,
		Value: int64(r.count), Detail: why})
}

// expireLocks releases every record of sp whose acquisition lock ran out
// (SharePartition.releaseAcquisitionLockOnTimeout).
func (e *engine) expireLocks(g *shareGroup, sp *sharePartition) {
	for i, r := range sp.window {
		if r.state == ShareAcquired && r.lockEnd <= e.now {
			e.releaseRecord(g, sp, sp.spso+int64(i), r, "lock of "+r.member+" expired")
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
	e.emit(Event{Kind: "share-spso", Partition: sp.id, Group: g.cfg.ID, Offset: old, Value: sp.spso})
}

// terminal reports whether a record state is final.
func terminal(state string) bool { return state == ShareAcknowledged || state == ShareArchived }

// handleShareMessage handles a share-group message in step 3 — a
// ShareFetch or ShareAcknowledge at a broker, or a response at a member —
// and reports whether m was one.
func (e *engine) handleShareMessage(m *message) bool {
	if m.share == nil {
		return false
	}
	g, mem := e.findShareMember(m.member)
	switch {
	case g == nil:
	case m.share.response:
		e.handleShareResponse(g, mem, m)
	case mem.gone:
		// a departed member's request: its session is closed
	default:
		e.handleShareRequest(g, mem, m)
	}
	return true
}

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
		e.emit(Event{Kind: "share-not-leader", Partition: m.part, Group: g.cfg.ID, Member: mem.name, Broker: m.to,
			Value: int64(len(m.share.acks))})
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
		e.emit(Event{Kind: "share-refused", Partition: sp.id, Group: g.cfg.ID, Member: mem.name, Offset: a.offset,
			Record: rec, Detail: a.typ.String()})
		return
	}
	switch a.typ {
	case ackAccept:
		r.state, r.member, r.lockEnd, r.finisher = ShareAcknowledged, "", 0, mem.name
		e.emit(Event{Kind: "share-accept", Partition: sp.id, Group: g.cfg.ID, Member: mem.name, Offset: a.offset,
			Record: r.record, Value: int64(r.count)})
	case ackRelease:
		e.releaseRecord(g, sp, a.offset, r, "released by "+mem.name)
	case ackReject:
		r.state, r.member, r.lockEnd = ShareArchived, "", 0
		e.emit(Event{Kind: "share-archive", Partition: sp.id, Group: g.cfg.ID, Offset: a.offset, Record: r.record,
			Value: int64(r.count), Detail: "rejected by " + mem.name})
	}
}

// handleShareResponse handles a ShareFetch response at its member: the
// records join the member's queue.
func (e *engine) handleShareResponse(g *shareGroup, mem *shareMember, m *message) {
	if mem.gone || mem.stopped {
		return // nobody reads it; the locks will expire
	}
	slot := &mem.slots[m.part]
	if m.share.errCode != "" || len(m.share.records) == 0 {
		slot.state = slotIdle
		return
	}
	mem.queue = append(mem.queue, m.share.records...)
	slot.state = slotHolding
}

// stepShareGroups is the share groups' part of step 5: fence stopped
// members whose session ran out, follow partition-count changes, expire
// locks, serve parked fetches, then let members process and fetch.
func (e *engine) stepShareGroups() {
	for _, g := range e.groups.share.groups {
		for _, m := range g.members {
			if !m.gone && m.stopped && e.now-m.stoppedAt >= shareSessionTimeout {
				e.emit(Event{Kind: "share-fence", Partition: -1, Group: g.cfg.ID, Member: m.name, Value: shareSessionTimeout})
				e.removeShareMember(g, m, "was fenced")
			}
		}
		if g.liveMembers() > 0 && g.nparts != len(e.parts) {
			e.rebalanceShare(g, "")
		}
		for _, m := range g.members {
			for len(m.slots) < len(e.parts) {
				m.slots = append(m.slots, shareSlot{})
				m.acks = append(m.acks, nil)
			}
		}
		for _, sp := range g.parts {
			if sp.started {
				e.expireLocks(g, sp)
				e.serveShareFetches(g, sp)
			}
		}
		for _, m := range g.members {
			if !m.gone && !m.stopped {
				e.stepShareMember(g, m)
			}
		}
	}
}

// liveMembers counts g's members that have not left or been fenced.
func (g *shareGroup) liveMembers() int {
	n := 0
	for _, m := range g.members {
		if !m.gone {
			n++
		}
	}
	return n
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
		e.emit(Event{Kind: "share-acquire", Partition: sp.id, Group: g.cfg.ID, Member: mem.name, Offset: off,
			Record: r.record, Value: int64(r.count), Epoch: r.lockEnd})
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

// stepShareMember lets an active member work: finish and start records,
// notice a request lost on the way, and fetch every partition it may.
func (e *engine) stepShareMember(g *shareGroup, m *shareMember) {
	for len(m.queue) > 0 {
		h := &m.queue[0]
		if !h.started {
			h.started = true
			h.doneAt = e.now + e.shareProcessing(g, h)
			break
		}
		if h.doneAt > e.now {
			break
		}
		typ := ackAccept
		if e.groups.share.fails[h.record] {
			typ = ackRelease
		}
		m.acks[h.part] = append(m.acks[h.part], shareAck{offset: h.offset, typ: typ})
		e.emit(Event{Kind: "share-processed", Partition: h.part, Group: g.cfg.ID, Member: m.name, Offset: h.offset,
			Record: h.record, Detail: typ.String()})
		part := h.part
		m.queue = m.queue[1:]
		if !m.holdsFrom(part) {
			m.slots[part].state = slotIdle
		}
	}
	for q := range m.slots {
		s := &m.slots[q]
		if s.state == slotSent && s.sentAt < e.now {
			// Not parked, not answered: the request was lost with its
			// broker. The acknowledgements it carried are lost too.
			e.emit(Event{Kind: "share-lost", Partition: q, Group: g.cfg.ID, Member: m.name, Broker: s.broker})
			s.state = slotIdle
		}
		if s.state != slotIdle {
			continue
		}
		assigned := contains(m.assigned, q)
		if !assigned && len(m.acks[q]) == 0 {
			continue
		}
		leader := e.parts[q].leader
		if leader == 0 {
			continue // offline: wait for a leader
		}
		msg := &shareMsg{fetch: assigned, acks: m.acks[q]}
		m.acks[q] = nil
		e.send(message{kind: msgGroup, from: 0, to: leader, part: q, group: g.cfg.ID, member: m.name, share: msg})
		if assigned {
			*s = shareSlot{state: slotSent, broker: leader, sentAt: e.now}
		}
	}
}

// holdsFrom reports whether m still has records of partition q queued.
func (m *shareMember) holdsFrom(q int) bool {
	for _, h := range m.queue {
		if h.part == q {
			return true
		}
	}
	return false
}

// shareProcessing is how many beats a delivery takes: the group's
// processing, plus the lock duration on the first delivery of a slow.key
// record (so its lock runs out before it is done).
func (e *engine) shareProcessing(g *shareGroup, h *heldRecord) int {
	d := g.cfg.Processing
	if g.cfg.SlowKey != "" && h.count == 1 && !e.groups.share.fails[h.record] &&
		e.records[h.record-1].key == g.cfg.SlowKey {
		d += g.cfg.RecordLockDuration
	}
	return d
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
			rm := Member{Member: m.name, Partitions: append([]int{}, m.assigned...), State: "active"}
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

// describeShare words a share-group event; ok is false when e is not one.
func describeShare(e Event) (string, bool) {
	s := describeShareText(e)
	return s, s != ""
}

// describeShareText words a share-group event, or returns "".
func describeShareText(e Event) string {
	p := "p" + strconv.Itoa(e.Partition)
	off := p + " offset " + strconv.FormatInt(e.Offset, 10)
	rec := ""
	if e.Record > 0 {
		rec = " (record " + strconv.Itoa(e.Record) + ")"
	}
	count := "delivery count " + strconv.FormatInt(e.Value, 10)
	switch e.Kind {
	case "share-join":
		return e.Member + " joined share group " + e.Group
	case "share-leave":
		return e.Member + " left share group " + e.Group
	case "share-stop":
		return e.Member + " stopped (no more fetches, acknowledgements or heartbeats)"
	case "share-fence":
		return e.Member + " fenced by the coordinator: no heartbeat for " + plural(e.Value, "beat")
	case "share-assign":
		return e.Group + " group epoch " + strconv.Itoa(e.Epoch) + ", " + strconv.FormatInt(e.Value, 10) +
			" member(s) per partition: " + e.Detail
	case "share-start":
		return e.Group + " " + p + " share-partition start offset " + strconv.FormatInt(e.Offset, 10) +
			" (share.auto.offset.reset=" + e.Detail + ")"
	case "share-acquire":
		return e.Member + " acquired " + off + rec + ", " + count + ", locked until beat " + strconv.Itoa(e.Epoch)
	case "share-processed":
		if e.Detail == ackRelease.String() {
			return e.Member + " failed on " + off + rec + " and hands it back: RELEASE"
		}
		return e.Member + " finished " + off + rec + ": " + e.Detail
	case "share-accept":
		return e.Group + " " + off + rec + " acknowledged by " + e.Member + " (" + count + ")"
	case "share-available":
		return e.Group + " " + off + rec + " available again, " + e.Detail + " (" + count + ")"
	case "share-archive":
		if strings.HasPrefix(e.Detail, "rejected") {
			return e.Group + " " + off + rec + " archived: " + e.Detail
		}
		return e.Group + " " + off + rec + " archived: " + e.Detail + " at " + count +
			", the delivery count limit"
	case "share-refused":
		return e.Member + "'s " + e.Detail + " of " + off + rec + " refused: INVALID_RECORD_STATE (not acquired by it)"
	case "share-spso":
		return e.Group + " " + p + " share-partition start offset " + strconv.FormatInt(e.Offset, 10) + " → " +
			strconv.FormatInt(e.Value, 10)
	case "share-not-leader":
		s := e.Member + "'s request for " + p + " refused by broker " + strconv.Itoa(e.Broker) + ": NOT_LEADER_OR_FOLLOWER"
		if e.Value > 0 {
			s += "; " + plural(e.Value, "acknowledgement") + " lost"
		}
		return s
	case "share-lost":
		return e.Member + "'s request for " + p + " to broker " + strconv.Itoa(e.Broker) + " was lost"
	}
	return ""
}

// checkShareInvariants checks the share-group properties of KIP-932 on
// every beat of t (part of CheckInvariants): the window runs contiguously
// from SPSO and does not start with a finished record (SPSO moves only
// across a contiguous run of acknowledged or archived records, and never
// passes one that is not finished); a record is held by exactly one
// current member while acquired and by none otherwise; delivery counts stay
// within 1..group.share.delivery.count.limit, never fall, and rise only by
// an acquisition; acknowledged and archived are terminal; SPSO never
// falls; every record below SPSO is listed finished; nothing at or above
// the high watermark is ever acquired.
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
		for _, ev := range b.Happened {
			if ev.Kind == "share-acquire" && (ev.Partition >= len(b.Partitions) || ev.Offset >= b.Partitions[ev.Partition].HighWatermark) {
				bad(b.Beat, "%s acquired p%d offset %d at or above the high watermark", ev.Member, ev.Partition, ev.Offset)
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
					if r.DeliveryCount < 1 || r.DeliveryCount > limit {
						bad(b.Beat, "group %s p%d offset %d delivery count %d outside 1..%d", g.Group, gp.Partition, r.Offset, r.DeliveryCount, limit)
					}
					if r.State == ShareAvailable && r.DeliveryCount >= limit {
						bad(b.Beat, "group %s p%d offset %d available again at the delivery count limit %d", g.Group, gp.Partition, r.Offset, limit)
					}
					if prev, ok := last[rk]; ok {
						if terminal(prev.State) && prev != r {
							bad(b.Beat, "group %s p%d offset %d changed from %s to %s", g.Group, gp.Partition, r.Offset, prev.State, r.State)
						}
						if r.DeliveryCount < prev.DeliveryCount || r.DeliveryCount > prev.DeliveryCount+1 {
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

func init() {
	expectFields["startOffset"] = sharePartitionField(func(gp *GroupPartition, _ *Expectation) (string, bool) {
		return strconv.FormatInt(gp.StartOffset, 10), true
	})
	expectFields["state"] = sharePartitionField(func(gp *GroupPartition, ex *Expectation) (string, bool) {
		r, why := shareRecordAt(gp, ex.Offset)
		if r == nil {
			return why, false
		}
		return r.State, true
	})
	expectFields["deliveryCount"] = sharePartitionField(func(gp *GroupPartition, ex *Expectation) (string, bool) {
		r, why := shareRecordAt(gp, ex.Offset)
		if r == nil {
			return why, false
		}
		return strconv.Itoa(r.DeliveryCount), true
	})
}

// sharePartitionField makes a getter for a field of a share group's
// partition at a beat (startOffset, and state and deliveryCount of one
// offset).
func sharePartitionField(f func(gp *GroupPartition, ex *Expectation) (string, bool)) fieldGetter {
	return func(t *Trace, ex *Expectation) (string, bool) {
		if _, why := beatPartition(t, ex.At, ex.Partition); why != "" {
			return why, false
		}
		for _, g := range t.Beats[ex.At].Groups {
			if g.Group != ex.Group {
				continue
			}
			if g.Type != "share" {
				return "group " + ex.Group + " is a consumer group", false
			}
			for i := range g.Partitions {
				if g.Partitions[i].Partition == ex.Partition {
					return f(&g.Partitions[i], ex)
				}
			}
			return "group " + ex.Group + " has not started reading partition " + strconv.Itoa(ex.Partition) +
				" by beat " + strconv.Itoa(ex.At), false
		}
		return "group " + ex.Group + " does not exist", false
	}
}

// shareRecordAt finds offset o in a share partition: in the window, or
// below it among the finished records (their final state). Offsets past
// the window have never been acquired.
func shareRecordAt(gp *GroupPartition, o int64) (*ShareRecord, string) {
	if o < gp.StartOffset {
		for i := range gp.Finished {
			if gp.Finished[i].Offset == o {
				return &gp.Finished[i], ""
			}
		}
		return nil, "offset " + strconv.FormatInt(o, 10) + " is below where the group started (share.auto.offset.reset)"
	}
	for i := range gp.Records {
		if gp.Records[i].Offset == o {
			return &gp.Records[i], ""
		}
	}
	return nil, "offset " + strconv.FormatInt(o, 10) + " has not been acquired yet (start offset " +
		strconv.FormatInt(gp.StartOffset, 10) + ", " + strconv.Itoa(len(gp.Records)) + " in flight)"
}
