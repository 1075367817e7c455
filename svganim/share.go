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
// Each of the first two share groups has a strip of its own under the row
// (Row.Share), its marks centred under the cells; further share groups are
// shown only in their own group lanes. Every mark has a <title>. A member's colour
// comes from its number in the trace (sim.MemberLife.Number N → colour
// (N−1) mod memberColours), so it is the same in every frame; the member
// rows show the same colour beside each name.

// memberColours is how many member colours figure.css defines (kf-mc0 …).
const memberColours = 6

// Corner mark geometry, in user units.
const (
	shareSquare  = 15 // side of the delivery-count square
	shareVerdict = 17 // diameter of the verdict disc (where the cell allows), which holds a 12-unit letter with room to spare
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
// lower-cased, which its verdict discs carry so that two groups' discs on
// one leader row say whose verdict each is; when two groups' letters
// collide, every group is numbered from 1 instead. Lower case, as the
// group's flag spells its name: a key's label in a cell is upper case
// ("W" would read as a key), and a lower-case letter is narrower, so it
// stays inside its disc and apart from the next disc's ("ww", not "WW").
func shareLabels(l Layout) []string {
	var out []string
	seen := map[string]bool{}
	clash := false
	for _, g := range l.Groups {
		if g.Type != "share" {
			continue
		}
		r := []rune(strings.ToLower(g.Group))
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
// row of p's leader (row lies in the leader's lane), each group in its own
// strip under the row (Row.Share).
func (s *scene) drawShareOnLeader(b *sim.Beat, p *sim.Partition, row Row, add func(mark)) {
	var log []sim.Entry
	for i := range p.Replicas {
		if p.Replicas[i].Broker == p.Leader {
			log = p.Replicas[i].Log
		}
	}
	for _, g := range shareGroups(b) {
		si := s.shareIndexOf(g.Group)
		if si < 0 || si > 1 || row.Share[si] == 0 {
			continue
		}
		for i := range g.Partitions {
			if gp := &g.Partitions[i]; gp.Partition == p.Partition {
				s.drawShareRow(g.Group, si, gp, log, row, add)
			}
		}
	}
}

// shareIndexOf is the layout's index of share group id among its share
// groups (the order of shareLabels), -1 for none.
func (s *scene) shareIndexOf(id string) int {
	si := 0
	for _, g := range s.l.Groups {
		if g.Type != "share" {
			continue
		}
		if g.Group == id {
			return si
		}
		si++
	}
	return -1
}

// Where a share strip's marks stand, in user units below its top
// (Row.Share): the window flag, then the squares and discs, then the
// in-flight bar; the window base's tick runs from the flag's top to the
// bar's bottom. A text reaches 11.5 units above its baseline and 3.1
// below (12-unit type), so each line clears the one above it.
const (
	shareFlagY = 4
	shareFlagH = 13
	shareMarkY = 20
	shareBarY  = 36
)

// drawShareRow draws one share group's marks in its strip under a leader
// row: si is the group's layout index (its colour and strip). A record's
// square or disc stands under the record's cell, inside the cell's
// columns, clear of the ticks at the cells' edges; the flag naming the
// group stands right of the window base's tick, or left of it where the
// logs end.
func (s *scene) drawShareRow(group string, si int, gp *sim.GroupPartition, log []sim.Entry, row Row, add func(mark)) {
	cw := s.l.CellW
	top := row.Share[si]
	pid := itoa(gp.Partition)
	base := "s" + itoa(si) + "-p" + pid // ids follow the partition, not the broker: they move with leadership
	// A mark keeps a unit clear of either edge of its cell's column, where
	// the high-watermark and log-end-offset ticks stand.
	sq := min(shareSquare, cw-4)
	dv := min(shareVerdict, cw-4)
	if sq < 4 || dv < 3 {
		return // cells too narrow for these marks; the group lane still shows them
	}
	cellX := func(o int64) int { return row.CellsX + int(o)*cw }
	at := func(o int64, w int) int { return cellX(o) + (cw-2-w+1)/2 }
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
		k := verdictKey{group: group, si: si, x: row.CellsX, y: top, partition: gp.Partition,
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
			x: at(r.Offset, dv), y: top + shareMarkY + (sq-dv)/2, w: dv, h: dv, text: [3]string{s.shareLabel(si)},
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
			x: at(r.Offset, sq), y: top + shareMarkY, w: sq, h: sq, text: [3]string{txt},
			title: "share group " + group + ", " + where + o + rec + ": " + what + " (the number is its delivery count)"})
	}
	// The window base: a tick at the start offset with a flag naming the
	// group, and a bar under the in-flight records.
	x := cellX(gp.StartOffset)
	sg := " kf-sg" + itoa(si)
	add(mark{id: "ws-" + base, layer: layerTick, shape: shTickDown, cls: "kf-wbase" + sg,
		x: x - 1, y: top + shareFlagY, h: shareBarY + shareBarH - shareFlagY, o: gp.StartOffset, od: true,
		title: "share group " + group + "'s share-partition start offset on p" + pid +
			": every record before it is acknowledged or archived"})
	// The flag has its line of the strip to itself: it starts a unit right
	// of the tick and is as wide as the group's name (figure.css: bold),
	// or, where that would run past the logs' label room into the message
	// gutter, it ends a unit left of the tick.
	// A name longer than half the room between the row's left edge and
	// the logs' end fits neither side at some start offset, so it is cut
	// (fitHead) to half of it, at every beat alike: a mark keeps its size.
	label := group
	if half := (s.l.LogEnd - row.Box.X - 3) / 2; textW(group, true)+8 > half {
		label = fitHead(group, half-8, true)
	}
	fw := textW(label, true) + 8
	fx := x + 1
	if fx+fw > s.l.LogEnd {
		fx = max(x-2-fw, row.Box.X)
	}
	add(mark{id: "wf-" + base, layer: layerFlag, shape: shCell, cls: "kf-wflag" + sg,
		x: fx, y: top + shareFlagY, w: fw, h: shareFlagH, text: [3]string{label}, o: gp.StartOffset, od: true,
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
			x: cellX(r.Offset), y: top + shareBarY, w: cw, h: shareBarH,
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
