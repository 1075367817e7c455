// Package sim is Kafka Flow's engine: a deterministic, beat-based model of
// how Apache Kafka (4.1, KRaft) moves a record from a producer through a
// partition leader and its followers to consumers, consumer groups and
// KIP-932 share groups.
//
// A beat is the only unit of time. Run takes a Scenario and returns a Trace:
// the full state after every beat plus the events of each beat, each a
// typed Event (a Kind and fields named by meaning) with its one wording
// (describe.go; used by traces, captions and goldens).
// Check compares a scenario's expect entries with its trace, and
// CheckInvariants checks Kafka's safety properties on every beat. The
// package is pure: it imports only the standard library, does no I/O,
// reads no clock, starts no goroutines, and draws randomness only from one
// PCG generator seeded by Scenario.Seed. The same Scenario always gives the
// same Trace, at any GOMAXPROCS.
//
// # The beat
//
// Within a beat the engine acts in one fixed order:
//
//  1. apply the timeline events scheduled for this beat, in the order
//     written (crash, restart, pause, resume, add.broker, add.partitions,
//     and group joins, leaves and stops);
//  2. the controller reacts: fences crashed brokers, removes them from
//     ISRs (a leader that stays moves its high watermark if the smaller
//     ISR lets it, Partition.makeLeader), elects leaders from the ISR in
//     assignment order, bumps leader epochs, completes reassignments;
//  3. deliver every message sent in the previous beat, in send order
//     (the controller handles the AlterPartition requests among them);
//  4. leaders run their periodic checks: ISR expiry (on the beats of the
//     isr-expiration schedule), then expiry of parked acks=all requests;
//  5. clients act: the producer creates, fails, retries and sends records;
//     followers with no fetch outstanding fetch; then the groups act;
//  6. the state is recorded.
//
// Every message takes one beat: sent in beat t, in whichever step, handled
// in step 3 of beat t+1. A message addressed to an offline broker is dropped; one a broker
// sent before it crashed still arrives. Beat 0 is the initial state: every
// partition led by its first replica at leader epoch 0, full ISR, empty
// logs.
//
// # Model choices
//
// Each rule cites the Kafka class it follows; the differences from Kafka
// are deliberate and listed here.
//
// Producer. One record per produce request. Record i is created at beat
// Start+(i−1)·Interval with key Keys[(i−1) mod len(Keys)] and routed by
// Kafka's murmur2 partitioner over the partition count at its creation
// (BuiltInPartitioner). It waits on the rail ("queued") until the ONE
// max.in.flight.requests.per.connection budget shared by the whole
// producer (Kafka's is per broker connection) has room, then goes to its
// partition's current leader; metadata is instant, except that a leader
// cut off by isolate, which does not know it was replaced, keeps the
// producer's requests until its metadata refresh (every metadata.max.age
// beats, or after NOT_LEADER_OR_FOLLOWER). With no leader it waits
// ("backoff"). A record keeps its in-flight slot while it backs off to
// retry, so records leave in order. delivery.timeout counts from creation
// and is checked while a record is not in flight: then it settles F. acks=0
// settles "sent" the beat the record leaves and frees its slot at once.
//
// Leader, produce (ReplicaManager.appendRecords,
// Partition.appendRecordsToLeader). A broker that is not the leader answers
// NOT_LEADER_OR_FOLLOWER. acks=all with ISR below effectiveMinIsr =
// min(min.insync.replicas, replica count) is refused before append with
// NOT_ENOUGH_REPLICAS. Otherwise the record is appended with the current
// leader epoch; acks=1 is answered at once; acks=all is parked
// (DelayedProduce) until the high watermark reaches offset+1 — then NONE,
// or NOT_ENOUGH_REPLICAS_AFTER_APPEND if the maximal ISR is below the
// minimum — or until request.timeout beats pass: REQUEST_TIMED_OUT. A
// parked request completes in the very call that moved the high watermark
// past it (Partition.tryCompleteDelayedRequests), so an ISR shrink later
// in the beat cannot turn it negative. Every error is retriable: the
// producer retries after retry.backoff beats.
//
// Outcomes. acked; sent (acks=0); F (delivery.timeout ran out and no
// leader ever appended the record: every attempt was refused before the
// append, NOT_ENOUGH_REPLICAS or NOT_LEADER_OR_FOLLOWER from a broker that
// does not lead — the one clean failure); U — when a partition's leader
// changes (new epoch, including going offline), every record of it with a
// request outstanding and no positive answer on the wire settles U that
// beat, since the producer cannot know whether it landed; and a record a
// leader appended settles U, not F, when delivery.timeout runs out,
// whatever error its attempts got: REQUEST_TIMED_OUT,
// NOT_ENOUGH_REPLICAS_AFTER_APPEND and a stepped-down leader's
// NOT_LEADER_OR_FOLLOWER all answer a record already in the log, which
// followers may copy and consumers read; L — an acknowledged record
// settles L on the beat an elected leader's log does not hold it. A
// positive answer already on the wire still arrives; if the new leader
// lacks the record it is acknowledged and L on arrival.
//
// Replication. A follower has at most one fetch outstanding, to the current
// leader, carrying its log end offset, the epoch of its last record and
// the leader epoch it believes current. It fetches again as soon as it
// handles a response, and otherwise in step 5. The leader answers with
// every record from the fetch offset (no size cap) and its high watermark
// and log end offset captured before the read (Partition.readRecords), then
// applies Replica.updateFetchState exactly (a fetch at or past the
// leader's log end offset is caught up now; one that reaches the leader's
// log end offset at the previous fetch was caught up then),
// maybeExpandIsr (log end offset ≥ high watermark and ≥ the epoch's start
// offset, broker online) and maybeIncrementLeaderHW (frozen while the
// committed ISR is below effectiveMinIsr, KAFKA-15583; else the minimum
// log end offset over the maximal ISR and over caught-up, eligible
// non-members; an unknown (−1) log end offset blocks; it only increases). The follower sets its high
// watermark to min(the leader's in the response, its log end offset). If
// its last fetched epoch disagrees with the leader's epoch cache the
// leader answers with a diverging epoch and the follower truncates by
// epoch (KIP-101, KIP-279), never to its high watermark.
//
// ISR changes (Partition.scala's CommittedPartitionState,
// PendingExpandIsr, PendingShrinkIsr; ReplicationControlManager). The
// leader checks ISR expiry on the beats that are multiples of
// max(1, replica.lag.time.max/2), as ReplicaManager's isr-expiration task
// does: an ISR follower is out of sync once its log end offset differs
// from the leader's and more than replica.lag.time.max beats have passed
// since it was last caught up. The leader never changes the ISR itself: it
// sends an AlterPartition to the controller — every out-of-sync follower
// in one shrink, or one follower to add — and asks for nothing else while
// it is in flight. Meanwhile the high watermark and acks=all use the
// maximal ISR: the committed ISR plus the follower being added; a follower
// being dropped still counts. The round trip takes one beat: proposed in
// beat t, the request reaches the controller in step 3 of beat t+1, which
// commits it with a new partition epoch, and the leader knows the result
// at once (metadata is instant). A request built on an older leader or
// partition epoch changes nothing (the leader already learned the newer
// state); one adding a fenced broker is refused (INELIGIBLE_REPLICA) and
// the leader returns to its committed ISR. So a follower never joins and
// leaves in one beat. A fetch round trip takes two beats, so a follower's
// catch-up credit can be three beats old; replica.lag.time.max below 3
// drops even a follower that keeps up.
//
// Controller. A crash fences the broker at once (Kafka waits
// broker.session.timeout; the engine takes it as zero beats, as for a
// controlled shutdown); a broker cut off by isolate is fenced once
// broker.session.timeout beats pass without its heartbeat
// (BrokerHeartbeatManager). Fencing removes the broker from every ISR,
// except that an ISR never becomes empty: its last member stays. A
// partition that lost its leader gets the first replica in assignment
// order that is online, unfenced and in the ISR, with epoch+1; with none
// it goes offline (leader 0, epoch+1, as KRaft's PartitionChangeBuilder
// bumps the epoch for any leader change); there is no unclean election. A
// new leader (Partition.makeLeader) does not truncate; its epoch starts at
// its log end offset; its high watermark is its own, possibly below the
// last leader's; followers' log end offsets become unknown. A restarted
// broker follows everything it hosts and leads an offline partition whose
// ISR holds it. Pause stops a broker's fetchers (outstanding responses are
// ignored) while it keeps leading; resume starts them again. Isolate cuts
// a broker off from the controller and the other brokers, not from
// clients; a leader so cut off keeps acting as leader of its old epoch
// after it is replaced, and steps down on heal (isolate.go).
//
// Topology. Partition p's replicas are brokers ((p+i) mod N)+1 for
// i = 0…RF−1, the first the preferred leader. add.partitions creates
// partitions the same way with the current broker count; only records
// created afterwards are routed over the new count. add.broker adds broker
// N+1 and — Kafka Flow's choice, as Kafka moves nothing until asked —
// reassigns every partition to the placement over N+1 brokers following
// PartitionReassignmentReplicas: adding = target − current, removing =
// current − target, replicas = target ++ removing (so RF is temporarily
// larger). When every target replica is in the ISR the replicas become the
// target and the removed ones leave; a removed leader hands over to the
// first target replica in the ISR with a new epoch.
//
// Groups. Consumer and share groups plug in through the hooks in
// groups.go (applyGroupEvent, handleGroupMessage, stepGroups,
// recordGroups); Check learns group fields by registering getters in
// expectFields.
//
// Consumer groups (consumer.go, KIP-848). The coordinator bumps the group
// epoch on every join, clean leave, fence (session.timeout beats after a
// member stopped) and partition-count change, and recomputes the target
// with the uniform (default) or range assignor, members in name order
// (Kafka's order is a hash map's). A partition moves only after its owner
// finished its record, committed and released it; the new owner starts
// the next beat at the committed offset, or by auto.offset.reset, asking
// at once the leader the group's metadata names — during a split brain,
// the cut-off one (latest = that leader's high watermark then; a leader
// whose high watermark is below its epoch's start offset answers
// OFFSET_NOT_AVAILABLE, and the member refreshes its metadata and asks
// again each beat, KIP-207).
// Members fetch from the leader, one beat each way, records below the high
// watermark only; a poll hands out up to max.poll.records records, taken
// one after another, `processing` beats each; a member auto-commits its
// position every auto.commit.interval beats, at a poll. A member still busy
// with its last poll max.poll.interval beats after it leaves the group
// without committing and rejoins at its next poll, whose commit fails. A
// stopped member releases nothing until it is fenced. The coordinator is
// on no broker: its answers are instant.
//
// Share groups (share.go, share_partition.go, KIP-932). A share-partition
// starts when a member first fetches it, at its leader in step 5, with the
// same ListOffsets rule as consumers; a leaving member's session close
// gives the delivery count of what it held back (Kafka 4.1).
//
// A user's mistake is reported by the parser (package sim/scenario) with
// its position; Run panics only when an internal invariant breaks, which
// is a bug.
package sim
