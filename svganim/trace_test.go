package svganim

import "github.com/kafkaflow/kflowgen/sim"

// story builds a trace by hand, beat by beat: each step starts from a copy
// of the previous beat's state, so a test says only what changes. It lets
// the renderer be tested without the engine.
type story struct{ t *sim.Trace }

func newStory(id, title string, keys []string, brokers, partitions int, replicas [][]int) *story {
	b := sim.Beat{Beat: 0, Events: []sim.Event{}}
	for i := 1; i <= brokers; i++ {
		b.Brokers = append(b.Brokers, sim.Broker{Broker: i, Online: true})
	}
	for p := 0; p < partitions; p++ {
		part := sim.Partition{Partition: p, Leader: replicas[p][0], ISR: append([]int(nil), replicas[p]...), Assignment: replicas[p]}
		for _, r := range replicas[p] {
			part.Replicas = append(part.Replicas, sim.Replica{Broker: r, Online: true})
		}
		b.Partitions = append(b.Partitions, part)
	}
	return &story{t: &sim.Trace{ID: id, Title: title, Keys: keys, Beats: []sim.Beat{b}}}
}

// next appends a beat that copies the last one (deeply enough that
// changes do not leak backwards) and returns it for editing. Each event is
// given by its text alone (no kind): the renderer draws from state and
// only captions read events.
func (s *story) next(events ...string) *sim.Beat {
	prev := s.t.Beats[len(s.t.Beats)-1]
	b := sim.Beat{Beat: prev.Beat + 1, Events: []sim.Event{}}
	for _, text := range events {
		b.Events = append(b.Events, sim.Event{Text: text})
	}
	b.Brokers = append(b.Brokers, prev.Brokers...)
	for _, p := range prev.Partitions {
		q := p
		q.ISR = append([]int(nil), p.ISR...)
		q.Replicas = append([]sim.Replica(nil), p.Replicas...)
		b.Partitions = append(b.Partitions, q)
	}
	for _, c := range prev.Producer.Cards {
		if c.Stage != "settled" {
			b.Producer.Cards = append(b.Producer.Cards, c)
		}
	}
	for _, g := range prev.Groups {
		h := g
		h.Members = append([]sim.Member(nil), g.Members...)
		h.Partitions = append([]sim.GroupPartition(nil), g.Partitions...)
		for i := range h.Partitions {
			h.Partitions[i].Records = append([]sim.ShareRecord(nil), g.Partitions[i].Records...)
		}
		b.Groups = append(b.Groups, h)
	}
	s.t.Beats = append(s.t.Beats, b)
	return &s.t.Beats[len(s.t.Beats)-1]
}

func replica(b *sim.Beat, p, broker int) *sim.Replica {
	for i := range b.Partitions[p].Replicas {
		if b.Partitions[p].Replicas[i].Broker == broker {
			return &b.Partitions[p].Replicas[i]
		}
	}
	panic("no such replica")
}

// appendTo appends record rec to broker's replica of p in epoch.
func appendTo(b *sim.Beat, p, broker, rec, epoch int) {
	r := replica(b, p, broker)
	r.Log = append(append([]sim.Entry(nil), r.Log...), sim.Entry{Record: rec, Epoch: epoch})
	r.LogEndOffset = int64(len(r.Log))
}

func setCard(b *sim.Beat, rec int, stage, outcome string) {
	for i := range b.Producer.Cards {
		if b.Producer.Cards[i].Record == rec {
			b.Producer.Cards[i].Stage = stage
			b.Producer.Cards[i].Outcome = outcome
			return
		}
	}
	b.Producer.Cards = append(b.Producer.Cards, sim.Card{Record: rec, Stage: stage, Attempt: 1, Outcome: outcome})
}

func setBroker(b *sim.Beat, id int, online, paused bool) {
	for i := range b.Brokers {
		if b.Brokers[i].Broker == id {
			b.Brokers[i].Online, b.Brokers[i].Paused = online, paused
		}
	}
	for p := range b.Partitions {
		for i := range b.Partitions[p].Replicas {
			if b.Partitions[p].Replicas[i].Broker == id {
				b.Partitions[p].Replicas[i].Online = online
			}
		}
	}
}

// acksOneLoss is the guide's first story told by hand: acks=1, the
// leader acknowledges record 2 and crashes before any follower has it;
// broker 2 takes over and record 2 is lost. Record 3's key carries markup
// to prove it comes out inert.
func acksOneLoss() *sim.Trace {
	s := newStory("acks-one-loss", `Acknowledged, then lost <b>"`, []string{"blue", "green", `<script>alert(1)</script>"onload=`}, 3, 1, [][]int{{1, 2, 3}})
	s.t.Records = []sim.Record{
		{ID: 1, Key: "blue", Partition: 0, Offset: 0, Outcome: sim.OutcomeAcked, CreatedAt: 1, SettledAt: 3, AckedAt: 3},
		{ID: 2, Key: "green", Partition: 0, Offset: 1, Outcome: sim.OutcomeL, CreatedAt: 3, SettledAt: 7, AckedAt: 5},
		{ID: 3, Key: `<script>alert(1)</script>"onload=`, Partition: 0, Offset: 1, Outcome: sim.OutcomeAcked, CreatedAt: 6, SettledAt: 9, AckedAt: 9},
	}
	b := s.next("producer creates record 1 (key blue) and sends it to broker 1 for p0")
	setCard(b, 1, "sending", "")
	b = s.next("broker 1 appends record 1 at offset 0 of p0 in leader epoch 0")
	appendTo(b, 0, 1, 1, 0)
	setCard(b, 1, "answering", "")
	b = s.next("producer receives the ack of record 1", "brokers 2 and 3 fetch offset 0 of p0")
	setCard(b, 1, "settled", sim.OutcomeAcked)
	appendTo(b, 0, 2, 1, 0)
	appendTo(b, 0, 3, 1, 0)
	setCard(b, 2, "sending", "")
	b = s.next("broker 1 appends record 2 at offset 1 of p0", "high watermark of p0 moves to 1")
	appendTo(b, 0, 1, 2, 0)
	replica(b, 0, 1).HighWatermark = 1
	b.Partitions[0].HighWatermark = 1
	setCard(b, 2, "answering", "")
	b = s.next("producer receives the ack of record 2", "broker 1 crashes")
	setCard(b, 2, "settled", sim.OutcomeAcked)
	setBroker(b, 1, false, false)
	b = s.next("controller elects broker 2 leader of p0 in leader epoch 1 (isr [2 3])")
	b.Partitions[0].Leader, b.Partitions[0].LeaderEpoch, b.Partitions[0].ISR = 2, 1, []int{2, 3}
	replica(b, 0, 2).HighWatermark = 1
	replica(b, 0, 3).HighWatermark = 1
	setCard(b, 3, "sending", "")
	b = s.next("broker 1 restarts", "broker 2 appends record 3 at offset 1 of p0 in leader epoch 1")
	setBroker(b, 1, true, false)
	appendTo(b, 0, 2, 3, 1)
	setCard(b, 3, "waiting", "")
	b = s.next("broker 1 truncates p0 to offset 1: record 2 is lost", "broker 3 fetches offset 1 of p0")
	r1 := replica(b, 0, 1)
	r1.Log = r1.Log[:1:1]
	r1.LogEndOffset = 1
	appendTo(b, 0, 3, 3, 1)
	b = s.next("high watermark of p0 moves to 2", "broker 1 fetches offset 1 of p0")
	appendTo(b, 0, 1, 3, 1)
	for _, br := range []int{2, 3} {
		replica(b, 0, br).HighWatermark = 2
	}
	b.Partitions[0].HighWatermark = 2
	b.Partitions[0].ISR = []int{1, 2, 3}
	setCard(b, 3, "settled", sim.OutcomeAcked)
	return s.t
}

// groupsTrace is a hand-told story with a consumer group and a share
// group reading two partitions, to draw group lanes before the group
// engines exist: three consumers on two partitions (one idle), a member
// that stops and is replaced, a record processed twice; two share members
// working one partition record by record.
func groupsTrace() *sim.Trace {
	s := newStory("groups", "A consumer group and a share group read the same topic", []string{"blue", "orange"}, 3, 2, [][]int{{1, 2, 3}, {2, 3, 1}})
	for i := 1; i <= 6; i++ {
		key := []string{"blue", "orange"}[i%2]
		s.t.Records = append(s.t.Records, sim.Record{ID: i, Key: key, Partition: i % 2, Offset: int64((i - 1) / 2), Outcome: sim.OutcomeAcked, CreatedAt: 1, SettledAt: 3, AckedAt: 3})
	}
	// The members' lives, as the engine would record them: readers-1 is
	// fenced at beat 4 (below); nobody else leaves.
	for _, m := range []sim.MemberLife{
		{Group: "readers", Type: "consumer", Member: "readers-1", Number: 1, FencedAt: 4},
		{Group: "readers", Type: "consumer", Member: "readers-2", Number: 2, FencedAt: -1},
		{Group: "readers", Type: "consumer", Member: "readers-3", Number: 3, FencedAt: -1},
		{Group: "workers", Type: "share", Member: "workers-1", Number: 1, FencedAt: -1},
		{Group: "workers", Type: "share", Member: "workers-2", Number: 2, FencedAt: -1},
	} {
		m.LeftAt = -1
		s.t.Members = append(s.t.Members, m)
	}
	b0 := &s.t.Beats[0]
	b0.Groups = []sim.Group{
		{Group: "readers", Type: "consumer", GroupEpoch: 1,
			Members:    []sim.Member{{Member: "readers-1", Partitions: []int{0}, State: "active"}, {Member: "readers-2", Partitions: []int{1}, State: "active"}, {Member: "readers-3", State: "active"}},
			Partitions: []sim.GroupPartition{{Partition: 0, Owner: "readers-1", Position: 0, Committed: -1}, {Partition: 1, Owner: "readers-2", Position: 0, Committed: -1}}},
		{Group: "workers", Type: "share", GroupEpoch: 1,
			Members:    []sim.Member{{Member: "workers-1", Partitions: []int{0, 1}, State: "active"}, {Member: "workers-2", Partitions: []int{0, 1}, State: "active"}},
			Partitions: []sim.GroupPartition{{Partition: 0, Share: true}, {Partition: 1, Share: true}}},
	}
	// Three records land on each partition and become visible.
	b := s.next("the producer's six records are replicated")
	for rec := 1; rec <= 6; rec++ {
		p := rec % 2
		for _, br := range []int{1, 2, 3} {
			appendTo(b, p, br, rec, 0)
		}
	}
	for p := 0; p < 2; p++ {
		b.Partitions[p].HighWatermark = 3
		for i := range b.Partitions[p].Replicas {
			b.Partitions[p].Replicas[i].HighWatermark = 3
		}
	}
	b = s.next("readers-1 fetches p0 offsets 0–2", "workers-1 acquires p0 offset 0", "workers-2 acquires p0 offset 1")
	b.Groups[0].Partitions[0].Position = 3
	b.Groups[0].Members[0].Processing = 2
	b.Groups[1].Partitions[0].Records = []sim.ShareRecord{
		{Offset: 0, State: "acquired", DeliveryCount: 1, Member: "workers-1"},
		{Offset: 1, State: "acquired", DeliveryCount: 1, Member: "workers-2"},
		{Offset: 2, State: "available"},
	}
	b = s.next("readers commits p0 offset 2", "workers-1 acknowledges p0 offset 0", "readers-1 stops")
	b.Groups[0].Partitions[0].Committed = 2
	b.Groups[0].Members[0].State = "stopped"
	b.Groups[1].Partitions[0].StartOffset = 1
	b.Groups[1].Partitions[0].Records = []sim.ShareRecord{
		{Offset: 0, State: "acknowledged", DeliveryCount: 1, Finisher: "workers-1"},
		{Offset: 1, State: "acquired", DeliveryCount: 1, Member: "workers-2"},
		{Offset: 2, State: "acquired", DeliveryCount: 1, Member: "workers-1"},
	}
	b = s.next("the coordinator fences readers-1", "readers-3 takes p0 from the committed offset 2", "workers-2's lock on p0 offset 1 expires")
	b.Groups[0].GroupEpoch = 2
	b.Groups[0].Members = []sim.Member{{Member: "readers-2", Partitions: []int{1}, State: "active"}, {Member: "readers-3", Partitions: []int{0}, State: "active"}}
	b.Groups[0].Partitions[0].Owner, b.Groups[0].Partitions[0].Position = "readers-3", 2
	b.Groups[1].Partitions[0].Records[1] = sim.ShareRecord{Offset: 1, State: "available", DeliveryCount: 1}
	b = s.next("readers-3 processes p0 offset 2 again", "workers-1 acquires p0 offset 1 (second delivery)")
	b.Groups[0].Partitions[0].Position = 3
	b.Groups[0].Partitions[0].Reprocessed = []int64{2}
	b.Groups[1].Partitions[0].Records[1] = sim.ShareRecord{Offset: 1, State: "acquired", DeliveryCount: 2, Member: "workers-1"}
	b = s.next("workers-1 rejects p0 offset 1: archived", "workers-1 acknowledges p0 offset 2")
	b.Groups[1].Partitions[0].StartOffset = 3
	b.Groups[1].Partitions[0].Records = []sim.ShareRecord{
		{Offset: 0, State: "acknowledged", DeliveryCount: 1, Finisher: "workers-1"},
		{Offset: 1, State: "archived", DeliveryCount: 2},
		{Offset: 2, State: "acknowledged", DeliveryCount: 1, Finisher: "workers-1"},
	}
	return s.t
}
