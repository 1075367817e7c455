package sim

// Defaults every fence may leave out. Time settings count beats. Kafka's own
// defaults are in milliseconds and far larger than a teaching scenario's
// length, so these are chosen to tell a story in a few dozen beats; the
// guide's reference page lists each with Kafka's value beside it.
const (
	DefaultBrokers              = 3
	DefaultPartitions           = 1
	DefaultReplicationFactor    = 3 // capped at the broker count
	DefaultMinInsyncReplicas    = 1 // Kafka: min.insync.replicas=1
	DefaultReplicaLagTimeMax    = 6 // Kafka: replica.lag.time.max.ms=30000
	DefaultAcks                 = AcksAll
	DefaultMaxInFlight          = 5 // Kafka: max.in.flight.requests.per.connection=5
	DefaultRecords              = 6
	DefaultInterval             = 1
	DefaultStart                = 1
	DefaultDeliveryTimeout      = 40    // Kafka: delivery.timeout.ms=120000
	DefaultRequestTimeout       = 10    // Kafka: request.timeout.ms=30000
	DefaultRetryBackoff         = 1     // Kafka: retry.backoff.ms=100
	DefaultRetries              = 0     // Kafka: retries=2147483647
	DefaultEnableIdempotence    = false // Kafka: enable.idempotence=true (since 3.0)
	DefaultBrokerSessionTimeout = 3     // Kafka: broker.session.timeout.ms=9000
	DefaultMetadataMaxAge       = 10    // Kafka: metadata.max.age.ms=300000
	// MaxRetries is the largest retries Kafka accepts (Integer.MAX_VALUE).
	MaxRetries                = 1<<31 - 1
	DefaultBeats              = 30
	DefaultSeed               = 1
	DefaultAutoOffsetReset    = "latest" // Kafka: auto.offset.reset=latest
	DefaultAssignor           = "uniform"
	DefaultAutoCommitInterval = 5  // Kafka: auto.commit.interval.ms=5000
	DefaultSessionTimeout     = 15 // Kafka: group.consumer.session.timeout.ms=45000
	DefaultProcessing         = 1
	DefaultMaxPollInterval    = 100      // Kafka: max.poll.interval.ms=300000
	DefaultMaxPollRecords     = 1        // Kafka: max.poll.records=500
	DefaultShareAutoOffset    = "latest" // Kafka: share.auto.offset.reset=latest
	DefaultRecordLockDuration = 10       // Kafka: group.share.record.lock.duration.ms=30000
	DefaultDeliveryCountLimit = 3        // Kafka: group.share.delivery.count.limit=5
	DefaultMembers            = 1
)

// DefaultKeys are the producer's keys when a fence names none.
var DefaultKeys = []string{"blue", "green", "orange"}

// Limits on scenario size. The parser rejects a scenario beyond any of them
// with a positioned error; they keep every figure buildable within the
// build-time budget.
const (
	MaxBeats             = 400
	MaxRecords           = 500
	MaxBrokers           = 9
	MaxPartitions        = 12
	MaxReplicationFactor = 5
	MaxMembers           = 12 // per group
	MaxGroups            = 4  // consumer and share groups together
	MaxKeys              = 8
	MaxTimeline          = 200
	MaxExpect            = 200
	MaxFenceBytes        = 16 << 10
	// MaxKnobs is how many knobs one fence may offer, and
	// MaxKnobCombinations how many combinations of their values it may
	// have (each one is simulated and drawn at build time).
	MaxKnobs            = 3
	MaxKnobCombinations = 24
)
