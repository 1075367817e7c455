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

	// Produce request and response.
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
// send order. Messages sent while handling go out for the next beat.
func (e *engine) deliver() {
	cur := e.wire
	e.wire = nil
	for i := range cur {
		m := &cur[i]
		if m.to > 0 && !e.brokers[m.to].online {
			continue // the broker is down: the message is lost
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
