package scenario

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// atLimits writes a scenario with every size at its limit, changed by
// delta for the part named over ("" for none).
func atLimits(over string, delta int) string {
	n := func(part string, v int) int {
		if part == over {
			return v + delta
		}
		return v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "id: at-the-limits\nbrokers: %d\nbeats: %d\n", n("brokers", sim.MaxBrokers), n("beats", sim.MaxBeats))
	fmt.Fprintf(&b, "topic: {partitions: %d, replication.factor: %d}\n", n("partitions", sim.MaxPartitions), n("replication.factor", sim.MaxReplicationFactor))
	keys := make([]string, n("keys", sim.MaxKeys))
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
	}
	fmt.Fprintf(&b, "producer: {records: %d, keys: [%s]}\n", n("records", sim.MaxRecords), strings.Join(keys, ", "))
	groups := n("groups", sim.MaxGroups)
	b.WriteString("consumer.groups:\n")
	for g := 0; g < groups/2; g++ {
		members := sim.MaxMembers
		if g == 0 {
			members = n("members", members)
		}
		fmt.Fprintf(&b, "  - {id: c%d, members: %d}\n", g, members)
	}
	b.WriteString("share.groups:\n")
	for g := groups / 2; g < groups; g++ {
		fmt.Fprintf(&b, "  - {id: s%d, members: %d}\n", g, sim.MaxMembers)
	}
	// Pause and resume broker 1 in turn: every entry is valid on its own.
	b.WriteString("timeline:\n")
	for i := 0; i < n("timeline", sim.MaxTimeline); i++ {
		action := "pause"
		if i%2 == 1 {
			action = "resume"
		}
		fmt.Fprintf(&b, "  - {at: %d, %s: 1}\n", i+1, action)
	}
	b.WriteString("expect:\n")
	for i := 0; i < n("expect", sim.MaxExpect); i++ {
		fmt.Fprintf(&b, "  - {record: %d, outcome: acked}\n", i+1)
	}
	return b.String()
}

// TestLimits builds a scenario at every limit of sim/defaults.go (it must
// parse and fit in MaxFenceBytes), then one over each limit in turn (it
// must fail with one error that names the limit).
func TestLimits(t *testing.T) {
	src := atLimits("", 0)
	if len(src) > sim.MaxFenceBytes {
		t.Fatalf("the at-limits scenario is %d bytes, over MaxFenceBytes", len(src))
	}
	sc, errs := Parse([]byte(src))
	if errs != nil {
		t.Fatalf("a scenario at the limits does not parse:\n%s", joinErrors(errs))
	}
	if len(sc.Timeline) != sim.MaxTimeline || len(sc.Expect) != sim.MaxExpect ||
		len(sc.ConsumerGroups)+len(sc.ShareGroups) != sim.MaxGroups || len(sc.Producer.Keys) != sim.MaxKeys {
		t.Errorf("at-limits scenario lost parts: %d timeline, %d expect, %d+%d groups, %d keys",
			len(sc.Timeline), len(sc.Expect), len(sc.ConsumerGroups), len(sc.ShareGroups), len(sc.Producer.Keys))
	}
	checkValid(t, sc)

	limits := map[string]int{
		"brokers": sim.MaxBrokers, "beats": sim.MaxBeats, "partitions": sim.MaxPartitions,
		"replication.factor": sim.MaxReplicationFactor, "keys": sim.MaxKeys, "records": sim.MaxRecords,
		"groups": sim.MaxGroups, "members": sim.MaxMembers, "timeline": sim.MaxTimeline, "expect": sim.MaxExpect,
	}
	for _, part := range []string{"brokers", "beats", "partitions", "replication.factor", "keys", "records", "groups", "members", "timeline", "expect"} {
		t.Run(part, func(t *testing.T) {
			src := []byte(atLimits(part, 1))
			sc, errs := Parse(src)
			if sc != nil || len(errs) != 1 {
				t.Fatalf("want exactly one error, got:\n%s", joinErrors(errs))
			}
			checkErrors(t, src, errs)
			msg := errs[0].Msg
			if !strings.Contains(msg, "at most "+strconv.Itoa(limits[part])) || !strings.Contains(msg, "Kafka Flow allows") {
				t.Errorf("error %q does not name the limit %d", errs[0], limits[part])
			}
		})
	}
}

// TestTooBig rejects a scenario over MaxFenceBytes at 1:1, however valid
// its text.
func TestTooBig(t *testing.T) {
	src := []byte("id: big\ntitle: " + strings.Repeat("x", sim.MaxFenceBytes) + "\n")
	sc, errs := Parse(src)
	if sc != nil || len(errs) != 1 || errs[0].Pos != (sim.Pos{Line: 1, Col: 1}) || !strings.Contains(errs[0].Msg, strconv.Itoa(sim.MaxFenceBytes)) {
		t.Fatalf("got %v", errs)
	}
}

// TestDefaults checks that a fence naming only its id gets every default
// of sim/defaults.go, and that the replication factor defaults to
// min(3, brokers).
func TestDefaults(t *testing.T) {
	sc, errs := Parse([]byte("id: d\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	want := sim.Scenario{
		ID: "d", Seed: sim.DefaultSeed, Brokers: sim.DefaultBrokers, Beats: sim.DefaultBeats,
		Topic: sim.TopicConfig{
			Partitions: sim.DefaultPartitions, ReplicationFactor: sim.DefaultReplicationFactor,
			MinInsyncReplicas: sim.DefaultMinInsyncReplicas, ReplicaLagTimeMax: sim.DefaultReplicaLagTimeMax,
		},
		Producer: sim.ProducerConfig{
			Acks: sim.DefaultAcks, MaxInFlight: sim.DefaultMaxInFlight, Records: sim.DefaultRecords,
			Keys: sim.DefaultKeys, Interval: sim.DefaultInterval, Start: sim.DefaultStart,
			DeliveryTimeout: sim.DefaultDeliveryTimeout, RequestTimeout: sim.DefaultRequestTimeout,
			RetryBackoff: sim.DefaultRetryBackoff,
		},
		Pos: sim.Pos{Line: 1, Col: 1},
	}
	if dump(sc) != dump(&want) {
		t.Errorf("defaults:\n got %s\nwant %s", dump(sc), dump(&want))
	}
	sc.Producer.Keys[0] = "changed"
	if sim.DefaultKeys[0] == "changed" {
		t.Errorf("Parse shares sim.DefaultKeys with the scenario it returns")
	}
	for brokers := 1; brokers <= sim.MaxBrokers; brokers++ {
		sc, errs := Parse([]byte(fmt.Sprintf("id: d\nbrokers: %d\n", brokers)))
		if errs != nil {
			t.Fatal(errs)
		}
		if sc.Topic.ReplicationFactor != min(3, brokers) {
			t.Errorf("brokers %d: default replication.factor %d", brokers, sc.Topic.ReplicationFactor)
		}
	}
	sc, errs = Parse([]byte("id: g\nconsumer.groups: [{id: c}]\nshare.groups: [{id: s}]\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	c, s := sc.ConsumerGroups[0], sc.ShareGroups[0]
	if c.Members != sim.DefaultMembers || c.AutoOffsetReset != sim.DefaultAutoOffsetReset || c.Assignor != sim.DefaultAssignor ||
		c.AutoCommitInterval != sim.DefaultAutoCommitInterval || c.SessionTimeout != sim.DefaultSessionTimeout || c.Processing != sim.DefaultProcessing {
		t.Errorf("consumer group defaults: %+v", c)
	}
	if s.Members != sim.DefaultMembers || s.ShareAutoOffsetReset != sim.DefaultShareAutoOffset || s.RecordLockDuration != sim.DefaultRecordLockDuration ||
		s.DeliveryCountLimit != sim.DefaultDeliveryCountLimit || s.Processing != sim.DefaultProcessing || s.SlowKey != "" {
		t.Errorf("share group defaults: %+v", s)
	}
}

// TestExpectSplit checks that an entry asserting several fields becomes one
// expectation per field, each positioned at its value, in written order.
func TestExpectSplit(t *testing.T) {
	src := "id: x\nexpect:\n  - {at: 4, partition: 0, highWatermark: 3, isr: [3, 1], leader: 1}\n"
	sc, errs := Parse([]byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	var got []string
	for _, e := range sc.Expect {
		line := strings.Split(src, "\n")[e.Pos.Line-1]
		got = append(got, fmt.Sprintf("%s=%s@%s", e.Field, e.Want, line[e.Pos.Col-1:e.Pos.Col]))
		if e.At != 4 || e.Partition != 0 {
			t.Errorf("selectors not copied: %+v", e)
		}
	}
	want := "highWatermark=3@3 isr=[3 1]@[ leader=1@1"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
}

// TestErrorText checks the go/scanner-style rendering of errors: one
// "line:col: message" (no file yet: the caller places the scenario), and a
// list as every error, one a line, as the build prints them.
func TestErrorText(t *testing.T) {
	_, errs := Parse([]byte("id: x\nbrokers: 0\nbeats: 0\n"))
	if got := errs[0].Error(); got != `2:10: "0" is out of range for brokers: it must be at least 1` {
		t.Errorf("Error() = %q", got)
	}
	if len(errs) != 2 {
		t.Fatalf("want 2 errors, got %v", errs)
	}
	if got := errs.Error(); got != errs[0].Error()+"\n"+errs[1].Error() {
		t.Errorf("ErrorList.Error() = %q", got)
	}
}

// BenchmarkParse measures Parse on a typical fence and on one at every
// size limit.
func BenchmarkParse(b *testing.B) {
	typical, err := os.ReadFile("testdata/good/block-style.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		src  []byte
	}{{"typical", typical}, {"at-limits", []byte(atLimits("", 0))}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				if _, errs := Parse(c.src); errs != nil {
					b.Fatal(errs)
				}
			}
		})
	}
}

// TestSizeLimitCRLF: a scenario exactly at MaxFenceBytes with LF line
// endings stays within it when saved with CRLF; one byte more does not.
func TestSizeLimitCRLF(t *testing.T) {
	head := "id: edge\nbeats: 3\n# "
	lf := head + strings.Repeat("x", sim.MaxFenceBytes-len(head)-1) + "\n"
	if len(lf) != sim.MaxFenceBytes {
		t.Fatalf("built %d bytes", len(lf))
	}
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	if _, errs := Parse([]byte(crlf)); errs != nil {
		t.Errorf("at the limit with CRLF: %v", errs)
	}
	if _, errs := Parse([]byte("#" + crlf)); len(errs) != 1 || !strings.Contains(errs[0].Msg, "over the limit") {
		t.Errorf("one byte over with CRLF: %v", errs)
	}
}
