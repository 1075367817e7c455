package scenario

import (
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// TestKnobVariants checks that every combination of a fence's knob values
// is the fence with those settings, in the documented order, that the
// default is the fence's own combination, that a claim with "when" goes to
// the combination it names (the other knobs at their defaults) and a claim
// without it to the default, and that a compare run gets the knobs too.
func TestKnobVariants(t *testing.T) {
	src := []byte(`id: k
producer: {acks: 1, records: 4}
consumer.groups: [{id: readers, members: 2}]
knobs:
  producer.acks: [0, 1, all]
  topic.partitions: [1, 2]
  consumer.groups.readers.members: [1, 2]
compare:
  title: slow
  producer: {interval: 2}
expect:
  - {record: 1, outcome: acked}
  - {record: 1, outcome: sent, when: {producer.acks: 0}}
  - {record: 2, outcome: acked, when: {producer.acks: all, topic.partitions: 2}}
  - {record: 3, outcome: acked, variant: compare, when: {producer.acks: all}}
`)
	f, errs := ParseFence(src)
	if errs != nil {
		t.Fatal(errs)
	}
	if len(f.Knobs) != 3 || len(f.Variants) != 12 {
		t.Fatalf("%d knobs, %d variants; want 3 and 12", len(f.Knobs), len(f.Variants))
	}
	wantDefaults := []int{1, 0, 1}
	for i, k := range f.Knobs {
		if k.Default != wantDefaults[i] {
			t.Errorf("knob %s: default %d, want %d", k.Path, k.Default, wantDefaults[i])
		}
	}
	if got := f.Knobs[2].Name + "/" + f.Knobs[2].Group; got != "members/readers" {
		t.Errorf("group knob named %q", got)
	}
	// acks slowest, members fastest: default (1, 1 partition, 2 members) is 1*4+0*2+1.
	if f.Default != 5 {
		t.Errorf("default variant %d, want 5", f.Default)
	}
	acks := []sim.Acks{sim.AcksNone, sim.AcksLeader, sim.AcksAll}
	for i, v := range f.Variants {
		want := []int{i / 4, i / 2 % 2, i % 2}
		for ki := range want {
			if v.Choice[ki] != want[ki] {
				t.Fatalf("variant %d chooses %v, want %v", i, v.Choice, want)
			}
		}
		for _, sc := range []*sim.Scenario{v.Scenario, v.Compare} {
			if sc.Producer.Acks != acks[want[0]] || sc.Topic.Partitions != want[1]+1 || sc.ConsumerGroups[0].Members != want[2]+1 {
				t.Errorf("variant %d (%s): acks %d, partitions %d, members %d", i, f.Label(v.Choice), sc.Producer.Acks, sc.Topic.Partitions, sc.ConsumerGroups[0].Members)
			}
			if sc.Producer.Records != 4 {
				t.Errorf("variant %d lost the fence's other producer settings: records %d", i, sc.Producer.Records)
			}
		}
		if v.Compare.Producer.Interval != 2 {
			t.Errorf("variant %d's compare run has interval %d", i, v.Compare.Producer.Interval)
		}
		var claims []string
		for _, e := range v.Scenario.Expect {
			claims = append(claims, e.Want)
		}
		var want2 []string
		switch {
		case i == f.Default:
			want2 = []string{"acked"}
		case want[0] == 0 && want[1] == 0 && want[2] == 1:
			want2 = []string{"sent"}
		case want[0] == 2 && want[1] == 1 && want[2] == 1:
			want2 = []string{"acked"}
		}
		if len(claims) != len(want2) {
			t.Errorf("variant %d (%s) has claims %v, want %v", i, f.Label(v.Choice), claims, want2)
		}
		wantCmp := 0
		if want[0] == 2 && want[1] == 0 && want[2] == 1 {
			wantCmp = 1
		}
		if len(v.Compare.Expect) != wantCmp {
			t.Errorf("variant %d's compare run has %d claims, want %d", i, len(v.Compare.Expect), wantCmp)
		}
	}
	if got := f.Label(f.Variants[0].Choice); got != "producer.acks=0, topic.partitions=1, consumer.groups.readers.members=1" {
		t.Errorf("label %q", got)
	}
}

// TestKnoblessFence: a fence without knobs is one variant, the fence.
func TestKnoblessFence(t *testing.T) {
	f, errs := ParseFence([]byte("id: k\nproducer: {acks: 0}\n"))
	if errs != nil || len(f.Variants) != 1 || f.Default != 0 || f.Knobs != nil || f.Variants[0].Scenario.Producer.Acks != sim.AcksNone {
		t.Fatalf("%+v %v", f, errs)
	}
}

// TestKnobBesideCompare: a knob on a setting compare also gives changes
// the first run only, compare's value holding in the second; a
// combination may make both runs alike.
func TestKnobBesideCompare(t *testing.T) {
	f, errs := ParseFence([]byte("id: k\nproducer: {acks: 1}\nknobs:\n  producer.acks: [0, 1, all]\ncompare:\n  title: all\n  producer: {acks: all}\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	for i, want := range []sim.Acks{sim.AcksNone, sim.AcksLeader, sim.AcksAll} {
		if v := f.Variants[i]; v.Scenario.Producer.Acks != want || v.Compare.Producer.Acks != sim.AcksAll {
			t.Errorf("variant %d: acks %d beside %d, want %d beside all", i, v.Scenario.Producer.Acks, v.Compare.Producer.Acks, want)
		}
	}
	// The knob says so, for the figure to tell its reader; a knob compare
	// leaves alone changes both runs.
	if !f.Knobs[0].LeftOnly {
		t.Errorf("knob producer.acks, which compare sets, is not LeftOnly")
	}
	g, errs := ParseFence([]byte("id: k\nproducer: {acks: 1}\nknobs:\n  producer.acks: [0, 1]\ncompare:\n  title: more records\n  producer: {records: 3}\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	if g.Knobs[0].LeftOnly || g.Variants[0].Compare.Producer.Acks != sim.AcksNone {
		t.Errorf("knob producer.acks beside a compare of producer.records: LeftOnly %v, compare run's acks %d (want false, 0)",
			g.Knobs[0].LeftOnly, g.Variants[0].Compare.Producer.Acks)
	}
}

// TestKnobTitles: another combination's titles name the values picked
// where the fence's name the fence's own ("acks=1", "max.in.flight=1"),
// but not a compare run's that sets the value itself; and it drops the
// author's notes, which tell the fence as written.
func TestKnobTitles(t *testing.T) {
	f, errs := ParseFence([]byte(`id: k
title: acks=1, max.in.flight=1, acks=10
producer: {acks: 1, max.in.flight.requests.per.connection: 1}
knobs:
  producer.acks: [0, 1]
  producer.max.in.flight.requests.per.connection: [1, 5]
notes: [{at: 1, text: acks=1 answers}]
compare:
  title: acks=1 again, max.in.flight=1
  producer: {acks: 1, records: 2}
`))
	if errs != nil {
		t.Fatal(errs)
	}
	v := f.Variants[1] // acks=0, max.in.flight=5
	if got := v.Scenario.Title; got != "acks=0, max.in.flight=5, acks=10" {
		t.Errorf("title %q", got)
	}
	if got := v.Compare.Title; got != "acks=1 again, max.in.flight=5" {
		t.Errorf("compare title %q", got)
	}
	if v.Scenario.Notes != nil || f.Variants[f.Default].Scenario.Notes == nil {
		t.Errorf("notes: %v in another combination, %v in the default", v.Scenario.Notes, f.Variants[f.Default].Scenario.Notes)
	}
}
