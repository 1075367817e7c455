package sim_test

import (
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// benchScenario is a scenario at the size limits' scale: 5 brokers, 6
// partitions, 500 records over 400 beats, with crashes, restarts, a pause
// and an added broker.
func benchScenario() *sim.Scenario {
	return &sim.Scenario{
		ID: "bench", Seed: 1, Brokers: 5, Beats: sim.MaxBeats,
		Topic: sim.TopicConfig{Partitions: 6, ReplicationFactor: 3, MinInsyncReplicas: 2, ReplicaLagTimeMax: 6},
		Producer: sim.ProducerConfig{Acks: sim.AcksAll, MaxInFlight: 5, Records: sim.MaxRecords,
			Keys: []string{"blue", "green", "orange", "red", "teal", "gold"}, Interval: 1, Start: 1,
			DeliveryTimeout: 40, RequestTimeout: 10, RetryBackoff: 1},
		Timeline: []sim.TimelineEvent{
			{At: 50, Kind: sim.EventCrash, Broker: 1},
			{At: 90, Kind: sim.EventPause, Broker: 3},
			{At: 120, Kind: sim.EventRestart, Broker: 1},
			{At: 140, Kind: sim.EventResume, Broker: 3},
			{At: 200, Kind: sim.EventAddBroker, Broker: 6},
			{At: 300, Kind: sim.EventCrash, Broker: 2},
			{At: 340, Kind: sim.EventRestart, Broker: 2},
		},
	}
}

// BenchmarkRun measures the engine: beats/s and record-beats/s (records
// alive × beats simulated, counting every created record for every beat
// from its creation to the end).
func BenchmarkRun(b *testing.B) {
	sc := benchScenario()
	tr := sim.Run(sc)
	recordBeats := 0
	for _, r := range tr.Records {
		recordBeats += sc.Beats - r.CreatedAt + 1
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sim.Run(sc)
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(sc.Beats*b.N)/secs, "beats/s")
	b.ReportMetric(float64(recordBeats*b.N)/secs, "record-beats/s")
}
