package svganim

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/sim"
)

// textContent is what a browser reads as the textContent of the caption
// markup html(lead) writes: the spans' texts run together.
func (c captionParts) textContent(lead string) string {
	s := lead + c.Head + strings.Join(c.Under, "")
	if len(c.More) > 0 {
		s += itoa(len(c.More)) + " more" + strings.Join(c.More, "\n")
	}
	return s
}

// Every kind the engine records has its place in the headline order, and
// the table names no kind the engine does not have.
func TestHeadlineTiersCoverEveryKind(t *testing.T) {
	kinds := map[sim.Kind]bool{}
	for _, k := range sim.Kinds() {
		kinds[k] = true
		if _, ok := headlineTier[k]; !ok {
			t.Errorf("kind %q has no headline tier", k)
		}
	}
	for k := range headlineTier {
		if !kinds[k] {
			t.Errorf("headline tier for %q, which is not a sim.Kind", k)
		}
	}
}

// The headline is the first event of the lowest tier, whatever the order
// the events happened in: a loss before an election, before an ISR change,
// before a high-watermark move, before an ack, before a send.
func TestHeadlineOrder(t *testing.T) {
	ev := func(k sim.Kind, text string) sim.Event { return sim.Event{Kind: k, Text: text} }
	order := []sim.Event{
		ev(sim.KindLost, "record 1 is lost"),
		ev(sim.KindLeader, "broker 2 is elected"),
		ev(sim.KindUnknown, "record 4 U"),
		ev(sim.KindISRShrink, "the ISR shrinks"),
		ev(sim.KindHW, "the high watermark moves"),
		ev(sim.KindAck, "record 2 is acknowledged"),
		ev(sim.KindSend, "record 3 is sent"),
	}
	for top := range order {
		// The events from top on, the most important last.
		var b sim.Beat
		for i := len(order) - 1; i >= top; i-- {
			b.Events = append(b.Events, order[i])
		}
		b.Events = append(b.Events, ev(order[top].Kind, "a second event of the same kind, later"))
		c := beatCaption(&b, "", "", sim.Shown{})
		if c.Head != order[top].Text {
			t.Errorf("headline %q, want %q", c.Head, order[top].Text)
		}
		if len(c.More) != len(b.Events)-1 || c.More[len(c.More)-1] != "a second event of the same kind, later" {
			t.Errorf("the other events, in the order they happened: %q", c.More)
		}
	}
	var quiet sim.Beat
	if c := beatCaption(&quiet, "", "", sim.Shown{}); c.Head != "no events" || len(c.More) != 0 {
		t.Errorf("a beat without events: %+v", c)
	}
}

// Brokers crashing on one beat share the headline: it names both, and
// the second crash leaves "n more"; a kind whose sentence says more than
// the broker (pausing its fetchers) keeps one headline per event. The
// guide's min.insync.replicas figure crashes brokers 2 and 3 at beat 5.
func TestHeadlineBrokersTogether(t *testing.T) {
	b := sim.Beat{Events: []sim.Event{
		{Kind: sim.KindCrash, Broker: 2, Partition: -1},
		{Kind: sim.KindISRFence, Broker: 2, Partition: 0, From: []int{1, 2, 3}, To: []int{1, 3}},
		{Kind: sim.KindCrash, Broker: 3, Partition: -1},
		{Kind: sim.KindRestart, Broker: 1, Partition: -1},
	}}
	c := beatCaption(&b, "", "", sim.Shown{})
	if c.Head != "brokers 2 and 3 crashed" {
		t.Errorf("two crashes: headline %q, want %q", c.Head, "brokers 2 and 3 crashed")
	}
	if want := []string{b.Events[1].String(), "broker 1 restarted"}; strings.Join(c.More, "|") != strings.Join(want, "|") {
		t.Errorf("two crashes: the other events %q, want %q", c.More, want)
	}
	b.Events = append(b.Events, sim.Event{Kind: sim.KindCrash, Broker: 4, Partition: -1})
	if c := beatCaption(&b, "", "", sim.Shown{}); c.Head != "brokers 2, 3 and 4 crashed" || len(c.More) != 2 {
		t.Errorf("three crashes: %+v", c)
	}
	paused := sim.Beat{Events: []sim.Event{{Kind: sim.KindPause, Broker: 2, Partition: -1}, {Kind: sim.KindPause, Broker: 3, Partition: -1}}}
	if c := beatCaption(&paused, "", "", sim.Shown{}); c.Head != "broker 2 paused its fetchers" || len(c.More) != 1 {
		t.Errorf("two pauses: %+v", c)
	}
	found := false
	for _, nt := range guideTraces(t) {
		if nt.name == "min-insync-replicas#1" {
			found = true
			if c := beatCaption(&nt.t.Beats[5], "", "", sim.Shown{}); c.Head != "brokers 2 and 3 crashed" {
				t.Errorf("min-insync-replicas#1 beat 5: headline %q, want %q", c.Head, "brokers 2 and 3 crashed")
			}
		}
	}
	if !found {
		t.Errorf("the guide has no min-insync-replicas#1")
	}
}

// An author's note leads its beat; the engine's headline follows beneath.
func TestHeadlineNote(t *testing.T) {
	b := sim.Beat{Events: []sim.Event{{Kind: sim.KindSend, Text: "record 1 is sent"}, {Kind: sim.KindCrash, Text: "broker 1 crashes"}}}
	c := beatCaption(&b, "the leader dies with record 1 in flight", "", sim.Shown{})
	if c.Head != "the leader dies with record 1 in flight" || len(c.Under) != 1 || c.Under[0] != "broker 1 crashes" ||
		len(c.More) != 1 || c.More[0] != "record 1 is sent" {
		t.Errorf("note caption %+v", c)
	}
	html := string(c.html("beat 3 — ", true))
	for _, want := range []string{`<span class="kf-head">beat 3 — the leader dies`, `<span class="kf-under">broker 1 crashes</span>`,
		`<details class="kf-rest"><summary>1 more</summary><span>record 1 is sent</span></details>`} {
		if !strings.Contains(html, want) {
			t.Errorf("caption markup %s lacks %s", html, want)
		}
	}
	if story := string(c.html("", false)); !strings.HasSuffix(story, `<span class="kf-rest">record 1 is sent</span>`) {
		t.Errorf("storyboard markup %s: want the other events in full, without a disclosure", story)
	}
}

// On every beat of every guide and testdata figure the headline fits in
// MaxHeadline characters; a longer sentence is cut at a clause, and the
// rest of it follows beneath after "…": together they are the whole
// sentence less the separator at the cut, and nothing is said twice.
func TestHeadlinesFit(t *testing.T) {
	cut := 0
	for _, nt := range append(guideTraces(t), testdataTraces(t)...) {
		for bi := range nt.t.Beats {
			b := &nt.t.Beats[bi]
			c := beatCaption(b, "", "", sim.Shown{})
			if n := utf8.RuneCountInString(c.Head); n > MaxHeadline {
				t.Errorf("%s beat %d: headline of %d characters: %q", nt.name, bi, n, c.Head)
			}
			h := headlineEvent(b)
			whole := ""
			if h >= 0 {
				whole = b.Events[h].String()
				if s, _, ok := brokersHeadline(b, h); ok { // brokers crashing together
					whole = s
				}
			}
			if h >= 0 && c.Head != whole {
				cut++
				head := strings.TrimSuffix(c.Head, "…")
				if !strings.HasSuffix(c.Head, "…") || len(c.Under) != 1 || !strings.HasPrefix(c.Under[0], "…") || c.whole != whole {
					t.Errorf("%s beat %d: cut headline %q, beneath it %q", nt.name, bi, c.Head, c.Under)
					continue
				}
				rest := strings.TrimPrefix(c.Under[0], "…")
				if sep := strings.TrimSuffix(strings.TrimPrefix(whole, head), rest); !strings.HasPrefix(whole, head) || !strings.HasSuffix(whole, rest) ||
					len(head)+len(rest) > len(whole) || strings.Trim(sep, " ,;:") != "" {
					t.Errorf("%s beat %d: cut headline %q, beneath it %q", nt.name, bi, c.Head, c.Under)
				}
			}
		}
	}
	if cut == 0 {
		t.Log("no headline needed cutting")
	}
}

func TestShorten(t *testing.T) {
	long := "p0 leader asks the controller to add broker 1 to the ISR (AlterPartition): its log end offset 3 reached the high watermark 3 and epoch 1's start offset 1"
	got, cut := shorten(long)
	if !cut || got != "p0 leader asks the controller to add broker 1 to the ISR (AlterPartition)…" {
		t.Errorf("shorten = %q, %v", got, cut)
	}
	if got, cut := shorten("short"); cut || got != "short" {
		t.Errorf("shorten(short) = %q, %v", got, cut)
	}
	words := strings.Repeat("word ", 40)
	if got, _ := shorten(words); utf8.RuneCountInString(got) > MaxHeadline || !strings.HasSuffix(got, "word…") {
		t.Errorf("shorten without clauses = %q", got)
	}
}

// TestCompareCaptionSaysASettingOnce (try10 C): under a run named by its
// acks ("acks=1: …"), an acknowledgement does not say "(acks=1)" again;
// under a name that does not give acks, or gives another value, it does.
func TestCompareCaptionSaysASettingOnce(t *testing.T) {
	beat := func(acks string) *sim.Trace {
		return &sim.Trace{Beats: []sim.Beat{{Events: []sim.Event{
			{Kind: sim.KindLostOnAck, Record: 3, Acks: acks},
			{Kind: sim.KindAck, Record: 4, Acks: acks},
		}}}}
	}
	c := compareCaptionParts(0, [2]string{"acks=1", "acks=all"}, beat("1"), beat("all"), "")
	got := c.text()
	want := "acks=1: record 3 acknowledged, but L: the new leader's log does not hold it\n" +
		"acks=all: record 3 acknowledged, but L: the new leader's log does not hold it\n" +
		"2 more:\nacks=1: record 4 acknowledged\nacks=all: record 4 acknowledged"
	if got != want {
		t.Errorf("runs named by acks:\n%s\nwant\n%s", got, want)
	}
	c = compareCaptionParts(0, [2]string{"retries=1", "acks=all, retries=0"}, beat("1"), beat("1"), "")
	if got := c.text(); strings.Count(got, "(acks=1)") != 3 { // the headline once, for both runs
		t.Errorf("runs whose names do not give acks=1 lost it:\n%s", got)
	}
}
