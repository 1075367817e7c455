package svganim

import "github.com/kafkaflow/kflowgen/sim"

// story builds a trace by hand, beat by beat: each step starts from a copy
// of the previous beat's state, so a test says only what changes. It lets
// the renderer be tested without the engine.
type story struct{ t *sim.Trace }

func newStory(id, title string, keys []string, brokers, partitions int, replicas [][]int) *story {
	b := sim.Beat{Beat: 0, Events: []string{}}
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
// changes do not leak backwards) and returns it for editing.
func (s *story) next(events ...string) *sim.Beat {
	prev := s.t.Beats[len(s.t.Beats)-1]
	b := sim.Beat{Beat: prev.Beat + 1, Events: append([]string{}, events...)}
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
