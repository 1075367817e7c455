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

// listOffset answers a group's ListOffsets for partition p at its leader,
// at once (the lookup takes no beats in Kafka Flow): offset 0 for the
// earliest offset (Kafka Flow deletes nothing), the leader's high
// watermark for the latest (isolation.level=read_uncommitted). A
// partition without a leader answers LEADER_NOT_AVAILABLE. A latest lookup
// at a leader whose high watermark is still below the start offset of its
// leader epoch answers OFFSET_NOT_AVAILABLE (KIP-207,
// Partition.fetchOffsetForTimestamp): right after an election the new
// leader's high watermark is the one it had as a follower and can be
// below offsets the old leader had already exposed. Both errors are
// retriable; the caller asks again.
func (e *engine) listOffset(p int, latest bool) (int64, string) {
	pt := e.parts[p]
	switch {
	case pt.leader == 0:
		return -1, errLeaderNotAvailable
	case !latest:
		return 0, errNone
	case pt.hw < pt.epochStart:
		return -1, errOffsetNotAvailable
	}
	return pt.hw, errNone
}
