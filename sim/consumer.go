package sim

import (
	"slices"
	"strconv"
)

// This file is the consumer-group engine: KIP-848 group coordination
// (group epoch, target assignment, incremental reconciliation) and the
// members' fetch, process and auto-commit loop (KafkaConsumer with
// enable.auto.commit=true and isolation.level=read_uncommitted).
//
// Model, in the order a beat meets it:
//
//   - Membership. Members are named GROUP-N, N from 1 in joining order;
//     the fence's initial members join at beat 0, one group-epoch bump
//     each. The coordinator bumps the group epoch on every join, on a
//     clean leave, when it fences a member that stopped heartbeating
//     (session.timeout beats after the stop), and when the topic's
//     partition count changes. The coordinator sits on no broker:
//     heartbeats, commits and the target assignment take effect in the
//     beat they happen (Kafka: a round trip to the coordinator broker,
//     heartbeats every group.consumer.heartbeat.interval.ms).
//   - Target assignment. After a bump the coordinator recomputes the target
//     with the group's assignor (uniform by default, or range; see
//     consumer_assignor.go), members in name order.
//   - Reconciliation. A member gives up a partition that left its target
//     (revoke) at its next poll — after the record it is processing — by
//     committing its position for it and releasing it. A partition moves
//     to its new owner only once released, and the new owner takes it from
//     the next beat on. A stopped member releases nothing: its partitions
//     stay owned until it is fenced, which releases them.
//   - Start offset. A new owner starts at the group's committed offset, or
//     by auto.offset.reset when there is none, asking the leader the
//     group's metadata names, as for its fetches (ListOffsets, answered at
//     once; see consumerGroup.listOffset): latest is that leader's high
//     watermark at that moment — a cut-off leader's own, frozen one during
//     a split brain — earliest offset 0. With no leader, or when a latest
//     lookup meets a leader whose high watermark is still below its leader
//     epoch's start offset (OFFSET_NOT_AVAILABLE, KIP-207), the member owns
//     the partition without a position, refreshes its metadata and asks
//     again every beat; it fetches nothing meanwhile.
//   - Fetch. A member fetches each partition it owns from the partition's
//     current leader — or, while the group's metadata is stale, from a
//     leader cut off by isolate that does not know it was replaced, which
//     answers below its own frozen high watermark (leaderFor,
//     handleConsumerFetch): the request takes a beat to reach the leader and the
//     response one beat back. The leader answers with every record from the
//     fetch offset up to its high watermark (read_uncommitted), nothing at
//     or above it; NOT_LEADER_OR_FOLLOWER when it no longer leads;
//     OFFSET_OUT_OF_RANGE past its log end offset, after which the member
//     resets its position by auto.offset.reset. A member fetches a
//     partition again once it has handed out every record it fetched; a
//     request that found its broker down is known lost two beats after it
//     was sent, and sent again.
//   - Poll and process. A member that is not busy polls: it first revokes
//     what it must give up, then auto-commits its position for every
//     partition it owns when auto.commit.interval beats have passed since
//     its last commit, then takes up to max.poll.records fetched records
//     (a partition's buffer, then the next partition's, partitions in turn)
//     and works through them, `processing` beats each. Its position — the
//     next offset poll hands out — moves past the records when the poll
//     hands them out, so a commit made at a poll covers finished records
//     only. A record the group has handed out before (its offset is below
//     the highest the group reached on that partition) is marked
//     reprocessed.
//   - Poll timeout. A member still working through its last poll's records
//     max.poll.interval beats after that poll leaves the group (a leave
//     heartbeat, member epoch −1): its partitions are released without a
//     commit and move at once. It goes on with its records (state stale);
//     its next poll tries to commit what it processed, which fails with
//     UNKNOWN_MEMBER_ID, and rejoins the group under the same name. The
//     next owner starts at the committed offset, so it processes again
//     every record the stale member handed out since its last commit.
//   - Leave and stop. A leaving member finishes its last poll's records,
//     commits its position for everything it owns, releases it and leaves. A stopped
//     member does nothing at all: no heartbeat, fetch, processing or
//     commit.

// Member states, as the trace spells them (Member.State).
const (
	memberStateActive    = "active"    // owns exactly its target
	memberStateRevoking  = "revoking"  // owns partitions that left its target
	memberStateAssigning = "assigning" // waits for partitions another member still owns
	memberStateLeaving   = "leaving"   // finishing its record before it leaves
	memberStateStopped   = "stopped"   // no heartbeats; not yet fenced
	// memberStateStale is a member that left the group because its poll
	// timer ran out (max.poll.interval) and is still working through the
	// records of its last poll; it joins again at its next poll
	// (MemberState.STALE in Kafka's client).
	memberStateStale = "stale"
)

// consumerGroup is one consumer group: the coordinator's state (group
// epoch, members, committed offsets — ConsumerGroup and the
// __consumer_offsets records of GroupCoordinator) and its members.
type consumerGroup struct {
	cfg *ConsumerGroupConfig
	// epoch is the group epoch; dirty says the target assignment must be
	// recomputed at the coordinator's next turn.
	epoch int
	dirty bool
	// joined counts the members that ever joined (the next is GROUP-joined+1).
	joined int
	// members are the current members in joining order, which is name
	// order; lives indexes every member that ever joined in engine.lives.
	members []*consumerMember
	// stale are former members that left on max.poll.interval and have
	// not polled since, in the order they left.
	stale []*consumerMember
	lives []int
	// parts is the group's view of each partition, index = partition id.
	parts []consumerPart
	// meta is the leader the members' metadata names for each partition
	// (0 for none), refreshed at beat metaAt; see leaderFor. Kafka Flow
	// keeps one for the whole group: its members refresh together.
	meta   []int
	metaAt int
}

// consumerPart is one partition as a consumer group sees it.
type consumerPart struct {
	// owner is the member that owns the partition, nil when none.
	owner *consumerMember
	// committed is the group's committed offset (the next offset to read),
	// −1 when none.
	committed int64
	// releasedAt is the beat the partition was last released; a new owner
	// may take it from the next beat on.
	releasedAt int
	// reached is one past the highest offset the group has handed out.
	reached int64
	// reprocessed lists the offsets handed out more than once, ascending.
	// It only grows; recorded beats share it up to its length then.
	reprocessed []int64
}

// consumerMember is one member: its heartbeat state, target and owned
// partitions, and the consumer's fetch state per owned partition
// (SubscriptionState and the fetch buffer).
type consumerMember struct {
	name string
	// number is N of the name GROUP-N; life its entry in engine.lives.
	number, life int
	state        string // memberStateLeaving, memberStateStopped, or "" (heartbeating)
	stoppedAt    int
	// target is the member's part of the target assignment, owned the
	// partitions it holds; both sorted.
	target, owned []int
	// fetch holds the fetch state of each owned partition, index =
	// partition id (nil when not owned).
	fetch []*consumerFetch
	// busy is the record being processed until doneAt (rec 0 when none);
	// queue holds the rest of the last poll's records, processed in turn.
	busy   bufferedRecord
	doneAt int
	queue  []bufferedRecord
	// lastPoll is the beat of the member's last poll (or join): its poll
	// timer runs out max.poll.interval beats later.
	lastPoll int
	// uncommitted holds, for a stale member, the positions it held when it
	// left, which its next poll tries to commit; closing says the timeline
	// asked it to leave meanwhile, so it does not join again.
	uncommitted []staleOffset
	closing     bool
	// lastCommit is the beat of the member's last auto-commit (or join).
	lastCommit int
	// turn is the partition the member last took a record from, for taking
	// from partitions in turn.
	turn int
}

// staleOffset is a position a member held when it left on
// max.poll.interval.
type staleOffset struct {
	part     int
	position int64
}

// consumerFetch is a member's state for one owned partition.
type consumerFetch struct {
	// resetting is true while the member has no position yet: its
	// ListOffsets for auto.offset.reset found no leader or got
	// OFFSET_NOT_AVAILABLE, and it asks again every beat; told says the
	// failure was announced, by toldBroker; askedAt is the beat of the
	// last failed lookup.
	resetting, told     bool
	toldBroker, askedAt int
	// position is the next offset poll hands out; fetchOffset the next
	// offset to fetch (position plus what is buffered).
	position, fetchOffset int64
	buffer                []bufferedRecord
	// outstanding is true while a fetch of session id awaits its answer,
	// sent at sentAt.
	outstanding bool
	sentAt, id  int
}

// bufferedRecord is a fetched record: its partition, offset and id.
type bufferedRecord struct {
	part   int
	offset int64
	rec    int
}

// Consumer errors (Kafka's Errors enum).
const (
	errOffsetOutOfRange = "OFFSET_OUT_OF_RANGE"
	errUnknownMemberID  = "UNKNOWN_MEMBER_ID"
)

// initConsumerGroups creates the consumer groups of the scenario; their
// initial members join at beat 0 and own their target at once.
func (e *engine) initConsumerGroups() {
	for i := range e.sc.ConsumerGroups {
		cfg := &e.sc.ConsumerGroups[i]
		g := &consumerGroup{cfg: cfg}
		e.groups.consumer = append(e.groups.consumer, g)
		g.syncPartitions(e)
		for j := 0; j < cfg.Members; j++ {
			g.join(e)
		}
		g.coordinate(e)
		for _, m := range g.members {
			g.acquire(e, m)
		}
	}
}

// consumerGroupNamed returns the consumer group with id, or nil.
func (e *engine) consumerGroupNamed(id string) *consumerGroup {
	for _, g := range e.groups.consumer {
		if g.cfg.ID == id {
			return g
		}
	}
	return nil
}

// member returns the current member called name, or nil.
func (g *consumerGroup) member(name string) *consumerMember {
	for _, m := range g.members {
		if m.name == name {
			return m
		}
	}
	return nil
}

// staleMember returns the stale member called name, or nil.
func (g *consumerGroup) staleMember(name string) *consumerMember {
	for _, m := range g.stale {
		if m.name == name {
			return m
		}
	}
	return nil
}

// applyConsumerEvent applies a join, leave or stop of a consumer group
// (step 1) and reports whether ev concerned one.
func (e *engine) applyConsumerEvent(ev TimelineEvent) bool {
	g := e.consumerGroupNamed(ev.Group)
	if g == nil {
		return false
	}
	switch ev.Kind {
	case EventJoin:
		g.join(e)
	case EventLeave:
		if m := g.member(ev.Member); m != nil && m.state == "" {
			m.state = memberStateLeaving
			if last := m.lastOfPoll(); last != 0 && !m.pollDone(e.now) {
				e.emit(Event{Kind: KindConsumerLeaving, Partition: -1, Group: g.cfg.ID, Member: m.name, Record: last})
			}
		} else if m := g.staleMember(ev.Member); m != nil && !m.closing {
			// Already out of the group: it finishes its records, its
			// commit fails, and it does not join again.
			m.closing = true
			if last := m.lastOfPoll(); last != 0 && !m.pollDone(e.now) {
				e.emit(Event{Kind: KindConsumerLeaving, Partition: -1, Group: g.cfg.ID, Member: m.name, Record: last})
			}
		}
	case EventStop:
		if m := g.staleMember(ev.Member); m != nil {
			// Out of the group already: it just stops working.
			g.stale = slices.DeleteFunc(g.stale, func(x *consumerMember) bool { return x == m })
			e.emit(Event{Kind: KindConsumerStop, Partition: -1, Group: g.cfg.ID, Member: m.name})
		} else if m := g.member(ev.Member); m != nil && m.state != memberStateStopped {
			m.state, m.stoppedAt = memberStateStopped, e.now
			m.busy, m.queue = bufferedRecord{}, nil
			e.emit(Event{Kind: KindConsumerStop, Partition: -1, Group: g.cfg.ID, Member: m.name})
		}
	}
	return true
}

// joinConsumer adds member GROUP-(N+1) and bumps the group epoch.
func (g *consumerGroup) join(e *engine) {
	g.joined++
	m := &consumerMember{name: g.cfg.ID + "-" + strconv.Itoa(g.joined), number: g.joined, lastCommit: e.now, lastPoll: e.now, turn: -1}
	m.life = e.newLife(g.cfg.ID, "consumer", m.name, m.number)
	g.lives = append(g.lives, m.life)
	g.members = append(g.members, m)
	g.bump()
	e.emit(Event{Kind: KindConsumerJoin, Partition: -1, Group: g.cfg.ID, Member: m.name, GroupEpoch: g.epoch})
}

// bump raises the group epoch and asks for a new target assignment.
func (g *consumerGroup) bump() {
	g.epoch++
	g.dirty = true
}

// syncPartitions grows the group's partition list to the topic's
// partition count and reports whether it grew.
func (g *consumerGroup) syncPartitions(e *engine) bool {
	grew := false
	for len(g.parts) < len(e.parts) {
		g.parts = append(g.parts, consumerPart{committed: -1, releasedAt: never})
		grew = true
	}
	return grew
}

// stepConsumerGroups is the consumer-group half of step 5: each group's
// coordinator acts (partition count, fencing, departures, poll timeouts),
// stale members work on and maybe rejoin, the coordinator computes the
// target, then each member takes its turn in name order.
func (e *engine) stepConsumerGroups() {
	for _, g := range e.groups.consumer {
		if e.now-g.metaAt >= g.cfg.MetadataMaxAge {
			g.refreshMetadata(e)
		}
		if n := len(g.parts); g.syncPartitions(e) {
			g.bump()
			e.emit(Event{Kind: KindConsumerPartitions, Partition: -1, Group: g.cfg.ID, PreviousPartitions: n,
				Partitions: len(g.parts), GroupEpoch: g.epoch})
		}
		for _, m := range slices.Clone(g.members) {
			switch {
			case m.state == memberStateStopped && e.now >= m.stoppedAt+g.cfg.SessionTimeout:
				g.remove(m)
				g.bump()
				e.lives[m.life].FencedAt = e.now
				e.emit(Event{Kind: KindConsumerFence, Partition: -1, Group: g.cfg.ID, Member: m.name,
					SessionTimeout: g.cfg.SessionTimeout, GroupEpoch: g.epoch})
				g.releaseAll(e, m, false)
			case m.state == memberStateLeaving && m.pollDone(e.now):
				m.busy, m.queue = bufferedRecord{}, nil
				g.releaseAll(e, m, true)
				g.remove(m)
				g.bump()
				e.lives[m.life].LeftAt = e.now
				e.emit(Event{Kind: KindConsumerLeave, Partition: -1, Group: g.cfg.ID, Member: m.name, GroupEpoch: g.epoch})
			case m.state == "" && e.now >= m.lastPoll+g.cfg.MaxPollInterval && !m.pollDone(e.now):
				g.pollTimeout(e, m)
			}
		}
		for _, m := range slices.Clone(g.stale) {
			g.stepStale(e, m)
		}
		g.coordinate(e)
		for _, m := range g.members {
			g.stepMember(e, m)
		}
	}
}

// remove drops m from the member list.
func (g *consumerGroup) remove(m *consumerMember) {
	g.members = slices.DeleteFunc(g.members, func(x *consumerMember) bool { return x == m })
}

// coordinate recomputes the target assignment if the group epoch moved
// since the last computation, and announces it.
func (g *consumerGroup) coordinate(e *engine) {
	if !g.dirty {
		return
	}
	g.dirty = false
	var next [][]int
	if g.cfg.Assignor == "range" {
		next = assignRange(len(g.members), len(g.parts))
	} else {
		cur := make([][]int, len(g.members))
		for i, m := range g.members {
			cur[i] = m.target
		}
		next = assignUniform(cur, len(g.parts))
	}
	assignment := make([]MemberPartitions, len(g.members))
	for i, m := range g.members {
		m.target = next[i]
		assignment[i] = MemberPartitions{Member: m.name, Partitions: m.target}
	}
	e.emit(Event{Kind: KindConsumerTarget, Partition: -1, Group: g.cfg.ID, GroupEpoch: g.epoch, Assignment: assignment})
}

// stepMember runs one member's turn: finish its record when due and start
// the next of its last poll; once that poll's records are all done, poll:
// revoke, auto-commit and take the next records; take partitions its
// target gives it that are free; ask for start offsets it lacks; and
// fetch.
func (g *consumerGroup) stepMember(e *engine, m *consumerMember) {
	if m.state == memberStateStopped {
		return
	}
	g.advance(e, m)
	if m.state == memberStateLeaving {
		return // it leaves once its last poll is done (stepConsumerGroups)
	}
	if m.busy.rec == 0 {
		m.lastPoll = e.now
		for _, p := range slices.Clone(m.owned) {
			if !slices.Contains(m.target, p) {
				g.commit(e, m, p, ReasonRevoke)
				g.release(e, m, p)
			}
		}
		if e.now-m.lastCommit >= g.cfg.AutoCommitInterval {
			m.lastCommit = e.now
			for _, p := range m.owned {
				g.commit(e, m, p, ReasonAuto)
			}
		}
		g.poll(e, m)
	}
	g.acquire(e, m)
	for _, p := range m.owned {
		g.maybeReset(e, m, p)
		g.maybeFetch(e, m, p)
	}
}

// pollDone reports whether m has finished every record of its last poll
// by beat now, so that its next poll may happen now.
func (m *consumerMember) pollDone(now int) bool {
	return (m.busy.rec == 0 || m.doneAt <= now) && len(m.queue) == 0
}

// lastOfPoll returns the id of the last record of m's last poll, 0 when
// it has none.
func (m *consumerMember) lastOfPoll() int {
	if n := len(m.queue); n > 0 {
		return m.queue[n-1].rec
	}
	return m.busy.rec
}

// advance finishes m's record when it is due and starts the next record
// of its last poll, if any, in the same beat.
func (g *consumerGroup) advance(e *engine, m *consumerMember) {
	if m.busy.rec == 0 || e.now < m.doneAt {
		return
	}
	m.busy = bufferedRecord{}
	if len(m.queue) > 0 {
		r := m.queue[0]
		m.queue = m.queue[1:]
		g.process(e, m, r)
	}
}

// pollTimeout takes m out of the group: max.poll.interval beats have passed
// since its last poll and it is still working through that poll's records
// (the time between two poll() calls is longer than max.poll.interval.ms).
// The client's heartbeat thread sends a leave heartbeat with member epoch
// −1 (AbstractMembershipManager.transitionToSendingLeaveGroup with
// dueToExpiredPollTimer) and releases the member's partitions without
// committing (transitionToStale, onPartitionsLost); the coordinator removes
// the member (GroupMetadataManager.consumerGroupHeartbeat sends epoch −1 to
// consumerGroupLeave, which fences it out), bumps the group epoch and
// moves the partitions at once. The member stays
// stale — still processing — until its next poll (stepStale).
func (g *consumerGroup) pollTimeout(e *engine, m *consumerMember) {
	m.uncommitted = nil
	for _, p := range m.owned {
		if f := m.fetch[p]; f != nil && !f.resetting {
			m.uncommitted = append(m.uncommitted, staleOffset{part: p, position: f.position})
		}
	}
	g.remove(m)
	g.bump()
	m.state = memberStateStale
	g.stale = append(g.stale, m)
	e.lives[m.life].StaleAt = e.now
	e.emit(Event{Kind: KindConsumerPollTimeout, Partition: -1, Group: g.cfg.ID, Member: m.name,
		MaxPollInterval: g.cfg.MaxPollInterval, Record: m.busy.rec, GroupEpoch: g.epoch})
	g.releaseAll(e, m, false)
	m.target = nil
}

// stepStale lets a stale member work on: it finishes the records of its
// last poll, then polls. That poll first tries to commit the positions the
// member held when it left, and the commit fails: the coordinator no
// longer knows the member and answers UNKNOWN_MEMBER_ID
// (ConsumerGroup.validateOffsetCommit; CommitRequestManager does not retry,
// the member having left), and the classic protocol's ConsumerCoordinator
// fails it before sending; the application sees CommitFailedException.
// Then the poll rejoins the group under the same name
// (maybeRejoinStaleMember: the member id is kept, the member epoch starts
// again at 0), which bumps the group epoch.
func (g *consumerGroup) stepStale(e *engine, m *consumerMember) {
	g.advance(e, m)
	if m.busy.rec != 0 {
		return
	}
	for _, so := range m.uncommitted {
		if so.position != g.parts[so.part].committed {
			e.emit(Event{Kind: KindConsumerCommitFailed, Partition: so.part, Group: g.cfg.ID, Member: m.name,
				Offset: so.position, ErrorCode: errUnknownMemberID})
		}
	}
	m.uncommitted = nil
	g.stale = slices.DeleteFunc(g.stale, func(x *consumerMember) bool { return x == m })
	if m.closing {
		return // close() after its last records: it is gone for good
	}
	m.state, m.lastPoll, m.lastCommit, m.turn = "", e.now, e.now, -1
	i, _ := slices.BinarySearchFunc(g.members, m, func(a, b *consumerMember) int {
		return a.number - b.number
	})
	g.members = slices.Insert(g.members, i, m)
	g.bump()
	e.emit(Event{Kind: KindConsumerRejoin, Partition: -1, Group: g.cfg.ID, Member: m.name, GroupEpoch: g.epoch})
}

// poll hands m up to max.poll.records fetched records — the rest of one
// partition's buffer, then the next partition's, partitions in turn after
// the last one used (Kafka's FetchCollector drains one completed fetch
// before the next) — moves each partition's position past what it handed
// out, and starts on the first record; the others follow one after
// another, `processing` beats each (advance).
func (g *consumerGroup) poll(e *engine, m *consumerMember) {
	if len(m.owned) == 0 {
		return
	}
	start := 0
	for i, p := range m.owned {
		if p > m.turn {
			start = i
			break
		}
	}
	var got []bufferedRecord
	for k := 0; k < len(m.owned) && len(got) < g.cfg.MaxPollRecords; k++ {
		p := m.owned[(start+k)%len(m.owned)]
		f := m.fetch[p]
		n := min(len(f.buffer), g.cfg.MaxPollRecords-len(got))
		if n == 0 {
			continue
		}
		got = append(got, f.buffer[:n]...)
		f.buffer = f.buffer[n:]
		f.position = got[len(got)-1].offset + 1
		m.turn = p
	}
	if len(got) == 0 {
		return
	}
	m.queue = got[1:]
	g.process(e, m, got[0])
}

// process starts m on record r for `processing` beats. A record the group
// has handed out before (its offset is below the highest the group
// reached on that partition) is marked reprocessed.
func (g *consumerGroup) process(e *engine, m *consumerMember, r bufferedRecord) {
	m.busy, m.doneAt = r, e.now+g.cfg.Processing
	gp := &g.parts[r.part]
	again := r.offset < gp.reached
	if again && !slices.Contains(gp.reprocessed, r.offset) {
		gp.reprocessed = append(gp.reprocessed, r.offset)
		slices.Sort(gp.reprocessed)
	}
	gp.reached = max(gp.reached, r.offset+1)
	e.emit(Event{Kind: KindConsumerProcess, Partition: r.part, Group: g.cfg.ID, Member: m.name, Offset: r.offset, Record: r.rec,
		Reprocessed: again})
}

// commit stores the member's position for p as the group's committed
// offset (OffsetCommit) and says so when it changes; why is ReasonAuto,
// ReasonRevoke or ReasonLeave.
func (g *consumerGroup) commit(e *engine, m *consumerMember, p int, why string) {
	f := m.fetch[p]
	gp := &g.parts[p]
	if f == nil || f.resetting || f.position == gp.committed {
		return
	}
	gp.committed = f.position
	e.recordCommit(g.cfg.ID, m.name, p, f.position)
	e.emit(Event{Kind: KindConsumerCommit, Partition: p, Group: g.cfg.ID, Member: m.name, Offset: f.position, Reason: why})
}

// release gives up m's ownership of p; a new owner may take it from the
// next beat.
func (g *consumerGroup) release(e *engine, m *consumerMember, p int) {
	m.owned = slices.DeleteFunc(slices.Clone(m.owned), func(x int) bool { return x == p })
	m.fetch[p] = nil
	gp := &g.parts[p]
	gp.owner = nil
	gp.releasedAt = e.now
	e.emit(Event{Kind: KindConsumerRelease, Partition: p, Group: g.cfg.ID, Member: m.name})
}

// releaseAll releases everything m owns, committing first when commit is
// set (a clean leave; a fenced member commits nothing).
func (g *consumerGroup) releaseAll(e *engine, m *consumerMember, commit bool) {
	for _, p := range slices.Clone(m.owned) {
		if commit {
			g.commit(e, m, p, ReasonLeave)
		}
		g.release(e, m, p)
	}
}

// acquire gives m every partition of its target that no member owns and
// that was not released this beat, starting at the committed offset or by
// auto.offset.reset.
func (g *consumerGroup) acquire(e *engine, m *consumerMember) {
	for _, p := range m.target {
		gp := &g.parts[p]
		if gp.owner != nil || gp.releasedAt >= e.now || slices.Contains(m.owned, p) {
			continue
		}
		gp.owner = m
		m.owned = append(slices.Clone(m.owned), p)
		slices.Sort(m.owned)
		for len(m.fetch) <= p {
			m.fetch = append(m.fetch, nil)
		}
		if gp.committed >= 0 {
			m.fetch[p] = &consumerFetch{position: gp.committed, fetchOffset: gp.committed}
			e.emit(Event{Kind: KindConsumerAssign, Partition: p, Group: g.cfg.ID, Member: m.name, Offset: gp.committed})
			continue
		}
		a := g.listOffset(e, p)
		f := &consumerFetch{position: a.offset, fetchOffset: a.offset, resetting: a.code != errNone}
		m.fetch[p] = f
		e.emit(answeredBy(Event{Kind: KindConsumerAssign, Partition: p, Group: g.cfg.ID, Member: m.name, Offset: a.offset,
			AutoOffsetReset: g.cfg.AutoOffsetReset}, a))
		if f.resetting {
			g.tellUnavailable(e, m, p, a)
			g.lookupFailed(e, f)
		}
	}
}

// listOffset is the members' ListOffsets for p by auto.offset.reset, sent
// to the leader the group's metadata names (leaderFor; the consumer's
// OffsetsRequestManager.groupListOffsetRequests asks
// metadata.currentLeader), so during a split brain the cut-off leader
// answers, from its own frozen high watermark.
func (g *consumerGroup) listOffset(e *engine, p int) listOffsets {
	return e.listOffset(g.leaderFor(e, e.parts[p]), p, g.cfg.AutoOffsetReset == "latest")
}

// lookupFailed follows a failed ListOffsets for f's partition: the
// consumer retries after retry.backoff (SubscriptionState.requestFailed),
// the next beat here, and asks for a metadata update (OffsetFetcherUtils.
// onSuccessfulResponseForResettingPositions: requestUpdate for every
// partition to retry), so the retry goes to the current leader.
func (g *consumerGroup) lookupFailed(e *engine, f *consumerFetch) {
	f.askedAt = e.now
	g.refreshMetadata(e)
}

// answeredBy adds to ev, an event about a start offset, the cut-off
// leader that answered its ListOffsets, when one did: Broker and the
// epoch it believes current (FromEpoch). A current leader's answer adds
// nothing.
func answeredBy(ev Event, a listOffsets) Event {
	if a.deposed && a.code == errNone {
		ev.Broker, ev.FromEpoch = a.broker, a.epoch
	}
	return ev
}

// maybeReset asks again for the start offset of a partition m owns without
// a position, its last ListOffsets having failed; the member learns the
// answer in the beat it asks (see listOffset).
func (g *consumerGroup) maybeReset(e *engine, m *consumerMember, p int) {
	f := m.fetch[p]
	if !f.resetting || f.askedAt == e.now {
		return
	}
	a := g.listOffset(e, p)
	if a.code != errNone {
		if !f.told || f.toldBroker != a.broker {
			g.tellUnavailable(e, m, p, a)
		}
		g.lookupFailed(e, f)
		return
	}
	f.resetting, f.told, f.position, f.fetchOffset, f.buffer = false, false, a.offset, a.offset, nil
	e.emit(answeredBy(Event{Kind: KindConsumerStart, Partition: p, Group: g.cfg.ID, Member: m.name, Offset: a.offset,
		AutoOffsetReset: g.cfg.AutoOffsetReset}, a))
}

// tellUnavailable announces, once per failed lookup at a broker, that m
// could not learn where to start on p: the broker that answered a, and
// the view it answered from.
func (g *consumerGroup) tellUnavailable(e *engine, m *consumerMember, p int, a listOffsets) {
	m.fetch[p].told, m.fetch[p].toldBroker = true, a.broker
	e.emit(Event{Kind: KindConsumerOffsetUnavailable, Partition: p, Group: g.cfg.ID, Member: m.name,
		AutoOffsetReset: g.cfg.AutoOffsetReset, ErrorCode: a.code,
		Broker: a.broker, HighWatermark: a.hw, LeaderEpoch: a.epoch, EpochStartOffset: a.epochStart})
}

// maybeFetch sends m's fetch for p to the partition's leader, as the
// group's metadata names it (leaderFor), when it has handed out everything
// fetched and no fetch is outstanding. A request whose broker was down is
// known lost two beats after it was sent.
func (g *consumerGroup) maybeFetch(e *engine, m *consumerMember, p int) {
	f := m.fetch[p]
	if f.outstanding && e.now >= f.sentAt+2 {
		f.outstanding = false
	}
	leader := g.leaderFor(e, e.parts[p])
	if f.resetting || f.outstanding || len(f.buffer) > 0 || leader == 0 {
		return
	}
	f.outstanding, f.sentAt = true, e.now
	f.id++
	e.send(message{kind: msgGroup, from: 0, to: leader, part: p, group: g.cfg.ID, member: m.name,
		offset: f.fetchOffset, fetchID: f.id})
}

// handleConsumerMessage handles a consumer fetch (at a broker, to ≠ 0) or
// its response (at the member, to = 0) and reports whether m belonged to a
// consumer group.
func (e *engine) handleConsumerMessage(m *message) bool {
	g := e.consumerGroupNamed(m.group)
	if g == nil {
		return false
	}
	if m.to != 0 {
		e.handleConsumerFetch(m)
	} else {
		e.handleConsumerFetchResponse(g, m)
	}
	return true
}

// handleConsumerFetch is the leader's side of a consumer fetch
// (Partition.fetchRecords with isolation.level=read_uncommitted): every
// record from the fetch offset up to the high watermark, none at or above
// it. A deposed leader — cut off by isolate, it does not know it was
// replaced — answers the same way from its own log and its own high
// watermark, which cannot move while it has followers: the member's fetch
// names the leader epoch its stale metadata knows, the old one, which is
// the deposed leader's own (KIP-320), so nothing refuses it. Any other
// broker that does not lead answers NOT_LEADER_OR_FOLLOWER.
func (e *engine) handleConsumerFetch(m *message) {
	p := e.parts[m.part]
	reply := message{kind: msgGroup, from: m.to, to: 0, part: m.part, group: m.group, member: m.member,
		offset: m.offset, fetchID: m.fetchID}
	hw := p.hw
	if d := p.deposedBy(m.to); d != nil && p.leader != m.to {
		hw = d.hw
	} else if p.leader != m.to {
		reply.errCode = errNotLeaderOrFollower
		e.send(reply)
		return
	}
	r := p.reps[m.to]
	if m.offset > r.leo() {
		reply.errCode = errOffsetOutOfRange
		reply.leo = r.leo()
	} else {
		reply.hw = hw
		if m.offset < hw {
			reply.entries = r.log[m.offset:hw:hw]
		}
	}
	e.send(reply)
}

// handleConsumerFetchResponse buffers the fetched records at the member,
// or resets its position after OFFSET_OUT_OF_RANGE. Answers to a fetch the
// member no longer waits for are ignored.
func (e *engine) handleConsumerFetchResponse(g *consumerGroup, msg *message) {
	m := g.member(msg.member)
	if m == nil || m.state == memberStateStopped || msg.part >= len(m.fetch) || m.fetch[msg.part] == nil {
		return
	}
	f := m.fetch[msg.part]
	if !f.outstanding || f.id != msg.fetchID {
		return
	}
	f.outstanding = false
	switch msg.errCode {
	case errNotLeaderOrFollower:
		// An InvalidMetadataException: the consumer asks for a metadata
		// update (FetchCollector.handleInitializeErrors → requestMetadataUpdate).
		g.refreshMetadata(e)
	case errNone:
		for i, en := range msg.entries {
			f.buffer = append(f.buffer, bufferedRecord{part: msg.part, offset: msg.offset + int64(i), rec: en.Record})
		}
		f.fetchOffset += int64(len(msg.entries))
		if len(msg.entries) > 0 {
			e.emit(Event{Kind: KindConsumerFetch, Partition: msg.part, Group: g.cfg.ID, Member: m.name, Broker: msg.from,
				Offset: msg.offset, Records: recordIDs(msg.entries), HighWatermark: msg.hw})
		}
	case errOffsetOutOfRange:
		a := g.listOffset(e, msg.part)
		f.position, f.fetchOffset, f.buffer, f.resetting = a.offset, a.offset, nil, a.code != errNone
		// The ListOffsets goes to the leader that answered the fetch, or
		// to a newer one. A cut-off leader never answers
		// OFFSET_OUT_OF_RANGE: the group's metadata names it only while
		// every position the group holds came from its log, which it never
		// truncates while cut off (the invariants check the reset's
		// offset against the current leader).
		e.emit(Event{Kind: KindConsumerReset, Partition: msg.part, Group: g.cfg.ID, Member: m.name, Broker: msg.from,
			ErrorCode: errOffsetOutOfRange, FromOffset: msg.offset, LogEndOffset: msg.leo, ToOffset: a.offset,
			AutoOffsetReset: g.cfg.AutoOffsetReset})
		if f.resetting {
			g.tellUnavailable(e, m, msg.part, a)
			g.lookupFailed(e, f)
		}
	}
}

// leaderFor is the broker g's members fetch p from: the leader the group's
// metadata names. As for the producer (engine.leaderFor), the metadata is
// instant — the members learn every leader change at once — except about a
// leader cut off by isolate that does not know it was replaced: it keeps
// answering their fetches, so nothing tells them, and they keep fetching
// from it until the group's next refresh (metadata.max.age beats, or after
// a NOT_LEADER_OR_FOLLOWER).
func (g *consumerGroup) leaderFor(e *engine, p *partition) int {
	return e.metadataLeader(&g.meta, p)
}

// refreshMetadata is the members' metadata update (Metadata.update, on
// metadata.max.age or requestUpdate): the group learns every partition's
// current leader; a stale entry it corrects is told.
//
// Not inlined: one copy serves its callers, which keeps the playground's
// WebAssembly module within its size budget.
//
//go:noinline
func (g *consumerGroup) refreshMetadata(e *engine) {
	g.metaAt = e.now
	for i, old := range g.meta {
		if cur := e.parts[i].leader; old != cur {
			g.meta[i] = cur
			if e.parts[i].deposedBy(old) != nil {
				e.emit(Event{Kind: KindMetadata, Partition: i, Broker: old, Leader: cur, Group: g.cfg.ID})
			}
		}
	}
}
