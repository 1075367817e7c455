package svganim

import (
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// TestTallyCountsOutcomes draws every beat of every trace and reads the
// producer's tally off the marks: at each beat, every counter says how
// many records stand at its outcome, counted here from the trace's
// records rather than from the cards the tally reads — a record counts
// under its outcome from the beat it settled (SettledAt), and a record
// that ends L counts as acknowledged from the beat its answer came
// (AckedAt) until then. So the L of the acks figure, settled at the
// crash, is still on the picture at the beat the old leader truncates
// the record away, and at the last.
func TestTallyCountsOutcomes(t *testing.T) {
	sawL := false
	// The engine's traces: the hand-made ones of trace_test.go set cards
	// and records apart (an L record whose card never settles L).
	for _, nt := range append(guideTraces(t), testdataTraces(t)...) {
		tr := nt.t
		if len(tr.Records) == 0 {
			continue
		}
		s := newScene(tr)
		for bi, b := range tr.Beats {
			want := map[string]int{}
			for _, r := range tr.Records {
				switch {
				case r.SettledAt >= 0 && r.SettledAt <= b.Beat && r.Outcome != sim.OutcomePending:
					want[r.Outcome]++
				case r.Outcome == sim.OutcomeL && r.AckedAt >= 0 && r.AckedAt <= b.Beat:
					want[sim.OutcomeAcked]++
				}
			}
			got := map[string]string{}
			for _, m := range s.drawInto(bi, nil) {
				if o, ok := strings.CutPrefix(m.id, "tally-"); ok {
					got[o] = m.text[0]
				}
			}
			bad := false
			for _, r := range tr.Records {
				bad = bad || r.Outcome == sim.OutcomeF || r.Outcome == sim.OutcomeU || r.Outcome == sim.OutcomeL
			}
			for _, o := range TallyOrder {
				text, shown := got[safeID(o)]
				stands := o == sim.OutcomeAcked || want[o] > 0 || (bad && o != sim.OutcomeSent)
				if !shown && stands {
					t.Fatalf("%s beat %d: no tally counter for %s (counters: %v)", nt.name, b.Beat, o, got)
				}
				if shown && !bad && o != sim.OutcomeAcked && o != sim.OutcomeSent {
					t.Fatalf("%s beat %d: a tally counter for %s in a run where no record settles F, U or L", nt.name, b.Beat, o)
				}
				if shown && text != tallyText(o, want[o]) {
					t.Fatalf("%s beat %d: the tally says %q, the records %q", nt.name, b.Beat, text, tallyText(o, want[o]))
				}
			}
			if nt.name == "acks#1" && b.Beat == 12 {
				sawL = got["l"] == "L 2"
			}
		}
	}
	if !sawL {
		t.Error(`acks#1 (acks=1, the leader fails): the tally does not say "L 2" at beat 12, where broker 1 truncates the lost records`)
	}
}
