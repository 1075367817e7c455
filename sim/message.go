package sim

// msgKind says what a message on the wire carries.
type msgKind uint8

const (
	// msgProduce is a ProduceRequest for one record, producer → leader.
	msgProduce msgKind = iota
	// msgProduceResponse answers it, leader → producer.
	msgProduceResponse
	// msgFetch is a follower's FetchRequest, follower → leader.
	msgFetch
	// msgFetchResponse answers it, leader → follower.
	msgFetchResponse
	// msgAlterPartition is a leader's ISR change, leader → controller
	// (AlterPartitionRequest); handled by the controller on arrival.
	msgAlterPartition
	// msgGroup is reserved for consumer- and share-group traffic
	// (handled by handleGroupMessage in groups.go).
	msgGroup
)

// Error codes a produce response can carry (Kafka's Errors enum). The empty
// string is NONE.
const (
	errNone                         = ""
	errNotLeaderOrFollower          = "NOT_LEADER_OR_FOLLOWER"
	errNotEnoughReplicas            = "NOT_ENOUGH_REPLICAS"
	errNotEnoughReplicasAfterAppend = "NOT_ENOUGH_REPLICAS_AFTER_APPEND"
	errRequestTimedOut              = "REQUEST_TIMED_OUT"
	// errInvalidRecordState answers a share acknowledgement of a record
	// the member does not hold (ShareAcknowledge).
	errInvalidRecordState = "INVALID_RECORD_STATE"
	// errIneligibleReplica is the controller's answer to an AlterPartition
	// adding a fenced replica.
	errIneligibleReplica = "INELIGIBLE_REPLICA"
)

// controllerNode is the address of the KRaft controller on the wire. It
// runs on no broker: only a broker cut off from it (isolate) cannot reach
// it.
const controllerNode = -1

// message is one request or response crossing the network. It takes one
// beat: sent in beat t, handled in step 3 of beat t+1. A message addressed
// to an offline broker is dropped on arrival; one a broker sent before it
// crashed still arrives. Broker 0 stands for the producer.
type message struct {
	kind     msgKind
	from, to int
	seq      int // send order, the tie-breaker within a beat
	sentAt   int
	part     int
	// rec is the message's index in its beat's recorded messages.
	rec int

	// Produce request and response (offset, in the group traffic below,
	// is also where a produced record was appended).
	record  int
	attempt int
	errCode string

	// Fetch request: the follower's log end offset, the epoch of its last
	// record (−1 for an empty log), the leader epoch it believes current,
	// and its fetch session id (responses to an older session are ignored).
	fetchOffset      int64
	lastFetchedEpoch int
	epoch            int
	fetchID          int

	// Fetch response: records from fetchOffset, the leader's high watermark
	// and log end offset captured before the read (Partition.readRecords),
	// or a diverging epoch instead of records.
	entries   []Entry
	hw, leo   int64
	diverging bool
	divEpoch  int
	divEnd    int64

	// AlterPartition: the partition epoch the proposal was built on
	// (epoch holds the leader epoch) and the proposal itself.
	partitionEpoch int
	alter          *pendingIsr

	// Group traffic (filled by the group engine).
	group, member string
	offset        int64
	// share is a share-group request or response (share.go).
	share *shareMsg
}

// deliver is step 3: every message sent in the previous beat is handled in
// send order. Messages sent while handling go out for the next beat, and
// so do those sent earlier in this beat, in steps 1 and 2 (the controller
// completing parked requests as the high watermark moves): every message
// takes one beat to cross, whichever step sent it.
func (e *engine) deliver() {
	cur := e.wire
	e.wire = make([]message, 0, len(cur)) // beats are alike: no regrowth
	for i := range cur {
		m := &cur[i]
		if m.sentAt == e.now {
			e.wire = append(e.wire, *m)
			continue
		}
		if m.sentAt != e.now-1 {
			panic("sim: a message crossed in other than one beat")
		}
		if m.to > 0 && !e.brokers[m.to].online {
			e.recordDropped(m)
			continue // the broker is down: the message is lost
		}
		if e.cutOff(m) {
			e.recordDropped(m)
			continue // a network partition lies between its ends
		}
		switch m.kind {
		case msgProduce:
			e.handleProduce(m)
		case msgProduceResponse:
			e.handleProduceResponse(m)
		case msgFetch:
			e.handleFetch(m)
		case msgFetchResponse:
			e.handleFetchResponse(m)
		case msgAlterPartition:
			e.handleAlterPartition(m)
		case msgGroup:
			e.handleGroupMessage(m)
		}
	}
}

// MessageKind names a recorded message: its value is the message's `kind`
// in the trace JSON.
type MessageKind string

// The messages the engine sends. A request goes to Broker; its response
// comes back from Broker (the producer, a follower and group members are
// the other end).
const (
	// MsgProduce is a ProduceRequest for one record, producer → leader.
	MsgProduce MessageKind = "produce"
	// MsgProduceResponse answers it: the record's offset, or an error code.
	MsgProduceResponse MessageKind = "produce-response"
	// MsgFetch is a follower's FetchRequest to the leader.
	MsgFetch MessageKind = "fetch"
	// MsgFetchResponse answers it: records from the fetch offset and the
	// high watermark, or a diverging epoch (KIP-279).
	MsgFetchResponse MessageKind = "fetch-response"
	// MsgAlterPartition is a leader's ISR change, leader → controller
	// (AlterPartitionRequest): the ISR it proposes, adding one follower
	// or removing some.
	MsgAlterPartition MessageKind = "alter-partition"
	// MsgConsumerFetch is a consumer group member's FetchRequest.
	MsgConsumerFetch MessageKind = "consumer-fetch"
	// MsgConsumerFetchResponse answers it: records below the high
	// watermark, or an error code.
	MsgConsumerFetchResponse MessageKind = "consumer-fetch-response"
	// MsgOffsetCommit is a consumer's OffsetCommit to the group
	// coordinator; Kafka Flow's coordinator sits on no broker, so it takes
	// effect in the beat it is sent.
	MsgOffsetCommit MessageKind = "offset-commit"
	// MsgShareFetch is a share member's ShareFetch, carrying the
	// acknowledgements it has ready for that partition.
	MsgShareFetch MessageKind = "share-fetch"
	// MsgShareAcknowledge carries acknowledgements alone
	// (ShareAcknowledge), for a partition the member is no longer assigned.
	MsgShareAcknowledge MessageKind = "share-acknowledge"
	// MsgShareFetchResponse answers a ShareFetch: the records acquired for
	// the member, or an error code.
	MsgShareFetchResponse MessageKind = "share-fetch-response"
)

// Message is one message as the trace records it, in the beat it was sent;
// it is delivered in step 3 of the next beat (an offset-commit at once). A
// message whose broker is offline when it arrives is Dropped. Fields mean
// what Event's fields of the same names mean; a kind carries only the
// fields messageFields lists for it.
type Message struct {
	Kind MessageKind
	// Partition is the partition the message is about; Broker the broker
	// it goes to (a request) or comes from (a response), or the leader
	// that sends an alter-partition to the controller; Follower the
	// follower that fetches.
	Partition, Broker, Follower int
	// Group and Member are the group member that sends a request or gets
	// a response.
	Group, Member string
	// Record and Attempt identify a produce request; Offset is where the
	// record was appended (a produce response) or the offset committed.
	Record, Attempt int
	Offset          int64
	ErrorCode       string
	// FetchOffset is where a fetch starts; LastFetchedEpoch the epoch of
	// the follower's last record (−1 for an empty log); LeaderEpoch the
	// leader epoch the follower names (and the leader answers with).
	FetchOffset      int64
	LastFetchedEpoch int
	LeaderEpoch      int
	// PartitionEpoch is the partition epoch an alter-partition was built
	// on; ISR the ISR it proposes, Adding the follower it adds or Removing
	// those it drops.
	PartitionEpoch        int
	ISR, Adding, Removing []int
	// Records are the record ids a fetch response carries, from
	// FetchOffset; HighWatermark the leader's when it answered;
	// LogEndOffset the leader's log end offset with OFFSET_OUT_OF_RANGE.
	Records       []int
	HighWatermark int64
	LogEndOffset  int64
	// Diverging is set when a fetch response carries a diverging epoch
	// instead of records: DivergingEpoch and its end offset on the leader,
	// DivergingEndOffset (FetchResponse.DivergingEpoch).
	Diverging          bool
	DivergingEpoch     int
	DivergingEndOffset int64
	// Acknowledgements ride on a share request; Acquired are the records
	// a share fetch response hands the member.
	Acknowledgements []Acknowledgement
	Acquired         []AcquiredRecord
	// Dropped is set when the message arrived at an offline broker and was
	// lost.
	Dropped bool
}

// Acknowledgement is one share acknowledgement on the wire.
type Acknowledgement struct {
	Offset int64 `json:"offset"`
	// Type is ACCEPT, RELEASE or REJECT (AcknowledgeType).
	Type string `json:"type"`
}

// AcquiredRecord is one record a share fetch response delivers.
type AcquiredRecord struct {
	Offset        int64 `json:"offset"`
	Record        int   `json:"record"`
	DeliveryCount int   `json:"deliveryCount"`
}

// The message fields, by JSON name.
var (
	mPartition          = field[Message]{"partition", func(m *Message) any { return m.Partition }}
	mBroker             = field[Message]{"broker", func(m *Message) any { return m.Broker }}
	mFollower           = field[Message]{"follower", func(m *Message) any { return m.Follower }}
	mGroup              = field[Message]{"group", func(m *Message) any { return m.Group }}
	mMember             = field[Message]{"member", func(m *Message) any { return m.Member }}
	mRecord             = field[Message]{"record", func(m *Message) any { return m.Record }}
	mAttempt            = field[Message]{"attempt", func(m *Message) any { return m.Attempt }}
	mOffset             = field[Message]{"offset", func(m *Message) any { return m.Offset }}
	mErrorCode          = field[Message]{"errorCode", func(m *Message) any { return m.ErrorCode }}
	mFetchOffset        = field[Message]{"fetchOffset", func(m *Message) any { return m.FetchOffset }}
	mLastFetchedEpoch   = field[Message]{"lastFetchedEpoch", func(m *Message) any { return m.LastFetchedEpoch }}
	mLeaderEpoch        = field[Message]{"leaderEpoch", func(m *Message) any { return m.LeaderEpoch }}
	mRecords            = field[Message]{"records", func(m *Message) any { return nonNil(m.Records) }}
	mHighWatermark      = field[Message]{"highWatermark", func(m *Message) any { return m.HighWatermark }}
	mLogEndOffset       = field[Message]{"logEndOffset", func(m *Message) any { return m.LogEndOffset }}
	mDivergingEpoch     = field[Message]{"divergingEpoch", func(m *Message) any { return m.DivergingEpoch }}
	mDivergingEndOffset = field[Message]{"divergingEndOffset", func(m *Message) any { return m.DivergingEndOffset }}
	mPartitionEpoch     = field[Message]{"partitionEpoch", func(m *Message) any { return m.PartitionEpoch }}
	mISR                = field[Message]{"isr", func(m *Message) any { return nonNil(m.ISR) }}
	mAdding             = field[Message]{"adding", func(m *Message) any { return nonNil(m.Adding) }}
	mRemoving           = field[Message]{"removing", func(m *Message) any { return nonNil(m.Removing) }}
	mAcknowledgements   = field[Message]{"acknowledgements", func(m *Message) any { return nonNil(m.Acknowledgements) }}
	mAcquired           = field[Message]{"acquired", func(m *Message) any { return nonNil(m.Acquired) }}
)

// ms is shorthand for a message field list.
func ms(f ...field[Message]) []field[Message] { return f }

// Conditions of the responses' optional fields.
func hasError(m *Message) bool   { return m.ErrorCode != "" }
func noError(m *Message) bool    { return m.ErrorCode == "" }
func outOfRange(m *Message) bool { return m.ErrorCode == errOffsetOutOfRange }
func diverging(m *Message) bool  { return m.Diverging }
func notDiverging(m *Message) bool {
	return !m.Diverging
}

// messageFields lists every message kind in the order of the reference
// page's table, with the fields it carries. A response carries its result
// when it succeeded and errorCode when it did not; a fetch response with a
// diverging epoch carries divergingEpoch and divergingEndOffset instead of
// records. Every message may also carry "dropped": true.
var messageFields = []kindSpec[MessageKind, Message]{
	{kind: MsgProduce, fields: ms(mPartition, mBroker, mRecord, mAttempt)},
	{kind: MsgProduceResponse, fields: ms(mPartition, mBroker, mRecord, mAttempt),
		optional: []optional[Message]{{noError, ms(mOffset)}, {hasError, ms(mErrorCode)}}},
	{kind: MsgFetch, fields: ms(mPartition, mBroker, mFollower, mLeaderEpoch, mFetchOffset, mLastFetchedEpoch)},
	{kind: MsgFetchResponse, fields: ms(mPartition, mBroker, mFollower, mLeaderEpoch, mFetchOffset, mHighWatermark),
		optional: []optional[Message]{{notDiverging, ms(mRecords)}, {diverging, ms(mDivergingEpoch, mDivergingEndOffset)}}},
	{kind: MsgAlterPartition, fields: ms(mPartition, mBroker, mLeaderEpoch, mPartitionEpoch, mISR),
		optional: []optional[Message]{{func(m *Message) bool { return len(m.Adding) > 0 }, ms(mAdding)},
			{func(m *Message) bool { return len(m.Adding) == 0 }, ms(mRemoving)}}},
	{kind: MsgConsumerFetch, fields: ms(mPartition, mBroker, mGroup, mMember, mFetchOffset)},
	{kind: MsgConsumerFetchResponse, fields: ms(mPartition, mBroker, mGroup, mMember, mFetchOffset),
		optional: []optional[Message]{{noError, ms(mRecords, mHighWatermark)}, {hasError, ms(mErrorCode)},
			{outOfRange, ms(mLogEndOffset)}}},
	{kind: MsgOffsetCommit, fields: ms(mPartition, mGroup, mMember, mOffset)},
	{kind: MsgShareFetch, fields: ms(mPartition, mBroker, mGroup, mMember, mAcknowledgements)},
	{kind: MsgShareAcknowledge, fields: ms(mPartition, mBroker, mGroup, mMember, mAcknowledgements)},
	{kind: MsgShareFetchResponse, fields: ms(mPartition, mBroker, mGroup, mMember),
		optional: []optional[Message]{{noError, ms(mAcquired)}, {hasError, ms(mErrorCode)}}},
}

// messageSpec returns the spec of kind k, or nil.
func messageSpec(k MessageKind) *kindSpec[MessageKind, Message] {
	for i := range messageFields {
		if messageFields[i].kind == k {
			return &messageFields[i]
		}
	}
	return nil
}

// MarshalJSON writes the message as the trace's `messages` entries are
// written: {"kind": …} and the fields of its kind (messageFields), then
// "dropped": true when it was lost at an offline broker.
func (m Message) MarshalJSON() ([]byte, error) {
	var o object
	o.put("kind", string(m.Kind))
	if s := messageSpec(m.Kind); s != nil {
		s.put(&o, &m)
	}
	if m.Dropped {
		o.put("dropped", true)
	}
	return o.end()
}
