package sim

// Acks is the producer's acks setting (ProducerConfig "acks"): how many
// acknowledgements the leader waits for before answering a produce request.
type Acks int

const (
	// AcksNone is acks=0: the producer never gets a response; a record
	// settles as "sent" on the beat it leaves the producer.
	AcksNone Acks = 0
	// AcksLeader is acks=1: the leader answers as soon as it has appended
	// (ReplicaManager.appendRecords, no DelayedProduce).
	AcksLeader Acks = 1
	// AcksAll is acks=all (-1): the leader parks the request until its high
	// watermark passes the record (DelayedProduce,
	// Partition.checkEnoughReplicasReachOffset).
	AcksAll Acks = -1
)

// String returns the setting as a fence writes it: "0", "1" or "all".
func (a Acks) String() string {
	switch a {
	case AcksNone:
		return "0"
	case AcksLeader:
		return "1"
	default:
		return "all"
	}
}

// Scenario is one parsed kflow fence: a small cluster, its settings and a
// timeline of events, run for Beats beats. Every time setting counts beats
// and drops Kafka's ".ms" suffix. The parser (package sim/scenario) fills
// every setting a fence leaves out with its default (the Default*
// constants of defaults.go) and checks the limits; Run expects a scenario
// the parser accepted, and a scenario built in Go must set every field
// itself.
type Scenario struct {
	// ID is unique on a page and names the figure in deep links
	// ("#ID@BEAT"). Title is shown above the figure.
	ID, Title string
	// Seed drives the engine's one PRNG (used only where the model says a
	// property is "decided by a seeded rule", e.g. share-group processing).
	Seed uint64
	// Brokers is the number of brokers at beat 0, numbered 1..Brokers.
	Brokers int
	// Topic is the single topic every scenario has.
	Topic TopicConfig
	// Producer is the single producer.
	Producer ProducerConfig
	// ConsumerGroups and ShareGroups read the topic.
	ConsumerGroups []ConsumerGroupConfig
	ShareGroups    []ShareGroupConfig
	// Timeline holds the scheduled events, in the order written; events of
	// the same beat apply in that order.
	Timeline []TimelineEvent
	// Beats is how many beats to simulate (beat 1 .. Beats). Beat 0 is the
	// initial state and is recorded too.
	Beats int
	// BrokerSessionTimeout is broker.session.timeout in beats (Kafka:
	// broker.session.timeout.ms, default 9000): how long the controller
	// waits for a heartbeat from a broker cut off from it (isolate) before
	// it fences the broker. A crashed broker is fenced at once.
	BrokerSessionTimeout int
	// Expect holds build-time checks against the trace.
	Expect []Expectation
	// Notes are the author's own headlines for some beats (the fence's
	// notes: list), in beat order, at most one per beat. They change
	// nothing in the run; a figure shows a note's text as its beat's
	// headline, the engine's sentence beneath it.
	Notes []Note
	// Poster is the beat the fence's poster: key names (HasPoster true):
	// the figure shows it to readers without JavaScript and the stepper
	// opens at it. Without the key (HasPoster false) the figure picks its
	// most telling beat for the poster and opens at beat 0.
	Poster    int
	HasPoster bool
	// Pos of the scenario's first key; used for errors about the whole
	// scenario. IDPos is where the id's value is written (Pos when there is
	// none), for errors about the id, such as two figures of a page sharing it.
	Pos, IDPos Pos
}

// TopicConfig models the topic's creation settings.
type TopicConfig struct {
	// Partitions is the partition count (partitions are numbered from 0).
	Partitions int
	// ReplicationFactor is the number of replicas of each partition
	// (leader included). Partition p's replicas are brokers
	// ((p + i) mod Brokers) + 1 for i = 0 … RF−1; the first is the
	// preferred leader.
	ReplicationFactor int
	// MinInsyncReplicas is min.insync.replicas (Kafka default 1).
	MinInsyncReplicas int
	// ReplicaLagTimeMax is replica.lag.time.max in beats (Kafka:
	// replica.lag.time.max.ms, default 30000 ms).
	ReplicaLagTimeMax int
}

// ProducerConfig models the producer (ProducerConfig in Kafka's client).
// It sends one record per produce request.
type ProducerConfig struct {
	Acks Acks
	// MaxInFlight is max.in.flight.requests.per.connection, applied as ONE
	// budget shared by the whole producer (Kafka applies it per broker
	// connection), so a single record can be followed.
	MaxInFlight int
	// Records is how many records the producer creates, numbered 1..Records.
	Records int
	// Keys are cycled in order: record i gets Keys[(i-1) % len(Keys)].
	Keys []string
	// Interval is the number of beats between two new records (>= 1).
	Interval int
	// Start is the beat the producer creates its first record.
	Start int
	// DeliveryTimeout is delivery.timeout in beats: a record not
	// acknowledged this many beats after it was created settles as F.
	DeliveryTimeout int
	// RequestTimeout is request.timeout in beats: how long the producer
	// waits for a response before treating the request as failed, and how
	// long a leader parks an acks=all request before REQUEST_TIMED_OUT.
	RequestTimeout int
	// RetryBackoff is retry.backoff in beats between a failed attempt and
	// the next one.
	RetryBackoff int
	// Retries is retries: how many times the producer resends a record
	// whose outcome became unknown (the leader changed before the answer
	// came). Kafka Flow default 0 (the record settles U); Kafka's is
	// 2147483647. Rejections (NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT, …)
	// are retried until delivery.timeout whatever its value.
	Retries int
	// EnableIdempotence is enable.idempotence (Kafka Flow default false;
	// Kafka's is true since 3.0): the leader recognises a resent record by
	// its producer id and sequence number and stores it once.
	EnableIdempotence bool
	// MetadataMaxAge is metadata.max.age in beats (Kafka:
	// metadata.max.age.ms, default 300000): the producer refreshes its
	// metadata at least this often. Only a leader cut off from the
	// controller (isolate), which does not know it was replaced, keeps the
	// producer's stale metadata in use; otherwise metadata is instant.
	MetadataMaxAge int
}

// ConsumerGroupConfig is one entry of consumer.groups (KIP-848 protocol).
type ConsumerGroupConfig struct {
	ID string
	// Members is how many members join at beat 0 (named ID-1, ID-2, …).
	Members int
	// AutoOffsetReset is "earliest" or "latest" (auto.offset.reset).
	AutoOffsetReset string
	// Assignor is "uniform" (default, KIP-848 UniformAssignor) or "range".
	Assignor string
	// AutoCommitInterval is auto.commit.interval in beats.
	AutoCommitInterval int
	// SessionTimeout is session.timeout in beats: how long the coordinator
	// waits for a stopped member's heartbeat before fencing it.
	SessionTimeout int
	// Processing is the beats a member spends on each record.
	Processing int
	// MaxPollInterval is max.poll.interval in beats (Kafka:
	// max.poll.interval.ms, default 300000): a member whose poll() calls
	// are further apart than this leaves the group (ConsumerConfig;
	// AbstractMembershipManager.transitionToSendingLeaveGroup with
	// dueToExpiredPollTimer).
	MaxPollInterval int
	// MaxPollRecords is max.poll.records: how many records one poll()
	// hands out at most (Kafka's default 500; Kafka Flow's 1, so a member
	// takes one record per poll unless a fence asks for batches).
	MaxPollRecords int
	// MetadataMaxAge is the members' metadata.max.age in beats (Kafka:
	// metadata.max.age.ms, default 300000; Kafka Flow's default is the
	// producer's). Like the producer's, the members' metadata is instant
	// except about a leader cut off by isolate, which does not know it was
	// replaced: they fetch from it until this refresh or a
	// NOT_LEADER_OR_FOLLOWER.
	MetadataMaxAge int
	Pos            Pos
}

// ShareGroupConfig is one entry of share.groups (KIP-932).
type ShareGroupConfig struct {
	ID      string
	Members int
	// ShareAutoOffsetReset is share.auto.offset.reset: "latest" (Kafka's
	// default) or "earliest".
	ShareAutoOffsetReset string
	// RecordLockDuration is group.share.record.lock.duration in beats.
	RecordLockDuration int
	// DeliveryCountLimit is group.share.delivery.count.limit (Kafka Flow
	// default 3; Kafka's is 5).
	DeliveryCountLimit int
	// Processing is the beats a member spends on each record.
	Processing int
	// SlowKey names the key whose records need a second delivery before
	// they are acknowledged ("" for none).
	SlowKey string
	Pos     Pos
}

// EventKind names a timeline action.
type EventKind string

// Timeline actions, spelled as fence keys.
const (
	EventCrash         EventKind = "crash"   // Broker stops; its log survives
	EventRestart       EventKind = "restart" // Broker comes back as a follower
	EventPause         EventKind = "pause"   // Broker's follower fetchers stop
	EventResume        EventKind = "resume"  // Broker's follower fetchers start again
	EventIsolate       EventKind = "isolate" // Broker loses the controller and the other brokers; clients still reach it
	EventHeal          EventKind = "heal"    // Broker reaches the controller and the other brokers again
	EventAddBroker     EventKind = "add.broker"
	EventAddPartitions EventKind = "add.partitions" // Count new partitions
	EventJoin          EventKind = "join"           // Group gains a member
	EventLeave         EventKind = "leave"          // Member leaves cleanly
	EventStop          EventKind = "stop"           // Member stops without leaving
)

// TimelineEvent is one entry of the timeline: at beat At, do Kind.
type TimelineEvent struct {
	At   int
	Kind EventKind
	// Broker is the broker id for crash, restart, pause, resume, isolate,
	// heal (and the
	// new broker's id for add.broker, filled by the engine).
	Broker int
	// Count is the number of partitions to add for add.partitions.
	Count int
	// Group is the group id for join; Member the member name (GROUP-N) for
	// leave and stop.
	Group, Member string
	Pos           Pos
}

// Note is one entry of notes: at beat At, the figure's caption leads with
// Text (one line, at most MaxNoteText characters) instead of the engine's
// headline, which follows beneath it.
type Note struct {
	At   int
	Text string
	Pos  Pos
}

// MaxNoteText is the longest a note's text may be, in characters: one
// headline line.
const MaxNoteText = 120

// Expectation is one entry of expect: a claim about the trace checked at
// build time. Exactly one subject is set: a record's outcome (Record > 0),
// or a field of a partition, replica or group partition at beat At.
type Expectation struct {
	// At is the beat the claim is about (ignored for record outcomes).
	At int
	// Record is a record id (from 1) for an outcome claim.
	Record int
	// Partition is the partition the claim is about (-1 when unset).
	Partition int
	// Broker selects a replica for replica fields.
	Broker int
	// Group selects a consumer or share group for group fields.
	Group string
	// Field is the trace field name: "outcome", "leader", "leaderEpoch",
	// "isr", "highWatermark", "logEndOffset", "lagTime", "owner", "position",
	// "committed", "startOffset", "state", "deliveryCount", ….
	Field string
	// Offset selects an in-flight share record for state/deliveryCount.
	Offset int64
	// Want is the expected value in its canonical text form: an integer,
	// an outcome letter, a member name, or a list written "[1 2 3]".
	Want string
	Pos  Pos
}
