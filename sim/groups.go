package sim

// This file holds the hooks through which consumer groups (KIP-848) and
// share groups (KIP-932) plug into the beat loop. The replication engine
// calls them at fixed points; until the group engines land they do
// nothing and groups are recorded as an empty list.

// groupsState holds every consumer and share group's state. Empty until
// the group engines are written.
type groupsState struct{}

// noGroups is the shared, never-modified empty group list.
var noGroups = []Group{}

// initGroups builds the groups of the scenario at beat 0 (members join at
// beat 0).
func (e *engine) initGroups() {}

// applyGroupEvent applies a join, leave or stop timeline event (step 1).
func (e *engine) applyGroupEvent(ev TimelineEvent) {}

// handleGroupMessage handles a group message delivered in step 3.
func (e *engine) handleGroupMessage(m *message) {}

// stepGroups lets consumers poll and commit and share members acquire,
// process and acknowledge (step 5, after the producer and followers).
func (e *engine) stepGroups() {}

// recordGroups returns the groups' state for the beat being recorded
// (step 6): consumer groups then share groups, each in fence order.
func (e *engine) recordGroups() []Group { return noGroups }
