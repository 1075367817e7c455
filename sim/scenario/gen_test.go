package scenario

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// genScenario builds a random scenario that obeys every rule of the
// reference page, tracking broker, partition and member state the way a
// careful author would. It is independent of the parser's code.
func genScenario(r *rand.Rand) *sim.Scenario {
	pick := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
	sc := &sim.Scenario{
		ID:      "gen-" + strconv.Itoa(r.IntN(1000)),
		Title:   []string{"", "A title", "acks=all — ünïcode", "quotes \" and : colons"}[r.IntN(4)],
		Seed:    r.Uint64(),
		Brokers: pick(1, sim.MaxBrokers),
		Beats:   pick(1, sim.MaxBeats),
	}
	sc.Topic = sim.TopicConfig{
		Partitions:        pick(1, sim.MaxPartitions),
		ReplicationFactor: pick(1, min(sc.Brokers, sim.MaxReplicationFactor)),
		MinInsyncReplicas: pick(1, sim.MaxBrokers),
		ReplicaLagTimeMax: pick(1, sim.MaxBeats),
	}
	keys := make([]string, pick(1, sim.MaxKeys))
	for i := range keys {
		keys[i] = []string{"blue", "green", "k-" + strconv.Itoa(i), "ключ", "a b", "123"}[r.IntN(6)]
	}
	request := pick(1, sim.MaxBeats)
	sc.Producer = sim.ProducerConfig{
		Acks:            []sim.Acks{sim.AcksNone, sim.AcksLeader, sim.AcksAll}[r.IntN(3)],
		MaxInFlight:     pick(1, sim.MaxRecords),
		Records:         pick(1, sim.MaxRecords),
		Keys:            keys,
		Interval:        pick(1, sim.MaxBeats),
		Start:           pick(1, sc.Beats),
		RequestTimeout:  request,
		DeliveryTimeout: pick(request, sim.MaxBeats),
		RetryBackoff:    pick(1, sim.MaxBeats),
	}
	type grp struct {
		id    string
		share bool
		n     int
		limit int
		gone  map[int]bool
	}
	var groups []*grp
	for i := 0; i < r.IntN(sim.MaxGroups+1); i++ {
		g := &grp{id: fmt.Sprintf("g%d", i), n: pick(0, sim.MaxMembers), gone: map[int]bool{}}
		if r.IntN(2) == 0 {
			sc.ConsumerGroups = append(sc.ConsumerGroups, sim.ConsumerGroupConfig{
				ID: g.id, Members: g.n,
				AutoOffsetReset:    []string{"earliest", "latest"}[r.IntN(2)],
				Assignor:           []string{"uniform", "range"}[r.IntN(2)],
				AutoCommitInterval: pick(1, sim.MaxBeats), SessionTimeout: pick(1, sim.MaxBeats), Processing: pick(1, sim.MaxBeats),
				MaxPollInterval: pick(1, sim.MaxBeats), MaxPollRecords: pick(1, sim.MaxRecords),
			})
		} else {
			g.share = true
			g.limit = pick(2, 10)
			slow := ""
			if r.IntN(2) == 0 {
				slow = keys[r.IntN(len(keys))]
			}
			sc.ShareGroups = append(sc.ShareGroups, sim.ShareGroupConfig{
				ID: g.id, Members: g.n,
				ShareAutoOffsetReset: []string{"earliest", "latest"}[r.IntN(2)],
				RecordLockDuration:   pick(1, sim.MaxBeats), DeliveryCountLimit: g.limit,
				Processing: pick(1, sim.MaxBeats), SlowKey: slow,
			})
		}
		groups = append(groups, g)
	}
	// Timeline, built in beat order.
	brokers, partitions := sc.Brokers, sc.Topic.Partitions
	down, paused := map[int]bool{}, map[int]bool{}
	changedAt := map[int]int{} // broker → 1 + the beat of its last state change
	at := 1
	type snapshot struct{ at, brokers, partitions int }
	var history []snapshot
	memberCount := map[string][]int{} // group → beats of joins
	for i := 0; i < r.IntN(30); i++ {
		at += r.IntN(3)
		if at > sc.Beats {
			break
		}
		e := sim.TimelineEvent{At: at}
		b := pick(1, brokers)
		kind := r.IntN(9)
		if kind < 4 && changedAt[b] == at+1 {
			continue // one state change per broker per beat
		}
		switch kind {
		case 0:
			if down[b] {
				continue
			}
			e.Kind, e.Broker, down[b], paused[b] = sim.EventCrash, b, true, false // a crash ends a pause
			changedAt[b] = at + 1
		case 1:
			if !down[b] {
				continue
			}
			e.Kind, e.Broker, down[b] = sim.EventRestart, b, false
			changedAt[b] = at + 1
		case 2:
			if down[b] || paused[b] {
				continue
			}
			e.Kind, e.Broker, paused[b] = sim.EventPause, b, true
			changedAt[b] = at + 1
		case 3:
			if !paused[b] {
				continue
			}
			e.Kind, e.Broker, paused[b] = sim.EventResume, b, false
			changedAt[b] = at + 1
		case 4:
			if brokers == sim.MaxBrokers {
				continue
			}
			brokers++
			e.Kind, e.Broker = sim.EventAddBroker, brokers
		case 5:
			if partitions == sim.MaxPartitions {
				continue
			}
			e.Kind, e.Count = sim.EventAddPartitions, pick(1, sim.MaxPartitions-partitions)
			partitions += e.Count
		case 6:
			if len(groups) == 0 {
				continue
			}
			g := groups[r.IntN(len(groups))]
			if g.n == sim.MaxMembers {
				continue
			}
			g.n++
			e.Kind, e.Group = sim.EventJoin, g.id
			memberCount[g.id] = append(memberCount[g.id], at)
		default:
			if len(groups) == 0 {
				continue
			}
			g := groups[r.IntN(len(groups))]
			if g.n == 0 {
				continue
			}
			m := pick(1, g.n)
			if g.gone[m] {
				continue
			}
			g.gone[m] = true
			e.Kind = []sim.EventKind{sim.EventLeave, sim.EventStop}[r.IntN(2)]
			e.Group, e.Member = g.id, fmt.Sprintf("%s-%d", g.id, m)
		}
		sc.Timeline = append(sc.Timeline, e)
		history = append(history, snapshot{at, brokers, partitions})
	}
	// What exists at a beat.
	state := func(beat int) (int, int) {
		b, p := sc.Brokers, sc.Topic.Partitions
		for _, h := range history {
			if h.at <= beat {
				b, p = h.brokers, h.partitions
			}
		}
		return b, p
	}
	membersAt := func(g *grp, beat int) int {
		n := 0
		for _, c := range sc.ConsumerGroups {
			if c.ID == g.id {
				n = c.Members
			}
		}
		for _, s := range sc.ShareGroups {
			if s.ID == g.id {
				n = s.Members
			}
		}
		for _, j := range memberCount[g.id] {
			if j <= beat {
				n++
			}
		}
		return n
	}
	for i := 0; i < r.IntN(40); i++ {
		beat := pick(0, sc.Beats)
		nb, np := state(beat)
		x := sim.Expectation{At: beat, Partition: pick(0, np-1)}
		switch r.IntN(7) {
		case 0:
			x = sim.Expectation{Record: pick(1, sc.Producer.Records), Partition: -1, Field: "outcome"}
			if sc.Producer.Acks == sim.AcksNone {
				x.Want = []string{"sent", "F", "pending"}[r.IntN(3)]
			} else {
				x.Want = []string{"acked", "F", "U", "L", "pending"}[r.IntN(5)]
			}
		case 1:
			x.Field, x.Want = "leader", strconv.Itoa(pick(0, nb))
		case 2:
			x.Field = "isr"
			perm := r.Perm(nb)[:pick(0, nb)]
			x.Want = "["
			for j, b := range perm {
				if j > 0 {
					x.Want += " "
				}
				x.Want += strconv.Itoa(b + 1)
			}
			x.Want += "]"
		case 3:
			x.Field, x.Want = []string{"highWatermark", "leaderEpoch"}[r.IntN(2)], strconv.Itoa(r.IntN(1000))
		case 4:
			x.Broker = pick(1, nb)
			x.Field = []string{"logEndOffset", "online"}[r.IntN(2)]
			if x.Field == "online" {
				x.Want = strconv.FormatBool(r.IntN(2) == 0)
			} else {
				x.Want = strconv.Itoa(r.IntN(1000))
			}
		default:
			if len(groups) == 0 {
				continue
			}
			g := groups[r.IntN(len(groups))]
			x.Group = g.id
			switch {
			case g.share && r.IntN(2) == 0:
				x.Field, x.Want = "startOffset", strconv.Itoa(r.IntN(100))
			case g.share:
				x.Offset = int64(r.IntN(100))
				if r.IntN(2) == 0 {
					x.Field, x.Want = "state", []string{"available", "acquired", "acknowledged", "archived"}[r.IntN(4)]
				} else {
					x.Field, x.Want = "deliveryCount", strconv.Itoa(pick(0, g.limit))
				}
			case r.IntN(2) == 0:
				x.Field = "owner"
				if n := membersAt(g, beat); n > 0 && r.IntN(3) > 0 {
					x.Want = fmt.Sprintf("%s-%d", g.id, pick(1, n))
				}
			default:
				x.Field, x.Want = []string{"position", "committed"}[r.IntN(2)], strconv.Itoa(pick(-1, 100))
			}
		}
		sc.Expect = append(sc.Expect, x)
	}
	return sc
}

// TestGeneratedScenarios writes a thousand random valid scenarios in
// their canonical YAML and requires Parse to accept each one and give the
// same scenario back: the parser rejects nothing the reference page allows.
func TestGeneratedScenarios(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	strip := regexp.MustCompile(`@\d+:\d+ `)
	for i := 0; i < 1000; i++ {
		want := genScenario(r)
		src := canonical(want)
		got, errs := Parse([]byte(src))
		if errs != nil {
			t.Fatalf("scenario %d rejected:\n%s\n%s", i, src, joinErrors(errs))
		}
		checkValid(t, got)
		if a, b := strip.ReplaceAllString(dump(want), ""), strip.ReplaceAllString(dump(got), ""); a != b {
			t.Fatalf("scenario %d changed:\nwant:\n%s\ngot:\n%s\nsource:\n%s", i, a, b, src)
		}
	}
}
