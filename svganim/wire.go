package svganim

import (
	"github.com/kafkaflow/kflowgen/sim"
)

// This file draws the messages on the wire (sim.Beat.Messages): each
// message is a token, a small labelled box, on a vertical arrow from the
// row that sends it to the row that handles it. A message is drawn in the
// beat it is sent, the beat the trace lists it in; it is handled in step 3
// of the next beat, so the picture of beat t shows what is crossing into
// beat t+1. The token rests on the arrow's middle (pushed along it when
// another token of its column is there); when motion is allowed it slides
// a little way in the arrow's direction as it appears (figure.css,
// kf-fly). An arrow is one mark per pair of ends and a token one per pair
// and place in that beat's order, so a figure carries few message marks.
//
// Arrows run in the message gutter, right of the logs, one column per
// channel: the producer's requests and responses, each follower's fetches,
// each group's fetches, acknowledgements and commits. A column is as wide
// as the longest token it ever carries, so two channels never overlap;
// tokens of one column that would meet at a beat are stacked below one
// another. Followers share one column (a gutter per follower would widen
// the picture and shrink its type), so their tokens name the follower. What a token says:
//
//	produce            r5 (the record; ×2 for a retry)
//	produce-response   ✓ r5 at 3 (the offset), or ✗ and the error code,
//	                   drawn dashed
//	fetch              b2 fetch 3 (the follower, its fetch offset)
//	fetch-response     b2 +2 · HW 3 (records carried, the high watermark
//	                   it carries), or b2 diverged e2 (KIP-279)
//	consumer-fetch     readers-1 at 3 (the member, the offset it fetches
//	                   from); its response readers-1 +2 (the member, the
//	                   records carried), or ✗ and the code
//	offset-commit      commit 3 (no arrow: the coordinator sits on no broker)
//	share-fetch        fetch, with its acknowledgements (· 2 acks)
//	share-acknowledge  2 acks; a share-fetch response +2 (records acquired)
//
// A message lost at an offline or cut-off broker (Dropped) is drawn as on
// its way on the beat it was sent, and on the next beat, when it arrives and
// is dropped, with a dashed, crossed-out arrow and "lost" in its token. Alter-partition requests go to
// the controller, which the figure does not draw; their effect shows on the
// ISR badges.

// Wire geometry, in user units.
const (
	tokenH    = 18 // a token's height
	arrowStop = 4  // an arrow ends this far from the rows it joins
	tokenGap  = 2  // between two tokens stacked in one column
	wireGap   = 8  // between two columns, and between the logs and the first
)

// tokenW is the width of a token holding text in 12-unit regular type
// (figure.css; a refusal is told by its red dashed pill and its ✗, not by
// weight, so that the longest error code, NOT_LEADER_OR_FOLLOWER, leaves a
// side-by-side pair its room at 1280 px): the text's width by the
// layout's one measure (textW) and 4 units either side.
func tokenW(text string) int { return 8 + textW(text, false) }

// wireText returns what message m's token says, without its arrow glyph,
// and whether the message is a refusal (an error code). members is every
// member each group ever has (memberNames): a consumer's fetch and its
// answer name the member with its row's label's very text, cut to its
// tail where the whole name does not fit the label column (fitName).
func wireText(m *sim.Message, members map[string][]string) (text string, refused bool) {
	if m.ErrorCode != "" {
		return "✗ " + m.ErrorCode, true
	}
	switch m.Kind {
	case sim.MsgProduce:
		text = "r" + itoa(m.Record)
		if m.Attempt > 1 {
			text += " ×" + itoa(m.Attempt)
		}
	case sim.MsgProduceResponse:
		text = "✓ r" + itoa(m.Record) + " at " + itoa64(m.Offset)
	case sim.MsgFetch:
		text = "b" + itoa(m.Follower) + " fetch " + itoa64(m.FetchOffset)
	case sim.MsgConsumerFetch:
		// The member, and the offset it fetches from after "at" as a
		// produce response's offset is: a bare "fetch 0" beside a broker's
		// lane read as that broker's. No longer, so as not to widen the
		// wire column (the member rows' chips share the width).
		text = fitName(m.Member, members[m.Group], memberNameRoom, true) + " at " + itoa64(m.FetchOffset)
	case sim.MsgFetchResponse, sim.MsgConsumerFetchResponse:
		if m.Diverging {
			text = "diverged e" + itoa(m.DivergingEpoch)
		} else {
			text = "+" + itoa(len(m.Records)) + " · HW " + itoa64(m.HighWatermark)
		}
		// Whose answer it is: several members' answers cross the one
		// column in a beat, and "+0 · HW 2" told none apart. The member,
		// then the records it carries; not the high watermark, which the
		// leader's row shows at that beat: "readers-1 +2 · HW 3" widened
		// the gutter by 30 units, which took the numbers off the member
		// rows' chips on six guide pages and widened their pictures.
		switch {
		case m.Kind == sim.MsgFetchResponse:
			text = "b" + itoa(m.Follower) + " " + text
		case m.Diverging:
			text = fitName(m.Member, members[m.Group], memberNameRoom, true) + " " + text
		default:
			text = fitName(m.Member, members[m.Group], memberNameRoom, true) + " +" + itoa(len(m.Records))
		}
	case sim.MsgOffsetCommit:
		text = "commit " + itoa64(m.Offset)
	case sim.MsgShareFetch:
		text = "fetch"
		if n := len(m.Acknowledgements); n > 0 {
			text += " · " + plural(n, "ack", "acks")
		}
	case sim.MsgShareAcknowledge:
		text = plural(len(m.Acknowledgements), "ack", "acks")
	case sim.MsgShareFetchResponse:
		text = "+" + itoa(len(m.Acquired))
	}
	if m.Dropped {
		text += " lost"
	}
	return text, false
}

// wireChannel names the gutter column that carries m: "p" the producer,
// "r" the followers' fetches (their tokens name the follower), "gI" the
// group with index I in groups; "" for a message the figure does not draw.
func wireChannel(m *sim.Message, groups map[string]int) string {
	switch m.Kind {
	case sim.MsgProduce, sim.MsgProduceResponse, sim.MsgFetch, sim.MsgFetchResponse:
		return "w"
	case sim.MsgConsumerFetch, sim.MsgConsumerFetchResponse, sim.MsgOffsetCommit,
		sim.MsgShareFetch, sim.MsgShareAcknowledge, sim.MsgShareFetchResponse:
		if _, ok := groups[m.Group]; ok {
			return "w"
		}
	}
	return ""
}

// wireTopology lists the gutter's columns for a trace: the channels that
// carry a message at some beat, producer first, then the followers'
// fetches, then groups in order, each with its widest token in user units.
func wireTopology(t *sim.Trace, groups []GroupShape) []WireShape {
	gi := map[string]int{}
	members := map[string][]string{}
	for i, g := range groups {
		gi[g.Group] = i
		members[g.Group] = g.Members
	}
	longest := map[string]int{}
	for bi := range t.Beats {
		for i := range t.Beats[bi].Messages {
			m := &t.Beats[bi].Messages[i]
			ch := wireChannel(m, gi)
			if ch == "" {
				continue
			}
			txt, refused := wireText(m, members)
			if !refused {
				txt = "↓ " + txt
			}
			if n, ok := longest[ch]; !ok || tokenW(txt) > n {
				longest[ch] = tokenW(txt)
			}
		}
	}
	var out []WireShape
	add := func(ch string) {
		if n, ok := longest[ch]; ok {
			out = append(out, WireShape{Channel: ch, Width: n})
		}
	}
	add("w")
	return out
}

// wireEnds are the y coordinates the scene's messages start and end at:
// the producer rail's bottom edge, each replica row's middle, each group
// member row's middle.
type wireEnds struct {
	rail int
	// bands are the top and bottom y of every broker lane and group
	// lane, which a token must stay clear of unless one of its ends lies
	// in it (clearOf).
	bands   [][2]int
	rows    map[[2]int]int // broker, partition → y
	members map[string]int // memberKey → y
	groups  map[string]int // group → index
	cols    map[string]WireCol
}

func newWireEnds(l Layout) *wireEnds {
	w := &wireEnds{rail: l.Rail.Bottom(), rows: map[[2]int]int{}, members: map[string]int{}, groups: map[string]int{}, cols: map[string]WireCol{}}
	for _, lane := range l.Lanes {
		w.bands = append(w.bands, [2]int{lane.Box.Y, lane.Box.Bottom()})
		for _, r := range lane.Rows {
			w.rows[[2]int{lane.Broker, r.Partition}] = r.CellsY + cellH/2
		}
	}
	for i, g := range l.Groups {
		w.bands = append(w.bands, [2]int{g.Box.Y, g.Box.Bottom()})
		w.groups[g.Group] = i
		for _, m := range g.Members {
			w.members[memberKey(g.Group, m.Member)] = m.Box.Y + m.Box.H/2
		}
	}
	for _, c := range l.Wires {
		w.cols[c.Channel] = c
	}
	return w
}

// ends returns the y where m leaves and arrives, with names for the two
// ends used in mark ids, and whether both ends are drawn.
func (w *wireEnds) ends(m *sim.Message) (y0, y1 int, n0, n1 string, ok bool) {
	row := func(b int) (int, string, bool) {
		y, ok := w.rows[[2]int{b, m.Partition}]
		return y, "b" + itoa(b) + "p" + itoa(m.Partition), ok
	}
	member := func() (int, string, bool) {
		y, ok := w.members[memberKey(m.Group, m.Member)]
		return y, "m" + safeID(m.Member), ok
	}
	var ok0, ok1 bool
	switch m.Kind {
	case sim.MsgProduce:
		y0, n0, ok0 = w.rail, "pr", true
		y1, n1, ok1 = row(m.Broker)
	case sim.MsgProduceResponse:
		y0, n0, ok0 = row(m.Broker)
		y1, n1, ok1 = w.rail, "pr", true
	case sim.MsgFetch:
		y0, n0, ok0 = row(m.Follower)
		y1, n1, ok1 = row(m.Broker)
	case sim.MsgFetchResponse:
		y0, n0, ok0 = row(m.Broker)
		y1, n1, ok1 = row(m.Follower)
	case sim.MsgConsumerFetch, sim.MsgShareFetch, sim.MsgShareAcknowledge:
		y0, n0, ok0 = member()
		y1, n1, ok1 = row(m.Broker)
	case sim.MsgConsumerFetchResponse, sim.MsgShareFetchResponse:
		y0, n0, ok0 = row(m.Broker)
		y1, n1, ok1 = member()
	case sim.MsgOffsetCommit:
		y0, n0, ok0 = member()
		y1, n1, ok1 = y0, "co", ok0
	}
	return y0, y1, n0, n1, ok0 && ok1
}

// wireWords names each kind of message in its token's title.
var wireWords = map[sim.MessageKind]string{
	sim.MsgProduce:               "produce request",
	sim.MsgProduceResponse:       "produce response",
	sim.MsgFetch:                 "fetch request",
	sim.MsgFetchResponse:         "fetch response",
	sim.MsgConsumerFetch:         "fetch request",
	sim.MsgConsumerFetchResponse: "fetch response",
	sim.MsgOffsetCommit:          "offset commit",
	sim.MsgShareFetch:            "share fetch request",
	sim.MsgShareAcknowledge:      "share acknowledgement",
	sim.MsgShareFetchResponse:    "share fetch response",
}

// wireTitle is a message token's title: the kind and its two ends, which
// its mark id also names, so the title stays put while the token's text
// changes. It is short: a figure carries every token's title.
func (s *scene) wireTitle(m *sim.Message) string {
	where := "p" + itoa(m.Partition) + " on broker " + itoa(m.Broker)
	t := wireWords[m.Kind]
	switch m.Kind {
	case sim.MsgProduce, sim.MsgProduceResponse:
		t += ", producer and " + where
	case sim.MsgFetch, sim.MsgFetchResponse:
		t += ", follower broker " + itoa(m.Follower) + " and leader " + where
	case sim.MsgOffsetCommit:
		t += " of " + m.Member + " for p" + itoa(m.Partition)
	default:
		t += ", " + m.Member + " and " + where
	}
	return t
}

// lostTitle is the title of a message dropped during beat b: wireTitle and
// why — the broker it was going to is offline at b, or a network partition
// (isolate) cut it off.
func (s *scene) lostTitle(b *sim.Beat, m *sim.Message) string {
	to := m.Broker
	if m.Kind == sim.MsgFetchResponse {
		to = m.Follower
	}
	for _, br := range b.Brokers {
		if br.Broker == to && !br.Online {
			return s.wireTitle(m) + ": lost, broker " + itoa(to) + " is offline"
		}
	}
	return s.wireTitle(m) + ": lost, a network partition cut it off"
}

// wireKeys is the key classes of a message token, so that isolating a key
// fades the tokens of the others: a produce request or response takes its
// record's key colour (keyClass); a fetch response, a share fetch response
// and a share acknowledgement keep every key of the records they carry
// or acknowledge (keysClass); the other messages carry no record.
func (s *scene) wireKeys(b *sim.Beat, m *sim.Message) string {
	switch m.Kind {
	case sim.MsgProduce, sim.MsgProduceResponse:
		return " " + s.keyClass(m.Record)
	case sim.MsgFetchResponse, sim.MsgConsumerFetchResponse:
		return s.keysClass(m.Records...)
	case sim.MsgShareFetchResponse:
		recs := make([]int, len(m.Acquired))
		for i, a := range m.Acquired {
			recs[i] = a.Record
		}
		return s.keysClass(recs...)
	case sim.MsgShareFetch, sim.MsgShareAcknowledge:
		recs := make([]int, len(m.Acknowledgements))
		for i, a := range m.Acknowledgements {
			recs[i] = recordAt(b, m.Partition, a.Offset)
		}
		return s.keysClass(recs...)
	}
	return ""
}

// wireMessages is what the gutter shows at beat b: the messages sent during
// b, all still on their way (one the next beat drops is not lost yet), and
// the messages sent during the beat before that were dropped in b's step 3,
// when they reached an offline or cut-off broker (Dropped). So a figure
// never shows a loss before the crash or the cut that causes it.
func (s *scene) wireMessages(b *sim.Beat) []sim.Message {
	var prev []sim.Message
	if i := b.Beat - 1; i >= 0 && i < len(s.t.Beats) && s.t.Beats[i].Beat == i {
		prev = s.t.Beats[i].Messages
	}
	dropped := 0
	for i := range prev {
		if prev[i].Dropped {
			dropped++
		}
	}
	sending := false
	for i := range b.Messages {
		sending = sending || b.Messages[i].Dropped
	}
	if dropped == 0 && !sending {
		return b.Messages
	}
	out := make([]sim.Message, 0, dropped+len(b.Messages))
	for i := range prev {
		if prev[i].Dropped {
			out = append(out, prev[i])
		}
	}
	for _, m := range b.Messages {
		m.Dropped = false
		out = append(out, m)
	}
	return out
}

// drawWire draws beat bi's messages (wireMessages) as tokens in the gutter.
func (s *scene) drawWire(bi int, add func(mark)) { s.wireMarks(bi, add, true) }

// wireBeat is what the tokens of one beat are drawn from: the beat's
// messages (wireMessages) and, for each, where its token goes and what it
// says. tokenWidths finds them for every beat (it needs their ids and
// texts) and keeps them in scene.wires, so that drawing a beat does not
// build its tokens' ids and texts a second time.
type wireBeat struct {
	msgs []sim.Message
	toks []wireToken // toks[i] is msgs[i]'s
}

// wireToken is a message's token as wireMarks places it: ok says the
// message has a column and both ends; y0 and y1 are its ends' rows, pair
// names them, k counts the messages drawn between them before this one
// at this beat, id is the token mark's id, text its text (arrow
// included), refused says it is a refusal and tw is its text's width.
type wireToken struct {
	ok             bool
	y0, y1, k, tw  int
	pair, id, text string
	refused        bool
}

// wireBeatAt returns beat bi's wireBeat: the one tokenWidths kept, or
// found now.
func (s *scene) wireBeatAt(bi int) *wireBeat {
	if bi < len(s.wires) && s.wires[bi] != nil {
		return s.wires[bi]
	}
	b := &s.t.Beats[bi]
	wb := &wireBeat{msgs: s.wireMessages(b)}
	if len(wb.msgs) == 0 || len(s.l.Wires) == 0 {
		return wb
	}
	w := s.wire
	wb.toks = make([]wireToken, len(wb.msgs))
	pairs := map[string]int{} // messages drawn so far this beat, by their two ends
	for i := range wb.msgs {
		m, t := &wb.msgs[i], &wb.toks[i]
		if _, ok := w.cols[wireChannel(m, w.groups)]; !ok {
			continue
		}
		y0, y1, n0, n1, ok := w.ends(m)
		if !ok {
			continue
		}
		t.ok, t.y0, t.y1 = true, y0, y1
		t.pair = n0 + "-" + n1
		t.k = pairs[t.pair]
		pairs[t.pair]++
		t.id = "wt-" + t.pair + "-" + itoa(t.k)
		txt, refused := wireText(m, s.members)
		// A refusal's token leads with its ✗, not the arrow's direction
		// (the arrow beside it shows that), so that the longest error
		// code leaves the logs their room.
		t.text, t.refused = wireArrow(y0, y1, refused)+txt, refused
		// The pill is as wide as the widest text its mark ever holds (a
		// mark keeps its size; tokenWidths), the column as its widest pill.
		t.tw = tokenW(t.text)
	}
	return wb
}

// wireMarks is drawWire; without full, only the tokens' ids and widths are
// right (tokenWidths reads no more): no titles, classes or arrows are
// made.
func (s *scene) wireMarks(bi int, add func(mark), full bool) {
	wb := s.wireBeatAt(bi)
	if len(wb.toks) == 0 {
		return
	}
	b := &s.t.Beats[bi]
	w := s.wire
	type placed struct {
		col string
		y   int
	}
	var taken []placed
	for i := range wb.msgs {
		m, t := &wb.msgs[i], &wb.toks[i]
		if !t.ok {
			continue
		}
		ch := wireChannel(m, w.groups)
		col := w.cols[ch]
		y0, y1, pair, id, tw := t.y0, t.y1, t.pair, t.id, t.tw
		if !full {
			add(mark{id: id, shape: shWire, w: min(tw, col.W)})
			continue
		}
		title := s.wireTitle(m)
		if m.Dropped {
			title = s.lostTitle(b, m)
		}
		dir := "kf-down"
		switch {
		case y1 < y0:
			dir = "kf-up"
		case y1 == y0:
			dir = "kf-here"
		}
		// One arrow per pair of ends, fixed in place; the tokens on it
		// move (their position is tracked) as the stack changes.
		if t.k == 0 && y0 != y1 {
			cls := "kf-arrow " + dir
			if m.Dropped {
				cls += " kf-dropped"
			}
			// The arrow stops arrowStop short of both rows, so that two
			// heads meeting at one row (a produce from above, a fetch from
			// below) read as two heads, not as a cross.
			add(mark{id: "wl-" + pair, layer: layerWire, shape: shArrow, cls: cls,
				x: col.X, y: min(y0, y1) + arrowStop, w: 10, h: max(y0, y1) - min(y0, y1) - 2*arrowStop,
				title: title})
		}
		// Stack below any token of this column that the new one would
		// meet, and keep it clear of every lane that neither end lies in.
		var keep [][2]int // centre y ranges (open) the token may not take
		for _, p := range taken {
			if p.col == ch {
				keep = append(keep, [2]int{p.y - tokenH - tokenGap, p.y + tokenH + tokenGap})
			}
		}
		y := w.clearOf((y0+y1)/2, y0, y1, keep)
		taken = append(taken, placed{ch, y})
		cls := "kf-msg " + dir + " kf-w-" + string(m.Kind)
		cls += s.wireKeys(b, m)
		if t.refused {
			cls += " kf-refused"
		}
		if m.Dropped {
			cls += " kf-dropped"
		}
		if s.tokenWide != nil {
			tw = s.tokenWide[id]
		}
		add(mark{id: id, layer: layerToken, shape: shWire, cls: cls,
			x: col.X, y: y, w: min(tw, col.W), h: tokenH,
			text: [3]string{t.text}, title: title})
	}
}

// clearOf returns the centre y of a token whose arrow joins the rows at y0
// and y1, starting from y (the arrow's middle): the first y at or below it
// where the token meets none of the taken ranges (open intervals of
// centres, the column's tokens already placed) and no band (broker or
// group lane) that neither end lies in, with tokenGap to spare. Level with
// a lane it does not touch, a token reads as that broker's: acks-one-loss's
// produce of r5 to the new leader, broker 2, rested on its arrow's middle,
// beside crashed broker 1's row. When the first clear place below lies
// past the arrow's lower end, the first clear one above is taken if it
// lies on the arrow; with neither, the one below (a token never overlaps
// another).
func (w *wireEnds) clearOf(y, y0, y1 int, taken [][2]int) int {
	keep := taken
	for _, b := range w.bands {
		if (y0 < b[0] || y0 > b[1]) && (y1 < b[0] || y1 > b[1]) {
			keep = append(keep, [2]int{b[0] - tokenH/2 - tokenGap, b[1] + tokenH/2 + tokenGap})
		}
	}
	hit := func(y int) (int, bool) {
		for i, k := range keep {
			if y > k[0] && y < k[1] {
				return i, true
			}
		}
		return 0, false
	}
	down := y
	for i, ok := hit(down); ok; i, ok = hit(down) {
		down = keep[i][1]
	}
	if len(keep) == len(taken) || down+tokenH/2 <= max(y0, y1) {
		return down
	}
	up := y
	for i, ok := hit(up); ok; i, ok = hit(up) {
		up = keep[i][0]
	}
	if up-tokenH/2 >= min(y0, y1) {
		return up
	}
	return down
}

// wireArrow is what a token's text starts with: the direction of its
// message, from the row at y0 to the row at y1 ("↓ ", "↑ ", or nothing
// within one row), or nothing for a refusal, which leads with its ✗.
func wireArrow(y0, y1 int, refused bool) string {
	switch {
	case refused || y1 == y0:
		return ""
	case y1 < y0:
		return "↑ "
	}
	return "↓ "
}

// tokenWidths returns, for every token mark of the trace, the width of the
// widest text it holds at any beat (tokenW), so that each pill is sized to
// its own texts and keeps that size from beat to beat.
func (s *scene) tokenWidths() map[string]int {
	wide := map[string]int{}
	ms := s.tokenWide
	s.tokenWide = nil
	s.wires = make([]*wireBeat, len(s.t.Beats))
	for bi := range s.t.Beats {
		s.wires[bi] = s.wireBeatAt(bi)
		s.wireMarks(bi, func(m mark) {
			if m.shape == shWire {
				wide[m.id] = max(wide[m.id], m.w)
			}
		}, false)
	}
	s.tokenWide = ms
	return wide
}
