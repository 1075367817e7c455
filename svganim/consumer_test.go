package svganim

import (
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// consumerStory is a consumer group that goes through every member state:
// three members on two partitions (one idle), a clean leave (leaving) and
// a stop (stopped) that ends in a fence and reprocessed records, then a
// join that makes the survivor revoke a partition (revoking, assigning).
const consumerStory = `
id: consumer-lanes
brokers: 3
topic: {partitions: 2, replication.factor: 3}
producer: {acks: all, records: 14, keys: [blue, green]}
consumer.groups:
  - {id: readers, members: 3, auto.offset.reset: earliest, processing: 2, auto.commit.interval: 6, session.timeout: 6}
timeline:
  - {at: 9, leave: readers-1}
  - {at: 16, stop: readers-2}
  - {at: 26, join: readers}
beats: 40
`

// memberMarks returns the marks of beat bi whose id starts with prefix.
func memberMarks(s *scene, bi int, prefix string) []mark {
	var out []mark
	for _, m := range s.draw(bi) {
		if strings.HasPrefix(m.id, prefix) {
			out = append(out, m)
		}
	}
	return out
}

// TestConsumerMemberRows checks, beat by beat against the trace, that each
// consumer member's row shows its state, one chip per partition it owns,
// gives up or waits for (with the right class, its position and committed
// offset), an idle chip when it has none, and the record it processes;
// that every chip lies inside its row without overlapping the next; and
// that every mark has a title.
func TestConsumerMemberRows(t *testing.T) {
	for _, src := range []string{consumerStory, consumerCrowd} {
		checkConsumerRows(t, src)
	}
}

// consumerCrowd gives one member all twelve partitions (range assignor)
// and then splits them, so chips must narrow to fit.
const consumerCrowd = `
id: consumer-crowd
brokers: 3
topic: {partitions: 12, replication.factor: 1}
producer: {acks: 1, records: 30, keys: [a, b, c, d, e, f, g, h]}
consumer.groups:
  - {id: many, members: 1, assignor: range, auto.offset.reset: earliest}
timeline:
  - {at: 6, join: many}
  - {at: 8, stop: many-1}
beats: 30
`

func checkConsumerRows(t *testing.T, src string) {
	tr := runScenario(t, "consumer-story", []byte(src))
	if _, err := Figure(tr, Options{ID: "consumer-rows"}); err != nil {
		t.Fatal(err)
	}
	s := newScene(tr)
	seen := map[string]bool{}
	for bi := range tr.Beats {
		for _, m := range s.draw(bi) {
			if m.title == "" {
				t.Errorf("beat %d: mark %s has no title", bi, m.id)
			}
		}
		g := &tr.Beats[bi].Groups[0]
		gl := s.l.Groups[0]
		for mi, mr := range gl.Members {
			var mem = -1
			for i := range g.Members {
				if g.Members[i].Member == mr.Member {
					mem = i
				}
			}
			prefix := "g0-m" + itoa(mi)
			marks := memberMarks(s, bi, prefix+"-")
			if mem < 0 {
				// not a member now: only a note saying why
				want := "not joined yet"
				for b := 0; b <= bi; b++ {
					for _, ev := range tr.Beats[b].Events {
						if ev.Member == mr.Member && ev.Kind == sim.KindConsumerLeave {
							want = "left at beat " + itoa(b)
						}
						if ev.Member == mr.Member && ev.Kind == sim.KindConsumerFence {
							want = "fenced at beat " + itoa(b)
						}
					}
				}
				if len(marks) != 1 || marks[0].text[0] != want {
					t.Errorf("beat %d: %s is not a member; its row has %v, want one note %q", bi, mr.Member, marks, want)
				}
				seen[want[:4]] = true
				continue
			}
			m := g.Members[mem]
			chips := map[string]mark{}
			var boxes []Box
			for _, mk := range marks {
				chips[strings.TrimPrefix(mk.id, prefix+"-")] = mk
				box := Box{mk.x, mk.y, mk.w, mk.h}
				if !mr.Box.Contains(box) {
					t.Errorf("beat %d: %s outside its row %+v: %+v", bi, mk.id, mr.Box, box)
				}
				if mk.w > 0 {
					for _, o := range boxes {
						if o.Overlaps(box) {
							t.Errorf("beat %d: %s overlaps another mark of its row", bi, mk.id)
						}
					}
					boxes = append(boxes, box)
				}
			}
			if len(m.Partitions)+len(m.Assigning) == 0 {
				if _, ok := chips["idle"]; !ok {
					t.Errorf("beat %d: idle %s has no idle chip", bi, m.Member)
				}
				seen["idle"] = true
			}
			for _, p := range m.Partitions {
				c, ok := chips["p"+itoa(p)]
				want := "kf-chip-owned"
				if containsInt(m.Revoking, p) {
					want = "kf-chip-revoking"
				}
				if !ok || !strings.Contains(c.cls, want) {
					t.Errorf("beat %d: %s p%d chip %+v, want class %s", bi, m.Member, p, c, want)
					continue
				}
				seen[want] = true
				gp := g.Partitions[p]
				text := "p" + itoa(p) + " · pos " + itoa64(gp.Position) + " · com " + offsetOrNone(gp.Committed)
				// A chip is full when it holds this text (textW, 4 units
				// either side); a narrow one says the partition alone.
				full := c.w >= 8+textW(text, false)
				if !full {
					text = "p" + itoa(p) // narrow: the numbers are in the title
				}
				if c.text[0] != text {
					t.Errorf("beat %d: %s p%d chip says %q, want %q", bi, m.Member, p, c.text[0], text)
				}
				// A full chip shows the numbers and its title says what pos and
				// com are; a narrow one leaves the numbers to its title.
				if !full && (!strings.Contains(c.title, "position "+itoa64(gp.Position)) ||
					!strings.Contains(c.title, "committed offset "+offsetOrNone(gp.Committed))) ||
					full && !strings.Contains(c.title, chipWords) {
					t.Errorf("beat %d: %s p%d chip title %q lacks position %d or committed %d", bi, m.Member, p, c.title, gp.Position, gp.Committed)
				}
			}
			for _, p := range m.Assigning {
				if c, ok := chips["p"+itoa(p)]; !ok || !strings.Contains(c.cls, "kf-chip-assigning") {
					t.Errorf("beat %d: %s waits for p%d but has no assigning chip", bi, m.Member, p)
				}
				seen["assigning"] = true
			}
			label := s.findMark(bi, prefix)
			if m.State == "stopped" {
				seen["stopped"] = true
				if !strings.Contains(label.cls, "kf-ms-stopped") {
					t.Errorf("beat %d: stopped %s labelled %q", bi, m.Member, label.cls)
				}
			}
			if m.State == "leaving" {
				seen["leaving"] = true
			}
			if busy, ok := chips["busy"]; ok != (m.Processing > 0) || ok && busy.text[0] != "r"+itoa(m.Processing) {
				t.Errorf("beat %d: %s processing %d, busy card %v %q", bi, m.Member, m.Processing, ok, busy.text[0])
			}
		}
	}
	if src != consumerStory {
		return
	}
	for _, k := range []string{"idle", "kf-chip-owned", "kf-chip-revoking", "assigning", "stopped", "not ", "left", "fenc"} {
		if !seen[k] {
			t.Errorf("the story never shows %s; adjust consumerStory", k)
		}
	}
}

// findMark returns beat bi's mark with id, or the zero mark.
func (s *scene) findMark(bi int, id string) mark {
	for _, m := range s.draw(bi) {
		if m.id == id {
			return m
		}
	}
	return mark{}
}

// TestComChipsExplained: at every beat of every trace where a member
// row's chip says "com" (the group's committed offset), that group's
// header says in sight what it is, "com = committed offset" (or "com = committed" beside a long group name): a chip's
// title is not seen without hovering, and "com" alone read as nothing a
// reader knows.
func TestComChipsExplained(t *testing.T) {
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		for bi := range nt.t.Beats {
			says, header := map[string]bool{}, map[string]string{}
			for _, m := range s.draw(bi) {
				g, _, _ := strings.Cut(m.id, "-")
				if strings.Contains(m.cls, "kf-chip") && strings.Contains(m.text[0], " · com ") {
					says[g] = true
				}
				if m.shape == shBand && strings.Contains(m.cls, "kf-group") {
					header[m.id] = m.text[1]
				}
				if strings.HasSuffix(m.id, "-key") && m.shape == shLabel {
					header[strings.TrimSuffix(m.id, "-key")] += " " + m.text[0]
				}
			}
			for g := range says {
				if !strings.Contains(header[g], "com = committed") {
					t.Errorf("%s beat %d: %s's chips say com, its header says only %q", nt.name, bi, g, header[g])
				}
			}
		}
	}
}
