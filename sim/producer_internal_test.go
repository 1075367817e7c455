package sim

import "testing"

// TestErrorAfterAppendIsNotCleanFailure drives the producer's side of a
// produce answer directly, for every error a leader can give: the ones
// Kafka returns after the append (Partition.appendRecordsToLeader, then
// DelayedProduce) leave the record in the log, so a producer whose
// delivery.timeout then runs out settles it U; the ones returned before any
// append settle it F. NOT_ENOUGH_REPLICAS_AFTER_APPEND is here rather than
// in a scenario golden because Kafka Flow cannot reach it: a parked request
// is answered in the call that moved the high watermark past it, while the
// committed ISR still met min.insync.replicas (the high watermark freezes
// below it, KAFKA-15583), so the maximal ISR met it too. In Kafka it takes
// a shrink that lands between that move and DelayedProduce's check.
func TestErrorAfterAppendIsNotCleanFailure(t *testing.T) {
	for _, c := range []struct {
		errCode  string
		appended bool
		want     string
	}{
		{errNotEnoughReplicasAfterAppend, true, OutcomeU},
		{errRequestTimedOut, true, OutcomeU},
		{errNotLeaderOrFollower, true, OutcomeU}, // a leader that stepped down with it parked
		{errNotEnoughReplicas, false, OutcomeF},
		{errNotLeaderOrFollower, false, OutcomeF},
	} {
		sc := &Scenario{Brokers: 3, Beats: 20,
			Topic: TopicConfig{Partitions: 1, ReplicationFactor: 3, MinInsyncReplicas: 2, ReplicaLagTimeMax: DefaultReplicaLagTimeMax},
			Producer: ProducerConfig{Acks: AcksAll, MaxInFlight: 1, Records: 0, Keys: []string{"blue"}, Interval: 1, Start: 1,
				DeliveryTimeout: 4, RequestTimeout: 2, RetryBackoff: 10, MetadataMaxAge: 100}}
		e := newEngine(sc)
		e.now = 1
		r := &record{id: 1, key: "blue", stage: stageQueued, offset: -1, settledAt: -1, ackedAt: -1, createdAt: 1}
		e.records = append(e.records, r)
		e.prod.open = append(e.prod.open, r)
		if !e.maybeSendRecord(r) {
			t.Fatalf("%s: the record was not sent", c.errCode)
		}
		e.now = 2
		if c.appended {
			e.prod.onAppended(e, 1, 0, 0)
		}
		e.handleProduceResponse(&message{kind: msgProduceResponse, from: 1, part: 0, record: 1, attempt: 1, errCode: c.errCode})
		e.now = 5 // delivery.timeout (4 beats) since beat 1; the retry is not due before beat 12
		e.stepProducer()
		if r.outcome != c.want {
			t.Errorf("%s (appended %v): outcome %q, want %q", c.errCode, c.appended, r.outcome, c.want)
		}
	}
}
