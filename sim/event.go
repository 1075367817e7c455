package sim

import (
	"bytes"
	"encoding/json"
)

// Kind names what an Event reports. Its value is the event's `kind` in the
// trace JSON: a stable lower-case word, never translated or reworded
// (the wording is the event's `text`, in describe.go). Not to be confused
// with EventKind, which names a timeline action of a scenario.
type Kind string

// The kinds of event, grouped by who acts. Each kind carries the fields
// kindFields lists for it; the reference page's event table is kept equal
// to that list by a test.
const (
	// The cluster: brokers and the controller (ReplicationControlManager).
	KindCrash         Kind = "crash"          // a broker crashed
	KindRestart       Kind = "restart"        // a broker restarted
	KindPause         Kind = "pause"          // a broker's follower fetchers stopped
	KindResume        Kind = "resume"         // they started again
	KindIsolate       Kind = "isolate"        // a broker lost the controller and the other brokers
	KindHeal          Kind = "heal"           // it reaches them again
	KindBrokerFence   Kind = "broker-fence"   // the controller fenced an isolated broker (broker.session.timeout)
	KindStepDown      Kind = "step-down"      // a deposed leader learned the new leader epoch and follows
	KindAddBroker     Kind = "add-broker"     // a broker joined the cluster
	KindAddPartitions Kind = "add-partitions" // the topic grew (CreatePartitions)
	KindLeader        Kind = "leader"         // a new leader was elected, with a new leader epoch
	KindOffline       Kind = "offline"        // no live ISR member: the partition has no leader
	KindISRFence      Kind = "isr-fence"      // the controller fenced a crashed broker out of an ISR
	KindReassign      Kind = "reassign"       // a reassignment started
	KindReassignDone  Kind = "reassign-done"  // a reassignment completed

	// The partition leader and its followers (Partition, ReplicaFetcherThread).
	KindAppend           Kind = "append"             // the leader appended a record
	KindRefuse           Kind = "refuse"             // the leader refused a record: NOT_ENOUGH_REPLICAS
	KindHW               Kind = "hw"                 // the leader's high watermark moved
	KindHWNewLeader      Kind = "hw-new-leader"      // a new leader's high watermark is the one it had as a follower
	KindISRShrinkPropose Kind = "isr-shrink-propose" // the leader asked the controller to drop an out-of-sync follower (AlterPartition)
	KindISRShrink        Kind = "isr-shrink"         // the controller committed a shrink: followers left the ISR
	KindISRExpandPropose Kind = "isr-expand-propose" // the leader asked the controller to add a caught-up follower (AlterPartition)
	KindISRExpand        Kind = "isr-expand"         // the controller committed an expansion: a follower joined the ISR
	KindISRHeldBack      Kind = "isr-held-back"      // a follower reached the high watermark but not the epoch's start offset
	KindISRRefused       Kind = "isr-refused"        // the controller refused an expansion (INELIGIBLE_REPLICA)
	KindReplicate        Kind = "replicate"          // a follower appended what it fetched
	KindTruncate         Kind = "truncate"           // a follower truncated its log (KIP-101, KIP-279)

	// The producer.
	KindCreate    Kind = "create"      // the producer created a record
	KindSend      Kind = "send"        // it sent a produce request
	KindAck       Kind = "ack"         // a record was acknowledged
	KindReject    Kind = "reject"      // a produce request failed with an error code
	KindFail      Kind = "fail"        // F: delivery.timeout ran out
	KindUnknown   Kind = "unknown"     // U: the leader changed before the response arrived, or delivery.timeout ran out after an append or an unknown outcome
	KindLost      Kind = "lost"        // L: an acknowledged record is not in the new leader's log
	KindLostOnAck Kind = "lost-on-ack" // L on the beat the acknowledgement arrived
	KindRetry     Kind = "retry"       // the outcome was unknown; the producer resends (retries)
	KindMetadata  Kind = "metadata"    // the producer's (or a consumer group's) metadata refresh found a partition's new leader
	KindDuplicate Kind = "duplicate"   // an idempotent leader recognised a resent record and did not append it again

	// Consumer groups (KIP-848).
	KindConsumerJoin       Kind = "consumer-join"
	KindConsumerLeaving    Kind = "consumer-leaving" // leaving once its record is processed
	KindConsumerLeave      Kind = "consumer-leave"
	KindConsumerStop       Kind = "consumer-stop"
	KindConsumerFence      Kind = "consumer-fence" // fenced after session.timeout
	KindConsumerPartitions Kind = "consumer-partitions"
	KindConsumerTarget     Kind = "consumer-target" // a new target assignment
	KindConsumerRelease    Kind = "consumer-release"
	KindConsumerAssign     Kind = "consumer-assign" // a member took a partition
	KindConsumerCommit     Kind = "consumer-commit"
	KindConsumerFetch      Kind = "consumer-fetch"
	KindConsumerProcess    Kind = "consumer-process"
	KindConsumerReset      Kind = "consumer-reset" // OFFSET_OUT_OF_RANGE, then auto.offset.reset
	// KindConsumerOffsetUnavailable: a member could not learn where to
	// start (ListOffsets found no leader, or OFFSET_NOT_AVAILABLE, KIP-207).
	KindConsumerOffsetUnavailable Kind = "consumer-offset-unavailable"
	KindConsumerStart             Kind = "consumer-start"        // it learned it on a later try
	KindConsumerPollTimeout       Kind = "consumer-poll-timeout" // it left the group on max.poll.interval
	KindConsumerCommitFailed      Kind = "consumer-commit-failed"
	KindConsumerRejoin            Kind = "consumer-rejoin" // a member that left on max.poll.interval polled again

	// Share groups (KIP-932).
	KindShareJoin      Kind = "share-join"
	KindShareLeave     Kind = "share-leave"
	KindShareStop      Kind = "share-stop"
	KindShareFence     Kind = "share-fence"
	KindShareAssign    Kind = "share-assign" // a new SimpleAssignor target
	KindShareStart     Kind = "share-start"  // the group started reading a partition
	KindShareAcquire   Kind = "share-acquire"
	KindShareProcessed Kind = "share-processed" // a member finished or failed a record
	KindShareAccept    Kind = "share-accept"    // acknowledged
	KindShareAvailable Kind = "share-available" // back to available
	KindShareArchive   Kind = "share-archive"   // archived
	KindShareRefused   Kind = "share-refused"   // INVALID_RECORD_STATE
	KindShareSPSO      Kind = "share-spso"      // the share-partition start offset moved
	KindShareNotLeader Kind = "share-not-leader"
	KindShareLost      Kind = "share-lost" // a request was lost with its broker
	// KindShareOffsetUnavailable: the leader could not yet start the
	// share-partition (no leader, or OFFSET_NOT_AVAILABLE, KIP-207).
	KindShareOffsetUnavailable Kind = "share-offset-unavailable"
)

// Event reasons: the values of Event.Reason, per kind.
const (
	// hw: what let the high watermark move.
	ReasonAppend           = "append"            // the leader appended (its text gives no reason)
	ReasonLeaderAlone      = "leader-alone"      // the ISR is the leader alone
	ReasonNewLeaderAlone   = "new-leader-alone"  // a new leader's ISR is itself alone
	ReasonFollowerFetch    = "follower-fetch"    // a follower's fetch (Broker, FetchOffset) moved it
	ReasonISRShrink        = "isr-shrink"        // the ISR dropped the replica it waited for
	ReasonISRFence         = "isr-fence"         // the controller fenced a replica the ISR waited for
	ReasonISRExpand        = "isr-expand"        // the ISR took in a follower and is back at min.insync.replicas
	ReasonReassignmentDone = "reassignment-done" // a reassignment dropped the replicas it removed

	// unknown: why the outcome is unknown.
	ReasonLeaderChange    = "leader-change"    // the leader changed before the answer arrived
	ReasonDeliveryTimeout = "delivery-timeout" // delivery.timeout ran out after an unknown outcome or an append answered with an error

	// truncate: how the follower found its truncation offset.
	ReasonDiverged     = "diverged"      // the logs diverge at ToOffset
	ReasonEpochUnknown = "epoch-unknown" // it lacks DivergingEpoch: ToOffset ends its own older epoch; it asks again

	// leader: what happened to Cause that forced the election.
	ReasonOffline   = "offline"   // the leader went offline
	ReasonRestarted = "restarted" // an ISR member of an offline partition restarted
	ReasonRemoved   = "removed"   // a reassignment removed the leader
	ReasonHealed    = "healed"    // an ISR member of an offline partition healed (ReasonFenced: fenced after broker.session.timeout)

	// consumer-commit: why the member committed.
	ReasonAuto   = "auto"   // auto-commit (auto.commit.interval)
	ReasonRevoke = "revoke" // before releasing a revoked partition
	ReasonLeave  = "leave"  // before leaving the group

	// share-available and share-archive: how the record left Member.
	ReasonLockExpired = "lock-expired" // Member's acquisition lock ran out
	ReasonReleased    = "released"     // Member acknowledged it RELEASE
	ReasonRejected    = "rejected"     // Member acknowledged it REJECT
	ReasonLeft        = "left"         // Member left the group holding it: its share session closed
	ReasonFenced      = "fenced"       // Member was fenced holding it
)

// Event is one thing that happened in a beat, with the facts it is about in
// fields named by meaning; each field means the same in every kind that
// carries it, and a kind carries only the fields kindFields lists (the
// others are zero). Text is the event's canonical sentence (describe.go),
// filled when the beat is recorded; the trace's `events`, figure captions
// and golden files all use it.
type Event struct {
	Kind Kind
	Text string

	// Broker is the broker that acts or is acted on (a follower for
	// replicate and truncate; the broker answering a fetch).
	Broker int
	// Leader is a partition's leader: the one a follower fetched from
	// (replicate), the current one (step-down, metadata; 0 for none).
	Leader int
	// Cause is the broker whose change forced an election (leader,
	// offline).
	Cause int
	// Partition is the partition the event is about, −1 for none.
	Partition int
	// Record is a record id (from 1); Records lists record ids in offset
	// order from Offset (replicate, consumer-fetch).
	Record  int
	Records []int
	// Key is a record's key (create).
	Key string

	// Offset is the log offset the event is about; FetchOffset a
	// follower's fetch offset; FromOffset and ToOffset the two ends of an
	// offset that moved (a high watermark, a share-partition start offset,
	// a consumer's position, a truncated log end offset).
	Offset, FetchOffset, FromOffset, ToOffset int64
	// LogEndOffset and HighWatermark are a replica's or partition's, as
	// the event saw them; EpochStartOffset is the offset the leader's
	// current leader epoch starts at (Partition.leaderEpochStartOffsetOpt).
	LogEndOffset, HighWatermark, EpochStartOffset int64
	// LeaderEpoch is the partition's leader epoch (append, leader,
	// offline); DivergingEpoch the leader epoch a fetch response named as
	// diverging and EpochEndOffset where that epoch ends on the leader
	// (LeaderEpochFileCache.endOffsetFor) (truncate).
	LeaderEpoch, DivergingEpoch int
	// FromEpoch is the leader epoch a deposed leader believed current
	// (step-down).
	FromEpoch      int
	EpochEndOffset int64

	// ISR is a partition's in-sync replica set; From and To are the two
	// ends of a replica list that changed (the ISR; a reassignment's
	// replicas), Adding and Removing what a change adds or removes (a
	// reassignment; the followers an ISR shrink drops).
	ISR, From, To, Adding, Removing []int
	// MinInsyncReplicas is the effective min.insync.replicas (refuse).
	MinInsyncReplicas int

	// Attempt counts a record's produce attempts (from 1); Acks is the
	// producer's acks setting ("0", "1", "all"); ErrorCode a Kafka error
	// code (NOT_ENOUGH_REPLICAS, NOT_LEADER_OR_FOLLOWER, …). Retry counts
	// a record's resends after an unknown outcome (from 1) and Retries is
	// the producer's retries setting (retry).
	Attempt        int
	Acks           string
	ErrorCode      string
	Retry, Retries int

	// Durations in beats: a replica's time since it was last caught up
	// (isr-shrink) and the settings that ran out (delivery.timeout,
	// retry.backoff, session.timeout, max.poll.interval).
	LagTime, DeliveryTimeout, RetryBackoff, SessionTimeout, MaxPollInterval int

	// Added and Partitions count partitions: how many were added and how
	// many there are now; PreviousPartitions how many a group saw before.
	Added, Partitions, PreviousPartitions int

	// Group and Member name a consumer or share group and one of its
	// members (GROUP-N); GroupEpoch is the group epoch after the event.
	Group, Member string
	GroupEpoch    int
	// Assignment is a target assignment, members in name order.
	Assignment []MemberPartitions
	// MembersPerPartition is how many members a share partition is
	// assigned to (share-assign).
	MembersPerPartition int
	// AutoOffsetReset is the reset policy that chose a start offset
	// ("earliest" or "latest"; "" when the committed offset was used).
	AutoOffsetReset string
	// Reprocessed is true when the group handed out this offset before.
	Reprocessed bool

	// DeliveryCount is a share record's delivery count; LockedUntil the
	// beat its acquisition lock expires; AcknowledgeType ACCEPT, RELEASE or
	// REJECT; LostAcknowledgements how many acknowledgements a refused
	// request carried.
	DeliveryCount        int
	LockedUntil          int
	AcknowledgeType      string
	LostAcknowledgements int

	// Reason says why, as one of the Reason constants of the kind.
	Reason string
}

// MemberPartitions is one member's part of a target assignment.
type MemberPartitions struct {
	Member     string `json:"member"`
	Partitions []int  `json:"partitions"`
}

// String returns the event's canonical text.
func (e Event) String() string {
	if e.Text != "" {
		return e.Text
	}
	return describe(e)
}

// field is one named field of a trace object of type T (an Event or a
// Message) in the trace JSON.
type field[T any] struct {
	name string
	get  func(v *T) any
}

// The event fields, by JSON name.
var (
	fBroker               = field[Event]{"broker", func(e *Event) any { return e.Broker }}
	fLeader               = field[Event]{"leader", func(e *Event) any { return e.Leader }}
	fCause                = field[Event]{"cause", func(e *Event) any { return e.Cause }}
	fPartition            = field[Event]{"partition", func(e *Event) any { return e.Partition }}
	fRecord               = field[Event]{"record", func(e *Event) any { return e.Record }}
	fRecords              = field[Event]{"records", func(e *Event) any { return nonNil(e.Records) }}
	fKey                  = field[Event]{"key", func(e *Event) any { return e.Key }}
	fOffset               = field[Event]{"offset", func(e *Event) any { return e.Offset }}
	fFetchOffset          = field[Event]{"fetchOffset", func(e *Event) any { return e.FetchOffset }}
	fFromOffset           = field[Event]{"fromOffset", func(e *Event) any { return e.FromOffset }}
	fToOffset             = field[Event]{"toOffset", func(e *Event) any { return e.ToOffset }}
	fLogEndOffset         = field[Event]{"logEndOffset", func(e *Event) any { return e.LogEndOffset }}
	fHighWatermark        = field[Event]{"highWatermark", func(e *Event) any { return e.HighWatermark }}
	fLeaderEpoch          = field[Event]{"leaderEpoch", func(e *Event) any { return e.LeaderEpoch }}
	fFromEpoch            = field[Event]{"fromEpoch", func(e *Event) any { return e.FromEpoch }}
	fEpochEndOffset       = field[Event]{"epochEndOffset", func(e *Event) any { return e.EpochEndOffset }}
	fEpochStartOffset     = field[Event]{"epochStartOffset", func(e *Event) any { return e.EpochStartOffset }}
	fDivergingEpoch       = field[Event]{"divergingEpoch", func(e *Event) any { return e.DivergingEpoch }}
	fISR                  = field[Event]{"isr", func(e *Event) any { return nonNil(e.ISR) }}
	fFrom                 = field[Event]{"from", func(e *Event) any { return nonNil(e.From) }}
	fTo                   = field[Event]{"to", func(e *Event) any { return nonNil(e.To) }}
	fAdding               = field[Event]{"adding", func(e *Event) any { return nonNil(e.Adding) }}
	fRemoving             = field[Event]{"removing", func(e *Event) any { return nonNil(e.Removing) }}
	fMinInsyncReplicas    = field[Event]{"minInsyncReplicas", func(e *Event) any { return e.MinInsyncReplicas }}
	fAttempt              = field[Event]{"attempt", func(e *Event) any { return e.Attempt }}
	fRetry                = field[Event]{"retry", func(e *Event) any { return e.Retry }}
	fRetries              = field[Event]{"retries", func(e *Event) any { return e.Retries }}
	fAcks                 = field[Event]{"acks", func(e *Event) any { return e.Acks }}
	fErrorCode            = field[Event]{"errorCode", func(e *Event) any { return e.ErrorCode }}
	fLagTime              = field[Event]{"lagTime", func(e *Event) any { return e.LagTime }}
	fDeliveryTimeout      = field[Event]{"deliveryTimeout", func(e *Event) any { return e.DeliveryTimeout }}
	fRetryBackoff         = field[Event]{"retryBackoff", func(e *Event) any { return e.RetryBackoff }}
	fSessionTimeout       = field[Event]{"sessionTimeout", func(e *Event) any { return e.SessionTimeout }}
	fMaxPollInterval      = field[Event]{"maxPollInterval", func(e *Event) any { return e.MaxPollInterval }}
	fAdded                = field[Event]{"added", func(e *Event) any { return e.Added }}
	fPartitions           = field[Event]{"partitions", func(e *Event) any { return e.Partitions }}
	fPreviousPartitions   = field[Event]{"previousPartitions", func(e *Event) any { return e.PreviousPartitions }}
	fGroup                = field[Event]{"group", func(e *Event) any { return e.Group }}
	fMember               = field[Event]{"member", func(e *Event) any { return e.Member }}
	fGroupEpoch           = field[Event]{"groupEpoch", func(e *Event) any { return e.GroupEpoch }}
	fAssignment           = field[Event]{"assignment", func(e *Event) any { return nonNil(e.Assignment) }}
	fMembersPerPartition  = field[Event]{"membersPerPartition", func(e *Event) any { return e.MembersPerPartition }}
	fAutoOffsetReset      = field[Event]{"autoOffsetReset", func(e *Event) any { return e.AutoOffsetReset }}
	fReprocessed          = field[Event]{"reprocessed", func(e *Event) any { return e.Reprocessed }}
	fDeliveryCount        = field[Event]{"deliveryCount", func(e *Event) any { return e.DeliveryCount }}
	fLockedUntil          = field[Event]{"lockedUntil", func(e *Event) any { return e.LockedUntil }}
	fAcknowledgeType      = field[Event]{"acknowledgeType", func(e *Event) any { return e.AcknowledgeType }}
	fLostAcknowledgements = field[Event]{"lostAcknowledgements", func(e *Event) any { return e.LostAcknowledgements }}
	fReason               = field[Event]{"reason", func(e *Event) any { return e.Reason }}
)

// kindSpec says which fields a kind of T carries in the trace JSON:
// always fields, then each optional group whose condition holds; reasons
// lists the values an event's Reason may take (none when it carries no
// reason).
type kindSpec[K ~string, T any] struct {
	kind     K
	fields   []field[T]
	optional []optional[T]
	reasons  []string
}

// optional is a group of fields written only when when(v) holds.
type optional[T any] struct {
	when   func(v *T) bool
	fields []field[T]
}

// only is shorthand for one optional group.
func only[T any](when func(v *T) bool, f ...field[T]) []optional[T] {
	return []optional[T]{{when, f}}
}

// fs is shorthand for an event field list.
func fs(f ...field[Event]) []field[Event] { return f }

// put writes the fields of s for v into o.
func (s *kindSpec[K, T]) put(o *object, v *T) {
	for _, f := range s.fields {
		o.put(f.name, f.get(v))
	}
	for _, g := range s.optional {
		if g.when(v) {
			for _, f := range g.fields {
				o.put(f.name, f.get(v))
			}
		}
	}
}

// optionalNames lists the names of s's optional fields, group by group.
func (s *kindSpec[K, T]) optionalNames() []string {
	var out []string
	for _, g := range s.optional {
		for _, f := range g.fields {
			out = append(out, f.name)
		}
	}
	return out
}

// Kinds returns every event kind, in the order of the reference page's
// event table. Readers outside the
// engine that keep a table per kind (the figures' headline order) test
// theirs against it.
func Kinds() []Kind {
	out := make([]Kind, len(kindFields))
	for i, s := range kindFields {
		out[i] = s.kind
	}
	return out
}

// kindFields lists every kind in the order of the reference page's table,
// with the fields it carries.
var kindFields = []kindSpec[Kind, Event]{
	{kind: KindCrash, fields: fs(fBroker)},
	{kind: KindRestart, fields: fs(fBroker)},
	{kind: KindPause, fields: fs(fBroker)},
	{kind: KindResume, fields: fs(fBroker)},
	{kind: KindIsolate, fields: fs(fBroker)},
	{kind: KindHeal, fields: fs(fBroker)},
	{kind: KindBrokerFence, fields: fs(fBroker, fSessionTimeout)},
	{kind: KindAddBroker, fields: fs(fBroker)},
	{kind: KindAddPartitions, fields: fs(fAdded, fPartitions)},
	{kind: KindLeader, fields: fs(fPartition, fBroker, fLeaderEpoch, fCause, fReason),
		reasons: []string{ReasonOffline, ReasonRestarted, ReasonRemoved, ReasonFenced, ReasonHealed}},
	{kind: KindOffline, fields: fs(fPartition, fLeaderEpoch, fCause, fISR)},
	{kind: KindISRFence, fields: fs(fPartition, fBroker, fFrom, fTo)},
	{kind: KindStepDown, fields: fs(fPartition, fBroker, fFromEpoch, fLeader, fLeaderEpoch)},
	{kind: KindReassign, fields: fs(fPartition, fFrom, fTo, fAdding, fRemoving)},
	{kind: KindReassignDone, fields: fs(fPartition, fTo, fRemoving)},
	{kind: KindAppend, fields: fs(fPartition, fBroker, fRecord, fOffset, fLeaderEpoch)},
	{kind: KindRefuse, fields: fs(fPartition, fBroker, fRecord, fErrorCode, fISR, fMinInsyncReplicas)},
	{kind: KindHW, fields: fs(fPartition, fFromOffset, fToOffset, fReason),
		optional: only(func(e *Event) bool { return e.Reason == ReasonFollowerFetch }, fBroker, fFetchOffset),
		reasons: []string{ReasonAppend, ReasonLeaderAlone, ReasonNewLeaderAlone, ReasonFollowerFetch, ReasonISRShrink,
			ReasonISRFence, ReasonReassignmentDone, ReasonISRExpand}},
	{kind: KindHWNewLeader, fields: fs(fPartition, fBroker, fFromOffset, fToOffset)},
	{kind: KindISRShrinkPropose, fields: fs(fPartition, fBroker, fLagTime)},
	{kind: KindISRShrink, fields: fs(fPartition, fFrom, fTo, fRemoving)},
	{kind: KindISRExpandPropose, fields: fs(fPartition, fBroker, fLogEndOffset, fHighWatermark, fLeaderEpoch, fEpochStartOffset)},
	{kind: KindISRExpand, fields: fs(fPartition, fBroker, fFrom, fTo)},
	{kind: KindISRHeldBack, fields: fs(fPartition, fBroker, fLogEndOffset, fHighWatermark, fLeaderEpoch, fEpochStartOffset)},
	{kind: KindISRRefused, fields: fs(fPartition, fBroker, fErrorCode)},
	{kind: KindReplicate, fields: fs(fPartition, fBroker, fLeader, fOffset, fRecords)},
	{kind: KindTruncate, fields: fs(fPartition, fBroker, fFromOffset, fToOffset, fDivergingEpoch, fEpochEndOffset, fReason),
		reasons: []string{ReasonDiverged, ReasonEpochUnknown}},
	{kind: KindCreate, fields: fs(fRecord, fPartition, fKey)},
	{kind: KindSend, fields: fs(fRecord, fPartition, fBroker, fAttempt)},
	{kind: KindAck, fields: fs(fRecord, fPartition, fAcks)},
	{kind: KindReject, fields: fs(fRecord, fPartition, fErrorCode, fRetryBackoff)},
	{kind: KindFail, fields: fs(fRecord, fPartition, fDeliveryTimeout)},
	{kind: KindUnknown, fields: fs(fRecord, fPartition, fReason),
		optional: only(func(e *Event) bool { return e.Reason == ReasonDeliveryTimeout }, fDeliveryTimeout),
		reasons:  []string{ReasonLeaderChange, ReasonDeliveryTimeout}},
	{kind: KindLost, fields: fs(fRecord, fPartition)},
	{kind: KindLostOnAck, fields: fs(fRecord, fPartition, fAcks)},
	{kind: KindRetry, fields: fs(fRecord, fPartition, fAttempt, fRetry, fRetries, fRetryBackoff)},
	{kind: KindDuplicate, fields: fs(fPartition, fBroker, fRecord, fOffset)},
	{kind: KindMetadata, fields: fs(fPartition, fBroker, fLeader),
		optional: only(func(e *Event) bool { return e.Group != "" }, fGroup)},
	{kind: KindConsumerJoin, fields: fs(fGroup, fMember, fGroupEpoch)},
	{kind: KindConsumerLeaving, fields: fs(fGroup, fMember, fRecord)},
	{kind: KindConsumerLeave, fields: fs(fGroup, fMember, fGroupEpoch)},
	{kind: KindConsumerStop, fields: fs(fGroup, fMember)},
	{kind: KindConsumerFence, fields: fs(fGroup, fMember, fSessionTimeout, fGroupEpoch)},
	{kind: KindConsumerPartitions, fields: fs(fGroup, fPreviousPartitions, fPartitions, fGroupEpoch)},
	{kind: KindConsumerTarget, fields: fs(fGroup, fGroupEpoch, fAssignment)},
	{kind: KindConsumerRelease, fields: fs(fGroup, fMember, fPartition)},
	{kind: KindConsumerAssign, fields: fs(fGroup, fMember, fPartition, fOffset),
		optional: []optional[Event]{
			{func(e *Event) bool { return e.AutoOffsetReset != "" }, fs(fAutoOffsetReset)},
			{answeredByDeposed, fs(fBroker, fFromEpoch)}}},
	{kind: KindConsumerCommit, fields: fs(fGroup, fMember, fPartition, fOffset, fReason),
		reasons: []string{ReasonAuto, ReasonRevoke, ReasonLeave}},
	{kind: KindConsumerFetch, fields: fs(fGroup, fMember, fPartition, fBroker, fOffset, fRecords, fHighWatermark)},
	{kind: KindConsumerProcess, fields: fs(fGroup, fMember, fPartition, fOffset, fRecord),
		optional: only(func(e *Event) bool { return e.Reprocessed }, fReprocessed)},
	{kind: KindConsumerReset, fields: fs(fGroup, fMember, fPartition, fBroker, fErrorCode, fFromOffset, fLogEndOffset,
		fToOffset, fAutoOffsetReset)},
	{kind: KindConsumerOffsetUnavailable, fields: fs(fGroup, fMember, fPartition, fAutoOffsetReset, fErrorCode),
		optional: only(offsetNotAvailable, fBroker, fHighWatermark, fLeaderEpoch, fEpochStartOffset)},
	{kind: KindConsumerStart, fields: fs(fGroup, fMember, fPartition, fOffset, fAutoOffsetReset),
		optional: only(answeredByDeposed, fBroker, fFromEpoch)},
	{kind: KindConsumerPollTimeout, fields: fs(fGroup, fMember, fMaxPollInterval, fGroupEpoch),
		optional: only(func(e *Event) bool { return e.Record > 0 }, fRecord)},
	{kind: KindConsumerCommitFailed, fields: fs(fGroup, fMember, fPartition, fOffset, fErrorCode)},
	{kind: KindConsumerRejoin, fields: fs(fGroup, fMember, fGroupEpoch)},
	{kind: KindShareJoin, fields: fs(fGroup, fMember)},
	{kind: KindShareLeave, fields: fs(fGroup, fMember)},
	{kind: KindShareStop, fields: fs(fGroup, fMember)},
	{kind: KindShareFence, fields: fs(fGroup, fMember, fSessionTimeout)},
	{kind: KindShareAssign, fields: fs(fGroup, fGroupEpoch, fMembersPerPartition, fAssignment)},
	{kind: KindShareStart, fields: fs(fGroup, fPartition, fOffset, fAutoOffsetReset)},
	{kind: KindShareOffsetUnavailable, fields: fs(fGroup, fPartition, fErrorCode),
		optional: only(offsetNotAvailable, fBroker, fHighWatermark, fLeaderEpoch, fEpochStartOffset)},
	{kind: KindShareAcquire, fields: fs(fGroup, fMember, fPartition, fOffset, fRecord, fDeliveryCount, fLockedUntil)},
	{kind: KindShareProcessed, fields: fs(fGroup, fMember, fPartition, fOffset, fRecord, fAcknowledgeType)},
	{kind: KindShareAccept, fields: fs(fGroup, fMember, fPartition, fOffset, fRecord, fDeliveryCount)},
	{kind: KindShareAvailable, fields: fs(fGroup, fPartition, fOffset, fRecord, fDeliveryCount, fReason, fMember),
		reasons: []string{ReasonLockExpired, ReasonReleased, ReasonLeft, ReasonFenced, ReasonLeaderChange}},
	{kind: KindShareArchive, fields: fs(fGroup, fPartition, fOffset, fRecord, fDeliveryCount, fReason, fMember),
		reasons: []string{ReasonLockExpired, ReasonReleased, ReasonRejected, ReasonFenced}},
	{kind: KindShareRefused, fields: fs(fGroup, fMember, fPartition, fOffset, fAcknowledgeType, fErrorCode),
		optional: only(func(e *Event) bool { return e.Record > 0 }, fRecord)},
	{kind: KindShareSPSO, fields: fs(fGroup, fPartition, fFromOffset, fToOffset)},
	{kind: KindShareNotLeader, fields: fs(fGroup, fMember, fPartition, fBroker, fErrorCode, fLostAcknowledgements)},
	{kind: KindShareLost, fields: fs(fGroup, fMember, fPartition, fBroker)},
}

// offsetNotAvailable says a failed start-offset lookup met a leader that
// answered OFFSET_NOT_AVAILABLE (so the leader's numbers are worth giving).
func offsetNotAvailable(e *Event) bool { return e.ErrorCode == errOffsetNotAvailable }

// answeredByDeposed reports whether a consumer-assign or consumer-start
// took its offset from a leader cut off by isolate (Broker, which believes
// it leads epoch FromEpoch) rather than from the current leader.
func answeredByDeposed(e *Event) bool { return e.Broker != 0 }

// specOf returns the spec of kind k, or nil for a kind not in kindFields.
func specOf(k Kind) *kindSpec[Kind, Event] {
	for i := range kindFields {
		if kindFields[i].kind == k {
			return &kindFields[i]
		}
	}
	return nil
}

// MarshalJSON writes the event as the trace's `events` entries are
// written: {"kind": …, "text": …} followed by the fields its kind carries,
// in kindFields order.
func (e Event) MarshalJSON() ([]byte, error) {
	var o object
	o.put("kind", string(e.Kind))
	o.put("text", e.String())
	if s := specOf(e.Kind); s != nil {
		s.put(&o, &e)
	}
	return o.end()
}

// object writes a JSON object field by field, in the order put is called.
type object struct {
	b   bytes.Buffer
	err error
}

// put appends "name": v.
func (o *object) put(name string, v any) {
	j, err := json.Marshal(v)
	if err != nil {
		o.err = err
		return
	}
	if o.b.Len() == 0 {
		o.b.WriteByte('{')
	} else {
		o.b.WriteByte(',')
	}
	o.b.WriteString(`"` + name + `":`)
	o.b.Write(j)
}

// end closes the object and returns it.
func (o *object) end() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	if o.b.Len() == 0 {
		o.b.WriteByte('{')
	}
	o.b.WriteByte('}')
	return o.b.Bytes(), nil
}
