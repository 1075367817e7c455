package sim

// This file holds the hooks through which consumer groups (KIP-848) and
// share groups (KIP-932) plug into the beat loop. The replication engine
// calls them at fixed points; each group engine adds one call per hook and
// keeps its engine steps in its own files (consumer.go for consumer groups;
// share.go and share_partition.go for share groups); their recording is in
// record.go, their wording in describe.go, their invariants in
// invariants_groups.go and their expect fields in check.go.

// groupsState holds every consumer and share group's state.
type groupsState struct {
	// consumer holds the consumer groups in fence order (consumer.go).
	consumer []*consumerGroup
	// share holds the share groups (share.go).
	share shareState
}

// noGroups is the shared, never-modified empty group list.
var noGroups = []Group{}

// initGroups builds the groups of the scenario at beat 0 (members join at
// beat 0).
func (e *engine) initGroups() {
	e.initConsumerGroups()
	e.initShareGroups()
}

// applyGroupEvent applies a join, leave or stop timeline event (step 1).
func (e *engine) applyGroupEvent(ev TimelineEvent) {
	if e.applyConsumerEvent(ev) {
		return
	}
	if e.applyShareEvent(ev) {
		return
	}
}

// handleGroupMessage handles a group message delivered in step 3. By
// convention a group message to broker 0 is a response to a client.
func (e *engine) handleGroupMessage(m *message) {
	if e.handleConsumerMessage(m) {
		return
	}
	if e.handleShareMessage(m) {
		return
	}
}

// stepGroups lets consumers poll and commit and share members acquire,
// process and acknowledge (step 5, after the producer and followers).
func (e *engine) stepGroups() {
	e.stepConsumerGroups()
	e.stepShareGroups()
}

// Errors a ListOffsets lookup can meet (Kafka's Errors enum).
const (
	errOffsetNotAvailable = "OFFSET_NOT_AVAILABLE"
	errLeaderNotAvailable = "LEADER_NOT_AVAILABLE"
)

// listOffsets is the answer to a ListOffsets lookup: the offset (−1 on an
// error), the error code, and the broker that answered with the view it
// answered from — its high watermark, leader epoch and that epoch's start
// offset. deposed says the broker was a leader cut off by isolate that
// does not know it was replaced (its own epoch, not the partition's).
type listOffsets struct {
	offset         int64
	code           string
	broker         int
	hw, epochStart int64
	epoch          int
	deposed        bool
}

// listOffset answers a ListOffsets for partition p sent to broker b — the
// leader the client's metadata names (metadataLeader; 0 when it knows
// none) — at once (the lookup takes no beats in Kafka Flow): offset 0 for
// the earliest offset (Kafka Flow deletes nothing), the broker's high
// watermark for the latest (isolation.level=read_uncommitted). No leader
// to ask answers LEADER_NOT_AVAILABLE. A latest lookup at a leader whose
// high watermark is still below the start offset of its leader epoch
// answers OFFSET_NOT_AVAILABLE (KIP-207, Partition.fetchOffsetForTimestamp):
// right after an election the new leader's high watermark is the one it had
// as a follower and can be below offsets the old leader had already
// exposed. A leader cut off by isolate answers from its own state: the
// request carries the leader epoch the client's metadata knows, which is
// its own, so Partition.localLogWithEpochOrThrow accepts it (KIP-320), and
// its high watermark is the one frozen when its followers lost it. A
// broker that leads neither way answers NOT_LEADER_OR_FOLLOWER. Every error
// is retriable; the caller asks again (OffsetFetcherUtils.
// handleListOffsetResponse) after a metadata update.
func (e *engine) listOffset(b, p int, latest bool) listOffsets {
	pt := e.parts[p]
	a := listOffsets{offset: -1, broker: b}
	switch d := pt.deposedBy(b); {
	case b == 0:
		a.code = errLeaderNotAvailable
		return a
	case b == pt.leader:
		a.hw, a.epoch, a.epochStart = pt.hw, pt.epoch, pt.epochStart
	case d != nil:
		a.hw, a.epoch, a.epochStart, a.deposed = d.hw, d.epoch, d.epochStart, true
	default:
		a.code = errNotLeaderOrFollower
		return a
	}
	switch {
	case !latest:
		a.offset, a.code = 0, errNone
	case a.hw < a.epochStart:
		a.code = errOffsetNotAvailable
	default:
		a.offset, a.code = a.hw, errNone
	}
	return a
}
