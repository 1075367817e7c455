package svganim

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/sim"
)

// One idea per beat. A beat's caption leads with one headline: the
// author's note for the beat (the fence's notes:), or else the sentence of
// the beat's most important event; the engine's other sentences follow
// under an "n more" disclosure (a <details>, which opens without
// JavaScript). Which event is the most important is decided by the kind
// of event alone, by the tiers below, and among events of one tier by the
// order they happened in. Events of the headline's kind about other
// brokers at that beat join it in one sentence ("brokers 2 and 3
// crashed"), so that a headline does not tell one of two crashes.
// content/reading-figures.md describes the order to readers;
// TestHeadlineTiersCoverEveryKind keeps every sim.Kind in it.

// tier is an event kind's place in the headline order: the lower, the
// more a reader needs to hear of it first.
type tier int

const (
	// tierLoss: an acknowledged record is gone (L), or a share group's
	// request was lost with its broker.
	tierLoss tier = iota
	// tierElection: the cluster or a group changed hands — brokers
	// crashing, restarting or pausing, leaders elected or lost, the topic
	// or the replicas reassigned, members joining, leaving or fenced,
	// new target assignments.
	tierElection
	// tierFailure: what an election leaves behind — a follower truncating
	// its log, an outcome unknown (U), a delivery failed (F).
	tierFailure
	// tierISR: the ISR changed or was asked to, and what min.insync.replicas
	// refuses because of it; requests refused with an error code.
	tierISR
	// tierHW: a high watermark (or a share-partition start offset) moved.
	tierHW
	// tierAck: an outcome reached the client — acks, retries, commits,
	// hand-overs of partitions, share acknowledgements.
	tierAck
	// tierRoutine: the steady traffic — records created, sent, appended,
	// replicated, fetched and processed.
	tierRoutine
)

// headlineTier is the ranked table of event kinds: every sim.Kind, in
// its tier.
var headlineTier = map[sim.Kind]tier{
	sim.KindLost:      tierLoss,
	sim.KindLostOnAck: tierLoss,
	sim.KindShareLost: tierLoss,

	sim.KindTruncate: tierFailure,
	sim.KindFail:     tierFailure,
	sim.KindUnknown:  tierFailure,

	sim.KindCrash:               tierElection,
	sim.KindOffline:             tierElection,
	sim.KindLeader:              tierElection,
	sim.KindRestart:             tierElection,
	sim.KindPause:               tierElection,
	sim.KindIsolate:             tierElection,
	sim.KindHeal:                tierElection,
	sim.KindBrokerFence:         tierElection,
	sim.KindStepDown:            tierElection,
	sim.KindResume:              tierElection,
	sim.KindAddBroker:           tierElection,
	sim.KindAddPartitions:       tierElection,
	sim.KindReassign:            tierElection,
	sim.KindReassignDone:        tierElection,
	sim.KindConsumerFence:       tierElection,
	sim.KindConsumerStop:        tierElection,
	sim.KindConsumerPollTimeout: tierElection,
	sim.KindConsumerJoin:        tierElection,
	sim.KindConsumerLeaving:     tierElection,
	sim.KindConsumerLeave:       tierElection,
	sim.KindConsumerRejoin:      tierElection,
	sim.KindConsumerTarget:      tierElection,
	sim.KindShareFence:          tierElection,
	sim.KindShareStop:           tierElection,
	sim.KindShareJoin:           tierElection,
	sim.KindShareLeave:          tierElection,
	sim.KindShareAssign:         tierElection,
	sim.KindShareNotLeader:      tierElection,

	sim.KindISRShrink:                 tierISR,
	sim.KindISRExpand:                 tierISR,
	sim.KindISRFence:                  tierISR,
	sim.KindISRShrinkPropose:          tierISR,
	sim.KindISRExpandPropose:          tierISR,
	sim.KindISRRefused:                tierISR,
	sim.KindISRHeldBack:               tierISR,
	sim.KindRefuse:                    tierISR,
	sim.KindReject:                    tierISR,
	sim.KindConsumerOffsetUnavailable: tierISR,
	sim.KindShareOffsetUnavailable:    tierISR,
	sim.KindConsumerReset:             tierISR,
	sim.KindConsumerCommitFailed:      tierISR,
	sim.KindShareRefused:              tierISR,
	sim.KindShareArchive:              tierISR,

	sim.KindHW:          tierHW,
	sim.KindHWNewLeader: tierHW,
	sim.KindShareSPSO:   tierHW,

	sim.KindAck:             tierAck,
	sim.KindDuplicate:       tierAck,
	sim.KindRetry:           tierAck,
	sim.KindMetadata:        tierAck,
	sim.KindConsumerCommit:  tierAck,
	sim.KindConsumerRelease: tierAck,
	sim.KindConsumerAssign:  tierAck,
	sim.KindConsumerStart:   tierAck,
	sim.KindShareStart:      tierAck,
	sim.KindShareAccept:     tierAck,
	sim.KindShareAvailable:  tierAck,

	sim.KindCreate:             tierRoutine,
	sim.KindSend:               tierRoutine,
	sim.KindAppend:             tierRoutine,
	sim.KindReplicate:          tierRoutine,
	sim.KindConsumerFetch:      tierRoutine,
	sim.KindConsumerProcess:    tierRoutine,
	sim.KindConsumerPartitions: tierRoutine,
	sim.KindShareAcquire:       tierRoutine,
	sim.KindShareProcessed:     tierRoutine,
}

// tierOf is k's tier; a kind the table lacks (a kind newer than it) comes
// last, after the routine ones.
func tierOf(k sim.Kind) tier {
	if t, ok := headlineTier[k]; ok {
		return t
	}
	return tierRoutine + 1
}

// headlineEvent is the index in b.Events of the beat's headline event: the
// first event of the lowest tier. It is −1 for a beat without events.
func headlineEvent(b *sim.Beat) int {
	best := -1
	for i := range b.Events {
		if best < 0 || tierOf(b.Events[i].Kind) < tierOf(b.Events[best].Kind) {
			best = i
		}
	}
	return best
}

// MaxHeadline is the longest headline a caption leads with, in
// characters; a longer event sentence is cut at a clause and written out
// whole beneath it.
const MaxHeadline = 120

// shorten returns s cut to at most MaxHeadline characters, at the last
// ": ", "; " or ", " that leaves at least 40 characters (else at the last
// space), with "…" after it; and whether it cut.
func shorten(s string) (string, bool) {
	head, _, cut := split(s)
	return head, cut
}

// split is shorten's cut, with the rest of the sentence after it ("…" and
// the words the headline left out, the separator dropped), "" when s is
// short enough.
func split(s string) (string, string, bool) {
	if utf8.RuneCountInString(s) <= MaxHeadline {
		return s, "", false
	}
	// The byte offset of the longest prefix that leaves room for "…".
	limit, n := 0, 0
	for i := range s {
		if n == MaxHeadline-1 {
			limit = i
			break
		}
		n++
	}
	head := s[:limit]
	cut := -1 // byte offset in s where the headline ends
	for _, sep := range []string{": ", "; ", ", "} {
		if i := strings.LastIndex(head, sep); i >= 40 && i > cut {
			cut = i
			break
		}
	}
	if cut < 0 {
		cut = strings.LastIndexByte(head, ' ')
	}
	if cut <= 0 {
		cut = len(head)
	}
	return strings.TrimRight(head[:cut], " ,;:") + "…", "…" + strings.TrimLeft(s[cut:], " ,;:"), true
}

// captionParts is one beat's caption as data: Head leads (the note, or the
// headline event's sentence, cut to MaxHeadline), Under follows beneath it
// (the engine's headline under a note; under a cut one, the rest of its
// sentence after "…", so that a phone's caption does not say the first
// 120 characters twice), and More are the other events' sentences, in the
// order they happened, for the "n more" disclosure. whole is the headline
// event's whole sentence when Head is a cut one.
type captionParts struct {
	Head  string
	Under []string
	More  []string
	whole string
}

// beatCaption builds beat b's caption; note is the author's text for the
// beat, "" for none. prefix goes before every sentence (a compare panel's
// name and ": ").
func beatCaption(b *sim.Beat, note, prefix string, shown sim.Shown) captionParts {
	var c captionParts
	h := headlineEvent(b)
	engine := "no events"
	var joined []int // the other events the headline's sentence tells
	if h >= 0 {
		engine = b.Events[h].Describe(shown)
		if s, others, ok := brokersHeadline(b, h); ok {
			engine, joined = s, others
		}
	}
	head, rest, cut := split(engine)
	switch {
	case note != "":
		c.Head = note
		c.Under = append(c.Under, prefix+engine)
	case cut:
		c.Head = prefix + head
		c.Under = append(c.Under, rest)
		c.whole = prefix + engine
	default:
		c.Head = prefix + head
	}
	for i := range b.Events {
		if i != h && !slices.Contains(joined, i) {
			c.More = append(c.More, prefix+b.Events[i].Describe(shown))
		}
	}
	return c
}

// brokersHeadline is the headline of beat b when its headline event h has
// others of its kind about other brokers at that beat (brokers 2 and 3
// crash together in the min.insync.replicas figure): one sentence for all
// of them (sim.DescribeBrokers), so that the headline does not name one
// crash of two, with the indexes of the others, which then leave "n more".
// ok is false when h is alone of its kind, or its kind has no such
// sentence.
func brokersHeadline(b *sim.Beat, h int) (s string, others []int, ok bool) {
	k := b.Events[h].Kind
	var brokers []int
	for i := range b.Events {
		if e := &b.Events[i]; e.Kind == k {
			brokers = append(brokers, e.Broker)
			if i != h {
				others = append(others, i)
			}
		}
	}
	if len(others) == 0 {
		return "", nil, false
	}
	if s, ok = sim.DescribeBrokers(k, brokers); !ok {
		return "", nil, false
	}
	return s, others, true
}

// notesByBeat indexes the author's notes by beat.
func notesByBeat(notes []sim.Note) map[int]string {
	if len(notes) == 0 {
		return nil
	}
	m := make(map[int]string, len(notes))
	for _, n := range notes {
		m[n.At] = n.Text
	}
	return m
}

// html writes the caption as markup: the headline after lead ("beat 7 —
// " in the caption area, "" in the storyboard, whose list numbers its
// items), the lines beneath it, and the other events, one per line
// (figure.css keeps the line breaks: a tag per sentence would cost a page
// of long figures kilobytes). With disclose, as in the caption area, the
// other events are in a closed <details> whose summary counts them ("3
// more"); without, as in the storyboard, which tells the whole story,
// they follow in a span of class kf-rest, which the stepper wraps the same
// way when it shows the item as the caption. Every text is escaped.
func (c captionParts) html(lead string, disclose bool) string {
	var b strings.Builder
	b.WriteString(`<span class="kf-head">`)
	b.WriteString(escapeCaption(lead + c.Head))
	b.WriteString(`</span>`)
	for _, u := range c.Under {
		b.WriteString(`<span class="kf-under">`)
		b.WriteString(escapeCaption(u))
		b.WriteString(`</span>`)
	}
	if len(c.More) > 0 {
		rest := escapeCaption(strings.Join(c.More, "\n"))
		if disclose {
			b.WriteString(`<details class="kf-rest"><summary>` + itoa(len(c.More)) + ` more</summary><span>` + rest + `</span></details>`)
		} else {
			b.WriteString(`<span class="kf-rest">` + rest + `</span>`)
		}
	}
	return b.String()
}

// compareCaptionParts is beat bi of both runs of a side-by-side figure:
// each run's headline, after its name (names: runLabels of the panels'),
// leads (the first) and follows (the second), or both follow the
// author's note; everything else, each sentence after its run's name,
// goes under "n more".
func compareCaptionParts(bi int, names [2]string, a, b *sim.Trace, note string) captionParts {
	var lines, more, bare []string
	for i, t := range []*sim.Trace{a, b} {
		if bi >= len(t.Beats) {
			lines = append(lines, names[i]+": ended at beat "+itoa(len(t.Beats)-1))
			bare = append(bare, "")
			continue
		}
		p := beatCaption(&t.Beats[bi], "", names[i]+": ", shownBy(names[i]))
		lines = append(lines, p.Head)
		bare = append(bare, beatCaption(&t.Beats[bi], "", "", sim.Shown{}).Head)
		if p.whole != "" { // a cut headline: its whole sentence under "n more"
			more = append(more, p.whole)
		}
		more = append(more, p.More...)
	}
	// Both runs lead with the same sentence (the same truncation, the
	// same restart): say it once. On a phone each run's name and sentence
	// take three lines, and the caption area is as tall as its tallest
	// beat.
	if bare[0] != "" && bare[0] == bare[1] {
		lines = []string{"both runs: " + bare[0]}
	}
	c := captionParts{Head: lines[0], Under: lines[1:], More: more}
	if note != "" {
		c.Head, c.Under = note, lines
	}
	return c
}

// shownBy is what a run's name (runLabels: "acks=1", "acks=all,
// retries=0") shows the reader, so that the run's sentences after it need
// not say it again (sim.Shown).
func shownBy(name string) sim.Shown {
	var shown sim.Shown
	for _, part := range strings.Split(name, ", ") {
		if v, ok := strings.CutPrefix(part, "acks="); ok {
			shown.Acks = v
		}
	}
	return shown
}

// text is the caption as plain text, one line per sentence: the headline,
// the lines beneath it, then "n more:" and the other events (what a test
// reads as the caption's textContent, with line breaks).
func (c captionParts) text() string {
	lines := append([]string{c.Head}, c.Under...)
	if len(c.More) > 0 {
		lines = append(lines, itoa(len(c.More))+" more:")
		lines = append(lines, c.More...)
	}
	return strings.Join(lines, "\n")
}
