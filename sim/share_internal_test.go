package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSimpleAssignFreshStart checks the SimpleAssignor targets KAFKA.md
// §5.6 lists for fresh groups, members in member-number order.
func TestSimpleAssignFreshStart(t *testing.T) {
	for _, c := range []struct {
		m, p    int
		sharing int
		counts  []int
	}{
		{2, 3, 1, []int{2, 1}},
		{3, 3, 1, []int{1, 1, 1}},
		{4, 3, 2, []int{2, 1, 2, 1}},
		{5, 2, 3, []int{2, 1, 1, 1, 1}},
		{10, 3, 4, []int{2, 1, 1, 1, 1, 2, 1, 1, 1, 1}},
	} {
		got := simpleAssign(c.m, c.p, nil)
		var counts []int
		per := make([]int, c.p)
		for _, ps := range got {
			counts = append(counts, len(ps))
			for _, q := range ps {
				per[q]++
			}
		}
		if desiredSharing(c.m, c.p) != c.sharing {
			t.Errorf("M=%d P=%d: desiredSharing %d, want %d", c.m, c.p, desiredSharing(c.m, c.p), c.sharing)
		}
		if !slices.Equal(counts, c.counts) {
			t.Errorf("M=%d P=%d: per-member counts %v, want %v", c.m, c.p, counts, c.counts)
		}
		for q, n := range per {
			if n != c.sharing {
				t.Errorf("M=%d P=%d: p%d has %d members, want %d (%v)", c.m, c.p, q, n, c.sharing, got)
			}
		}
	}
}

// TestSimpleAssignProperties checks, on random groups with random current
// assignments, what the SimpleAssignor promises: each member gets its
// target count ⌈x(i+1)⌉ − ⌈xi⌉ or less when a partition could not be
// placed (never when M ≤ P); no partition has more than ⌈M/P⌉ members; partitions are
// exclusive when M ≤ P; members never hold a partition twice; a member
// keeps what it held as long as its count and the sharing allow (it loses
// a partition only if it was above its target or the partition was
// over-shared); and the result does not depend on being recomputed.
func TestSimpleAssignProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := 0; n < 20000; n++ {
		m, p := 1+r.IntN(12), 1+r.IntN(12)
		old := make([][]int, m)
		for i := range old {
			for q := 0; q < p+2; q++ { // p, p+1 no longer exist
				if r.IntN(3) == 0 {
					old[i] = append(old[i], q)
				}
			}
		}
		got := simpleAssign(m, p, old)
		name := fmt.Sprintf("M=%d P=%d old=%v got=%v", m, p, old, got)
		sharing := desiredSharing(m, p)
		per := make([]int, p)
		for i, ps := range got {
			want := ceilDiv(sharing*p*(i+1), m) - ceilDiv(sharing*p*i, m)
			if len(ps) > want {
				t.Fatalf("%s: member %d holds %d, above its target %d", name, i, len(ps), want)
			}
			for j, q := range ps {
				if j > 0 && ps[j-1] >= q {
					t.Fatalf("%s: member %d's partitions not ascending and distinct", name, i)
				}
				per[q]++
			}
		}
		total := 0
		for q, c := range per {
			total += c
			if c > sharing {
				t.Fatalf("%s: p%d has %d members, above %d", name, q, c, sharing)
			}
			if m <= p && c > 1 {
				t.Fatalf("%s: p%d shared though members ≤ partitions", name, q)
			}
		}
		if m <= p && total != p {
			// with one member per partition every slot can be filled
			t.Fatalf("%s: %d of %d partitions assigned", name, total, p)
		}
		holders := make([]int, p)
		for _, ps := range old {
			for _, q := range ps {
				if q < p {
					holders[q]++
				}
			}
		}
		for i, ps := range old {
			want := ceilDiv(sharing*p*(i+1), m) - ceilDiv(sharing*p*i, m)
			kept := 0
			for _, q := range ps {
				if q < p {
					kept++
				}
			}
			for _, q := range ps {
				if q < p && !slices.Contains(got[i], q) && kept <= want && holders[q] <= sharing {
					t.Fatalf("%s: member %d lost p%d though within its target and the sharing", name, i, q)
				}
			}
		}
		again := simpleAssign(m, p, got)
		for i := range got {
			if !slices.Equal(again[i], got[i]) {
				t.Fatalf("%s: recomputing moved member %d to %v", name, i, again[i])
			}
		}
	}
}

// TestShareAckTypes drives one share partition's state machine directly:
// ACCEPT acknowledges, RELEASE makes the record available (archived at the
// limit), REJECT archives at once, an acknowledgement from a member that
// does not hold the record is refused, and SPSO moves only over a
// contiguous run of finished records.
func TestShareAckTypes(t *testing.T) {
	sc := &Scenario{ID: "t", Seed: 1, Brokers: 1, Beats: 1,
		Topic:       TopicConfig{Partitions: 1, ReplicationFactor: 1, MinInsyncReplicas: 1, ReplicaLagTimeMax: 6},
		Producer:    ProducerConfig{Acks: AcksLeader, MaxInFlight: 1, Keys: []string{"a"}, Interval: 1, Start: 1, DeliveryTimeout: 9, RequestTimeout: 9, RetryBackoff: 1},
		ShareGroups: []ShareGroupConfig{{ID: "g", Members: 2, ShareAutoOffsetReset: "earliest", RecordLockDuration: 5, DeliveryCountLimit: 2, Processing: 1}},
	}
	e := newEngine(sc)
	g := e.groups.share.groups[0]
	sp := g.parts[0]
	m1, m2 := g.members[0], g.members[1]
	for i := 0; i < 4; i++ {
		sp.window = append(sp.window, &inflight{record: i + 1, state: ShareAcquired, count: 1, member: m1.name, lockEnd: 99})
	}
	state := func() string {
		s := fmt.Sprint(sp.spso, ":")
		for _, r := range sp.window {
			s += fmt.Sprintf(" %s/%d", r.state, r.count)
		}
		return s
	}
	e.applyShareAck(g, sp, m2, shareAck{offset: 0, typ: ackAccept}) // not m2's: refused
	e.applyShareAck(g, sp, m1, shareAck{offset: 1, typ: ackAccept})
	e.applyShareAck(g, sp, m1, shareAck{offset: 2, typ: ackReject})
	e.applyShareAck(g, sp, m1, shareAck{offset: 3, typ: ackRelease})
	e.maybeAdvanceSPSO(g, sp)
	if got, want := state(), "0: acquired/1 acknowledged/1 archived/1 available/1"; got != want {
		t.Fatalf("after ACCEPT, REJECT, RELEASE: %s, want %s", got, want)
	}
	e.applyShareAck(g, sp, m1, shareAck{offset: 0, typ: ackAccept})
	e.maybeAdvanceSPSO(g, sp)
	if got, want := state(), "3: available/1"; got != want {
		t.Fatalf("after ACCEPT at SPSO: %s, want %s", got, want)
	}
	r := sp.window[0]
	r.state, r.count, r.member = ShareAcquired, 2, m2.name
	e.applyShareAck(g, sp, m2, shareAck{offset: 3, typ: ackRelease})
	e.maybeAdvanceSPSO(g, sp)
	if got, want := state(), "4:"; got != want {
		t.Fatalf("after RELEASE at the limit: %s, want %s", got, want)
	}
	var kinds []string
	for _, ev := range e.events {
		kinds = append(kinds, string(ev.Kind))
	}
	// No share-start: a share-partition starts on its first fetch, and
	// this test calls the leader's handlers directly.
	want := []string{"share-assign", "share-refused", "share-accept", "share-archive", "share-available",
		"share-accept", "share-spso", "share-archive", "share-spso"}
	if !slices.Equal(kinds, want) {
		t.Errorf("events %v, want %v", kinds, want)
	}
	if len(sp.finished) != 4 || sp.finished[2].State != ShareArchived || sp.finished[1].Finisher != m1.name {
		t.Errorf("finished %+v", sp.finished)
	}
}
