package svganim

import "github.com/kafkaflow/kflowgen/sim"

// This file draws a consumer group's member rows. Each member gets a row:
// its name and state in the label column, then one chip per partition it
// owns — the partition, the member's position in it and the group's
// committed offset — and a chip per partition it is giving up (revoking)
// or waiting for (assigning) while the group reconciles. A member that
// owns nothing shows one "idle" chip; a stopped member's chips are greyed;
// the record a member is processing sits at the right end of its row as a
// card in its key's colour. The partition rows below (drawn in scene.go)
// carry the same position and committed offset as labelled ticks, and the
// reprocessed offsets as "2×" marks.

// Chip geometry, in user units.
const (
	chipMinW = 20 // narrowest chip: just "p11"; twelve fit the narrowest figure
	chipGap  = 4
	busyW    = 46 // the processing card at the row's right end
	// noteCharW is a state note's width per character, erring wide
	// (12-unit type).
	noteCharW = 7
)

// memberStateWords explains each consumer member state in titles and
// labels (sim.Member.State).
var memberStateWords = map[string]string{
	"active":    "active",
	"revoking":  "revoking: finishes its record, commits, then releases",
	"assigning": "assigning: waits until the previous owner releases",
	"leaving":   "leaving: finishes its record, commits, then leaves",
	"stopped":   "stopped: no heartbeats; fenced after session.timeout",
	"stale":     "stale: it left the group when max.poll.interval ran out, and still works through its last poll; it rejoins at its next poll",
}

// idleChipW is the width of a member's one idle chip, which says "idle:
// no partition" or "left: max.poll.interval": the longer text and 4 units
// either side. The layout leaves every consumer member row room for it.
var idleChipW = 8 + textW("left: max.poll.interval", false)

// chipWords explains a full-width chip's numbers in its title.
const chipWords = ": pos is its position, the next offset it hands to processing; com is the group's committed offset, where a new owner would start"

// comKeys are what a consumer group's header says at the right end of its
// first line when a member row's chips say "com" (saysCom): the chips have
// no room for the words (sim.GroupPartition.Committed, the offset the
// group committed for the partition with OffsetCommit, which Kafka's
// consumer reads back as KafkaConsumer.committed), so the header says them
// once, in sight; a chip's title needs hovering, which a phone cannot do.
// Longest first: drawComKey takes the first that fits.
var comKeys = [...]string{"com = committed offset", "com = committed"}

// drawComKey draws a comKeys wording in group lane gl's header (gid is the
// group's mark id) when its chips say "com" and the wording fits right of
// the group's name (13-unit bold type) with 12 units between them. Its
// title is short: the key says the rest, and a page's budget counts bytes.
func (s *scene) drawComKey(gl GroupLane, gid string, add func(mark)) {
	if !s.saysCom(gl) {
		return
	}
	for _, key := range comKeys {
		kw := textW(key, false)
		if 8+textW(gl.Group, true)*13/12+1+12+kw+8 <= gl.Box.W {
			add(mark{id: gid + "-key", layer: layerLabel, shape: shLabel, cls: "kf-mnote kf-comkey",
				x: gl.Box.Right() - 8 - kw, y: gl.Box.Y + 16, text: [3]string{key}, title: "committed offset"})
			return
		}
	}
}

// saysCom reports whether some member row of group lane gl shows a full
// chip (chipWidth) for a partition it owns at some beat of the trace: a
// chip that says "com".
func (s *scene) saysCom(gl GroupLane) bool {
	for _, mr := range gl.Members {
		k := memberKey(gl.Group, mr.Member)
		if !s.memo().owns[k] {
			continue
		}
		room := mr.Box.Right() - busyW - chipGap - (mr.Box.X + memberLabelW)
		if _, full := s.chipWidth(gl.Group, mr.Member, room); full {
			return true
		}
	}
	return false
}

// stateNote is the short note after a member's chips for states other
// than active and idle.
var stateNote = map[string]string{
	"revoking":  "revoking: commits, then releases",
	"assigning": "assigning: waits for the release",
	"leaving":   "leaving after this record",
	"stopped":   "stopped: no heartbeat until fenced",
}

// drawConsumerMember draws one consumer-group member's row at beat: a
// label with its name and state, its partition chips, and the record it
// processes. m is nil when the row's member is not in the group at this
// beat: the row then says whether it joins later, left or was fenced.
func (s *scene) drawConsumerMember(beat int, g *sim.Group, m *sim.Member, mr MemberRow, id string, add func(mark)) {
	if m == nil {
		note, title := s.absentMember(beat, g.Group, mr.Member)
		add(mark{id: id, layer: layerLabel, shape: shLabel, cls: "kf-member kf-ms-absent",
			x: mr.Box.X + 8, y: mr.Box.Y + 18, text: [3]string{s.memberLabel(g.Group, mr.Member)}, title: title})
		add(mark{id: id + "-note", layer: layerLabel, shape: shLabel, cls: "kf-mnote kf-ms-absent",
			x: mr.Box.X + memberLabelW, y: mr.Box.Y + 18, text: [3]string{note}, title: title})
		return
	}
	parts := map[int]*sim.GroupPartition{}
	for i := range g.Partitions {
		parts[g.Partitions[i].Partition] = &g.Partitions[i]
	}
	state := m.State
	if len(m.Partitions)+len(m.Assigning) == 0 && state == "active" {
		state = "idle"
	}
	cls := "kf-member kf-ms-" + safeID(state)
	add(mark{id: id, layer: layerLabel, shape: shLabel, cls: cls,
		x: mr.Box.X + 8, y: mr.Box.Y + 18, text: [3]string{s.memberLabel(g.Group, m.Member)},
		title: "member " + m.Member + " of group " + g.Group + ": " + stateTitle(state)})

	// Chips: owned partitions (revoking ones marked), then the awaited.
	type chip struct {
		p    int
		kind string
	}
	var chips []chip
	for _, p := range m.Partitions {
		kind := "owned"
		if containsInt(m.Revoking, p) {
			kind = "revoking"
		}
		chips = append(chips, chip{p, kind})
	}
	for _, p := range m.Assigning {
		chips = append(chips, chip{p, "assigning"})
	}
	x0 := mr.Box.X + memberLabelW
	room := mr.Box.Right() - busyW - chipGap - x0
	// Both idle chips are one mark, as wide as the longer text.
	idleW := min(idleChipW, room)
	switch {
	case len(chips) == 0 && m.State == "stale":
		add(mark{id: id + "-idle", layer: layerLabel, shape: shCell, cls: "kf-chip kf-chip-idle kf-chip-stale",
			x: x0, y: mr.Box.Y + 3, w: idleW, h: memberH - 6,
			text:  [3]string{"left: max.poll.interval"},
			title: m.Member + " is no longer a member: it went longer than max.poll.interval without polling, so it left and its partitions moved; it still processes what its last poll handed it, and its next commit will fail"})
	case len(chips) == 0:
		add(mark{id: id + "-idle", layer: layerLabel, shape: shCell, cls: "kf-chip kf-chip-idle",
			x: x0, y: mr.Box.Y + 3, w: idleW, h: memberH - 6,
			text:  [3]string{"idle: no partition"},
			title: m.Member + " owns no partition: a partition has one owner per group, so members beyond the partition count wait idle"})
	}
	w, full := s.chipWidth(g.Group, mr.Member, room)
	end := x0
	for i, c := range chips {
		pid := itoa(c.p)
		gp := parts[c.p]
		text, title := chipText(c.p, c.kind, gp), ""
		switch c.kind {
		case "owned", "revoking":
			pos, com := int64(-1), int64(-1)
			if gp != nil {
				pos, com = gp.Position, gp.Committed
			}
			switch {
			case pos < 0:
				title = m.Member + " owns p" + pid + " but has no position yet: the leader could not yet say where auto.offset.reset starts it, and it asks again every beat"
			case !full:
				// A narrow chip shows only the partition: the title gives the numbers.
				title = m.Member + " owns p" + pid + ": position " + itoa64(pos) + " is the next offset it hands to processing; the group's committed offset " + offsetOrNone(com) + " is where a new owner would start"
			default:
				// The chip shows both numbers; its title says what they are, and
				// stays the same from beat to beat.
				title = m.Member + " owns p" + pid + chipWords
			}
			if c.kind == "revoking" {
				title += "; p" + pid + " left its target, so it commits and releases it after its current record"
			}
		case "assigning":
			title = "p" + pid + " is in " + m.Member + "'s target, but the previous owner has not released it yet; it starts the beat after the release"
		}
		if m.State == "stopped" {
			title += " (stopped: it holds the partition without reading until it is fenced)"
		}
		if !full {
			text = "p" + pid
		}
		ccls := "kf-chip kf-chip-" + c.kind
		if m.State == "stopped" {
			ccls += " kf-chip-stopped"
		}
		x := x0 + i*(w+chipGap)
		add(mark{id: id + "-p" + pid, layer: layerLabel, shape: shCell, cls: ccls,
			x: x, y: mr.Box.Y + 3, w: w, h: memberH - 6, text: [3]string{text}, title: title})
		end = x + w
	}
	if note := stateNote[state]; note != "" && len(chips) > 0 && end+2*chipGap+noteCharW*len(note) < mr.Box.Right()-busyW {
		add(mark{id: id + "-note", layer: layerLabel, shape: shLabel, cls: "kf-mnote kf-ms-" + safeID(state),
			x: end + 2*chipGap, y: mr.Box.Y + 18, text: [3]string{note},
			title: m.Member + " is " + stateTitle(state)})
	}
	if m.Processing > 0 {
		rec := m.Processing
		where := s.partitionOf(rec)
		if r, ok := s.recs[rec]; ok && r.Offset >= 0 {
			where += " offset " + itoa64(r.Offset)
		}
		add(mark{id: id + "-busy", layer: layerCard, shape: shCell, cls: "kf-busy " + s.keyClass(rec),
			x: mr.Box.Right() - busyW, y: mr.Box.Y + 3, w: busyW - 4, h: memberH - 6,
			text:  [3]string{"r" + itoa(rec)},
			title: m.Member + " is processing record " + itoa(rec) + " (key " + s.keyName(rec) + where + ")"})
	}
}

// stateTitle words a member state for a title.
func stateTitle(state string) string {
	if state == "idle" {
		return "idle, it owns no partition"
	}
	if w, ok := memberStateWords[state]; ok {
		return w
	}
	return state
}

// offsetOrNone writes an offset, or "none" for −1.
func offsetOrNone(o int64) string {
	if o < 0 {
		return "none"
	}
	return itoa64(o)
}

// containsInt reports whether xs holds x.
func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// chipText is what a full chip says: the partition, and for one the
// member owns (or revokes) its position and the group's committed offset
// in gp, or that it waits for the partition's release.
func chipText(p int, kind string, gp *sim.GroupPartition) string {
	text := "p" + itoa(p)
	switch kind {
	case "owned", "revoking":
		pos, com := int64(-1), int64(-1)
		if gp != nil {
			pos, com = gp.Position, gp.Committed
		}
		text += " · pos " + offsetOrNone(pos) + " · com " + offsetOrNone(com)
	case "assigning":
		text += " · waiting"
	}
	return text
}

// consumerMemo holds what consumer member rows need from the whole
// trace, computed once per scene: the most chips each member ever shows,
// and the widest full chip it ever shows (textW of chipText, 4 units
// either side). Keys are memberKey(group, member).
type consumerMemo struct {
	most, widest map[string]int
	owns         map[string]bool // the member owns a partition at some beat
}

// memo returns the scene's consumer memo, building it on first use.
func (s *scene) memo() *consumerMemo {
	if s.consumer != nil {
		return s.consumer
	}
	c := &consumerMemo{most: map[string]int{}, widest: map[string]int{}, owns: map[string]bool{}}
	for bi := range s.t.Beats {
		b := &s.t.Beats[bi]
		for gi := range b.Groups {
			g := &b.Groups[gi]
			if g.Type != "consumer" {
				continue
			}
			parts := map[int]*sim.GroupPartition{}
			for i := range g.Partitions {
				parts[g.Partitions[i].Partition] = &g.Partitions[i]
			}
			for _, m := range g.Members {
				k := memberKey(g.Group, m.Member)
				c.most[k] = max(c.most[k], len(m.Partitions)+len(m.Assigning))
				c.owns[k] = c.owns[k] || len(m.Partitions) > 0
				for _, p := range m.Partitions {
					c.widest[k] = max(c.widest[k], 8+textW(chipText(p, "owned", parts[p]), false))
				}
				for _, p := range m.Assigning {
					c.widest[k] = max(c.widest[k], 8+textW(chipText(p, "assigning", nil), false))
				}
			}
		}
	}
	s.consumer = c
	return c
}

// absentMember says why a member is not in group at beat: it has not
// joined yet, it left, or the coordinator fenced it, as the trace's member
// list records it (sim.MemberLife). It returns a short note and a title.
func (s *scene) absentMember(beat int, group, member string) (note, title string) {
	life, known := s.lives[memberKey(group, member)]
	switch {
	case known && life.FencedAt >= 0 && life.FencedAt <= beat:
		at := itoa(life.FencedAt)
		return "fenced at beat " + at, "the coordinator fenced " + member + " at beat " + at + ": no heartbeat for session.timeout beats; it committed nothing since its last auto-commit"
	case known && life.LeftAt >= 0 && life.LeftAt <= beat:
		at := itoa(life.LeftAt)
		return "left at beat " + at, member + " left group " + group + " cleanly at beat " + at + ", after committing its position"
	case known && life.StaleAt >= 0 && life.StaleAt <= beat:
		at := itoa(life.StaleAt)
		return "left at beat " + at, member + " left group " + group + " at beat " + at + " when max.poll.interval ran out, without committing, and did not join again"
	}
	return "not joined yet", member + " joins group " + group + " later"
}

// chipWidth is the width of every chip on a member's row, and whether the
// chips are full (they say their numbers): as wide as the widest full chip
// the member ever shows, unless the most chips it ever shows (over the
// whole trace) would not fit in room that wide, then narrower, down to
// chipMinW, saying the partition alone. It is the same at every beat, as a
// mark keeps its size.
func (s *scene) chipWidth(group, member string, room int) (int, bool) {
	k := memberKey(group, member)
	most, fw := s.memo().most[k], max(s.memo().widest[k], chipMinW)
	if most == 0 || most*(fw+chipGap) <= room {
		return fw, true
	}
	return max(chipMinW, room/most-chipGap), false
}
