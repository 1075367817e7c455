package svganim

import (
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// wireBox is the box a message token covers where it rests.
func wireBox(m *mark) Box { return Box{m.x, m.y - m.h/2, m.w, m.h} }

// TestMessagesDrawn: at every beat of every trace, each message whose two
// ends are drawn has a token saying what it carries, in the beat the trace
// lists it (the beat it is sent); its arrow joins the rows of its sender
// and receiver (an arrow mark from one row to the other); a refusal says ✗ and its error code and is drawn dashed
// (kf-refused), an acknowledgement says ✓; a dropped message says "lost";
// and no two tokens overlap.
func TestMessagesDrawn(t *testing.T) {
	kinds := map[sim.MessageKind]int{}
	refusals, drops := 0, 0
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		for bi := range nt.t.Beats {
			b := &nt.t.Beats[bi]
			var tokens []mark
			arrows := map[string]bool{}
			for _, m := range s.draw(bi) {
				switch m.shape {
				case shWire:
					tokens = append(tokens, m)
				case shArrow:
					arrows[m.id+"|"+itoa(m.y)+"|"+itoa(m.y+m.h)] = true
				}
			}
			// The gutter shows the beat's sends, none lost yet, and the
			// sends of the beat before that this beat's step 3 dropped.
			var shown []sim.Message
			if bi > 0 {
				for _, m := range nt.t.Beats[bi-1].Messages {
					if m.Dropped {
						shown = append(shown, m)
					}
				}
			}
			for _, m := range b.Messages {
				m.Dropped = false
				shown = append(shown, m)
			}
			want := 0
			for i := range shown {
				msg := &shown[i]
				y0, y1, n0, n1, ok := s.wire.ends(msg)
				if !ok || wireChannel(msg, s.wire.groups) == "" {
					continue
				}
				txt, refused := wireText(msg, s.members)
				var found *mark
				for k := range tokens {
					m := &tokens[k]
					if strings.HasSuffix(m.text[0], txt) && strings.HasPrefix(m.id, "wt-"+n0+"-"+n1+"-") {
						found = m
					}
				}
				if y0 != y1 && !arrows["wl-"+n0+"-"+n1+"|"+itoa(min(y0, y1)+arrowStop)+"|"+itoa(max(y0, y1)-arrowStop)] {
					t.Errorf("%s beat %d: no arrow from y %d to %d for %s", nt.name, bi, y0, y1, msg.Kind)
				}
				want++
				if found == nil {
					t.Errorf("%s beat %d: no token %q from y %d to %d for %s", nt.name, bi, txt, y0, y1, msg.Kind)
					continue
				}
				kinds[msg.Kind]++
				switch {
				case refused:
					refusals++
					if !strings.Contains(found.cls, "kf-refused") || !strings.Contains(txt, "✗ "+msg.ErrorCode) {
						t.Errorf("%s beat %d: refusal %q drawn as %q (%s)", nt.name, bi, msg.ErrorCode, found.text[0], found.cls)
					}
				case msg.Kind == sim.MsgProduceResponse && !strings.Contains(txt, "✓"):
					t.Errorf("%s beat %d: acknowledgement %q has no ✓", nt.name, bi, txt)
				}
				if msg.Dropped {
					drops++
					if !strings.Contains(found.cls, "kf-dropped") || !strings.HasSuffix(txt, " lost") {
						t.Errorf("%s beat %d: dropped message drawn as %q (%s)", nt.name, bi, found.text[0], found.cls)
					}
					// Lost when it arrives: its broker is down or cut off now.
					to := msg.Broker
					if msg.Kind == sim.MsgFetchResponse {
						to = msg.Follower
					}
					cause := false
					for _, br := range b.Brokers {
						cause = cause || br.Isolated || br.Broker == to && !br.Online
					}
					if !cause {
						t.Errorf("%s beat %d: %q is drawn lost while broker %d is online and no broker is cut off", nt.name, bi, found.text[0], to)
					}
				} else if strings.Contains(found.cls, "kf-dropped") || strings.HasSuffix(found.text[0], " lost") {
					t.Errorf("%s beat %d: %q is drawn lost on the beat it is sent", nt.name, bi, found.text[0])
				}
			}
			if len(tokens) != want {
				t.Errorf("%s beat %d: %d tokens for %d drawable messages", nt.name, bi, len(tokens), want)
			}
			for i := range tokens {
				for j := i + 1; j < len(tokens); j++ {
					if wireBox(&tokens[i]).Overlaps(wireBox(&tokens[j])) {
						t.Errorf("%s beat %d: tokens %s and %s overlap", nt.name, bi, tokens[i].id, tokens[j].id)
					}
				}
			}
		}
	}
	// The traces exercise what the test checks.
	for _, k := range []sim.MessageKind{sim.MsgProduce, sim.MsgProduceResponse, sim.MsgFetch, sim.MsgFetchResponse,
		sim.MsgConsumerFetch, sim.MsgConsumerFetchResponse, sim.MsgOffsetCommit, sim.MsgShareFetch, sim.MsgShareFetchResponse} {
		if kinds[k] == 0 {
			t.Errorf("no trace draws a %s message", k)
		}
	}
	if refusals == 0 || drops == 0 {
		t.Errorf("the traces draw %d refusals and %d dropped messages; want some of each", refusals, drops)
	}
}

// A consumer's fetch token says whose fetch it is and the offset it asks
// for ("readers-1 at 3", an offset after "at" as in "✓ r3 at 5"): a bare
// "fetch 3" on the wire beside broker 3's lane read as that broker's. Its
// answer says whose it is too, and the records it carries ("readers-1
// +2"): two members' answers cross the one column in a beat, and
// "+0 · HW 2" told neither apart.
func TestConsumerFetchNamesItsMember(t *testing.T) {
	n, answers := 0, 0
	for _, nt := range allTraces(t) {
		sc := newScene(nt.t)
		members := sc.members
		for bi := range nt.t.Beats {
			for i := range nt.t.Beats[bi].Messages {
				m := &nt.t.Beats[bi].Messages[i]
				if m.ErrorCode != "" {
					continue
				}
				txt, _ := wireText(m, members)
				// The member as its row's label names it: whole, or "…"
				// and its tail (long-names.yaml).
				label := sc.memberLabel(m.Group, m.Member)
				if label != m.Member && !(strings.HasPrefix(label, "…") && strings.HasSuffix(m.Member, strings.TrimPrefix(label, "…"))) {
					t.Errorf("%s: %s is labelled %q", nt.name, m.Member, label)
				}
				switch m.Kind {
				case sim.MsgConsumerFetch:
					n++
					if !strings.HasPrefix(txt, label+" at "+itoa64(m.FetchOffset)) {
						t.Errorf("%s beat %d: %s's fetch from offset %d says %q", nt.name, bi, m.Member, m.FetchOffset, txt)
					}
				case sim.MsgConsumerFetchResponse:
					answers++
					if want := label + " +" + itoa(len(m.Records)); !m.Diverging && txt != want && txt != want+" lost" {
						t.Errorf("%s beat %d: the answer to %s's fetch says %q, want %q", nt.name, bi, m.Member, txt, want)
					}
				}
			}
		}
	}
	if n == 0 || answers == 0 {
		t.Fatalf("the traces draw %d consumer fetches and %d answers; want some of each", n, answers)
	}
}

// TestTokensClearOfOtherLanes: at every beat of every trace, a message
// token lies clear of every broker lane and group lane that neither of
// its ends is in (its mark id, wt-<end>-<end>-<n>, names them: bBpP a
// broker's row, mM a member's, pr the producer rail, co the
// coordinator). A token level with a lane it does not touch reads as that
// lane's: acks-one-loss's produce of r5 to the new leader, broker 2,
// rested on its arrow's middle beside crashed broker 1's row at beat 5.
func TestTokensClearOfOtherLanes(t *testing.T) {
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		for bi := range nt.t.Beats {
			for _, m := range s.draw(bi) {
				if m.shape != shWire || !strings.HasPrefix(m.id, "wt-") {
					continue
				}
				pair := m.id[len("wt-"):strings.LastIndexByte(m.id, '-')]
				ends := "-" + pair + "-"
				tok := wireBox(&m)
				band := func(b Box) bool { return tok.Y < b.Bottom() && b.Y < tok.Bottom() }
				for _, lane := range s.l.Lanes {
					if !strings.Contains(ends, "-b"+itoa(lane.Broker)+"p") && band(lane.Box) {
						t.Errorf("%s beat %d: token %s %q (y %d–%d) is level with broker %d's lane (y %d–%d), which neither of its ends is in",
							nt.name, bi, m.id, m.text[0], tok.Y, tok.Bottom(), lane.Broker, lane.Box.Y, lane.Box.Bottom())
					}
				}
				for _, g := range s.l.Groups {
					own := false
					for _, mr := range g.Members {
						own = own || strings.Contains(ends, "-m"+safeID(mr.Member)+"-")
					}
					if !own && band(g.Box) {
						t.Errorf("%s beat %d: token %s %q (y %d–%d) is level with group %s's lane (y %d–%d), which neither of its ends is in",
							nt.name, bi, m.id, m.text[0], tok.Y, tok.Bottom(), g.Group, g.Box.Y, g.Box.Bottom())
					}
				}
			}
		}
	}
}
