package site

import (
	"slices"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
)

// guideScenario returns the left run of the fence with the given id on the
// given page of the built-in guide.
func guideScenario(t *testing.T, page, id string) *sim.Scenario {
	t.Helper()
	for _, f := range guideFences(t) {
		if f.page != page {
			continue
		}
		sc, errs := scenario.Parse(f.Body)
		if errs != nil {
			t.Fatalf("%s:%d: %v", page, f.Line, errs)
		}
		if sc.ID == id {
			return sc
		}
	}
	t.Fatalf("%s has no fence %q", page, id)
	return nil
}

// logRecords is the record ids of one replica's log at the end of the run,
// offset by offset.
func logRecords(t *testing.T, tr *sim.Trace, partition, broker int) []int {
	t.Helper()
	last := tr.Beats[len(tr.Beats)-1]
	for _, p := range last.Partitions {
		if p.Partition != partition {
			continue
		}
		for _, r := range p.Replicas {
			if r.Broker == broker {
				ids := make([]int, len(r.Log))
				for i, e := range r.Log {
					ids[i] = e.Record
				}
				return ids
			}
		}
	}
	t.Fatalf("no replica of p%d on broker %d at the last beat", partition, broker)
	return nil
}

// TestIdempotenceKeepsNoOrder pins what min-insync-replicas.md, in-flight.md,
// scope.md, producer.md and reference.md say of enable.idempotence: Kafka
// Flow models its deduplication but not its ordering. The floor figure's
// retries land as records 4, 6, 5 (offsets 1, 2, 3), and the same run with
// an idempotent producer lands them in that order too; Kafka's leader would
// refuse the gap (ProducerAppendInfo.checkSequence,
// OUT_OF_ORDER_SEQUENCE_NUMBER). If the engine learns to keep order, this
// fails and those pages must change with it.
func TestIdempotenceKeepsNoOrder(t *testing.T) {
	sc := guideScenario(t, "min-insync-replicas.md", "floor")
	want := []int{1, 4, 6, 5}
	if got := logRecords(t, sim.Run(sc), 0, 1); !slices.Equal(got, want) {
		t.Errorf("floor: the leader's log holds records %v, the page says %v", got, want)
	}
	idem := *sc
	idem.Producer.EnableIdempotence = true
	idem.Producer.Retries = 1
	if idem.Producer.MaxInFlight > 5 {
		t.Fatalf("floor: %d requests in flight, more than enable.idempotence allows", idem.Producer.MaxInFlight)
	}
	tr := sim.Run(&idem)
	if bad := sim.CheckInvariants(&idem, tr); bad != nil {
		t.Fatalf("floor with enable.idempotence: %v", bad)
	}
	if got := logRecords(t, tr, 0, 1); !slices.Equal(got, want) {
		t.Errorf("floor with enable.idempotence: the leader's log holds records %v; in-flight.md says the retries land in the same order as without it, %v", got, want)
	}
}

// TestIdempotenceWindow pins the other half of those pages: an idempotent
// leader stores a resend once only while its first copy is among the last 5
// records of its log (ProducerStateEntry.NUM_BATCHES_TO_RETAIN, one record
// per batch here). Eight records, one a beat, time out one after another
// (request.timeout 3 beats, shorter than the followers' two fetches), and
// each is resent after retry.backoff while the producer keeps sending new
// ones: record 3's first copy is at offset 2 when the log ends at 8, so it
// is stored again at offset 8; records 5, 7 and 8 are found and stored once.
func TestIdempotenceWindow(t *testing.T) {
	sc, errs := scenario.Parse([]byte(`id: window
title: window
brokers: 3
topic: {partitions: 1, replication.factor: 3}
producer: {acks: all, records: 8, keys: [blue], interval: 1, request.timeout: 3, retry.backoff: 2, retries: 1, enable.idempotence: true, delivery.timeout: 10}
beats: 24
`))
	if errs != nil {
		t.Fatal(errs)
	}
	tr := sim.Run(sc)
	if got, want := logRecords(t, tr, 0, 1), []int{1, 2, 3, 4, 5, 6, 7, 8, 3}; !slices.Equal(got, want) {
		t.Errorf("the leader's log holds records %v, want %v (record 3 resent from 6 records back, stored twice)", got, want)
	}
	var dups []int
	for _, b := range tr.Beats {
		for _, e := range b.Events {
			if e.Kind == sim.KindDuplicate {
				dups = append(dups, e.Record)
			}
		}
	}
	if want := []int{5, 7, 8}; !slices.Equal(dups, want) {
		t.Errorf("the leader recognised resends of records %v, want %v (each first copy within its last 5 records)", dups, want)
	}
}
