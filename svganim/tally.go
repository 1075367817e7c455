package svganim

import "github.com/kafkaflow/kflowgen/sim"

// The producer's tally: one counter per outcome, on the rail, saying how
// many records have settled each way so far. A card leaves the rail the
// beat after it settles, so without it an outcome is on screen for one
// beat only — an L that settles at the crash is gone by the beat the old
// leader truncates the record away. The counters keep counting to the
// story's end, so a reader who steps to any beat sees how the run stands.

// TallyOrder is the left-to-right order of the tally's counters, each an
// outcome as the trace spells it (sim.Record.Outcome): acknowledged,
// sent (acks=0), F, U, L. ✓ always stands; sent in a run that has it; F,
// U and L all three in a run where a record settles badly, so that beside
// the outcome that happened a zero says which did not (as in the knob
// figure's outcome table, they are what a reader compares), and none in
// a run where none does, whose tally would otherwise be mostly zeros.
var TallyOrder = []string{sim.OutcomeAcked, sim.OutcomeSent, sim.OutcomeF, sim.OutcomeU, sim.OutcomeL}

// tallyLetter is what a counter shows before its count: the card's badge
// for that outcome (✓ for acked, F, U, L) or "sent".
func tallyLetter(outcome string) string {
	if outcome == sim.OutcomeAcked {
		return "✓"
	}
	return outcome
}

// tallyText is a counter's text: its letter, a space and the count.
func tallyText(outcome string, n int) string { return tallyLetter(outcome) + " " + itoa(n) }

// tallyTitles explain each counter in its mark's <title>.
var tallyTitles = map[string]string{
	sim.OutcomeAcked: "✓: records acknowledged so far (and not lost since)",
	sim.OutcomeSent:  "sent: records sent with acks=0 so far, no answer expected",
	sim.OutcomeF:     "F: records so far refused and never appended",
	sim.OutcomeU:     "U: records so far that may or may not be in the log",
	sim.OutcomeL:     "L: records so far acknowledged, then truncated away",
}

// tallies returns, for each beat of t, how many records stand at each
// outcome of TallyOrder at the end of that beat: a record counts under the
// outcome its card last settled with, so an acknowledged record that
// settles L later moves from ✓ to L.
func tallies(t *sim.Trace) [][]int {
	out := make([][]int, len(t.Beats))
	now := make([]int, len(TallyOrder))
	at := map[int]int{} // record → index into TallyOrder
	for bi := range t.Beats {
		for _, c := range t.Beats[bi].Producer.Cards {
			if c.Outcome == "" {
				continue
			}
			k := tallyIndex(c.Outcome)
			if k < 0 {
				continue
			}
			if was, ok := at[c.Record]; ok {
				if was == k {
					continue
				}
				now[was]--
			}
			at[c.Record] = k
			now[k]++
		}
		out[bi] = append([]int(nil), now...)
	}
	return out
}

func tallyIndex(outcome string) int {
	for i, o := range TallyOrder {
		if o == outcome {
			return i
		}
	}
	return -1
}

// tallyShapes is the tally's part of a trace's topology: the counters
// TallyOrder says stand, each with its largest count at any beat. A trace
// without records has no tally.
func tallyShapes(t *sim.Trace) []TallyShape {
	if len(t.Records) == 0 {
		return nil
	}
	most := make([]int, len(TallyOrder))
	for _, n := range tallies(t) {
		for i := range n {
			most[i] = max(most[i], n[i])
		}
	}
	bad := false
	for i, o := range TallyOrder {
		bad = bad || (o != sim.OutcomeAcked && o != sim.OutcomeSent && most[i] > 0)
	}
	var out []TallyShape
	for i, o := range TallyOrder {
		switch {
		case o == sim.OutcomeAcked, o == sim.OutcomeSent && most[i] > 0, o != sim.OutcomeSent && bad:
			out = append(out, TallyShape{Outcome: o, Max: most[i]})
		}
	}
	return out
}

// mergeTally is the tally of two traces drawn in one layout: every
// counter either has, in TallyOrder, at the larger count.
func mergeTally(a, b []TallyShape) []TallyShape {
	most := map[string]int{}
	has := map[string]bool{}
	for _, ts := range [][]TallyShape{a, b} {
		for _, s := range ts {
			has[s.Outcome] = true
			most[s.Outcome] = max(most[s.Outcome], s.Max)
		}
	}
	var out []TallyShape
	for _, o := range TallyOrder {
		if has[o] {
			out = append(out, TallyShape{Outcome: o, Max: most[o]})
		}
	}
	return out
}

// drawTally draws beat index bi's counters in the layout's cells. A
// counter of F, U or L above zero is drawn bold in the offline red
// (kf-tally-bad, figure.css), and one whose count changes this beat is
// marked like any changed label.
func (s *scene) drawTally(bi int, add func(mark)) {
	if len(s.l.Tally) == 0 {
		return
	}
	n := s.tally[bi]
	for _, c := range s.l.Tally {
		k := tallyIndex(c.Outcome)
		cls := "kf-tally"
		if n[k] > 0 && c.Outcome != sim.OutcomeAcked && c.Outcome != sim.OutcomeSent {
			cls = "kf-tally kf-tally-bad"
		}
		add(mark{id: "tally-" + safeID(c.Outcome), layer: layerLabel, shape: shLabel, cls: cls,
			x: c.Box.X, y: c.Box.Y + tallyBase, text: [3]string{tallyText(c.Outcome, n[k])},
			title: tallyTitles[c.Outcome]})
	}
}
