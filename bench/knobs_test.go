package bench

import (
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/site"
)

// knobFence is a small figure; with knobs it offers acks.
func knobFence(knobs string) string {
	return "---\ntitle: A\n---\n\nText.\n\n```kflow\nid: f\nbrokers: 3\nproducer: {acks: 1, records: 4}\nbeats: 10\n" + knobs + "```\n"
}

func weighOne(t *testing.T, page string) (PageWeight, []KnobWeight) {
	t.Helper()
	s, err := site.Generate(site.Options{Content: fstest.MapFS{"a.md": {Data: []byte(page)}}, KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := weighPages(s)
	if err != nil {
		t.Fatal(err)
	}
	knobs, err := weighKnobs(s, pages)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if p.Path == "a.html" {
			return p, knobs
		}
	}
	t.Fatal("no a.html")
	return PageWeight{}, nil
}

// TestKnobWeightWithoutIsThePlainPage checks what bench charges a
// figure's knobs: the page without them must weigh what the same page
// built from the fence without knobs: weighs, its stylesheets included
// (a page without knobs does not load kf-knobs.css, so the knobs pay
// for it, 354 B gzip in the guide). Only the Edit link differs between
// the two: it carries the fence, knobs: line included, deflated and in
// base64, which gzip cannot shrink (35 B here), so they agree within 64.
func TestKnobWeightWithoutIsThePlainPage(t *testing.T) {
	plain, none := weighOne(t, knobFence(""))
	if len(none) != 0 {
		t.Fatalf("a figure without knobs was weighed as one with: %+v", none)
	}
	_, ks := weighOne(t, knobFence("knobs: {producer.acks: [0, 1, all]}\n"))
	if len(ks) != 1 {
		t.Fatalf("weighed %d figures with knobs, want 1", len(ks))
	}
	k := ks[0]
	if d := k.Without - plain.Total(); d < -64 || d > 64 {
		t.Errorf("without its knobs the page weighs %d B, but built without them %d B (%+d)", k.Without, plain.Total(), d)
	}
	if k.With <= k.Without {
		t.Errorf("the knobs add nothing: %d with, %d without", k.With, k.Without)
	}
	t.Logf("with %d, without %d, plain page %d", k.With, k.Without, plain.Total())
}
