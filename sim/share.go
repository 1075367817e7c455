package sim

import "strconv"

// This file is the share-group engine (KIP-932, Kafka 4.1): membership and
// the SimpleAssignor target (share_assignor.go), the share-partition state
// each partition's leader keeps for a group (SharePartition), and the
// members' loop of fetching, acquiring, processing and acknowledging. The
// hooks in groups.go call into it. Model choices, each said again on the
// guide's Share group, Acquisition lock and Delivery count pages:
//
//   - Share-partition state (SPSO, in-flight records, their states, delivery
//     counts and locks) lives at the partition's leader, which writes each
//     acknowledgement, release and lock expiry to the share coordinator but
//     no acquisition (SharePartition.writeShareGroupState). When the leader
//     changes, the new one starts from the written state: records acquired
//     at the old leader are available again at once, with the delivery
//     count last written (reloadShareState). Fetches and acknowledgements
//     go to the partition's current leader, even during a split brain,
//     where consumers and the producer follow their stale metadata to the
//     cut-off leader (metadataLeader). In Kafka that leader, whose
//     Partition never became a follower, keeps its SharePartition
//     (SharePartitionListener.onBecomingFollower does not fire), acquires
//     from its own log and locks in memory (a write of state it cannot
//     deliver to the share coordinator just fails), and answers
//     NOT_LEADER_OR_FOLLOWER only once a write of state is refused: the
//     new leader's ReadShareGroupState raised the leader epoch the share
//     coordinator holds, ShareCoordinatorShard answers the old epoch's
//     WriteShareGroupState FENCED_LEADER_EPOCH, SharePartition turns that
//     into NotLeaderOrFollowerException and SharePartitionManager's
//     fencedSharePartitionHandler drops the SharePartition. Modelling that
//     needs a second, unwritten share-partition state at the cut-off
//     broker, so Kafka Flow leaves it out.
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
//   - Start. A share-partition starts when a member first fetches it
//     (step 5), at its leader: the start offset follows
//     share.auto.offset.reset by the ListOffsets rule consumers use
//     (listOffset), so latest is the leader's high watermark at that moment
//     and a new leader whose high watermark is below its epoch's start
//     offset answers OFFSET_NOT_AVAILABLE; the member asks again next beat.
//   - Membership: join, leave and stop as for consumer groups. A leaving
//     member's share session closes and its acquired records are released
//     at once with their delivery count given back (Kafka 4.1,
//     releaseAcquiredRecords with DeliveryCountOps.DECREASE; see
//     removeShareMember); a stopped member does nothing more
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
	name string
	// number is N of the name GROUP-N; life its entry in engine.lives.
	number, life int
	gone         bool // left or fenced
	stopped      bool
	stoppedAt    int
	assigned     []int // ascending
	slots        []shareSlot
	queue        []heldRecord
	acks         [][]shareAck // per partition, waiting to be sent
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
			g.addMember(e)
		}
		if g.cfg.Members > 0 {
			e.rebalanceShare(g, "")
		}
	}
}

// addMember adds member GROUP-N, N the next number in joining order.
func (g *shareGroup) addMember(e *engine) *shareMember {
	n := len(g.members) + 1
	m := &shareMember{name: g.cfg.ID + "-" + strconv.Itoa(n), number: n}
	m.life = e.newLife(g.cfg.ID, "share", m.name, n)
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
				m := g.addMember(e)
				e.emit(Event{Kind: KindShareJoin, Partition: -1, Group: g.cfg.ID, Member: m.name})
				e.rebalanceShare(g, "")
				return true
			}
		}
	case EventLeave:
		if g, m := e.findShareMember(ev.Member); m != nil {
			if !m.gone {
				e.lives[m.life].LeftAt = e.now
				e.emit(Event{Kind: KindShareLeave, Partition: -1, Group: g.cfg.ID, Member: m.name})
				e.removeShareMember(g, m, ReasonLeft)
			}
			return true
		}
	case EventStop:
		if _, m := e.findShareMember(ev.Member); m != nil {
			if !m.gone && !m.stopped {
				m.stopped, m.stoppedAt = true, e.now
				e.emit(Event{Kind: KindShareStop, Partition: -1, Group: e.groupOf(m), Member: m.name})
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

// removeShareMember takes m out of g, on a clean leave (why ReasonLeft)
// or when the coordinator fences it (ReasonFenced); its parked fetches are
// dropped and the group rebalances. A leaving member closes its share
// session, and the leader releases what it holds as Kafka 4.1 does
// (SharePartitionManager.releaseSession → SharePartition.
// releaseAcquiredRecords with DeliveryCountOps.DECREASE, KAFKA-17541 /
// PR #19430): back to available with the delivery count given back, never
// archived by the limit — the records were fetched, the reasoning goes,
// but not delivered. Kafka 4.2 bumps the count instead (KAFKA-19972 /
// PR #21092). A fenced member's records are released as a lock expiry
// releases them: count kept, archived at the limit (Kafka leaves them
// acquired until their locks run out; the engine frees them at the fence).
func (e *engine) removeShareMember(g *shareGroup, m *shareMember, why string) {
	m.gone = true
	for _, sp := range g.parts {
		if sp == nil {
			continue
		}
		sp.dropWaiting(m.name)
		for i, r := range sp.window {
			if r.state != ShareAcquired || r.member != m.name {
				continue
			}
			if why == ReasonLeft {
				e.releaseOnClose(g, sp, sp.spso+int64(i), r, m.name)
			} else {
				e.releaseRecord(g, sp, sp.spso+int64(i), r, why, m.name)
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
	assignment := make([]MemberPartitions, len(live))
	for i, m := range live {
		m.assigned = target[i]
		assignment[i] = MemberPartitions{Member: m.name, Partitions: m.assigned}
	}
	for len(g.parts) < len(e.parts) {
		g.parts = append(g.parts, &sharePartition{id: len(g.parts)})
	}
	e.emit(Event{Kind: KindShareAssign, Partition: -1, Group: g.cfg.ID, GroupEpoch: g.epoch,
		MembersPerPartition: desiredSharing(len(live), len(e.parts)), Assignment: assignment})
}

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
				e.lives[m.life].FencedAt = e.now
				e.emit(Event{Kind: KindShareFence, Partition: -1, Group: g.cfg.ID, Member: m.name, SessionTimeout: shareSessionTimeout})
				e.removeShareMember(g, m, ReasonFenced)
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
		e.emit(Event{Kind: KindShareProcessed, Partition: h.part, Group: g.cfg.ID, Member: m.name, Offset: h.offset,
			Record: h.record, AcknowledgeType: typ.String()})
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
			e.emit(Event{Kind: KindShareLost, Partition: q, Group: g.cfg.ID, Member: m.name, Broker: s.broker})
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
		if assigned && !e.startSharePartition(g, q) {
			continue // no start offset yet: ask again next beat
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
