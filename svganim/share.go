package svganim

import (
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// This file draws share groups (KIP-932) where the records live: on the
// leader's row of each partition in the broker lanes, because the
// share-partition state sits with the leader. Per share group watching a
// record:
//
//   - a squared mark with the record's delivery count, filled in the
//     holder's member colour while the record is acquired, outlined once it
//     is back and waiting (available);
//   - a round verdict mark once the record is finished: in the finishing
//     member's colour when acknowledged, in the offline red when archived;
//     it stays on the record after the start offset has passed it
//     (sim.GroupPartition.Finished);
//   - the window base, the share-partition start offset (SPSO): a tick
//     labelled with the group, with a bar under the in-flight records.
//
// A lone share group's marks are centred on the cell; with two, the first
// group's sit on the right half and the second's on the left; further share
// groups are shown only in their own group lanes. Every mark has a <title>. A member's colour
// comes from its number in the trace (sim.MemberLife.Number N → colour
// (N−1) mod memberColours), so it is the same in every frame; the member
// rows show the same colour beside each name.

// memberColours is how many member colours figure.css defines (kf-mc0 …).
const memberColours = 6

// Corner mark geometry, in user units.
const (
	shareSquare  = 15 // side of the delivery-count square
	shareVerdict = 14 // diameter of the verdict disc, which holds a 12-unit letter
	shareBarH    = 3  // height of the in-flight bar under a leader row
)

// memberColour is the colour class of member of group: from its number
// as the trace records it, "kf-mcx" for a member the trace does not list.
func (s *scene) memberColour(group, member string) string {
	n := s.lives[memberKey(group, member)].Number
	if n < 1 {
		return "kf-mcx"
	}
	return "kf-mc" + itoa((n-1)%memberColours)
}

// shareLabels returns the one-letter label of each share group of the
// layout, in share-group order (shareIndex): the first letter of its name,
// upper-cased, which its verdict discs carry so that two groups' discs on
// one leader row say whose verdict each is; when two groups' letters
// collide, every group is numbered from 1 instead.
func shareLabels(l Layout) []string {
	var out []string
	seen := map[string]bool{}
	clash := false
	for _, g := range l.Groups {
		if g.Type != "share" {
			continue
		}
		r := []rune(strings.ToUpper(g.Group))
		lbl := "?"
		if len(r) > 0 {
			lbl = string(r[0])
		}
		clash = clash || seen[lbl]
		seen[lbl] = true
		out = append(out, lbl)
	}
	if clash {
		for i := range out {
			out[i] = itoa(i + 1)
		}
	}
	return out
}

// shareLabel is the verdict-disc label of the share group at index si.
func (s *scene) shareLabel(si int) string {
	if si >= 0 && si < len(s.shareLbl) {
		return s.shareLbl[si]
	}
	return ""
}

// memberKey is the key of a group's member in scene.lives.
func memberKey(group, member string) string { return group + "\x00" + member }

// shareGroups returns the beat's share groups in trace order.
func shareGroups(b *sim.Beat) []*sim.Group {
	var out []*sim.Group
	for i := range b.Groups {
		if b.Groups[i].Type == "share" {
			out = append(out, &b.Groups[i])
		}
	}
	return out
}

// shareIndex is the index of share group id among the beat's share groups.
func shareIndex(b *sim.Beat, id string) int {
	for i, g := range shareGroups(b) {
		if g.Group == id {
			return i
		}
	}
	return -1
}

// drawShareOnLeader draws every share group's marks for partition p on the
// row of p's leader (row lies in the leader's lane).
func (s *scene) drawShareOnLeader(b *sim.Beat, p *sim.Partition, row Row, add func(mark)) {
	gs := shareGroups(b)
	for si, g := range gs {
		if si > 1 {
			return
		}
		side := 0 // centred
		if len(gs) > 1 {
			side = 1 + si // right, then left
		}
		var log []sim.Entry
		for i := range p.Replicas {
			if p.Replicas[i].Broker == p.Leader {
				log = p.Replicas[i].Log
			}
		}
		for i := range g.Partitions {
			if gp := &g.Partitions[i]; gp.Partition == p.Partition {
				s.drawShareRow(g.Group, si, side, gp, log, p.HighWatermark, row, add)
			}
		}
	}
}

// drawShareRow draws one share group's marks on a leader row: si is the
// group's index among the share groups (its colour), side where in a cell
// its marks go (0 centred, 1 right half, 2 left half); hw is the
// partition's high watermark, whose label the row shows above the cells.
// Squares straddle the cell's bottom edge and discs its top edge, clear of
// the key label in the cell's middle and of the labels above and below the
// row.
func (s *scene) drawShareRow(group string, si, side int, gp *sim.GroupPartition, log []sim.Entry, hw int64, row Row, add func(mark)) {
	cw := s.l.CellW
	pid := itoa(gp.Partition)
	base := "s" + itoa(si) + "-p" + pid // ids follow the partition, not the broker: they move with leadership
	sq := min(shareSquare, cw-2)
	dv := min(shareVerdict, cw-2)
	if sq < 4 || dv < 3 {
		return // cells too narrow for these marks; the group lane still shows them
	}
	cellX := func(o int64) int { return row.CellsX + int(o)*cw }
	at := func(o int64, w int) int {
		inner := cw - 2 // a cell's drawn width
		switch side {
		case 1:
			return cellX(o) + inner - w
		case 2:
			return cellX(o)
		}
		return cellX(o) + (inner-w)/2
	}
	sqX := func(o int64) int { return at(o, sq) }
	dvX := func(o int64) int { return at(o, dv) }
	where := "p" + pid + " offset "
	// A mark takes its record's key classes, so isolating a key in the
	// legend dims the other keys' share marks too; its title names the
	// record (the leader's log holds every offset below the high watermark).
	keyed := func(o int64) (cls, rec string) {
		if o < 0 || o >= int64(len(log)) {
			return "", ""
		}
		id := log[o].Record
		return " " + s.keyClass(id), " (record " + itoa(id) + ", key " + s.keyName(id) + ")"
	}
	var drawn []drawnVerdict // the discs drawn before, by offset
	if s.reuse != nil {
		drawn = s.reuse.verdicts[[2]int{si, gp.Partition}]
	}
	verdict := func(r sim.ShareRecord) {
		// A finished record's disc stays the same beat after beat.
		rec := -1
		if r.Offset >= 0 && r.Offset < int64(len(log)) {
			rec = log[r.Offset].Record
		}
		k := verdictKey{group: group, si: si, side: side, x: row.CellsX, y: row.CellsY, partition: gp.Partition,
			rec: rec, offset: r.Offset, state: r.State, finisher: r.Finisher, deliveries: r.DeliveryCount}
		if o := r.Offset; o >= 0 && o < int64(len(drawn)) && drawn[o].ok && drawn[o].k == k {
			add(drawn[o].m)
			return
		}
		o := itoa64(r.Offset)
		cls, what := "kf-verdict kf-v-archived", "archived after "+plural(r.DeliveryCount, "delivery", "deliveries")+
			": it reached group.share.delivery.count.limit, or was rejected"
		if r.State == sim.ShareAcknowledged {
			cls = "kf-verdict kf-acked " + s.memberColour(group, r.Finisher)
			what = "acknowledged by " + r.Finisher + " after " + plural(r.DeliveryCount, "delivery", "deliveries")
		}
		kc, recWords := keyed(r.Offset)
		m := mark{id: "sv-" + base + "-" + o, layer: layerTick, shape: shCell, cls: cls + kc,
			x: dvX(r.Offset), y: row.CellsY - dv/2, w: dv, h: dv, text: [3]string{s.shareLabel(si)},
			title: "share group " + group + ", " + where + o + recWords + ": " + what}
		if s.reuse != nil && r.Offset >= 0 && r.Offset < 1<<20 {
			if n := int(r.Offset) + 1; n > len(drawn) {
				drawn = append(drawn, make([]drawnVerdict, n-len(drawn))...)
			}
			drawn[r.Offset] = drawnVerdict{true, k, m}
		}
		add(m)
	}
	for _, r := range gp.Finished {
		verdict(r)
	}
	for _, r := range gp.Records {
		o := itoa64(r.Offset)
		switch r.State {
		case sim.ShareAcknowledged, sim.ShareArchived:
			verdict(r)
			continue
		}
		cls := "kf-sq kf-waiting"
		what := "available again, waiting for a member to acquire it; delivered " + plural(r.DeliveryCount, "time", "times") + " so far"
		if r.State == sim.ShareAcquired {
			cls = "kf-sq kf-held " + s.memberColour(group, r.Member)
			what = "acquired by " + r.Member + " and locked to it, delivery " + itoa(r.DeliveryCount)
		}
		txt := itoa(r.DeliveryCount)
		if sq < 8 {
			txt = ""
		}
		kc, rec := keyed(r.Offset)
		add(mark{id: "sq-" + base + "-" + o, layer: layerTick, shape: shCell, cls: cls + kc,
			x: sqX(r.Offset), y: row.CellsY + cellH - sq/2, w: sq, h: sq, text: [3]string{txt},
			title: "share group " + group + ", " + where + o + rec + ": " + what + " (the number is its delivery count)"})
	}
	// The window base: a tick at the start offset with a flag naming the
	// group, and a bar under the in-flight records. The flag straddles the
	// row's top edge to the right of the tick, where no verdict disc is
	// (discs sit on finished records, left of the tick); a second share
	// group's flag hangs from the bottom edge to the left of its tick, or,
	// where that would cover the role badge (a start offset of 0 or 1),
	// sits above the badge, moved left of the high-watermark label if that
	// label is close by.
	x := cellX(gp.StartOffset)
	sg := " kf-sg" + itoa(si)
	add(mark{id: "ws-" + base, layer: layerTick, shape: shTickDown, cls: "kf-wbase" + sg,
		x: x - 1, y: row.CellsY - 4, h: cellH + 8 + si*(shareBarH+1), o: gp.StartOffset, od: true,
		title: "share group " + group + "'s share-partition start offset on p" + pid +
			": every record before it is acknowledged or archived"})
	// The flag lies under the ticks, discs and squares (layerVeil): a
	// record acknowledged out of order, right of the tick, keeps its disc
	// in view, covering a letter of the flag at most.
	fw := 7*len([]rune(group)) + 8
	// Its top sits 3 units above the cells, clear of the HW label above the
	// row (which ends 4 units above) and of the key label inside the cell.
	fx, fy := x, row.CellsY-4
	if si == 1 {
		fx, fy = x-fw-1, row.CellsY+cellH-4
		if fx < row.CellsX {
			fy = row.CellsY - 15
			// The label "HW n" is centred on its tick, about 3 units a
			// character wide on each side (figure.css: 12px bold).
			hx, half := cellX(hw)-1, 4*len("HW "+itoa64(hw))+1
			if fx < hx+half && fx+fw > hx-half {
				fx = hx - half - fw - 1
			}
		}
	}
	add(mark{id: "wf-" + base, layer: layerVeil, shape: shCell, cls: "kf-wflag" + sg,
		x: fx, y: fy, w: fw, h: 13, text: [3]string{group}, o: gp.StartOffset, od: true,
		title: "share group " + group + ": its window on p" + pid + " starts here (share-partition start offset " +
			itoa64(gp.StartOffset) + ")"})
	// One bar segment per in-flight record: a mark keeps its size from
	// beat to beat, so the bar grows and shrinks by segments.
	for _, r := range gp.Records {
		var rec []int
		if r.Offset >= 0 && r.Offset < int64(len(log)) {
			rec = append(rec, log[r.Offset].Record)
		}
		add(mark{id: "wb-" + base + "-" + itoa64(r.Offset), layer: layerTick, shape: shCell, cls: "kf-wbar" + sg + s.keysClass(rec...),
			x: cellX(r.Offset), y: row.CellsY + cellH + 1 + si*(shareBarH+1), w: cw, h: shareBarH,
			title: "share group " + group + ": p" + pid + " offset " + itoa64(r.Offset) + " is in flight (at or after the start offset, handed out at least once)"})
	}
	if s.reuse != nil {
		s.reuse.verdicts[[2]int{si, gp.Partition}] = drawn
	}
}

// drawShareMember draws a share-group member's row: its colour swatch,
// name, assigned partitions, the record it works on, and whether it has
// stopped.
func (s *scene) drawShareMember(g *sim.Group, m *sim.Member, mr MemberRow, id string, add func(mark)) {
	add(mark{id: id + "-c", layer: layerLabel, shape: shCell, cls: "kf-swatch " + s.memberColour(g.Group, m.Member),
		x: mr.Box.X + 6, y: mr.Box.Y + 8, w: 12, h: 12,
		title: "the colour of " + m.Member + " in the squares and discs on the leader rows"})
	var ps []string
	for _, p := range m.Partitions {
		ps = append(ps, "p"+itoa(p))
	}
	// Two lines: the member and its partitions, then what it does.
	what, cls := "no partition", "kf-member kf-idle"
	if len(ps) > 0 {
		what, cls = strings.Join(ps, " "), "kf-member"
	}
	doing := ""
	if m.Processing > 0 {
		doing = "working on r" + itoa(m.Processing)
	}
	if m.State == "stopped" {
		doing = "stopped: locks expire, then fenced"
		cls += " kf-stopped"
	}
	add(mark{id: id, layer: layerLabel, shape: shStack, cls: cls,
		x: mr.Box.X + 22, y: mr.Box.Y + 1, w: mr.Box.W - 28, h: memberH - 2,
		text:  [3]string{m.Member + " · " + what, doing},
		title: "member " + m.Member + " of share group " + g.Group + ": the partitions it may fetch from (several members can share one)"})
}

// plural writes "1 delivery" or "n deliveries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}
