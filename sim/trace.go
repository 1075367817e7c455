package sim

import "encoding/json"

// LagNever is the lag clock (Replica.LagTime, isr-shrink-propose's
// lagTime) of an ISR follower the leader has never counted caught up
// since it began tracking it: a replica a reassignment added, or one
// outside the ISR when this leader was elected, that joined the ISR on its
// first fetch (Partition.isFollowerInSync asks only for offsets) and has
// not fetched again. Kafka's ReplicaState starts lastCaughtUpTimeMs at 0,
// the Unix epoch (Replica.resetReplicaState, ReplicaState.Empty), so its
// lag then exceeds any replica.lag.time.max; Kafka Flow's beats start at
// 0, so the trace says "never" rather than a number of beats.
const LagNever = -1

// Trace is what Run returns: the state after every beat (Beats[0] is the
// initial state, Beats[b] the state at the end of beat b) and every record's
// fate. Its JSON form is the contract of `kflowgen sim`; field names use
// Kafka's terms in camelCase and are documented on the guide's scenario
// reference page.
type Trace struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Keys lists the producer's distinct keys in first-use order; a key's
	// index here is its colour index in figures.
	Keys []string `json:"keys"`
	// ReplicaLagTimeMax is the topic's replica.lag.time.max, in beats: the
	// limit every follower's lag clock (Replica.LagTime) counts towards.
	ReplicaLagTimeMax int      `json:"replicaLagTimeMax"`
	Beats             []Beat   `json:"beats"`
	Records           []Record `json:"records"`
	// Members lists every group member that ever joined: consumer groups
	// then share groups, in fence order, each group's members by number.
	Members []MemberLife `json:"members"`
}

// MemberLife is one group member's life over the whole run.
type MemberLife struct {
	Group string `json:"group"`
	// Type is "consumer" or "share", as the group's.
	Type   string `json:"type"`
	Member string `json:"member"`
	// Number is N of the member's name GROUP-N: its place in joining
	// order, from 1 (a figure's member colour comes from it).
	Number int `json:"number"`
	// JoinedAt is the beat it joined; LeftAt the beat it left cleanly and
	// FencedAt the beat the coordinator fenced it, −1 if it did not.
	// StaleAt is the last beat a consumer member left the group because
	// max.poll.interval ran out (consumer-poll-timeout), −1 if it never
	// did; such a member rejoins at its next poll unless it was closed or
	// stopped meanwhile.
	JoinedAt int `json:"joinedAt"`
	LeftAt   int `json:"leftAt"`
	FencedAt int `json:"fencedAt"`
	StaleAt  int `json:"staleAt"`
}

// Beat is the recorded state at the end of one beat.
type Beat struct {
	Beat int `json:"beat"`
	// Events is what happened during the beat, in the order it happened;
	// each event has its kind, its canonical sentence and the fields its
	// kind carries (see Event).
	Events []Event `json:"events"`
	// Messages are the messages sent during the beat, in send order; each
	// is delivered in step 3 of the next beat, or dropped there (Dropped)
	// when its broker is offline. Messages sent in the last beat are still
	// on the wire when the run ends.
	Messages   []Message   `json:"messages"`
	Brokers    []Broker    `json:"brokers"`
	Partitions []Partition `json:"partitions"`
	Producer   Producer    `json:"producer"`
	// Groups holds consumer groups then share groups, each in fence order.
	Groups []Group `json:"groups"`
}

// noEvents and noMessages are the shared, never-modified empty lists.
var (
	noEvents   = []Event{}
	noMessages = []Message{}
)

// Texts returns the canonical sentence of each of the beat's events.
func (b *Beat) Texts() []string {
	out := make([]string, len(b.Events))
	for i := range b.Events {
		out[i] = b.Events[i].String()
	}
	return out
}

// Broker is one broker's liveness at a beat.
type Broker struct {
	Broker int  `json:"broker"`
	Online bool `json:"online"`
	// Paused is true while the broker's follower fetchers are stopped.
	Paused bool `json:"paused"`
	// Isolated is true while the broker is cut off from the controller and
	// the other brokers (isolate); Fenced once the controller fenced it
	// for missing heartbeats (broker.session.timeout), until it heals.
	Isolated bool `json:"isolated"`
	Fenced   bool `json:"fenced"`
}

// Partition is one partition's state at a beat, as the controller and the
// leader know it (Kafka: PartitionRegistration plus the leader's
// Partition object).
type Partition struct {
	Partition int `json:"partition"`
	// Leader is the leader's broker id, 0 when the partition is offline.
	Leader      int `json:"leader"`
	LeaderEpoch int `json:"leaderEpoch"`
	// LeaderEpochStartOffset is the first offset of the current leader
	// epoch: the leader's log end offset when it became leader
	// (Partition.makeLeader, LeaderEpochFileCache.assign); the last
	// leader's while offline.
	LeaderEpochStartOffset int64 `json:"leaderEpochStartOffset"`
	// ISR lists in-sync replicas' broker ids in assignment order.
	ISR []int `json:"isr"`
	// MinInsyncReplicas is the effective min.insync.replicas: the topic's
	// setting capped at the replica count (Partition.effectiveMinIsr).
	// UnderMinIsr is true while the partition has a leader and its ISR is
	// smaller (Partition.isUnderMinIsr): the high watermark stays where it
	// is and acks=all produce requests are refused with
	// NOT_ENOUGH_REPLICAS.
	MinInsyncReplicas int  `json:"minInsyncReplicas"`
	UnderMinIsr       bool `json:"underMinIsr"`
	// PendingISR is the ISR the leader proposed in an AlterPartition the
	// controller has not answered yet (Kafka's PendingExpandIsr and
	// PendingShrinkIsr states); left out while no change is in flight.
	// While one is, the leader proposes no other change.
	PendingISR []int `json:"pendingIsr,omitempty"`
	// HighWatermark is the leader's high watermark (offset), or the last
	// leader's when offline.
	HighWatermark int64 `json:"highWatermark"`
	// Assignment is the replica list in assignment order (during a
	// reassignment: target followed by the replicas being removed).
	Assignment []int `json:"assignment"`
	// Adding and Removing are the replicas a reassignment is moving
	// (PartitionReassignmentReplicas); empty when none is under way.
	Adding   []int     `json:"adding,omitempty"`
	Removing []int     `json:"removing,omitempty"`
	Replicas []Replica `json:"replicas"`
}

// Replica is one broker's copy of a partition at a beat.
type Replica struct {
	Broker       int   `json:"broker"`
	LogEndOffset int64 `json:"logEndOffset"`
	// HighWatermark is this replica's own high watermark: the leader's
	// for the leader, min(leader's in last fetch response, own log end
	// offset) for a follower.
	HighWatermark int64 `json:"highWatermark"`
	Online        bool  `json:"online"`
	// LagTime is the follower's lag clock, in beats: for a follower in the
	// ISR whose log end offset, as the leader last saw it on a fetch, is
	// below the leader's, the beats since the leader last counted it caught
	// up (Replica.lastCaughtUpTimeMs). While it is at most
	// replica.lag.time.max the follower is caught up (ReplicaState.isCaughtUp);
	// on the first run of the isr-expiration task (every
	// replica.lag.time.max/2 beats) after it has passed it, the leader
	// proposes to drop the follower (isr-shrink-propose, the same lagTime),
	// unless another ISR change is in flight (PendingISR). 0 for the
	// leader, for a follower the leader sees at its log end offset, for one
	// outside the ISR and while the partition has no leader; left out when
	// 0. LagNever (−1) for an ISR follower the leader has never counted
	// caught up since it began tracking it.
	LagTime int `json:"lagTime,omitempty"`
	// Log holds the replica's records, index = offset. The slice is shared
	// between beats and must not be modified.
	Log []Entry `json:"log"`
}

// Entry is one record in a replica's log.
type Entry struct {
	// Record is the record id (from 1).
	Record int `json:"record"`
	// Epoch is the leader epoch the record was appended in.
	Epoch int `json:"epoch"`
}

// Producer is the producer's rail at a beat: the records it has created and
// not yet settled, and those that settled this beat.
type Producer struct {
	Cards []Card `json:"cards"`
}

// Card is one record on the producer rail.
type Card struct {
	Record int `json:"record"`
	// Stage says where the record is: "queued" (created, waiting for a
	// slot in the in-flight budget), "sending" (request on the wire to
	// the leader), "waiting" (appended, parked until the high watermark
	// passes it), "answering" (response on the wire), "backoff" (waiting to
	// retry), or "settled" (settled this beat; Outcome says how).
	Stage   string `json:"stage"`
	Attempt int    `json:"attempt"`
	Outcome string `json:"outcome,omitempty"`
}

// Record outcomes, as the trace spells them.
const (
	OutcomePending = "pending" // not settled by the last beat
	OutcomeAcked   = "acked"   // acknowledged and never lost
	OutcomeSent    = "sent"    // acks=0: left the producer, no answer expected
	OutcomeF       = "F"       // every attempt refused before the append until delivery.timeout: a clean failure
	OutcomeU       = "U"       // may be in the log: the leader changed before the answer, or an attempt was appended and answered an error
	OutcomeL       = "L"       // acknowledged, then truncated away
)

// Record is one record's fate over the whole run.
type Record struct {
	ID        int    `json:"id"`
	Key       string `json:"key"`
	Partition int    `json:"partition"`
	// Offset is where the record was (last) appended, -1 if never; once
	// acknowledged (with acks=1 or all), the offset the acknowledgement
	// named (RecordMetadata.offset), which for a resend an idempotent
	// producer's leader recognised is that of the first copy.
	Offset  int64  `json:"offset"`
	Outcome string `json:"outcome"`
	// CreatedAt is the beat the producer created the record.
	CreatedAt int `json:"createdAt"`
	// SettledAt is the beat the outcome became final; -1 while pending.
	// For L it is the beat the loss became certain: the beat a leader was
	// elected whose log lacks the record (the replicas that hold it will
	// truncate it when they next fetch), or the beat its acknowledgement
	// arrived if that came later.
	SettledAt int `json:"settledAt"`
	// AckedAt is the beat the producer got a positive answer (-1 if never).
	AckedAt int `json:"ackedAt"`
	// Appends lists every time a leader appended the record, in order: a
	// retry after an answer that never came appends it again, so two
	// entries are a duplicate in the log.
	Appends []Append `json:"appends"`
}

// Append is one leader append of a record (Partition.appendRecordsToLeader).
type Append struct {
	// Offset is where the record was appended; LeaderEpoch the leader
	// epoch it was appended in; Beat the beat it happened.
	Offset      int64 `json:"offset"`
	LeaderEpoch int   `json:"leaderEpoch"`
	Beat        int   `json:"beat"`
}

// Group is one consumer or share group at a beat.
type Group struct {
	Group string `json:"group"`
	// Type is "consumer" or "share".
	Type string `json:"type"`
	// GroupEpoch is bumped by the coordinator on every membership or
	// metadata change (KIP-848).
	GroupEpoch int              `json:"groupEpoch"`
	Members    []Member         `json:"members"`
	Partitions []GroupPartition `json:"partitions"`
}

// Member is one group member at a beat.
type Member struct {
	Member string `json:"member"`
	// Number is N of the name GROUP-N (MemberLife.Number).
	Number int `json:"number"`
	// Partitions the member owns (consumer) or is assigned (share).
	Partitions []int `json:"partitions"`
	// State is "active", "stopped" (no heartbeats; not yet fenced);
	// consumer members may also be "revoking" (own partitions that left
	// their target), "assigning" (wait for partitions another member still
	// owns) or "leaving" (finishing a record before leaving).
	State string `json:"state"`
	// Revoking and Assigning are the partitions a consumer member must
	// give up and waits for while the group reconciles (KIP-848).
	Revoking  []int `json:"revoking,omitempty"`
	Assigning []int `json:"assigning,omitempty"`
	// Processing is the record id the member is working on (0 if idle).
	Processing int `json:"processing,omitempty"`
}

// GroupPartition is one partition as a group sees it at a beat. Consumer
// groups fill Owner, Position and Committed; share groups (Share true) fill
// StartOffset and Records. MarshalJSON writes only the fields of the
// group's type, so `owner` is "" when a consumer partition has none.
type GroupPartition struct {
	Partition int
	Share     bool
	Owner     string
	// Position is the owner's next offset to fetch (-1 when no owner).
	Position int64
	// Committed is the group's committed offset (-1 when none).
	Committed int64
	// Reprocessed lists offsets this group processed more than once.
	Reprocessed []int64
	// StartOffset is the share-partition start offset (SPSO).
	StartOffset int64
	// Records are the in-flight share records, by offset.
	Records []ShareRecord
	// Finished lists every share record that has left the window (below
	// StartOffset), in offset order, with its final state (acknowledged or
	// archived), delivery count and finisher, so an archived record stays
	// in the trace after the start offset passes it. Shared between beats;
	// never modify it.
	Finished []ShareRecord
}

// MarshalJSON writes the fields of a consumer-group partition
// (partition, owner, position, committed, reprocessed) or of a share
// partition (partition, startOffset, records, finished).
func (g GroupPartition) MarshalJSON() ([]byte, error) {
	if g.Share {
		return json.Marshal(struct {
			Partition   int           `json:"partition"`
			StartOffset int64         `json:"startOffset"`
			Records     []ShareRecord `json:"records"`
			Finished    []ShareRecord `json:"finished"`
		}{g.Partition, g.StartOffset, nonNil(g.Records), nonNil(g.Finished)})
	}
	return json.Marshal(struct {
		Partition   int     `json:"partition"`
		Owner       string  `json:"owner"`
		Position    int64   `json:"position"`
		Committed   int64   `json:"committed"`
		Reprocessed []int64 `json:"reprocessed"`
	}{g.Partition, g.Owner, g.Position, g.Committed, nonNil(g.Reprocessed)})
}

// nonNil makes an empty slice marshal as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ShareRecord is one in-flight record of a share partition
// (SharePartition.InFlightState).
type ShareRecord struct {
	Offset int64 `json:"offset"`
	// State is "available", "acquired", "acknowledged" or "archived".
	State         string `json:"state"`
	DeliveryCount int    `json:"deliveryCount"`
	// Member holds the record while acquired ("" otherwise).
	Member string `json:"member,omitempty"`
	// Finisher is the member whose acknowledgement made it acknowledged.
	Finisher string `json:"finisher,omitempty"`
}
