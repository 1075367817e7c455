package svganim

import "unicode/utf8"

// This file shortens group and member names where a figure has no room
// for them. The engine names a group's members after the group, numbered
// (readers-1, readers-2, …; sim.MemberLife.Number), so members of one
// group differ in their tails: a name that does not fit keeps its tail
// behind "…" ("…analytics-1" for compute-analytics-1), never its head,
// which every member of the group shares and which the lane's title
// already says. The whole name is in every such mark's <title>.

// memberNameRoom is the width, in user units, a member's name may take
// in its row: the label column (memberLabelW) less the label's 8-unit
// inset and a 6-unit gap before the first chip (the overlap test's
// run-together distance).
const memberNameRoom = memberLabelW - 8 - 6

// ownerNameRoom is the width an owner's name may take under its
// partition's label in a group's partition row (drawConsumerPartition):
// the row's label column less the 6 units before the offsets' axis.
const ownerNameRoom = rowLabelW - 6

// fitName returns name as a figure draws it in room units of 12-unit type
// (bold or not): name itself when textW says it fits, else "…" and the
// longest tail of name that fits, unless that tail is also the end of one
// of others (the group's other members), when it is name whole: a label
// that two members share tells them apart no better than one cut short.
func fitName(name string, others []string, room int, bold bool) string {
	if textW(name, bold) <= room {
		return name
	}
	tail := ""
	for i := range name {
		if i == 0 {
			continue
		}
		if textW("…"+name[i:], bold) <= room {
			tail = name[i:]
			break
		}
	}
	if tail == "" {
		_, n := utf8.DecodeLastRuneInString(name)
		tail = name[len(name)-n:]
	}
	for _, o := range others {
		if o != name && len(o) >= len(tail) && o[len(o)-len(tail):] == tail {
			return name
		}
	}
	return "…" + tail
}

// memberNames is every member each group of the layout ever has, by
// group: the names fitName tells a member apart from.
func memberNames(l Layout) map[string][]string {
	out := map[string][]string{}
	for _, g := range l.Groups {
		for _, m := range g.Members {
			out[g.Group] = append(out[g.Group], m.Member)
		}
	}
	return out
}

// memberLabel is member of group as its row's label draws it, in bold
// (kf-member; an absent member's label is regular and gets the same text,
// so that a row reads alike at every beat).
func (s *scene) memberLabel(group, member string) string {
	return fitName(member, s.members[group], memberNameRoom, true)
}

// fitHead returns name cut to its longest head that fits room units of
// 12-unit type with "…" after it, or name itself where it fits: for a
// group's name, which differs from other groups' at its start (a share
// group's window flag, share.go). At least one character is kept.
func fitHead(name string, room int, bold bool) string {
	if textW(name, bold) <= room {
		return name
	}
	head := ""
	for i := range name {
		if i > 0 && textW(name[:i]+"…", bold) > room {
			break
		}
		head = name[:i]
	}
	if head == "" {
		_, n := utf8.DecodeRuneInString(name)
		head = name[:n]
	}
	return head + "…"
}
