package svganim

import (
	"slices"
	"sort"
	"strconv"

	"github.com/kafkaflow/kflowgen/sim"
)

// Topology is everything about a trace that decides a figure's geometry,
// gathered over every beat so that no mark moves because something appears
// later: the brokers that ever exist, the partitions each ever hosts, the
// longest log, how crowded each producer stage ever gets, and the groups
// with every member they ever have. TopologyOf derives it from a trace;
// Layout turns it into coordinates.
type Topology struct {
	// Brokers in id order, each with the partitions it hosts at any beat.
	Brokers []BrokerShape
	// Partitions is the largest partition count at any beat.
	Partitions int
	// MaxLog is the largest log end offset, high watermark or log length
	// at any beat (at least 1), in offsets.
	MaxLog int
	// Stages lists the producer stages that ever hold a card, in rail
	// order (StageOrder), each with the most cards it holds at one beat.
	Stages []StageShape
	// Groups lists consumer and share groups in trace order.
	Groups []GroupShape
	// Wires lists the message gutter's columns (wire.go), in order.
	Wires []WireShape
	// Tally lists the producer's outcome counters (tally.go), in
	// TallyOrder; none for a trace without records.
	Tally []TallyShape
}

// TallyShape is one counter of the producer's tally: an outcome as the
// trace spells it and the most records that stand at it at one beat.
type TallyShape struct {
	Outcome string
	Max     int
}

// WireShape is one column of the message gutter: its channel ("p" the
// producer, "r" the followers' fetches, "gI" group I) and the widest token it
// carries at any beat, in user units.
type WireShape struct {
	Channel string
	Width   int
}

// BrokerShape is one broker lane: the broker id and the partitions (sorted)
// it holds a replica of at some beat.
type BrokerShape struct {
	ID         int
	Partitions []int
}

// StageShape is one zone of the producer rail: a card stage and the most
// cards in it at any one beat.
type StageShape struct {
	Stage string
	Max   int
}

// GroupShape is one group lane: its id, its type ("consumer" or "share"),
// every member it ever has (in order of first appearance) and the
// partitions (sorted) it ever sees.
type GroupShape struct {
	Group      string
	Type       string
	Members    []string
	Partitions []int
}

// StageOrder is the left-to-right order of the producer rail's zones: a
// record waits for the in-flight budget ("queued"), crosses to the leader
// ("sending"), is parked there until the high watermark passes it
// ("waiting", acks=all), crosses back ("answering"), or waits to retry
// ("backoff"); "settled" holds the cards that settle this beat, which
// leave the rail on the next one. Stages the engine adds later sort after
// these, by name.
var StageOrder = []string{"queued", "sending", "waiting", "answering", "backoff", "settled"}

func stageRank(s string) int {
	for i, x := range StageOrder {
		if x == s {
			return i
		}
	}
	return len(StageOrder)
}

// TopologyOf gathers a trace's topology over all its beats.
func TopologyOf(t *sim.Trace) Topology {
	var tp Topology
	hosts := map[int]map[int]bool{}
	stageMax := map[string]int{}
	type gacc struct {
		typ     string
		members []string
		seen    map[string]bool
		parts   map[int]bool
	}
	groups := map[string]*gacc{}
	var gorder []string
	grow := func(v int64) {
		if v > int64(tp.MaxLog) {
			tp.MaxLog = int(v)
		}
	}
	for _, b := range t.Beats {
		for _, br := range b.Brokers {
			if hosts[br.Broker] == nil {
				hosts[br.Broker] = map[int]bool{}
			}
		}
		if len(b.Partitions) > tp.Partitions {
			tp.Partitions = len(b.Partitions)
		}
		for _, p := range b.Partitions {
			if p.Partition+1 > tp.Partitions {
				tp.Partitions = p.Partition + 1
			}
			grow(p.HighWatermark)
			for _, r := range p.Replicas {
				if hosts[r.Broker] == nil {
					hosts[r.Broker] = map[int]bool{}
				}
				hosts[r.Broker][p.Partition] = true
				grow(r.LogEndOffset)
				grow(r.HighWatermark)
				grow(int64(len(r.Log)))
			}
		}
		count := map[string]int{}
		for _, c := range b.Producer.Cards {
			count[c.Stage]++
		}
		for s, n := range count {
			if n > stageMax[s] {
				stageMax[s] = n
			}
		}
		for _, g := range b.Groups {
			a := groups[g.Group]
			if a == nil {
				a = &gacc{typ: g.Type, seen: map[string]bool{}, parts: map[int]bool{}}
				groups[g.Group] = a
				gorder = append(gorder, g.Group)
			}
			for _, m := range g.Members {
				if !a.seen[m.Member] {
					a.seen[m.Member] = true
					a.members = append(a.members, m.Member)
				}
			}
			for _, gp := range g.Partitions {
				a.parts[gp.Partition] = true
				grow(gp.Position)
				grow(gp.Committed)
				grow(gp.StartOffset)
				for _, r := range gp.Records {
					grow(r.Offset + 1)
				}
			}
		}
	}
	if tp.MaxLog < 1 {
		tp.MaxLog = 1
	}
	for _, id := range sortedKeys(hosts) {
		tp.Brokers = append(tp.Brokers, BrokerShape{ID: id, Partitions: sortedKeys(hosts[id])})
	}
	for s, n := range stageMax {
		tp.Stages = append(tp.Stages, StageShape{Stage: s, Max: n})
	}
	sort.Slice(tp.Stages, func(i, j int) bool {
		ri, rj := stageRank(tp.Stages[i].Stage), stageRank(tp.Stages[j].Stage)
		if ri != rj {
			return ri < rj
		}
		return tp.Stages[i].Stage < tp.Stages[j].Stage
	})
	for _, g := range gorder {
		a := groups[g]
		tp.Groups = append(tp.Groups, GroupShape{Group: g, Type: a.typ, Members: a.members, Partitions: sortedKeys(a.parts)})
	}
	tp.Wires = wireTopology(t, tp.Groups)
	tp.Tally = tallyShapes(t)
	return tp
}

// MergeTopology is the topology of two traces drawn in one layout (the
// two panels of FigureCompare): every broker with the partitions either
// trace gives it, the larger log and partition count, every stage at the
// larger crowd, every group with the members and partitions of both (a's
// first, then b's new ones), and every gutter column at its wider token.
func MergeTopology(a, b Topology) Topology {
	out := Topology{Partitions: max(a.Partitions, b.Partitions), MaxLog: max(a.MaxLog, b.MaxLog)}
	hosts := map[int]map[int]bool{}
	for _, tp := range []Topology{a, b} {
		for _, br := range tp.Brokers {
			if hosts[br.ID] == nil {
				hosts[br.ID] = map[int]bool{}
			}
			for _, p := range br.Partitions {
				hosts[br.ID][p] = true
			}
		}
	}
	for _, id := range sortedKeys(hosts) {
		out.Brokers = append(out.Brokers, BrokerShape{ID: id, Partitions: sortedKeys(hosts[id])})
	}
	stageMax := map[string]int{}
	for _, tp := range []Topology{a, b} {
		for _, st := range tp.Stages {
			stageMax[st.Stage] = max(stageMax[st.Stage], st.Max)
		}
	}
	for s, n := range stageMax {
		out.Stages = append(out.Stages, StageShape{Stage: s, Max: n})
	}
	sort.Slice(out.Stages, func(i, j int) bool {
		ri, rj := stageRank(out.Stages[i].Stage), stageRank(out.Stages[j].Stage)
		if ri != rj {
			return ri < rj
		}
		return out.Stages[i].Stage < out.Stages[j].Stage
	})
	gi := map[string]int{}
	for _, tp := range []Topology{a, b} {
		for _, g := range tp.Groups {
			i, ok := gi[g.Group]
			if !ok {
				gi[g.Group] = len(out.Groups)
				out.Groups = append(out.Groups, GroupShape{Group: g.Group, Type: g.Type})
				i = len(out.Groups) - 1
			}
			og := &out.Groups[i]
			for _, m := range g.Members {
				if !slices.Contains(og.Members, m) {
					og.Members = append(og.Members, m)
				}
			}
			ps := map[int]bool{}
			for _, p := range append(og.Partitions, g.Partitions...) {
				ps[p] = true
			}
			og.Partitions = sortedKeys(ps)
		}
	}
	wi := map[string]int{}
	for _, tp := range []Topology{a, b} {
		for _, w := range tp.Wires {
			if i, ok := wi[w.Channel]; ok {
				out.Wires[i].Width = max(out.Wires[i].Width, w.Width)
				continue
			}
			wi[w.Channel] = len(out.Wires)
			out.Wires = append(out.Wires, w)
		}
	}
	out.Tally = mergeTally(a.Tally, b.Tally)
	return out
}

// sortedKeys returns a map's integer keys in ascending order.
func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// Box is an axis-aligned rectangle in SVG user units (integers; y grows
// downwards).
type Box struct{ X, Y, W, H int }

// Right and Bottom are the box's far edges.
func (b Box) Right() int  { return b.X + b.W }
func (b Box) Bottom() int { return b.Y + b.H }

// Overlaps reports whether two boxes share any interior point.
func (b Box) Overlaps(o Box) bool {
	return b.X < o.Right() && o.X < b.Right() && b.Y < o.Bottom() && o.Y < b.Bottom()
}

// Contains reports whether o lies inside b (edges included).
func (b Box) Contains(o Box) bool {
	return o.X >= b.X && o.Y >= b.Y && o.Right() <= b.Right() && o.Bottom() <= b.Bottom()
}

// Geometry, in user units. A figure is drawn in a viewBox W × H wide and
// scales to its container, so these are proportions rather than pixels.
// Every text is set in 12 units or more (templates/figure.css), and a
// figure is laid out to at most maxWidth units, so that its type draws at
// 10 CSS px or more where the picture is 360 px wide (a 390 px phone,
// the figure edge to edge), and at 12 px or more where it has 430 px (one
// panel of a side-by-side pair on a desktop). Narrow means stacked: a
// lane's name and status share one header line above its rows, the
// producer's zones wrap onto further lines, and an offset cell narrows
// (to minCellW) before the picture widens.
const (
	pad          = 8  // outer margin and gap between bands
	laneHeadH    = 22 // a lane's header line: its name and status
	plabelW      = 24 // a row's partition label ("p0")
	roleW        = 72 // a row's role badge ("leader e1" in bold over "in ISR")
	rowLabelW    = plabelW + 4 + roleW + 6
	rowIndent    = 4 // rows start this far inside their lane
	cardW        = 40
	cardH        = 36
	cardGap      = 6
	zoneSlots    = 4  // cards shown per zone before "+N" takes over
	moreW        = 34 // room for a zone's "+N"
	zoneLabelH   = 16
	zoneGap      = 16 // between two zones of the producer band
	markH        = 16 // room above a row for HW, below it for LEO
	cellH        = 26
	laneGap      = 8
	memberH      = 28
	memberLabelW = 88 // a group member's name, left of its chips
	groupHeadH   = 40
	rowGap       = 6 // between two partition rows
	minCellW     = 14
	maxCellW     = 26
	leoRoom      = 16 // past the last offset, half of the widest "LEO n"
	maxWidth     = 430
	minWidth     = 300
)

// Layout is a figure's geometry: where the beat counter, the producer
// rail and its zones, each broker lane and its partition rows, and each
// group lane go. Everything is an integer in user units and lies inside
// the viewBox 0 0 W H. Drawing reads a Layout; it never measures.
type Layout struct {
	W, H int
	// Counter holds the beat counter at the top right.
	Counter Box
	// Rail is the producer band; Zones its stages, left to right.
	Rail  Box
	Zones []Zone
	// CellW is the width of one offset cell in every log (cells are cellH
	// high); offset o of a row starts at Row.CellsX + o*CellW. LogW is
	// the width of the longest log, MaxLog*CellW.
	CellW, LogW int
	// LogEnd is the x where the logs' room ends: one cell past the
	// longest log and its log end offset label's half; the message gutter
	// starts at or right of it.
	LogEnd int
	// Lanes holds one lane per broker, top to bottom in id order.
	Lanes []Lane
	// Groups holds one lane per consumer or share group.
	Groups []GroupLane
	// Wires holds the message gutter's columns, left to right, right of
	// the logs; each is as wide as its longest token.
	Wires []WireCol
	// Tally holds the producer's outcome counters, left to right: on
	// the rail's header line, between its name and the beat counter,
	// where they fit there, else on a line of their own under the zones.
	Tally []TallyCell
}

// TallyCell is one counter of the producer's tally: its outcome and the
// box of its text (12-unit type, baseline tallyBase below Box.Y), as wide
// as its widest count set in bold.
type TallyCell struct {
	Outcome string
	Box     Box
}

// The tally's geometry: a counter's text box is tallyH high with its
// baseline tallyBase from the top, counters stand tallyGap apart, and a
// tally on its own line adds tallyLineH to the rail.
const (
	tallyH     = 16
	tallyBase  = 12
	tallyGap   = 12
	tallyLineH = 18
)

// WireCol is one column of the message gutter: tokens of its channel
// start at X and are W wide.
type WireCol struct {
	Channel string
	X, W    int
}

// Zone is one stage of the producer rail. Card slot i lies at
// (Box.X + i*(cardW+cardGap), Box.Y + zoneLabelH); cards beyond Slots are
// summarised by a "+N" at More.
type Zone struct {
	Stage string
	Box   Box
	Slots int
	More  Box
}

// Lane is one broker's band with a row per partition it ever hosts.
type Lane struct {
	Broker int
	Box    Box
	Rows   []Row
}

// Row is one partition's log on one lane (or one partition's offsets in a
// group lane). Offset o's cell starts at x = CellsX + o*CellW, y = CellsY;
// marks for high watermark and log end offset stand above and below it.
type Row struct {
	Partition int
	Box       Box
	CellsX    int
	CellsY    int
	// Share holds, on a broker row, the top of the strip (shareStripH
	// high, under the log end offset label) that the share group with
	// layout index 0 or 1 (shareIndex) draws its marks in, for a group
	// that reads the partition; 0 where it does not. A group lane's rows
	// have none.
	Share [2]int
}

// Note is the strip under a broker row's partition label and role badge,
// left of its cells: the leader's row shows the partition's ISR size
// against min.insync.replicas there, a lagging follower's row its lag
// clock. It starts noteIndent inside the row, under the partition label's
// text rather than on the lane's edge, and ends noteGap short of the
// cells: a log end offset label that centred on its tick would reach
// further left starts at the tick instead (leoAnchor).
func (r Row) Note() Box {
	x := r.Box.X + noteIndent
	return Box{X: x, Y: r.CellsY + cellH, W: r.CellsX - x - noteGap, H: markH}
}

// shareStripH is the height of one share group's strip under a broker
// row (share.go): a line for the window flag, one for the delivery-count
// squares and verdict discs, and the in-flight bar, each clear of the
// next, so that no share mark meets a key letter, a tick or a label of
// the row above it.
const shareStripH = 40

// rowHeight is the height of a broker row: its log with the high
// watermark's label above and the log end offset's below, and a strip
// per share group that reads its partition.
func rowHeight(strips int) int { return markH + cellH + markH + strips*shareStripH }

// noteIndent is how far a row's note starts inside the row: where the
// partition label's text ("p0", centred in plabelW) starts, 4 units clear
// of the lane's edge. noteGap is the room the note leaves before the
// cells: a log end offset tick at offset 0 stands a unit left of them,
// and its label starts there (leoAnchor), so the note's last letter keeps
// 3 units clear of that label's first.
const (
	noteIndent = 4
	noteGap    = 4
)

// leoAnchor says where a broker row's log end offset label stands on its
// tick at x (the tick's x in user units): centred on it, or, where
// centring would reach into the row's note (a log end offset at or near
// offset 0), starting at it, the kf-lo class (figure.css). label is the
// label's text, measured in 12-unit type.
func leoAnchor(r Row, x int, label string) (cls string) {
	if x-(textW(label, false)+1)/2 < r.CellsX-noteGap {
		return " kf-lo"
	}
	return ""
}

// GroupLane is one consumer or share group: a header, a row per member,
// and a row per partition whose offsets line up with the broker lanes'
// cells.
type GroupLane struct {
	Group   string
	Type    string
	Box     Box
	Header  Box
	Members []MemberRow
	Parts   []Row
}

// MemberRow is one group member's row.
type MemberRow struct {
	Member string
	Box    Box
}

// NewLayout computes the geometry of a topology. It is a pure function:
// equal topologies give equal layouts, every band lies inside 0 0 W H, and
// no two lanes overlap. The picture is as wide as its content and, where
// the content allows, no wider than maxWidth: the message gutter is as
// wide as its longest token, the logs take what is left (cells between
// minCellW and maxCellW), and the producer's zones wrap onto as many
// lines as they need.
func NewLayout(tp Topology) Layout {
	var l Layout
	maxLog := tp.MaxLog
	if maxLog < 1 {
		maxLog = 1
	}
	gutterW := 0
	for _, c := range tp.Wires {
		gutterW += wireGap + c.Width
	}
	cellsX := pad + rowIndent + rowLabelW
	// The log end offset can equal maxLog, so its mark stands one cell
	// past the last; its label needs leoRoom more.
	l.CellW = (maxWidth - pad - gutterW - leoRoom - cellsX) / (maxLog + 1)
	l.CellW = min(max(l.CellW, minCellW), maxCellW)
	l.LogW = maxLog * l.CellW
	logRight := cellsX + (maxLog+1)*l.CellW + leoRoom
	l.LogEnd = logRight
	// The widest the picture gets without widening past its logs and
	// gutter, or maxWidth: the producer's zones wrap inside it.
	right := max(logRight+gutterW, maxWidth-pad)
	// A consumer member's row holds a chip per partition it owns, at
	// least chipMinW each, or one idle chip as wide as its longer text
	// (consumer.go), left of the gutter.
	for _, g := range tp.Groups {
		if g.Type == "consumer" {
			chips := max(len(g.Partitions)*(chipMinW+chipGap), idleChipW+chipGap)
			right = max(right, pad+memberLabelW+chips+busyW+chipGap+4+gutterW)
		}
	}
	// The zones wrap where the picture's inner edge will be: right, less
	// the gap that right counts after the gutter's last column, and less
	// the 4 units the rail keeps right of its last zone. Wrapping at right
	// itself let the rail widen the picture by up to 12 units past its
	// gutter, which put the split-brain pair (456 units a panel) past what
	// sits side by side at 1280 px (sideBySideMax).
	railLimit := right - 4
	if gutterW > 0 && right > maxWidth-pad {
		railLimit -= wireGap
	}

	// The picture's inner width before the rail widens it (it may, by its
	// zones): the logs, the message gutter and the member rows' chips.
	w := logRight
	if gutterW > 0 {
		need := logRight
		if len(tp.Groups) > 0 {
			need = max(need, right-gutterW)
		}
		w = need + gutterW - wireGap
	}
	w = max(w, minWidth-pad)

	// The producer band: a header line ("producer", the tally when it
	// fits, and the beat counter), then its zones, left to right,
	// wrapping, and the tally's own line when it did not fit above.
	y := pad
	l.Rail = Box{X: pad, Y: y, W: 0, H: 0}
	l.Counter = Box{X: 0, Y: y, W: 0, H: laneHeadH} // X, W set once W is known
	zx, zy := pad+rowIndent+4, y+laneHeadH
	railRight := zx
	for _, s := range tp.Stages {
		slots := min(max(s.Max, 1), zoneSlots)
		w := slots*(cardW+cardGap) - cardGap
		var more Box
		if s.Max > slots {
			more = Box{X: w + 4, Y: zoneLabelH, W: moreW, H: cardH}
			w += 4 + moreW
		}
		// The zone's label ("answering") is at most its width, about 7.5
		// units a character in 12-unit type.
		if lw := textW(s.Stage, false); w < lw {
			w = lw
		}
		if zx+w > railLimit && zx > pad+rowIndent+4 {
			zx, zy = pad+rowIndent+4, zy+zoneLabelH+cardH+6
		}
		z := Zone{Stage: s.Stage, Slots: slots, Box: Box{X: zx, Y: zy, W: w, H: zoneLabelH + cardH}}
		if more.W > 0 {
			z.More = Box{X: zx + more.X, Y: zy + more.Y, W: more.W, H: more.H}
		}
		l.Zones = append(l.Zones, z)
		railRight = max(railRight, zx+w)
		zx += w + zoneGap
	}
	l.Rail.H = zy + zoneLabelH + cardH + 6 - y
	if len(tp.Tally) > 0 {
		// The rail's name is drawn in 13-unit bold from 8 units inside it;
		// the counter's box is the header's last 120 units.
		tx := pad + 8 + (textW("producer", true)*13+11)/12 + tallyGap
		tw := -tallyGap
		for _, c := range tp.Tally {
			tw += tallyGap + textW(tallyText(c.Outcome, c.Max), true)
		}
		ty := y + 16 - tallyBase
		if tx+tw > w-120 {
			tx, ty = pad+rowIndent+4, y+l.Rail.H
			l.Rail.H += tallyLineH
		}
		for _, c := range tp.Tally {
			cw := textW(tallyText(c.Outcome, c.Max), true)
			l.Tally = append(l.Tally, TallyCell{Outcome: c.Outcome, Box: Box{X: tx, Y: ty, W: cw, H: tallyH}})
			tx += cw + tallyGap
		}
		railRight = max(railRight, tx-tallyGap)
	}
	y += l.Rail.H + pad

	// Broker lanes: a header line, then a row per partition, with a
	// strip under it for each of the first two share groups that read
	// the partition (their marks go on the leader's row, which may be
	// any replica's).
	var shares []GroupShape
	for _, g := range tp.Groups {
		if g.Type == "share" && len(shares) < 2 {
			shares = append(shares, g)
		}
	}
	for _, b := range tp.Brokers {
		lane := Lane{Broker: b.ID}
		top := y
		ry := y + laneHeadH
		for _, p := range b.Partitions {
			r := Row{Partition: p, CellsX: cellsX, CellsY: ry + markH}
			n := 0
			for si, g := range shares {
				if slices.Contains(g.Partitions, p) {
					r.Share[si] = ry + rowHeight(n)
					n++
				}
			}
			r.Box = Box{X: pad + rowIndent, Y: ry, W: 0, H: rowHeight(n)}
			lane.Rows = append(lane.Rows, r)
			ry += r.Box.H + rowGap
		}
		h := ry - top - rowGap + 4
		if h < laneHeadH+8 {
			h = laneHeadH + 8
		}
		lane.Box = Box{X: pad, Y: top, W: 0, H: h}
		l.Lanes = append(l.Lanes, lane)
		y = top + h + laneGap
	}

	// Group lanes.
	for _, g := range tp.Groups {
		gl := GroupLane{Group: g.Group, Type: g.Type}
		top := y
		gl.Header = Box{X: pad, Y: top, W: 0, H: groupHeadH}
		ry := top + groupHeadH
		for _, m := range g.Members {
			gl.Members = append(gl.Members, MemberRow{Member: m, Box: Box{X: pad, Y: ry, W: 0, H: memberH}})
			ry += memberH
		}
		for _, p := range g.Partitions {
			gl.Parts = append(gl.Parts, Row{
				Partition: p,
				Box:       Box{X: pad + rowIndent, Y: ry, W: 0, H: rowHeight(0)},
				CellsX:    cellsX,
				CellsY:    ry + markH,
			})
			ry += rowHeight(0) + rowGap
		}
		gl.Box = Box{X: pad, Y: top, W: 0, H: ry - top + 4}
		l.Groups = append(l.Groups, gl)
		y = top + gl.Box.H + laneGap
	}

	// The message gutter, at the right edge, right of the logs (and of
	// the member rows' chips, which need their room). Every band ends
	// before it, so that a token on its way from one lane to another
	// passes beside the lanes between them, never over one.
	w = max(w, railRight+4)
	l.W = w + pad
	l.H = y - laneGap + pad
	// The log end offset's label room (logRight) already parts the
	// gutter from the logs.
	gutterLeft := l.W - pad
	if gutterW > 0 {
		gutterLeft = l.W - pad - gutterW + wireGap
	}
	wx := gutterLeft
	for _, c := range tp.Wires {
		l.Wires = append(l.Wires, WireCol{Channel: c.Channel, X: wx, W: c.Width})
		wx += c.Width + wireGap
	}
	// Now that the width is known, stretch the bands across it: the rail
	// (whose bottom edge the producer's arrows leave from) the whole
	// width, the lanes to the gutter.
	inner := l.W - 2*pad
	laneW := inner
	if gutterW > 0 {
		laneW = gutterLeft - pad - 4
	}
	l.Counter.X, l.Counter.W = l.W-pad-120, 120
	l.Rail.W = inner
	for i := range l.Lanes {
		l.Lanes[i].Box.W = laneW
		for j := range l.Lanes[i].Rows {
			r := &l.Lanes[i].Rows[j]
			r.Box.W = pad + laneW - r.Box.X
		}
	}
	for i := range l.Groups {
		g := &l.Groups[i]
		g.Box.W, g.Header.W = laneW, laneW
		for j := range g.Members {
			g.Members[j].Box.W = laneW
		}
		for j := range g.Parts {
			g.Parts[j].Box.W = pad + laneW - g.Parts[j].Box.X
		}
	}
	return l
}

// itoa is strconv.Itoa, short for the many labels built here.
func itoa(i int) string { return strconv.Itoa(i) }

// glyphW holds the advance of each printable ASCII character (from ' ' on)
// in 12-unit type, in hundredths of a unit, regular and bold: DejaVu Sans,
// what system-ui resolves to on a Linux without other fonts and the widest
// of the faces it resolves to elsewhere (Segoe UI, San Francisco, Roboto,
// Cantarell set these characters narrower), so a box sized by it holds its
// text wherever the figure is read.
var glyphW = [2][95]uint16{
	{382, 481, 552, 1005, 763, 1140, 936, 330, 468, 468, 600, 1005, 381, 433, 381, 404,
		763, 763, 763, 763, 763, 763, 763, 763, 763, 763, 404, 404, 1005, 1005, 1005, 637,
		1200, 851, 823, 838, 924, 758, 690, 930, 902, 354, 354, 787, 668, 1035, 897, 944,
		723, 944, 833, 762, 714, 878, 821, 1186, 822, 733, 822, 468, 404, 468, 1005, 600,
		600, 735, 762, 660, 762, 738, 413, 762, 760, 333, 333, 695, 333, 1169, 760, 734,
		762, 762, 474, 625, 470, 760, 710, 981, 710, 710, 630, 763, 404, 763, 1005},
	{418, 547, 625, 1005, 835, 1202, 1046, 367, 548, 548, 627, 1005, 456, 498, 456, 438,
		835, 835, 835, 835, 835, 835, 835, 835, 835, 835, 480, 480, 1005, 1005, 1005, 696,
		1200, 928, 914, 880, 996, 819, 819, 985, 1004, 446, 446, 930, 764, 1194, 1004, 1020,
		879, 1020, 924, 815, 843, 974, 928, 1323, 925, 869, 870, 548, 438, 548, 1005, 600,
		600, 810, 859, 711, 859, 814, 486, 859, 854, 411, 411, 798, 411, 1250, 854, 824,
		859, 859, 592, 714, 574, 854, 782, 1108, 774, 782, 698, 854, 438, 854, 1005},
}

// textW is the width of s set in 12-unit type, bold or not, in user units
// (rounded up): the one measure every box that holds a text is sized by —
// message tokens, window flags, producer zones. Characters past ASCII
// (·, ×, arrows, ✓, ✗) are taken at 10.05 units, the widest of those the
// figures use, and any other at a full 12.
func textW(s string, bold bool) int {
	b := 0
	if bold {
		b = 1
	}
	w := 0
	for _, r := range s {
		switch {
		case r >= ' ' && r <= '~':
			w += int(glyphW[b][r-' '])
		case r == '·':
			w += int(glyphW[b]['.'-' '])
		case r == '×' || r == '→' || r == '←' || r == '↑' || r == '↓' || r == '✓' || r == '✗':
			w += 1005
		default:
			w += 1200
		}
	}
	return (w + 99) / 100
}
