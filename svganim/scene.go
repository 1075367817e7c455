package svganim

import (
	"cmp"
	"runtime"
	"slices"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// shape says which SVG children a mark has; its geometry is relative to
// the mark's own origin (the mark is a <g transform="translate(x,y)">).
type shape uint8

const (
	// shBox: a w×h rectangle, text[0] centred, text[1] small at the top
	// left, text[2] small at the top right (a badge).
	shBox shape = iota
	// shCell: a w×h rectangle with text[0] centred (an offset cell).
	shCell
	// shStack: a w×h rectangle with text[0] on a first and text[1] on a
	// second line, left aligned.
	shStack
	// shBand: a lane's background, text[0] as its name and text[1] as its
	// status, in the lane's label column.
	shBand
	// shLane: a broker lane's background with a header line: text[0] its
	// name, text[1] its status, side by side above its rows.
	shLane
	// shLabel: text[0] alone, its baseline at the origin.
	shLabel
	// shTickUp: a vertical line from the origin down h units, text[0]
	// above it (the high watermark).
	shTickUp
	// shTickDown: a vertical line from the origin down h units, text[0]
	// below it (the log end offset, a group's position).
	shTickDown
	// shWire: a message token w wide and h high centred vertically on
	// the origin, text[0] in it (wire.go).
	shWire
	// shArrow: a vertical arrow h long from the origin down, its head at
	// the bottom, or at the top with the class kf-up (wire.go).
	shArrow
)

// layers order marks front to back: larger layers are drawn later.
const (
	layerBand = iota
	layerLabel
	layerCell
	layerFlag // a share group's window flag, over the cells
	layerTick
	layerCard
	layerWire // message arrows
	layerToken
	layerTop
)

// mark is one drawn thing with an identity that lasts across beats: a
// lane, a cell of a log, a high-watermark tick, a record card. A beat's
// picture is a list of marks; a figure is the union of every beat's marks
// plus, per beat, what changed. Every field but id, layer and shape may
// change from beat to beat.
type mark struct {
	id    string // unique and stable within a figure, [a-z0-9-]
	layer int
	shape shape
	cls   string // CSS classes; the "m" class is added when written
	x, y  int
	w, h  int
	text  [3]string
	title string // the SVG <title>: what the mark means, in words
	// o is the offset a mark stands at, when od says it stands at one (a
	// high-watermark tick, a window base): its x is then
	// the offset's x in the row plus a constant, which lets the figure's
	// tracks record the offset instead of the coordinates (patch.go).
	o  int64
	od bool
}

// before orders marks for writing: by layer, then by id.
func before(a, b *mark) bool {
	if a.layer != b.layer {
		return a.layer < b.layer
	}
	return a.id < b.id
}

// scene draws beats of one trace: the layout, the key styles and each
// record's key are computed once.
type scene struct {
	t      *sim.Trace
	l      Layout
	keys   []KeyStyle
	keyOf  map[string]int // key → index into keys
	recKey map[int]int    // record id → index into keys (-1 unknown)
	recs   map[int]sim.Record
	last   int // the last beat's number
	// workers is Options.Workers: how many goroutines drawAll may use
	// (0: GOMAXPROCS).
	workers int
	// consumer caches what consumer member rows read from the whole
	// trace (consumer.go); built on first use.
	consumer *consumerMemo
	// lives holds every member's life from the trace (sim.Trace.Members),
	// by memberKey.
	lives map[string]sim.MemberLife
	// reuse, when set, remembers marks drawn before from the same inputs,
	// so that drawing beat after beat builds the strings of only what
	// changed; drawAll gives each drawing goroutine its own.
	reuse *reuse
	// wire holds where messages start and end (wire.go).
	wire *wireEnds
	// shareLbl holds each share group's verdict-disc label (shareLabels).
	shareLbl []string
	// members holds every member each group ever has, by group
	// (memberNames), for the labels that shorten a name (names.go).
	members map[string][]string
	// tokenWide holds each message token's width (tokenWidths), by mark id.
	tokenWide map[string]int
	// wires holds each beat's messages and their tokens' places and
	// texts (wireBeat), found once by tokenWidths; the drawing
	// goroutines only read it.
	wires []*wireBeat
	// tally holds each beat's counts of the producer's tally, by beat
	// index and then TallyOrder (tallies).
	tally [][]int
	// laneParts holds each lane's first part number (lanePart); parts
	// is how many parts a frame of s may have.
	laneParts []int
	parts     int
}

// reuse holds marks already drawn, keyed by everything they are drawn
// from, and the strings a replica's marks always have. Finished share
// records only grow (or are truncated), so at most beats nearly every
// verdict disc is one drawn before. (A log's cells need no such memory:
// the row's part keeps those of the offsets that hold what they held.)
type reuse struct {
	verdicts map[[2]int][]drawnVerdict // by share group index and partition, then offset
	replicas map[[2]int]*replicaText
	numbered map[string][]string // prefix → prefix + offset, by offset
	zones    []mark              // the producer's stage labels (zoneMarks)
	cards    map[int]cardText    // by record
	lanes    map[int]laneText    // by broker
}

func newReuse() *reuse {
	return &reuse{verdicts: map[[2]int][]drawnVerdict{}, replicas: map[[2]int]*replicaText{}, numbered: map[string][]string{},
		cards: map[int]cardText{}, lanes: map[int]laneText{}}
}

// numbered returns prefix followed by n, such as "HW 3", remembering the
// strings when s reuses marks.
func (s *scene) numbered(prefix string, n int64) string {
	if s.reuse == nil || n < 0 || n > 1<<16 {
		return prefix + itoa64(n)
	}
	ns := s.reuse.numbered[prefix]
	for int64(len(ns)) <= n {
		ns = append(ns, prefix+itoa(len(ns)))
	}
	s.reuse.numbered[prefix] = ns
	return ns[n]
}

// drawnVerdict is a verdict disc drawn before, with what it was drawn from.
type drawnVerdict struct {
	ok bool
	k  verdictKey
	m  mark
}

// verdictKey is what a share verdict disc is drawn from (rec is -1 when
// the leader's log does not hold the offset).
type verdictKey struct {
	group           string
	si, x, y        int
	partition, rec  int
	offset          int64
	state, finisher string
	deliveries      int
}

// replicaText is what the marks of one replica's row always say.
type replicaText struct {
	id, pl, cell       string // "b1-p0", "pl-b1-p0", "c-b1-p0-"
	pr, hw, leo        string // the other marks' ids
	where, label       string // "p0 on broker 1", "p0"
	plTitle, prTitle   string
	hwTitle, leoTitle  string
	isr, lag           string // the note marks' ids
	isrTitle, lagTitle string
}

// The static words of the note marks' titles (drawNote); words.go carries
// them as phrases.
const (
	isrPhrase = "'s ISR size against min.insync.replicas (capped at its replica count): below it (<), the high watermark " +
		"stands still and acks=all requests are refused with NOT_ENOUGH_REPLICAS"
	lagPhrase = ": its lag clock, the beats since the leader last saw it caught up (∞: never, since it began tracking it), " +
		"against replica.lag.time.max; past it, the leader's next ISR check drops the follower"
)

// replicaText returns the strings of broker's replica of partition.
func (s *scene) replicaText(broker, partition int) *replicaText {
	if s.reuse != nil {
		if rt := s.reuse.replicas[[2]int{broker, partition}]; rt != nil {
			return rt
		}
	}
	bid, pid := itoa(broker), itoa(partition)
	where := "p" + pid + " on broker " + bid
	id := "b" + bid + "-p" + pid
	rt := &replicaText{id: id, pl: "pl-" + id, cell: "c-" + id + "-", where: where, label: "p" + pid,
		pr: "pr-" + id, hw: "hw-" + id, leo: "leo-" + id,
		plTitle:  "partition " + pid + " on broker " + bid,
		prTitle:  "broker " + bid + "'s role for p" + pid + " (eN: leader epoch) and whether the high watermark waits for it (ISR)",
		hwTitle:  "high watermark of " + where + " — consumers read below it",
		leoTitle: "log end offset of " + where + " — its next record goes here",
		isr:      "is-" + id, lag: "lg-" + id,
		isrTitle: "p" + pid + isrPhrase, lagTitle: where + lagPhrase}
	if s.reuse != nil {
		s.reuse.replicas[[2]int{broker, partition}] = rt
	}
	return rt
}

func newScene(t *sim.Trace) *scene { return newSceneIn(t, NewLayout(TopologyOf(t))) }

// newSceneIn is newScene drawing into a given layout, which must hold
// every lane, row, zone and gutter column of t's topology (a layout of a
// topology merged with it, MergeTopology).
func newSceneIn(t *sim.Trace, l Layout) *scene {
	s := &scene{t: t, l: l, keyOf: map[string]int{}, recKey: map[int]int{}, recs: map[int]sim.Record{},
		lives: map[string]sim.MemberLife{}}
	s.wire = newWireEnds(s.l)
	s.shareLbl = shareLabels(s.l)
	s.members = memberNames(s.l)
	for _, m := range t.Members {
		s.lives[memberKey(m.Group, m.Member)] = m
	}
	keys := append([]string(nil), t.Keys...)
	for _, k := range keys {
		s.keyOf[k] = -1
	}
	for _, r := range t.Records {
		if _, ok := s.keyOf[r.Key]; !ok {
			s.keyOf[r.Key] = -1
			keys = append(keys, r.Key)
		}
	}
	s.keys = KeyStyles(keys)
	for i, k := range keys {
		s.keyOf[k] = i
	}
	for _, r := range t.Records {
		s.recs[r.ID] = r
		s.recKey[r.ID] = s.keyOf[r.Key]
	}
	if n := len(t.Beats); n > 0 {
		s.last = t.Beats[n-1].Beat
	}
	s.tokenWide = s.tokenWidths()
	s.parts = partLanes
	for _, lane := range l.Lanes {
		s.laneParts = append(s.laneParts, s.parts)
		s.parts += 1 + 5*len(lane.Rows)
	}

	if len(l.Tally) > 0 {
		s.tally = tallies(t)
	}
	return s
}

// legendKeys is the legend's keys: those of s.keys that some record of
// the trace carries, in s.keys order. The producer's key list defaults to
// three keys (sim.DefaultKeys), so a fence of two records without keys:
// would list a third that no mark in the picture ever shows; the slots
// (colours) stay those KeyStyles gave the whole list.
func (s *scene) legendKeys() []KeyStyle {
	used := map[string]bool{}
	for _, r := range s.t.Records {
		used[r.Key] = true
	}
	var out []KeyStyle
	for _, k := range s.keys {
		if used[k.Key] {
			out = append(out, k)
		}
	}
	return out
}

// keyClass is the class list that colours a record's marks by its key,
// plus "kf-k" so that key isolation can dim every keyed mark.
func (s *scene) keyClass(rec int) string {
	k, ok := s.recKey[rec]
	if !ok || k < 0 {
		return "kf-k kx"
	}
	return "kf-k k" + itoa(s.keys[k].Slot)
}

// keysClass is the class list of a mark about several records (a fetch
// response, a share acknowledgement, a share lane's record): " kf-ks" and
// the key class of each record whose key is known, so that isolating any
// of their keys keeps the mark while the others fade, without taking a
// key's colour; "" when no record's key is known.
func (s *scene) keysClass(recs ...int) string {
	var slots []int
	for _, r := range recs {
		if k, ok := s.recKey[r]; ok && k >= 0 && !slices.Contains(slots, s.keys[k].Slot) {
			slots = append(slots, s.keys[k].Slot)
		}
	}
	if len(slots) == 0 {
		return ""
	}
	slices.Sort(slots)
	out := " kf-ks"
	for _, sl := range slots {
		out += " k" + itoa(sl)
	}
	return out
}

// recordAt is the record id at offset o of partition p at beat b: in the
// leader's log, or, while p has no leader, the longest log; 0 when no log
// holds o.
func recordAt(b *sim.Beat, p int, o int64) int {
	var log []sim.Entry
	for i := range b.Partitions {
		bp := &b.Partitions[i]
		if bp.Partition != p {
			continue
		}
		for j := range bp.Replicas {
			r := &bp.Replicas[j]
			if r.Broker == bp.Leader || (bp.Leader == 0 && len(r.Log) > len(log)) {
				log = r.Log
			}
		}
	}
	if o < 0 || o >= int64(len(log)) {
		return 0
	}
	return log[o].Record
}

func (s *scene) keyLabel(rec int) string {
	if k, ok := s.recKey[rec]; ok && k >= 0 {
		return s.keys[k].Label
	}
	return "?"
}

func (s *scene) keyName(rec int) string {
	if r, ok := s.recs[rec]; ok {
		return r.Key
	}
	return "unknown"
}

// draw returns the marks of beat index bi (an index into t.Beats), sorted
// for writing.
func (s *scene) draw(bi int) []mark {
	ms := s.drawInto(bi, nil)
	// Sort positions rather than the marks themselves: a mark is large,
	// and a stable sort moves its elements many times.
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(ms[a].layer, ms[b].layer), strings.Compare(ms[a].id, ms[b].id))
	})
	sorted := make([]mark, len(ms))
	for i, j := range order {
		sorted[i] = ms[j]
	}
	return sorted
}

// drawInto appends the marks of beat index bi to ms in drawing order (not
// sorted) and returns the result.
func (s *scene) drawInto(bi int, ms []mark) []mark {
	fr := frame{ms: ms}
	s.drawFrame(bi, &fr, false)
	return fr.ms
}

// frame is a beat as drawAll hands it to merge: its marks in parts, the
// marks of one part drawn from one slice of the beat's state (see
// partIDs). With delta set, a part whose slice is equal to the beat
// before's is not drawn again: its part says how many of its marks of
// the beat before stand as they were (keep), and ms holds only the marks
// drawn afresh, so that drawing a beat costs what changed in it.
type frame struct {
	ms    []mark
	parts []part
	// delta says parts may keep marks of the beat before.
	delta bool
	// start is where the part open began in ms, while opened.
	start  int
	opened bool
}

// part is one part of a frame: the first keep marks the part had at the
// beat before (all of them when keep is keepAll), then the next n marks
// of the frame's ms. A part numbered noPart is drawn afresh at every beat
// and keeps nothing.
type part struct {
	id      int
	keep, n int
}

// keepAll is a part's keep when every mark it had at the beat before
// stands as it was; noPart numbers the parts that are drawn afresh at
// every beat (the beat counter, the groups, the wire).
const (
	keepAll = -1
	noPart  = -1
)

// open starts part id, keeping keep marks of the beat before; the marks
// added until the next open (or close) are its new ones.
func (fr *frame) open(id, keep int) {
	fr.close()
	fr.parts = append(fr.parts, part{id: id, keep: keep})
	fr.start, fr.opened = len(fr.ms), true
}

// close ends the part open, if any.
func (fr *frame) close() {
	if fr.opened {
		fr.parts[len(fr.parts)-1].n = len(fr.ms) - fr.start
		fr.opened = false
	}
}

func (fr *frame) add(m mark) { fr.ms = append(fr.ms, m) }

// The parts of a picture, numbered for frame.open: the producer rail and
// its zones, the cards on it, the tally; for each broker lane (in layout order) its header, then for
// each of its rows the partition's label, the replica's role badge and
// note, its ticks, its log cells, and the share groups' strips on a
// leader's row. The group lanes are drawn afresh at every beat: comparing
// a group's state (tried) kept 4% of the guide's beat-marks and took the
// playground's module 3.3 KB gzipped past its budget.
// A log only grows or is truncated, so its cells are kept up to the
// first offset whose entry differs.
const (
	partRail = iota
	partCards
	partTally
	partLanes // the first lane's header
)

// lanePart is the number of lane li's header; its row ri's label is
// lanePart(li)+1+5*ri, its role badge and note, its ticks, its cells and
// its share strips the four parts after.
func (s *scene) lanePart(li int) int { return s.laneParts[li] }

// drawFrame appends the marks of beat index bi to fr in drawing order,
// part by part. With delta, a part whose slice of the beat's state is
// the same as at beat index bi-1 keeps the marks it had then (frame).
func (s *scene) drawFrame(bi int, fr *frame, delta bool) {
	b := &s.t.Beats[bi]
	var pb *sim.Beat // the beat before, when parts may keep its marks
	if delta && bi > 0 {
		pb = &s.t.Beats[bi-1]
	}
	fr.delta, fr.opened = pb != nil, false
	add := fr.add

	fr.open(noPart, 0)
	add(mark{id: "beat", layer: layerTop, shape: shLabel, cls: "kf-counter",
		x: s.l.W - pad - 8, y: s.l.Counter.Y + 16,
		text:  [3]string{"beat " + itoa(b.Beat) + " / " + itoa(s.last)},
		title: "the beat shown; one beat is the time a message takes to cross"})

	// The rail and its zones are the same at every beat, its cards are
	// drawn from the beat's cards alone, the tally from its counts.
	if pb != nil {
		fr.open(partRail, keepAll)
	} else {
		fr.open(partRail, 0)
		s.drawRailZones(add)
	}
	if pb != nil && slices.Equal(b.Producer.Cards, pb.Producer.Cards) {
		fr.open(partCards, keepAll)
	} else {
		fr.open(partCards, 0)
		s.drawCards(b, add)
	}
	if pb != nil && len(s.tally) > 0 && slices.Equal(s.tally[bi], s.tally[bi-1]) {
		fr.open(partTally, keepAll)
	} else {
		fr.open(partTally, 0)
		s.drawTally(bi, add)
	}
	s.drawLanes(b, pb, fr)
	fr.open(noPart, 0)
	for gi := range s.l.Groups {
		s.drawGroup(b, gi, add)
	}
	s.drawWire(bi, add)
	fr.close()
}

// drawAll draws every beat of the trace and hands each to merge, in beat
// order, as a frame that merge must not keep: each part's marks that
// changed since the beat before (drawFrame with delta). Beats are drawn by up to
// Options.Workers (default GOMAXPROCS) goroutines at once, a few beats ahead of merge, which runs on
// the caller's goroutine; a panic while drawing reaches the caller when
// merge gets to that beat, so the result never depends on the schedule.
func (s *scene) drawAll(merge func(bi int, fr *frame)) {
	n := len(s.t.Beats)
	w := s.workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	w = min(w, n/8)
	// Each beat is drawn into a chunk of markChunks (one a slot), which
	// goes back there once every beat is merged; a beat of more marks than
	// a chunk holds grows out of it.
	if w <= 1 {
		ws := *s
		ws.reuse = newReuse()
		c := getChunk()
		fr := frame{ms: c[:0]}
		// used is the most marks written to c; after a panic, the beat
		// being drawn may have written more.
		used := 0
		defer func() { putChunk(c, max(used, len(fr.ms))) }()
		for bi := range n {
			fr.ms, fr.parts = fr.ms[:0], fr.parts[:0]
			ws.drawFrame(bi, &fr, true)
			used = max(used, len(fr.ms))
			merge(bi, &fr)
		}
		return
	}
	s.memo() // built now, as the drawing goroutines only read it
	// Beat bi is drawn by worker bi mod w into slot bi mod len(slots); as
	// len(slots) is a multiple of w, a slot always belongs to one worker,
	// which waits for merge to free it before drawing the next beat there.
	type slot struct {
		fr    frame
		fault any // what drawing this beat panicked with
		ready chan struct{}
		free  chan struct{}
	}
	slots := make([]slot, 4*w)
	chunks := make([]*markChunk, len(slots))
	used := make([]int, len(slots)) // the most marks written to each chunk
	for i := range slots {
		slots[i].ready, slots[i].free = make(chan struct{}, 1), make(chan struct{}, 1)
		slots[i].free <- struct{}{}
		chunks[i] = getChunk()
		slots[i].fr.ms = chunks[i][:0]
	}
	quit := make(chan struct{})
	defer close(quit)
	for k := range w {
		ws := *s // a scene of its own, to remember its own marks in
		ws.reuse = newReuse()
		go func() {
			for bi := k; bi < n; bi += w {
				sl := &slots[bi%len(slots)]
				select {
				case <-sl.free:
				case <-quit:
					return
				}
				func() {
					defer func() { sl.fault = recover() }()
					sl.fr.ms, sl.fr.parts = sl.fr.ms[:0], sl.fr.parts[:0]
					ws.drawFrame(bi, &sl.fr, true)
				}()
				sl.ready <- struct{}{}
				if sl.fault != nil {
					return
				}
			}
		}()
	}
	for bi := range n {
		sl := &slots[bi%len(slots)]
		<-sl.ready
		if sl.fault != nil {
			panic(sl.fault)
		}
		used[bi%len(slots)] = max(used[bi%len(slots)], len(sl.fr.ms))
		merge(bi, &sl.fr)
		sl.free <- struct{}{}
	}
	// Every worker has drawn its last beat: the chunks are free. (After a
	// panic they are not given back, as a worker may still be drawing.)
	for i, c := range chunks {
		putChunk(c, used[i])
	}
}

// stageWords explains each producer stage in a card's title.
var stageWords = map[string]string{
	"queued":    "queued: waiting for room in the in-flight budget (max.in.flight.requests.per.connection)",
	"sending":   "sending: the produce request is on its way to the partition leader",
	"waiting":   "waiting: appended by the leader, parked until the high watermark passes it (acks=all)",
	"answering": "answering: the leader's response is on its way back",
	"backoff":   "backoff: the attempt failed; the producer waits retry.backoff beats before retrying",
	"settled":   "settled this beat; the card leaves the rail on the next beat",
}

var outcomeWords = map[string]string{
	sim.OutcomeAcked: "acknowledged",
	sim.OutcomeSent:  "sent with acks=0: no answer expected",
	sim.OutcomeF:     "F: refused, never appended",
	sim.OutcomeU:     "U: unknown — it may be in the log",
	sim.OutcomeL:     "L: acknowledged, then truncated away",
}

// drawRailZones draws the producer's rail and the labels of its stage
// zones, the same at every beat.
func (s *scene) drawRailZones(add func(mark)) {
	l := s.l
	add(mark{id: "rail", layer: layerBand, shape: shBand, cls: "kf-rail",
		x: l.Rail.X, y: l.Rail.Y, w: l.Rail.W, h: l.Rail.H,
		text:  [3]string{"producer"},
		title: "the producer: one card per record not yet settled, in the zone of its stage"})
	for _, z := range s.zones() {
		add(z)
	}
}

// zones returns the zone labels (zoneMarks), remembered when s reuses
// marks.
func (s *scene) zones() []mark {
	var zones []mark
	if s.reuse != nil {
		zones = s.reuse.zones
	}
	if zones == nil {
		zones = s.zoneMarks()
		if s.reuse != nil {
			s.reuse.zones = zones
		}
	}
	return zones
}

// drawCards draws the cards on the producer's rail at beat b: each stage
// zone's cards, up to its slots, and a "+N" label for those beyond.
func (s *scene) drawCards(b *sim.Beat, add func(mark)) {
	l := s.l
	byStage := map[string][]sim.Card{}
	for _, c := range b.Producer.Cards {
		byStage[c.Stage] = append(byStage[c.Stage], c)
	}
	zones := s.zones()
	for zi, z := range l.Zones {
		cards := byStage[z.Stage]
		for i, c := range cards {
			if i >= z.Slots {
				break
			}
			ct := s.cardText(c)
			badge := ct.badge
			if badge == "" && c.Attempt > 1 {
				badge = "×" + itoa(c.Attempt)
			}
			add(mark{id: ct.id, layer: layerCard, shape: shBox, cls: ct.cls,
				x: z.Box.X + i*(cardW+cardGap), y: z.Box.Y + zoneLabelH, w: cardW, h: cardH,
				text:  [3]string{ct.num, s.keyLabel(c.Record), badge},
				title: ct.title})
		}
		if extra := len(cards) - z.Slots; extra > 0 {
			add(mark{id: "more-" + zones[zi].id[len("zone-"):], layer: layerCard, shape: shLabel, cls: "kf-more",
				x: z.More.X, y: z.More.Y + 22, text: [3]string{"+" + itoa(extra)},
				title: itoa(extra) + " more records " + z.Stage})
		}
	}
}

// zoneMarks are the labels of the producer's stage zones, the same at
// every beat.
func (s *scene) zoneMarks() []mark {
	zones := make([]mark, len(s.l.Zones))
	for i, z := range s.l.Zones {
		zones[i] = mark{id: "zone-" + safeID(z.Stage), layer: layerLabel, shape: shLabel, cls: "kf-zone",
			x: z.Box.X, y: z.Box.Y + 12, text: [3]string{z.Stage},
			title: "producer stage " + stageTitle(z.Stage)}
	}
	return zones
}

// cardText is what a record's card says for one outcome ("" while it is
// unsettled): its id, number, classes and title, and its badge when the
// outcome gives one (else the card shows its attempt past the first).
type cardText struct {
	outcome                    string
	id, num, cls, title, badge string
}

// cardText returns the strings of c's card, remembered by record when s
// reuses marks: a card stays on the rail for beats, its words changing
// only when it settles.
func (s *scene) cardText(c sim.Card) cardText {
	if s.reuse != nil {
		if ct, ok := s.reuse.cards[c.Record]; ok && ct.outcome == c.Outcome {
			return ct
		}
	}
	ct := cardText{outcome: c.Outcome, id: "card-" + itoa(c.Record), num: itoa(c.Record),
		cls:   "kf-card " + s.keyClass(c.Record),
		title: "record " + itoa(c.Record) + ", key " + s.keyName(c.Record) + s.partitionOf(c.Record)}
	if c.Outcome != "" {
		ct.cls += " kf-out-" + safeID(c.Outcome)
		switch c.Outcome {
		case sim.OutcomeF, sim.OutcomeU, sim.OutcomeL:
			ct.badge = c.Outcome
		case sim.OutcomeAcked:
			ct.badge = "✓"
		}
		if w, ok := outcomeWords[c.Outcome]; ok {
			ct.title += " — " + w
		} else {
			ct.title += " — " + c.Outcome
		}
	}
	if s.reuse != nil {
		s.reuse.cards[c.Record] = ct
	}
	return ct
}

// partitionOf is " → pN" for a record whose partition the trace knows.
func (s *scene) partitionOf(rec int) string {
	if r, ok := s.recs[rec]; ok && r.Partition >= 0 {
		return " → p" + itoa(r.Partition)
	}
	return ""
}

func stageTitle(st string) string {
	if w, ok := stageWords[st]; ok {
		return w
	}
	return st
}

// brokerAt finds broker id in beat b.
func brokerAt(b *sim.Beat, id int) (br sim.Broker, ok bool) {
	for _, x := range b.Brokers {
		if x.Broker == id {
			br, ok = x, true
		}
	}
	return br, ok
}

// replicaAt finds broker's replica of partition in beat b, and the
// partition.
func replicaAt(b *sim.Beat, partition, broker int) (*sim.Partition, *sim.Replica) {
	var p *sim.Partition
	for i := range b.Partitions {
		if b.Partitions[i].Partition == partition {
			p = &b.Partitions[i]
		}
	}
	if p == nil {
		return nil, nil
	}
	var rep *sim.Replica
	for i := range p.Replicas {
		if p.Replicas[i].Broker == broker {
			rep = &p.Replicas[i]
		}
	}
	return p, rep
}

// drawLanes draws each broker's lane of beat b into fr: its header, and
// each replica's row (drawReplica). With pb, the beat before, a lane's
// header and a row's badges and ticks whose state is as it was at pb keep
// their marks, and a row keeps the cells of its log's offsets whose
// entries are as they were.
func (s *scene) drawLanes(b, pb *sim.Beat, fr *frame) {
	add := fr.add
	for li, lane := range s.l.Lanes {
		br, ok := brokerAt(b, lane.Broker)
		if !ok {
			// Not yet added (add.broker) at this beat: the lane stays empty.
			continue
		}
		var pbr sim.Broker
		was := false // the lane was drawn at pb
		if pb != nil {
			pbr, was = brokerAt(pb, lane.Broker)
		}
		part := s.lanePart(li)
		if was && pbr == br {
			fr.open(part, keepAll)
		} else {
			fr.open(part, 0)
			s.drawLaneHeader(lane, br, add)
		}
		for ri, row := range lane.Rows {
			p, rep := replicaAt(b, row.Partition, lane.Broker)
			if rep == nil {
				continue
			}
			var pp *sim.Partition
			var prep *sim.Replica
			if was {
				pp, prep = replicaAt(pb, row.Partition, lane.Broker)
			}
			label, role, ticks, cells, share := part+1+5*ri, part+2+5*ri, part+3+5*ri, part+4+5*ri, part+5+5*ri
			if prep != nil {
				fr.open(label, keepAll)
			} else {
				fr.open(label, 0)
				s.drawPartitionLabel(lane.Broker, p.Partition, row, add)
			}
			if prep != nil && sameRole(p, pp, rep, prep) && br.Online == pbr.Online {
				fr.open(role, keepAll)
			} else {
				fr.open(role, 0)
				s.drawRole(lane.Broker, p, rep, br, row, add)
			}
			if prep != nil && rep.LogEndOffset == prep.LogEndOffset && rep.HighWatermark == prep.HighWatermark {
				fr.open(ticks, keepAll)
			} else {
				fr.open(ticks, 0)
				s.drawTicks(lane.Broker, p.Partition, rep, row, add)
			}
			from := 0
			if prep != nil {
				from = commonPrefix(rep.Log, prep.Log)
				// The cells the high watermark passed or left change
				// their look (kf-uc): drawn again from the lower mark.
				if hw := int(min(rep.HighWatermark, prep.HighWatermark)); rep.HighWatermark != prep.HighWatermark && hw < from {
					from = max(hw, 0)
				}
			}
			fr.open(cells, from)
			s.drawCells(lane.Broker, p, rep, row, from, add)
			if p.Leader == lane.Broker && br.Online {
				if prep != nil && pp.Leader == p.Leader && pbr.Online && sameShareStrips(b, pb, p, pp) {
					fr.open(share, keepAll)
				} else {
					fr.open(share, 0)
					s.drawShareOnLeader(b, p, row, add) // share.go
				}
			}
		}
	}
}

// sameShareStrips reports whether the share groups' strips on the leader
// row of partition p at beat b (drawShareOnLeader) are drawn as those of
// pp at beat pb: the leader's log and every share group's state of the
// partition are the same.
func sameShareStrips(b, pb *sim.Beat, p, pp *sim.Partition) bool {
	if !sameLog(leaderLog(p), leaderLog(pp)) {
		return false
	}
	i, j := 0, 0
	for {
		for i < len(b.Groups) && b.Groups[i].Type != "share" {
			i++
		}
		for j < len(pb.Groups) && pb.Groups[j].Type != "share" {
			j++
		}
		if i == len(b.Groups) || j == len(pb.Groups) {
			return i == len(b.Groups) && j == len(pb.Groups)
		}
		g, pg := &b.Groups[i], &pb.Groups[j]
		if g.Group != pg.Group || !samePartitionIn(g, pg, p.Partition) {
			return false
		}
		i, j = i+1, j+1
	}
}

// leaderLog is the log of p's leader, as drawShareOnLeader reads it.
func leaderLog(p *sim.Partition) []sim.Entry {
	var log []sim.Entry
	for i := range p.Replicas {
		if p.Replicas[i].Broker == p.Leader {
			log = p.Replicas[i].Log
		}
	}
	return log
}

// sameLog reports whether two logs hold the same entries.
func sameLog(a, b []sim.Entry) bool { return len(a) == len(b) && commonPrefix(a, b) == len(a) }

// samePartitionIn reports whether groups g and pg hold the same states of
// partition, in the same order.
func samePartitionIn(g, pg *sim.Group, partition int) bool {
	i, j := 0, 0
	for {
		for i < len(g.Partitions) && g.Partitions[i].Partition != partition {
			i++
		}
		for j < len(pg.Partitions) && pg.Partitions[j].Partition != partition {
			j++
		}
		if i == len(g.Partitions) || j == len(pg.Partitions) {
			return i == len(g.Partitions) && j == len(pg.Partitions)
		}
		if !sameGroupPartition(&g.Partitions[i], &pg.Partitions[j]) {
			return false
		}
		i, j = i+1, j+1
	}
}

// sameGroupPartition reports whether a and b are the same state.
func sameGroupPartition(a, b *sim.GroupPartition) bool {
	return a.Partition == b.Partition && a.Share == b.Share && a.Owner == b.Owner && a.Position == b.Position &&
		a.Committed == b.Committed && a.StartOffset == b.StartOffset && slices.Equal(a.Reprocessed, b.Reprocessed) &&
		slices.Equal(a.Records, b.Records) && slices.Equal(a.Finished, b.Finished)
}

// sameRole reports whether a replica's role badge and note (drawRole)
// are drawn the same from partition p and replica rep as from pp and
// prep: the fields of the two that drawRole reads are equal (its
// broker's being online is the caller's to compare).
func sameRole(p, pp *sim.Partition, rep, prep *sim.Replica) bool {
	return p.Leader == pp.Leader && p.LeaderEpoch == pp.LeaderEpoch && p.MinInsyncReplicas == pp.MinInsyncReplicas &&
		p.UnderMinIsr == pp.UnderMinIsr && slices.Equal(p.ISR, pp.ISR) && slices.Equal(p.Adding, pp.Adding) &&
		slices.Equal(p.Removing, pp.Removing) && rep.Online == prep.Online && rep.LagTime == prep.LagTime
}

// commonPrefix is how many leading entries logs a and b have in common.
// Beats share a log's entries (sim.Replica.Log), so most often one is a
// prefix of the other in the same array.
func commonPrefix(a, b []sim.Entry) int {
	n := min(len(a), len(b))
	if n > 0 && &a[0] == &b[0] {
		return n
	}
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// drawLaneHeader draws a broker's lane: its background, name and status.
func (s *scene) drawLaneHeader(lane Lane, br sim.Broker, add func(mark)) {
	lt := s.laneText(lane.Broker)
	cls, status := "kf-lane", "online"
	switch {
	case !br.Online:
		cls, status = "kf-lane kf-offline", "offline"
	case br.Isolated && br.Fenced:
		cls, status = "kf-lane kf-isolated", "cut off, fenced"
	case br.Isolated:
		cls, status = "kf-lane kf-isolated", "cut off"
	case br.Paused:
		cls, status = "kf-lane kf-paused", "fetchers paused"
	}
	add(mark{id: lt.id, layer: layerBand, shape: shLane, cls: cls,
		x: lane.Box.X, y: lane.Box.Y, w: lane.Box.W, h: lane.Box.H,
		text: [3]string{lt.name, status}, title: lt.title})
}

// laneText is what a broker's lane always says: its id, its name and its
// title.
type laneText struct{ id, name, title string }

// laneText returns the strings of broker's lane, remembered when s reuses
// marks.
func (s *scene) laneText(broker int) laneText {
	if s.reuse != nil {
		if lt, ok := s.reuse.lanes[broker]; ok {
			return lt
		}
	}
	bid := itoa(broker)
	// Titles say what a mark is; its texts and classes say its state,
	// so a title changes only when the mark's identity does.
	lt := laneText{id: "lane-" + bid, name: "broker " + bid,
		title: "broker " + bid + " and its replicas (red: offline; dashed: follower fetchers paused)"}
	if s.reuse != nil {
		s.reuse.lanes[broker] = lt
	}
	return lt
}

// What a role badge's title adds while a reassignment moves the replica.
const (
	reassignAdding   = "; a reassignment adds it: it copies the log, then the old replicas go"
	reassignRemoving = "; a reassignment removes it once every new replica is in the ISR"
)

// drawReplica draws broker's replica rep of partition p in its row
// but for its log (drawCells): the partition's label, the replica's role
// and ISR badge and the note under them (drawRole), and its ticks
// (drawTicks).
func (s *scene) drawReplica(broker int, p *sim.Partition, rep *sim.Replica, br sim.Broker, row Row, add func(mark)) {
	s.drawPartitionLabel(broker, p.Partition, row, add)
	s.drawRole(broker, p, rep, br, row, add)
	s.drawTicks(broker, p.Partition, rep, row, add)
}

// drawPartitionLabel draws the label of broker's row of partition, the
// same at every beat.
func (s *scene) drawPartitionLabel(broker, partition int, row Row, add func(mark)) {
	rt := s.replicaText(broker, partition)
	add(mark{id: rt.pl, layer: layerLabel, shape: shBox, cls: "kf-plabel",
		x: row.Box.X, y: row.CellsY, w: plabelW, h: cellH, text: [3]string{rt.label},
		title: rt.plTitle})
}

// drawRole draws the role and ISR badge of broker's replica rep of
// partition p (br is the broker), and the note under it (drawNote).
func (s *scene) drawRole(broker int, p *sim.Partition, rep *sim.Replica, br sim.Broker, row Row, add func(mark)) {
	rt := s.replicaText(broker, p.Partition)
	x0 := row.Box.X
	inISR := false
	for _, r := range p.ISR {
		if r == broker {
			inISR = true
		}
	}
	// The classes are written out for the four states every replica is
	// in at most beats; the rarer ones add to them.
	role, isr, rcls := "follower", "in ISR", "kf-role kf-follower kf-in"
	switch {
	case p.Leader == broker && inISR:
		role, rcls = s.numbered("leader e", int64(p.LeaderEpoch)), "kf-role kf-leader kf-in"
	case p.Leader == broker:
		role, isr, rcls = s.numbered("leader e", int64(p.LeaderEpoch)), "not in ISR", "kf-role kf-leader kf-out"
	case !inISR:
		isr, rcls = "not in ISR", "kf-role kf-follower kf-out"
	}
	// A reassignment under way (PartitionReassignmentReplicas, KIP-455):
	// a follower it adds or removes says so in place of "follower"; a
	// leader it removes, in place of "in ISR" (a leader always is).
	title := rt.prTitle
	if slices.Contains(p.Adding, broker) || slices.Contains(p.Removing, broker) {
		move, why := "adding", reassignAdding
		if slices.Contains(p.Removing, broker) {
			move, why = "removing", reassignRemoving
		}
		rcls += " kf-" + move
		title += why
		if p.Leader == broker {
			isr = move
		} else {
			role = move
		}
	}
	if !rep.Online || !br.Online {
		isr = "offline"
		rcls += " kf-down"
	}
	add(mark{id: rt.pr, layer: layerLabel, shape: shStack, cls: rcls,
		x: x0 + plabelW + 4, y: row.CellsY, w: roleW, h: cellH, text: [3]string{role, isr}, title: title})
	s.drawNote(p, rep, broker, br, row, rt, add)
}

// drawTicks draws the high-watermark and log-end-offset ticks of broker's
// replica rep of partition.
func (s *scene) drawTicks(broker, partition int, rep *sim.Replica, row Row, add func(mark)) {
	rt := s.replicaText(broker, partition)
	cw := s.l.CellW
	add(mark{id: rt.hw, layer: layerTick, shape: shTickUp, cls: "kf-hw",
		x: row.CellsX + int(rep.HighWatermark)*cw - 1, y: row.CellsY - 3, h: tickUpH, o: rep.HighWatermark, od: true,
		text:  [3]string{s.numbered("HW ", rep.HighWatermark)},
		title: rt.hwTitle})
	leoX, leoText := row.CellsX+int(rep.LogEndOffset)*cw-1, s.numbered("LEO ", rep.LogEndOffset)
	add(mark{id: rt.leo, layer: layerTick, shape: shTickDown, cls: "kf-leo" + leoAnchor(row, leoX, leoText),
		x: leoX, y: row.CellsY - 1, h: tickDownH, o: rep.LogEndOffset, od: true,
		text:  [3]string{leoText},
		title: rt.leoTitle})
}

// drawCells draws the cells of rep's log from offset from on: an offset
// cell per record, coloured by its key, and pale with its letter in ink
// (kf-uc) at or above rep's high watermark: in the log, not yet readable.
// A cover over the cells between the two ticks (the veil it replaces)
// paled the letters with the fills, to 1.7:1 against their cells.
func (s *scene) drawCells(broker int, p *sim.Partition, rep *sim.Replica, row Row, from int, add func(mark)) {
	rt := s.replicaText(broker, p.Partition)
	cw := s.l.CellW
	showLabel := cw >= 14
	for o := from; o < len(rep.Log); o++ {
		e := rep.Log[o]
		lbl := ""
		if showLabel {
			lbl = s.keyLabel(e.Record)
		}
		cls := "kf-cell " + s.keyClass(e.Record)
		if int64(o) >= rep.HighWatermark {
			cls += " kf-uc"
		}
		add(mark{id: rt.cell + itoa(o), layer: layerCell, shape: shCell, cls: cls,
			x: row.CellsX + o*cw, y: row.CellsY, w: cw - 2, h: cellH, text: [3]string{lbl},
			title: rt.where + " offset " + itoa(o) + ": record " + itoa(e.Record) + ", key " + s.keyName(e.Record) + ", epoch " + itoa(e.Epoch)})
	}
}

// The ticks of a row: one whose label stands above the cells (the high
// watermark, a committed offset, a share-partition start offset) runs
// from 3 units above the cells, where its label's baseline is 3 units
// higher still, to a unit below them; one whose label stands below (the
// log end offset, a position) from a unit above the cells to 3 units
// below, its label's baseline 11 units lower. A 12-unit text reaches 11.5
// units above its baseline and 3.1 below, so neither kind of tick meets
// the other kind's label at the same offset.
const (
	tickUpH   = cellH + 4
	tickDownH = cellH + 4
	noteBase  = tickDownH + 11 - 1 - cellH // below Row.Note's top: the log end offset label's baseline
)

// drawNote writes the numbers a reader reasons with under a replica's
// badges (Row.Note), read from the trace: on the leader's row the ISR size
// against the effective min.insync.replicas, "<" and the kf-under class
// while the partition is under it (sim.Partition.UnderMinIsr); on an ISR
// follower's row, while the leader sees it behind, its lag clock against
// replica.lag.time.max (sim.Replica.LagTime; "∞" for sim.LagNever), kf-lag-over once it has
// passed the limit and the leader's next ISR check will drop it.
//
// The note's baseline is the log end offset label's, so its text clears
// the role badge above it as that label clears the cells.
func (s *scene) drawNote(p *sim.Partition, rep *sim.Replica, broker int, br sim.Broker, row Row, rt *replicaText, add func(mark)) {
	nb := row.Note()
	if p.Leader == broker && br.Online {
		rel, cls := " / ", "kf-note kf-isrn"
		if p.UnderMinIsr {
			rel, cls = " < ", cls+" kf-under"
		}
		add(mark{id: rt.isr, layer: layerLabel, shape: shLabel, cls: cls, x: nb.X, y: nb.Y + noteBase,
			text:  [3]string{"ISR " + itoa(len(p.ISR)) + rel + "min " + itoa(p.MinInsyncReplicas)},
			title: rt.isrTitle})
	}
	if rep.LagTime != 0 {
		cls, lag := "kf-note kf-lag", itoa(rep.LagTime)
		if rep.LagTime == sim.LagNever {
			lag = "∞"
		}
		if rep.LagTime == sim.LagNever || rep.LagTime > s.t.ReplicaLagTimeMax {
			cls += " kf-lag-over"
		}
		add(mark{id: rt.lag, layer: layerLabel, shape: shLabel, cls: cls, x: nb.X, y: nb.Y + noteBase,
			text:  [3]string{"lag " + lag + "/" + itoa(s.t.ReplicaLagTimeMax)},
			title: rt.lagTitle})
	}
}

// drawGroup draws one group lane; its kind decides what the rows show.
func (s *scene) drawGroup(b *sim.Beat, gi int, add func(mark)) {
	gl := s.l.Groups[gi]
	var g *sim.Group
	for i := range b.Groups {
		if b.Groups[i].Group == gl.Group {
			g = &b.Groups[i]
		}
	}
	if g == nil {
		return
	}
	gid := "g" + itoa(gi)
	kind := "consumer group"
	if g.Type == "share" {
		kind = "share group"
	}
	add(mark{id: gid, layer: layerBand, shape: shBand, cls: "kf-group kf-" + safeID(g.Type),
		x: gl.Box.X, y: gl.Box.Y, w: gl.Box.W, h: gl.Box.H,
		text:  [3]string{gl.Group, kind + ", epoch " + itoa(g.GroupEpoch)},
		title: kind + " " + gl.Group + " (the coordinator bumps its group epoch on every membership change)"})
	if g.Type == "consumer" {
		s.drawComKey(gl, gid, add) // consumer.go
	}
	members := map[string]*sim.Member{}
	for i := range g.Members {
		members[g.Members[i].Member] = &g.Members[i]
	}
	for mi, mr := range gl.Members {
		m := members[mr.Member]
		if g.Type == "consumer" {
			s.drawConsumerMember(b.Beat, g, m, mr, gid+"-m"+itoa(mi), add) // consumer.go
			continue
		}
		if m == nil {
			continue
		}
		s.drawShareMember(g, m, mr, gid+"-m"+itoa(mi), add) // share.go
	}
	parts := map[int]*sim.GroupPartition{}
	for i := range g.Partitions {
		parts[g.Partitions[i].Partition] = &g.Partitions[i]
	}
	for _, row := range gl.Parts {
		gp := parts[row.Partition]
		if gp == nil {
			continue
		}
		if g.Type == "share" {
			s.drawSharePartition(b, gl.Group, shareIndex(b, g.Group), gp, row, gid, add)
		} else {
			s.drawConsumerPartition(b, gl.Group, gp, row, gid, add)
		}
	}
}

func (s *scene) drawConsumerPartition(b *sim.Beat, group string, gp *sim.GroupPartition, row Row, gid string, add func(mark)) {
	pid := itoa(gp.Partition)
	id := gid + "-p" + pid
	// The owner's name alone (cut to its tail where it does not fit,
	// names.go) in the label column; the title says it is the owner.
	owner, title := "no owner", "no owner"
	if gp.Owner != "" {
		owner, title = fitName(gp.Owner, s.members[group], ownerNameRoom, false), "owner "+gp.Owner
	}
	add(mark{id: "gl-" + id, layer: layerLabel, shape: shStack, cls: "kf-gpart",
		x: row.Box.X, y: row.CellsY, w: rowLabelW - 4, h: cellH, text: [3]string{"p" + pid, owner},
		title: "partition " + pid + " as group " + group + " sees it: " + title})
	cw := s.l.CellW
	add(mark{id: "ax-" + id, layer: layerBand, shape: shCell, cls: "kf-axis",
		x: row.CellsX, y: row.CellsY, w: s.l.LogW, h: cellH,
		title: "offsets of p" + pid + ", aligned with the broker lanes' logs above"})
	// A reprocessed offset says "2×" where its cell holds that, a bare
	// "2" in narrower cells (its title says it in words).
	again := "2×"
	if textW(again, false)+2 > cw-2 {
		again = "2"
	}
	for _, o := range gp.Reprocessed {
		add(mark{id: "rp-" + id + "-" + itoa64(o), layer: layerCell, shape: shBox, cls: "kf-again" + s.keysClass(recordAt(b, gp.Partition, o)),
			x: row.CellsX + int(o)*cw, y: row.CellsY, w: cw - 2, h: cellH, text: [3]string{again},
			title: "offset " + itoa64(o) + " of p" + pid + " was processed more than once by group " + group})
	}
	if gp.Committed >= 0 {
		add(mark{id: "cm-" + id, layer: layerTick, shape: shTickUp, cls: "kf-committed",
			x: row.CellsX + int(gp.Committed)*cw - 1, y: row.CellsY - 3, h: tickUpH, o: gp.Committed, od: true,
			text:  [3]string{"committed " + itoa64(gp.Committed)},
			title: "committed offset of group " + group + " on p" + pid + " — where a new owner starts"})
	}
	if gp.Position >= 0 {
		add(mark{id: "po-" + id, layer: layerTick, shape: shTickDown, cls: "kf-position",
			x: row.CellsX + int(gp.Position)*cw - 1, y: row.CellsY - 1, h: tickDownH, o: gp.Position, od: true,
			text:  [3]string{"position " + itoa64(gp.Position)},
			title: "position of the owner of p" + pid + " in group " + group + " — the next offset it fetches"})
	}
}

// drawSharePartition draws a share group's row for one partition in the
// group's lane; si is the group's index among the share groups, whose
// colour (kf-sgN) its start-offset tick shares with its window on the
// leader row.
func (s *scene) drawSharePartition(b *sim.Beat, group string, si int, gp *sim.GroupPartition, row Row, gid string, add func(mark)) {
	pid := itoa(gp.Partition)
	id := gid + "-p" + pid
	add(mark{id: "gl-" + id, layer: layerLabel, shape: shStack, cls: "kf-gpart",
		x: row.Box.X, y: row.CellsY, w: rowLabelW - 4, h: cellH, text: [3]string{"p" + pid, "share"},
		title: "partition " + pid + " as share group " + group + " sees it"})
	cw := s.l.CellW
	add(mark{id: "ax-" + id, layer: layerBand, shape: shCell, cls: "kf-axis",
		x: row.CellsX, y: row.CellsY, w: s.l.LogW, h: cellH,
		title: "offsets of p" + pid + ", aligned with the broker lanes' logs above"})
	for _, r := range gp.Records {
		st := safeID(r.State)
		holder := ""
		switch r.State {
		case "acquired":
			holder = ", held by " + r.Member
		case "acknowledged":
			if r.Finisher != "" {
				holder = ", acknowledged by " + r.Finisher
			}
		}
		add(mark{id: "sr-" + id + "-" + itoa64(r.Offset), layer: layerCell, shape: shBox, cls: "kf-share kf-" + st + " " + s.memberColour(group, r.Member+r.Finisher) + s.keysClass(recordAt(b, gp.Partition, r.Offset)),
			x: row.CellsX + int(r.Offset)*cw, y: row.CellsY, w: cw - 2, h: cellH,
			text:  [3]string{itoa(r.DeliveryCount)},
			title: "offset " + itoa64(r.Offset) + " of p" + pid + " in share group " + group + ": " + r.State + holder + ", delivery count " + itoa(r.DeliveryCount)})
	}
	sg := ""
	if si == 0 || si == 1 { // the leader rows show the first two share groups
		sg = " kf-sg" + itoa(si)
	}
	add(mark{id: "so-" + id, layer: layerTick, shape: shTickUp, cls: "kf-spso" + sg,
		x: row.CellsX + int(gp.StartOffset)*cw - 1, y: row.CellsY - 3, h: tickUpH, o: gp.StartOffset, od: true,
		text:  [3]string{"start " + itoa64(gp.StartOffset)},
		title: "share-partition start offset of group " + group + " on p" + pid + " — every record before it is finished"})
}

// safeID reduces s to the DOM-id alphabet [a-z0-9-]: letters are
// lower-cased, anything else becomes "-", runs of "-" collapse and none
// leads or trails. An empty result becomes "x". A string already so
// reduced (a stage, an outcome, a state: every beat draws a few) is
// returned as it is.
func safeID(s string) string {
	if isReduced(s) {
		return s
	}
	return reduceID(s)
}

// reduceID is safeID's reduction, done rune by rune, for any s.
func reduceID(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		ok := (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')
		if ok {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

// isReduced reports whether safeID(s) is s: s is one or more runs of
// [a-z0-9] joined by single dashes. Only ASCII is: strings.ToLower maps
// some other runes (the Kelvin sign) to ASCII letters.
func isReduced(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

func itoa64(v int64) string { return itoa(int(v)) }
