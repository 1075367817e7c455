package svganim

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Mark titles are words, and most of their words are the same in every
// figure: "high watermark of … — consumers read below it". A figure
// carries its marks' titles in its JSON script (not as <title> elements in
// the poster SVG), each written with the phrases below replaced by a short
// token: "~" and one character of tokenAlphabet (the phrase's index), and
// "~~" for a "~" of the title itself. The phrases ship once, in
// kf-words.js (WordsJS, written by the site at every build), shared by every figure of a site like
// figure.css and stepper.js; the stepper restores a title when a reader
// hovers or focuses its mark. This keeps the vocabulary of the visual language out
// of each figure's weight: measured on the guide, the poster's <title>s
// were a fifth of a figure's gzip bytes, and nearly all of that was these
// phrases (see Weight).
//
// The list is the static text of the titles built in scene.go, share.go and
// consumer.go. A phrase missing from it costs bytes, never correctness:
// decodeTitle(encodeTitle(s)) == s for every s.
// The F and U cards' titles are left out on purpose: few figures settle
// a record F or U, and kf-words.js is loaded by every page with a figure.
var phrases = [...]string{
	": pos is its position, the next offset it hands to processing; com is the group's committed offset, where a new owner would start",
	" owns no partition: a partition has one owner per group, so members beyond the partition count wait idle",
	"'s target, but the previous owner has not released it yet; it starts the beat after the release",
	": no heartbeat for session.timeout beats; it committed nothing since its last auto-commit",
	"queued: waiting for room in the in-flight budget (max.in.flight.requests.per.connection)",
	"waiting: appended by the leader, parked until the high watermark passes it (acks=all)",
	"backoff: the attempt failed; the producer waits retry.backoff beats before retrying",
	"the producer: one card per record not yet settled, in the zone of its stage",
	" is the next offset it hands to processing; the group's committed offset ",
	" left its target, so it commits and releases it after its current record",
	" is in flight (at or after the start offset, handed out at least once)",
	" (eN: leader epoch) and whether the high watermark waits for it (ISR)",
	" (stopped: it holds the partition without reading until it is fenced)",
	" (the coordinator bumps its group epoch on every membership change)",
	" and its replicas (red: offline; dashed: follower fetchers paused)",
	": the partitions it may fetch from (several members can share one)",
	"sending: the produce request is on its way to the partition leader",
	"available again, waiting for a member to acquire it; delivered ",
	": it reached group.share.delivery.count.limit, or was rejected",
	"the beat shown; one beat is the time a message takes to cross",
	"settled this beat; the card leaves the rail on the next beat",
	"revoking: finishes its record, commits, then releases",
	": every record before it is acknowledged or archived",
	"stopped: no heartbeats; fenced after session.timeout",
	"answering: the leader's response is on its way back",
	"leaving: finishes its record, commits, then leaves",
	"assigning: waits until the previous owner releases",
	" in the squares and discs on the leader rows",
	", aligned with the broker lanes' logs above",
	" starts here (share-partition start offset ",
	" — every record before it is finished",
	" was processed more than once by group ",
	"share-partition start offset of group ",
	"'s share-partition start offset on p",
	"L: acknowledged, then truncated away",
	" (the number is its delivery count)",
	"'s ISR size against min.insync.replicas (capped at its replica count): below it (<), the high watermark stands still and acks=all requests are refused with NOT_ENOUGH_REPLICAS",
	", after committing its position",
	" — the next offset it fetches",
	" — its next record goes here",
	" — where a new owner starts",
	" and locked to it, delivery ",
	" — consumers read below it",
	"position of the owner of p",
	"committed offset of group ",
	"idle, it owns no partition",
	"the coordinator fenced ",
	" is processing record ",
	"log end offset of ",
	", acknowledged by ",
	"high watermark of ",
	": its window on p",
	", delivery count ",
	" cleanly at beat ",
	" as share group ",
	" in share group ",
	"acknowledged by ",
	" of share group ",
	"producer stage ",
	"fetchers paused",
	"archived after ",
	"consumer group",
	"the colour of ",
	" joins group ",
	"'s role for p",
	"acquired by ",
	"share group ",
	" left group ",
	"acknowledged",
	"offsets of p",
	" on broker ",
	"share group",
	": its lag clock, the beats since the leader last saw it caught up (∞: never, since it began tracking it), against replica.lag.time.max; past it, the leader's next ISR check drops the follower",
	"committed ",
	"deliveries",
	", held by ",
	" as group ",
	" sees it: ",
	" in group ",
	" of group ",
	"partition ",
	"position ",
	"answering",
	" (record ",
	": record ",
}

// tokenAlphabet names the phrases: phrases[i] is written "~" followed by
// tokenAlphabet[i]. Its characters survive encoding/json unescaped.
const tokenAlphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%'()*+,-./:;=?@[]^_`{|}"

// titleCoder replaces a "~" with "~~" and each phrase with its token,
// longest phrase first (strings.Replacer tries its pairs in order at each
// position).
var titleCoder = func() *strings.Replacer {
	if len(phrases) > len(tokenAlphabet) {
		panic("svganim: more title phrases than tokens")
	}
	order := make([]int, len(phrases))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(phrases[order[a]]) > len(phrases[order[b]]) })
	pairs := []string{"~", "~~"}
	for _, i := range order {
		pairs = append(pairs, phrases[i], "~"+tokenAlphabet[i:i+1])
	}
	return strings.NewReplacer(pairs...)
}()

// encodeTitle writes a title with its phrases as tokens.
func encodeTitle(s string) string {
	if c, ok := codedTitles.Load(s); ok {
		return c.(string)
	}
	c := titleCoder.Replace(s)
	if codedCount.Add(1) <= maxCodedTitles {
		codedTitles.Store(s, c)
	}
	return c
}

// codedTitles remembers encodeTitle's results from one figure to the next
// (and from one build to the next in serve): the guide's figures encode
// 5,593 titles, each a strings.Replacer pass over it, and only 983 of
// them differ. A title's code depends on the title alone, so which figure
// stored it first changes no byte. At most maxCodedTitles are kept, so
// that memory does not grow with every title a long serve session draws;
// past that, titles are encoded each time. codedCount counts the stores
// attempted.
var (
	codedTitles sync.Map // title → its code
	codedCount  atomic.Int64
)

const maxCodedTitles = 1 << 16

// decodeTitle restores a title written by encodeTitle, as the stepper does.
func decodeTitle(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		if s[i] == '~' {
			b.WriteByte('~')
		} else if k := strings.IndexByte(tokenAlphabet, s[i]); k >= 0 && k < len(phrases) {
			b.WriteString(phrases[k])
		}
	}
	return b.String()
}

// controlsHTML is the markup of a figure's controls, the same for every
// figure: first, back, play/pause, forward, last, a beat scrubber (the
// stepper sets its max), a speed select, a beat counter and a link
// button; then the line where the stepper writes out the title of the mark
// ↑/↓ focused.
// They do nothing without the stepper, so the stepper adds them (from
// kf-words.js) instead of every figure carrying them.
const controlsHTML = `<div class="kf-controls">` +
	`<button type="button" data-a="first" aria-label="first beat">«</button>` +
	`<button type="button" data-a="back" aria-label="step back">‹</button>` +
	`<button type="button" data-a="play" class="kf-play">play</button>` +
	`<button type="button" data-a="fwd" aria-label="step forward">›</button>` +
	`<button type="button" data-a="last" aria-label="last beat">»</button>` +
	`<input type="range" class="kf-scrub" min="0" aria-label="beat">` +
	`<select class="kf-speed" aria-label="speed"><option>0.5×<option selected>1×<option>2×<option>4×</select>` +
	`<output class="kf-at"></output>` +
	`<button type="button" data-a="link" class="kf-link" aria-label="copy a link to this beat">link</button></div>` +
	`<p class="kf-explain"></p>`

// WordsFile is the name of the shared asset WordsJS fills; pages load it
// before stepper.js.
const WordsFile = "kf-words.js"

// WordsJS is the content of WordsFile, which the site writes beside
// stepper.js: the global kfWords = {a: token alphabet, w: title phrases,
// c: the controls' markup}. It is generated at every build, never kept as
// a file in templates/, so it always matches the titles this package codes.
func WordsJS() []byte {
	js := func(v any) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false) // a file of its own, never inline in a page
		if err := e.Encode(v); err != nil {
			panic("svganim: words do not marshal: " + err.Error())
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	return []byte("// Kafka Flow: what every figure shares besides its script — the phrases of mark titles\n" +
		"// and the controls' markup (generated by svganim.WordsJS at every build).\n" +
		"var kfWords = {a: " + js(tokenAlphabet) + ",\nc: " + js(controlsHTML) + ",\nw: " +
		strings.ReplaceAll(js(phrases), `","`, "\",\n\"") + "};\n")
}
