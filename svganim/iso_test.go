package svganim

import (
	"slices"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// keySlots returns the key slots a mark's classes name (k0 … k7), sorted.
func keySlots(cls string) []string {
	var out []string
	for _, c := range strings.Fields(cls) {
		if len(c) == 2 && c[0] == 'k' && c[1] >= '0' && c[1] <= '9' {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// TestIsolationReachesEveryRecordMark: isolating a key fades every mark of
// the other keys, so every mark about records must name their keys. On
// every beat of every figure the tests draw, the keys of the records each
// beat's messages carry (a produce request or response, a fetch
// response's records, a share fetch response's acquired records, a share
// acknowledgement's offsets in the leader's log), read from the trace, are
// the keys the message tokens of that beat name, message for message; and
// each share-lane record names the key of the record at its offset.
func TestIsolationReachesEveryRecordMark(t *testing.T) {
	checked := 0
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		slotOf := func(rec int) string {
			r, ok := s.recs[rec]
			if !ok {
				return ""
			}
			return "k" + itoa(s.keys[s.keyOf[r.Key]].Slot)
		}
		for bi := range nt.t.Beats {
			b := &nt.t.Beats[bi]
			var want []string
			// The gutter shows the beat's sends and the previous beat's
			// sends dropped now (TestMessagesDrawn).
			shown := slices.Clone(b.Messages)
			if bi > 0 {
				for _, m := range nt.t.Beats[bi-1].Messages {
					if m.Dropped {
						shown = append(shown, m)
					}
				}
			}
			for _, m := range shown {
				var recs []int
				switch m.Kind {
				case sim.MsgProduce, sim.MsgProduceResponse:
					recs = []int{m.Record}
				case sim.MsgFetchResponse, sim.MsgConsumerFetchResponse:
					recs = m.Records
				case sim.MsgShareFetchResponse:
					for _, a := range m.Acquired {
						recs = append(recs, a.Record)
					}
				case sim.MsgShareFetch, sim.MsgShareAcknowledge:
					for _, a := range m.Acknowledgements {
						recs = append(recs, recordAt(b, m.Partition, a.Offset))
					}
				}
				var slots []string
				for _, r := range recs {
					if sl := slotOf(r); sl != "" && !slices.Contains(slots, sl) {
						slots = append(slots, sl)
					}
				}
				if len(slots) > 0 {
					slices.Sort(slots)
					want = append(want, strings.Join(slots, " "))
				}
			}
			var got []string
			lanes := map[string]string{}
			for _, m := range s.draw(bi) {
				if strings.HasPrefix(m.id, "wt-") {
					if sl := keySlots(m.cls); len(sl) > 0 {
						got = append(got, strings.Join(sl, " "))
					}
				}
				if strings.Contains(m.cls, "kf-share ") {
					lanes[m.id] = strings.Join(keySlots(m.cls), " ")
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if len(s.l.Wires) > 0 && !slices.Equal(got, want) {
				t.Errorf("%s beat %d: the tokens name keys %q, the messages carry %q", nt.name, b.Beat, got, want)
			}
			checked += len(want)
			for gi, gl := range s.l.Groups {
				for _, g := range b.Groups {
					if g.Group != gl.Group || g.Type != "share" {
						continue
					}
					for _, gp := range g.Partitions {
						for _, r := range gp.Records {
							id := "sr-g" + itoa(gi) + "-p" + itoa(gp.Partition) + "-" + itoa64(r.Offset)
							if w := slotOf(recordAt(b, gp.Partition, r.Offset)); lanes[id] != w {
								t.Errorf("%s beat %d: share lane mark %s names keys %q, its record's is %q", nt.name, b.Beat, id, lanes[id], w)
							}
							checked++
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no figure draws a record's message or share lane: the test checks nothing")
	}
}
