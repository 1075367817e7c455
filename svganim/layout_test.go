package svganim

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
)

// randomTopology draws a topology within the engine's limits.
func randomTopology(r *rand.Rand) Topology {
	var tp Topology
	brokers := 1 + r.IntN(9)
	tp.Partitions = 1 + r.IntN(12)
	for b := 1; b <= brokers; b++ {
		bs := BrokerShape{ID: b}
		for p := 0; p < tp.Partitions; p++ {
			if r.IntN(3) > 0 {
				bs.Partitions = append(bs.Partitions, p)
			}
		}
		tp.Brokers = append(tp.Brokers, bs)
	}
	tp.MaxLog = 1 + r.IntN(500)
	for _, st := range StageOrder {
		if r.IntN(2) == 0 {
			tp.Stages = append(tp.Stages, StageShape{Stage: st, Max: r.IntN(40)})
		}
	}
	if r.IntN(4) > 0 {
		for _, o := range TallyOrder {
			if o != "sent" || r.IntN(2) == 0 {
				tp.Tally = append(tp.Tally, TallyShape{Outcome: o, Max: r.IntN(401)})
			}
		}
	}
	for g := 0; g < r.IntN(5); g++ {
		gs := GroupShape{Group: "g" + strconv.Itoa(g), Type: []string{"consumer", "share"}[r.IntN(2)]}
		for m := 0; m < r.IntN(13); m++ {
			gs.Members = append(gs.Members, gs.Group+"-"+strconv.Itoa(m+1))
		}
		for p := 0; p < tp.Partitions; p++ {
			gs.Partitions = append(gs.Partitions, p)
		}
		tp.Groups = append(tp.Groups, gs)
	}
	return tp
}

// checkLayout fails unless every band lies inside the viewBox, no two
// lanes overlap, rows stay inside their lane and apart from each other,
// zones stay inside the rail and apart, and the longest log (with its log
// end offset mark one cell past its end) fits.
func checkLayout(t *testing.T, name string, tp Topology, l Layout) {
	t.Helper()
	view := Box{0, 0, l.W, l.H}
	var lanes []Box
	lanes = append(lanes, l.Rail)
	for _, ln := range l.Lanes {
		lanes = append(lanes, ln.Box)
		var rows []Box
		for _, r := range ln.Rows {
			if !ln.Box.Contains(r.Box) {
				t.Errorf("%s: row p%d %v leaves lane of broker %d %v", name, r.Partition, r.Box, ln.Broker, ln.Box)
			}
			if end := r.CellsX + (tp.MaxLog+1)*l.CellW; end > l.W {
				t.Errorf("%s: log of p%d ends at %d, past the width %d", name, r.Partition, end, l.W)
			}
			rows = append(rows, r.Box)
		}
		noOverlap(t, name+" rows of broker "+strconv.Itoa(ln.Broker), rows)
	}
	for _, g := range l.Groups {
		lanes = append(lanes, g.Box)
		inner := []Box{g.Header}
		for _, m := range g.Members {
			inner = append(inner, m.Box)
		}
		for _, r := range g.Parts {
			inner = append(inner, r.Box)
		}
		for _, b := range inner {
			if !g.Box.Contains(b) {
				t.Errorf("%s: %v leaves group lane %s %v", name, b, g.Group, g.Box)
			}
		}
		noOverlap(t, name+" inside group "+g.Group, inner)
	}
	noOverlap(t, name+" lanes", lanes)
	// The beat counter sits on the producer band's header line, right of
	// its name and above its zones.
	if !l.Rail.Contains(l.Counter) || l.Counter.Bottom() > l.Rail.Y+laneHeadH || l.Counter.X < l.Rail.X+100 {
		t.Errorf("%s: the counter %v is not on the header line of the producer band %v", name, l.Counter, l.Rail)
	}
	var zones []Box
	for _, z := range l.Zones {
		if !l.Rail.Contains(z.Box) {
			t.Errorf("%s: zone %s %v leaves the rail %v", name, z.Stage, z.Box, l.Rail)
		}
		zones = append(zones, z.Box)
	}
	noOverlap(t, name+" zones", zones)
	// The tally's counters lie inside the rail, apart from each other,
	// the zones and the counter, with the header's name left of them.
	if len(l.Tally) != len(tp.Tally) {
		t.Errorf("%s: %d tally counters for %d outcomes", name, len(l.Tally), len(tp.Tally))
	}
	name13 := pad + 8 + (textW("producer", true)*13+11)/12
	for i, c := range l.Tally {
		if !l.Rail.Contains(c.Box) {
			t.Errorf("%s: tally counter %s %v leaves the rail %v", name, c.Outcome, c.Box, l.Rail)
		}
		if c.Box.Y < l.Rail.Y+laneHeadH && c.Box.X < name13+tallyGap {
			t.Errorf("%s: tally counter %s %v runs into the rail's name (ending at %d)", name, c.Outcome, c.Box, name13)
		}
		if c.Box.Overlaps(l.Counter) {
			t.Errorf("%s: tally counter %s %v overlaps the beat counter %v", name, c.Outcome, c.Box, l.Counter)
		}
		if w := textW(tallyText(c.Outcome, tp.Tally[i].Max), true); c.Box.W < w {
			t.Errorf("%s: tally counter %s is %d wide for a text of %d", name, c.Outcome, c.Box.W, w)
		}
		if i > 0 && c.Box.X < l.Tally[i-1].Box.Right()+tallyGap {
			t.Errorf("%s: tally counters %s and %s stand closer than %d", name, l.Tally[i-1].Outcome, c.Outcome, tallyGap)
		}
		for _, z := range zones {
			if c.Box.Overlaps(z) {
				t.Errorf("%s: tally counter %s %v overlaps zone %v", name, c.Outcome, c.Box, z)
			}
		}
	}
	for _, b := range append(lanes, l.Counter) {
		if !view.Contains(b) {
			t.Errorf("%s: %v leaves the viewBox %v", name, b, view)
		}
	}
	if len(l.Lanes) != len(tp.Brokers) || len(l.Groups) != len(tp.Groups) {
		t.Errorf("%s: %d broker lanes and %d group lanes for %d brokers and %d groups", name, len(l.Lanes), len(l.Groups), len(tp.Brokers), len(tp.Groups))
	}
}

func noOverlap(t *testing.T, what string, bs []Box) {
	t.Helper()
	for i := range bs {
		for j := i + 1; j < len(bs); j++ {
			if bs[i].Overlaps(bs[j]) {
				t.Errorf("%s: %v overlaps %v", what, bs[i], bs[j])
			}
		}
	}
}

func TestLayoutRandomTopologies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		tp := randomTopology(r)
		l := NewLayout(tp)
		checkLayout(t, "topology "+strconv.Itoa(i), tp, l)
		if !reflect.DeepEqual(l, NewLayout(tp)) {
			t.Fatalf("topology %d: NewLayout is not a function of its input", i)
		}
		if t.Failed() {
			t.Fatalf("topology %d: %+v", i, tp)
		}
	}
}

func TestLayoutOfTraces(t *testing.T) {
	for _, nt := range allTraces(t) {
		tp := TopologyOf(nt.t)
		checkLayout(t, nt.name, tp, NewLayout(tp))
	}
}

// TestMarksInsideView draws every beat of every trace and checks that each
// mark's box lies inside the viewBox.
func TestMarksInsideView(t *testing.T) {
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		view := Box{0, 0, s.l.W, s.l.H}
		for bi := range nt.t.Beats {
			for _, m := range s.draw(bi) {
				b := Box{m.x, m.y, m.w, m.h}
				switch m.shape {
				case shTickUp:
					b = Box{m.x - 20, m.y - 12, 40, m.h + 12}
				case shTickDown:
					b = Box{m.x - 20, m.y, 40, m.h + 12}
				case shLabel:
					b = Box{m.x, m.y - 10, 1, 10}
				case shWire:
					b = wireBox(&m)
				}
				if !view.Contains(b) {
					t.Errorf("%s beat %d: mark %s %v leaves the viewBox %v", nt.name, bi, m.id, b, view)
				}
			}
		}
	}
}

func TestTopologyGathersEveryBeat(t *testing.T) {
	tr := acksOneLoss()
	tp := TopologyOf(tr)
	if len(tp.Brokers) != 3 || tp.Partitions != 1 || tp.MaxLog != 2 {
		t.Errorf("brokers %d, partitions %d, max log %d; want 3, 1, 2", len(tp.Brokers), tp.Partitions, tp.MaxLog)
	}
	var stages []string
	for _, s := range tp.Stages {
		stages = append(stages, s.Stage+":"+strconv.Itoa(s.Max))
	}
	if got, want := stages, []string{"sending:1", "waiting:1", "answering:1", "settled:1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("stages %v, want %v", got, want)
	}
	g := TopologyOf(groupsTrace())
	if len(g.Groups) != 2 || !reflect.DeepEqual(g.Groups[0].Members, []string{"readers-1", "readers-2", "readers-3"}) {
		t.Errorf("groups %+v", g.Groups)
	}
}

// TestReassignmentBadges: while a reassignment (KIP-455) moves a
// partition, the role badge of the replica it adds reads "adding" in place
// of "follower", and that of a leader it removes reads "removing" in place
// of "in ISR"; when the move completes the badges are plain again.
func TestReassignmentBadges(t *testing.T) {
	// With two brokers p2 lives on broker 1 (its leader); with three, the
	// numbering rule puts it on broker 3 alone.
	tr := runScenario(t, "moves-leader", []byte(`id: moves-leader
brokers: 2
topic: {partitions: 3, replication.factor: 1}
producer: {records: 3, keys: [a]}
timeline:
  - {at: 2, add.broker: 3}
beats: 14`))
	role := func(bi, broker int) (string, bool) {
		for _, m := range newScene(tr).draw(bi) {
			if m.id == "pr-b"+itoa(broker)+"-p2" {
				return m.text[0] + "/" + m.text[1], true
			}
		}
		return "", false
	}
	moving, done := -1, -1
	for bi, b := range tr.Beats {
		p := b.Partitions[2]
		if moving < 0 && len(p.Adding) > 0 {
			moving = bi
		}
		if moving >= 0 && done < 0 && len(p.Adding) == 0 {
			done = bi
		}
	}
	if moving < 0 || done < 0 {
		t.Fatalf("p2 never starts and completes a reassignment (started at %d, done at %d)", moving, done)
	}
	if got, _ := role(moving, 1); got != "leader e0/removing" {
		t.Errorf("beat %d: the leader being removed reads %q, want leader e0/removing", moving, got)
	}
	if got, _ := role(moving, 3); got != "adding/not in ISR" {
		t.Errorf("beat %d: the replica being added reads %q, want adding/not in ISR", moving, got)
	}
	if got, ok := role(done, 1); ok {
		t.Errorf("beat %d: broker 1 still draws a badge for p2 (%q) after the move", done, got)
	}
	if got, _ := role(done, 3); got != "leader e1/in ISR" {
		t.Errorf("beat %d: the new leader reads %q, want leader e1/in ISR", done, got)
	}
}
