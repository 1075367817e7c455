package sim_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

var randomRuns = flag.Int("random", 10000, "number of random scenarios TestRandomScenarios runs")

// randomScenario builds a valid scenario from seed: random cluster size,
// replication factor, min ISR, acks, in-flight budget, lag and timeouts,
// retries and idempotence, and a timeline of crashes, restarts, pauses,
// resumes, network partitions (isolate, heal), added brokers and added
// partitions.
func randomScenario(seed uint64) *sim.Scenario {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	brokers := 1 + r.IntN(5)
	rf := 1 + r.IntN(brokers)
	acks := []sim.Acks{sim.AcksNone, sim.AcksLeader, sim.AcksAll}[r.IntN(3)]
	beats := 10 + r.IntN(50)
	keys := []string{"blue", "green", "orange", "red", "k5", "k6"}[:1+r.IntN(6)]
	sc := &sim.Scenario{
		ID:      fmt.Sprintf("random-%d", seed),
		Seed:    seed,
		Brokers: brokers,
		Beats:   beats,
		Topic: sim.TopicConfig{
			Partitions:        1 + r.IntN(4),
			ReplicationFactor: rf,
			MinInsyncReplicas: 1 + r.IntN(rf),
			ReplicaLagTimeMax: 1 + r.IntN(8),
		},
		Producer: sim.ProducerConfig{
			Acks:            acks,
			MaxInFlight:     1 + r.IntN(5),
			Records:         r.IntN(30),
			Keys:            keys,
			Interval:        1 + r.IntN(3),
			Start:           1 + r.IntN(3),
			DeliveryTimeout: 1 + r.IntN(30),
			RequestTimeout:  1 + r.IntN(10),
			RetryBackoff:    1 + r.IntN(3),
			Retries:         r.IntN(3),
			MetadataMaxAge:  1 + r.IntN(10),
		},
		BrokerSessionTimeout: 1 + r.IntN(4),
	}
	// enable.idempotence only where the parser allows it.
	pc := &sc.Producer
	pc.EnableIdempotence = acks == sim.AcksAll && pc.Retries > 0 && pc.MaxInFlight <= 5 && r.IntN(2) == 0
	n := brokers
	for i, k := 0, r.IntN(12); i < k; i++ {
		ev := sim.TimelineEvent{At: 1 + r.IntN(beats)}
		switch x := r.IntN(24); {
		case x < 6:
			ev.Kind, ev.Broker = sim.EventCrash, 1+r.IntN(n)
		case x < 12:
			ev.Kind, ev.Broker = sim.EventRestart, 1+r.IntN(n)
		case x < 15:
			ev.Kind, ev.Broker = sim.EventPause, 1+r.IntN(n)
		case x < 18:
			ev.Kind, ev.Broker = sim.EventResume, 1+r.IntN(n)
		case x < 20:
			ev.Kind, ev.Broker = sim.EventIsolate, 1+r.IntN(n)
		case x < 22:
			ev.Kind, ev.Broker = sim.EventHeal, 1+r.IntN(n)
		case x < 23:
			if n >= sim.MaxBrokers {
				continue
			}
			n++
			ev.Kind, ev.Broker = sim.EventAddBroker, n
		default:
			ev.Kind, ev.Count = sim.EventAddPartitions, 1+r.IntN(2)
		}
		sc.Timeline = append(sc.Timeline, ev)
	}
	addRandomConsumerGroups(r, sc)
	// Drawn last, so every seed still makes the scenario it made before
	// consumer groups had a metadata.max.age.
	for i := range sc.ConsumerGroups {
		sc.ConsumerGroups[i].MetadataMaxAge = 1 + r.IntN(10)
	}
	// the engine reads the timeline in beat order, as the parser leaves it
	for i := 1; i < len(sc.Timeline); i++ {
		for j := i; j > 0 && sc.Timeline[j].At < sc.Timeline[j-1].At; j-- {
			sc.Timeline[j], sc.Timeline[j-1] = sc.Timeline[j-1], sc.Timeline[j]
		}
	}
	return sc
}

// TestRandomScenarios runs thousands of seeded random scenarios and checks
// every invariant after every beat (CheckInvariants), plus that a run is
// reproducible and every record settles consistently.
func TestRandomScenarios(t *testing.T) {
	n := *randomRuns
	if testing.Short() {
		n /= 10
	}
	failures := 0
	for seed := uint64(1); seed <= uint64(n) && failures < 5; seed++ {
		sc := randomScenario(seed)
		tr, ok := runChecked(t, seed, sc)
		if !ok {
			failures++
		}
		if tr == nil {
			continue
		}
		for _, rec := range tr.Records {
			if msg := recordConsistency(sc, rec); msg != "" {
				failures++
				t.Errorf("seed %d: record %d: %s", seed, rec.ID, msg)
			}
		}
	}
}

// recordConsistency checks a record's fate fields agree with each other.
func recordConsistency(sc *sim.Scenario, r sim.Record) string {
	switch r.Outcome {
	case sim.OutcomePending:
		if r.SettledAt != -1 {
			return "pending but settled"
		}
	case sim.OutcomeAcked, sim.OutcomeL:
		if r.AckedAt < r.CreatedAt || r.Offset < 0 {
			return fmt.Sprintf("%s without an ack or an offset (ackedAt %d, offset %d)", r.Outcome, r.AckedAt, r.Offset)
		}
		if r.SettledAt < r.AckedAt {
			return "settled before acked"
		}
	case sim.OutcomeSent:
		if sc.Producer.Acks != sim.AcksNone {
			return "sent with acks " + sc.Producer.Acks.String()
		}
	case sim.OutcomeF:
		if r.SettledAt-r.CreatedAt < sc.Producer.DeliveryTimeout {
			return "F before delivery.timeout"
		}
	}
	if r.Outcome != sim.OutcomePending && r.SettledAt < r.CreatedAt {
		return "settled before created"
	}
	return ""
}

// runChecked runs one random scenario and checks every invariant after
// every beat. It reports a panic or a breach as a test error and returns
// ok false; tr is nil when the engine panicked.
func runChecked(t *testing.T, seed uint64, sc *sim.Scenario) (tr *sim.Trace, ok bool) {
	t.Helper()
	ok = true
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("seed %d: panic: %v", seed, p)
				ok = false
			}
		}()
		tr = sim.Run(sc)
	}()
	if tr == nil {
		return nil, ok
	}
	if v := sim.CheckInvariants(sc, tr); len(v) > 0 {
		t.Errorf("seed %d: %d invariant breaches, first:\n%s", seed, len(v), strings.Join(v[:min(3, len(v))], "\n"))
		ok = false
	}
	return tr, ok
}
