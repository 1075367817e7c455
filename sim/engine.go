package sim

import (
	"math/rand/v2"
	"slices"
)

// never stands for "long ago" in beat arithmetic. Kafka initialises
// Replica.lastCaughtUpTimeMs and lastFetchTimeMs to 0, the Unix epoch, which
// is always far in the past of a real clock; beats start at 0, so the engine
// uses a large negative beat for the same meaning.
const never = -1 << 30

// engine is the whole simulated world: brokers, the topic's partitions, the
// producer and the messages on the wire. It is a pure state machine driven
// one beat at a time by Run; only Run and the record step build output.
type engine struct {
	sc  *Scenario
	rng *rand.Rand

	now     int
	brokers []broker     // index = broker id; index 0 unused
	parts   []*partition // index = partition id

	prod    producer
	records []*record // index = record id − 1

	// wire holds the messages sent this beat (delivered in step 3 of the
	// next beat, in send order); seq numbers every message sent.
	wire []message
	seq  int
	// sent is this beat's messages as the trace records them; lastSent
	// the previous beat's, already recorded, where a message dropped on
	// arrival is marked (wire.go).
	sent, lastSent []Message

	// fenced lists the brokers that crashed this beat, in timeline order,
	// for the controller (step 2); restarted likewise.
	fenced, restarted []int
	// sessionFenced lists the isolated brokers the controller fences this
	// beat (broker.session.timeout ran out); healed those that healed.
	sessionFenced, healed []int
	// steppedDown holds the answers a healed deposed leader owes its
	// parked requests, sent in step 4.
	steppedDown []message

	events []Event
	groups groupsState
	// lives is every group member that ever joined, in joining order.
	lives []MemberLife
}

// broker is one broker's liveness.
type broker struct {
	online bool
	// paused is true while the broker's replica fetchers are stopped.
	paused bool
	// isolated is true while the broker is cut off from the controller
	// and the other brokers (isolate), since beat isolatedAt; fenced is
	// true once the controller fenced it for missing its heartbeats
	// (broker.session.timeout), until it heals.
	isolated   bool
	isolatedAt int
	fenced     bool
}

// newEngine builds the beat-0 state of sc: every partition led by its
// preferred replica at leader epoch 0 with a full ISR and empty logs.
func newEngine(sc *Scenario) *engine {
	e := &engine{
		sc:  sc,
		rng: rand.New(rand.NewPCG(sc.Seed, sc.Seed^0x6b61666b61666c6f)),
	}
	e.brokers = make([]broker, sc.Brokers+1)
	for b := 1; b <= sc.Brokers; b++ {
		e.brokers[b].online = true
	}
	for p := 0; p < sc.Topic.Partitions; p++ {
		e.createPartition(p)
	}
	e.initGroups()
	return e
}

// randIntN is the engine's one door to randomness: a PCG generator seeded
// by Scenario.Seed, so every run of a scenario draws the same numbers.
// It returns a number in [0, n).
func (e *engine) randIntN(n int) int {
	return e.rng.IntN(n)
}

// emit adds an event to the current beat.
func (e *engine) emit(ev Event) {
	e.events = append(e.events, ev)
}

// send puts a message on the wire; it is delivered in step 3 of the next
// beat. Messages sent in one beat are delivered in the order they were sent.
func (e *engine) send(m message) {
	e.seq++
	m.seq = e.seq
	m.sentAt = e.now
	e.recordSent(&m)
	e.wire = append(e.wire, m)
}

// Run simulates sc for sc.Beats beats and returns its trace: Beats[0] is the
// initial state and Beats[b] the state at the end of beat b. Each beat runs
// the six steps documented in the package comment. Run expects a scenario
// the parser accepted (package sim/scenario) and never fails on one; it
// panics only if an internal invariant breaks, which is a bug.
func Run(sc *Scenario) *Trace {
	e := newEngine(sc)
	t := &Trace{ID: sc.ID, Title: sc.Title, Keys: distinctKeys(sc.Producer.Keys), ReplicaLagTimeMax: sc.Topic.ReplicaLagTimeMax}
	t.Beats = make([]Beat, 0, sc.Beats+1)
	t.Beats = append(t.Beats, e.record())
	timeline := sc.Timeline
	if !slices.IsSortedFunc(timeline, byBeat) {
		timeline = slices.Clone(timeline)
		slices.SortStableFunc(timeline, byBeat)
	}
	tl := 0
	for e.now = 1; e.now <= sc.Beats; e.now++ {
		// 1. timeline
		for tl < len(timeline) && timeline[tl].At < e.now {
			tl++ // entries before beat 1 have nothing to act on
		}
		for tl < len(timeline) && timeline[tl].At == e.now {
			e.applyTimeline(timeline[tl])
			tl++
		}
		// 2. controller
		e.stepController()
		// 3. deliver
		e.deliver()
		// 4. leaders' periodic checks
		e.stepLeaders()
		// 5. clients
		e.stepProducer()
		e.stepFollowers()
		e.stepGroups()
		// 6. record
		t.Beats = append(t.Beats, e.record())
	}
	t.Records = e.recordOutcomes()
	t.Members = e.recordMembers()
	return t
}

// byBeat orders timeline events by beat; a stable sort keeps the written
// order within a beat.
func byBeat(a, b TimelineEvent) int { return a.At - b.At }

// distinctKeys returns keys without repeats, in first-use order.
func distinctKeys(keys []string) []string {
	out := []string{}
	for _, k := range keys {
		seen := false
		for _, o := range out {
			if o == k {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, k)
		}
	}
	return out
}
