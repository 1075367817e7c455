package svganim

import (
	"strings"
	"testing"
)

// shareStory: two members share p0 (w-2 stops early, so w-1 does the
// work). Broker 1, p0's leader, crashes at beat 16 just as w-1's ACCEPT of
// offset 2 is on its way: the acknowledgement is lost, the lock runs out at
// beat 18 (offset 2 waits, delivered once) and w-1 acquires it again at
// beat 21 (delivery 2). p0's marks move to broker 2's row.
const shareStory = `
id: share-marks
brokers: 2
topic: {partitions: 1, replication.factor: 2}
producer: {acks: 1, records: 4, keys: [a], interval: 2}
share.groups:
  - {id: w, members: 2, group.share.record.lock.duration: 6, processing: 2}
timeline:
  - {at: 6, stop: w-2}
  - {at: 16, crash: 1}
beats: 24
`

// TestShareMarks checks the share marks on the leader rows against the
// trace: a held record's square is filled in its holder's colour with the
// delivery count, a waiting record's is outlined, a finished record keeps
// its verdict disc after the start offset has passed it, the window base
// carries the group's name, every mark has a title, and the marks follow
// the partition to its new leader's row.
func TestShareMarks(t *testing.T) {
	tr := runScenario(t, "share", []byte(shareStory))
	s := newScene(tr)
	find := func(bi int, id string) *mark {
		for _, m := range s.draw(bi) {
			if m.id == id {
				mm := m
				return &mm
			}
		}
		return nil
	}
	sq := func(bi int, o string) *mark { return find(bi, "sq-s0-p0-"+o) }
	if m := sq(13, "2"); m == nil || !strings.Contains(m.cls, "kf-held") || !strings.Contains(m.cls, "kf-mc0") || m.text[0] != "1" {
		t.Fatalf("beat 13: square of offset 2 = %+v, want held in w-1's colour (kf-mc0) with count 1", m)
	}
	// Broker 1 crashes at beat 16 holding w-1's lock: broker 2 loads the
	// share coordinator's state, where offset 2 was never acquired, so it
	// waits again with delivery count 0, and w-1 takes it at beat 17.
	if m := sq(16, "2"); m == nil || !strings.Contains(m.cls, "kf-waiting") || strings.Contains(m.cls, "kf-mc") || m.text[0] != "0" {
		t.Fatalf("beat 16: square of offset 2 = %+v, want an outlined square with count 0", m)
	}
	if m := sq(18, "2"); m == nil || !strings.Contains(m.cls, "kf-held kf-mc0") || m.text[0] != "1" {
		t.Fatalf("beat 18: square of offset 2 = %+v, want held by w-1 with count 1", m)
	}
	if m := sq(21, "3"); m == nil || !strings.Contains(m.cls, "kf-held kf-mc0") || m.text[0] != "1" {
		t.Fatalf("beat 21: square of offset 3 = %+v, want held by w-1 with count 1", m)
	}
	if m := sq(21, "2"); m != nil {
		t.Errorf("beat 21: acknowledged offset 2 still has a square: %+v", m)
	}
	// Offset 0 was acknowledged by w-1 at beat 8 and left the window; its
	// disc stays to the end.
	for _, bi := range []int{8, 12, 24} {
		m := find(bi, "sv-s0-p0-0")
		if m == nil || !strings.Contains(m.cls, "kf-mc0") {
			t.Fatalf("beat %d: verdict of offset 0 = %+v, want w-1's disc", bi, m)
		}
	}
	if find(7, "sv-s0-p0-0") != nil {
		t.Errorf("beat 7: offset 0 has a verdict before it was acknowledged")
	}
	flag := find(12, "wf-s0-p0")
	if flag == nil || flag.text[0] != "w" || flag.title == "" {
		t.Fatalf("beat 12: window flag = %+v", flag)
	}
	// Broker 1 leads p0 until beat 16; then broker 2's row carries the marks.
	row := func(bi int) int {
		m := find(bi, "ws-s0-p0")
		if m == nil {
			t.Fatalf("beat %d: no window base", bi)
		}
		return m.y
	}
	if row(15) == row(17) {
		t.Errorf("the window base stayed on broker 1's row after the leader moved to broker 2")
	}
	for bi := range tr.Beats {
		for _, m := range s.draw(bi) {
			if (strings.HasPrefix(m.id, "sq-") || strings.HasPrefix(m.id, "sv-") || strings.HasPrefix(m.id, "w")) && m.title == "" {
				t.Errorf("beat %d: mark %s has no title", bi, m.id)
			}
		}
	}
}

// TestSecondShareFlagClear: with two share groups on one partition, the
// second group's window flag never covers the leader's role badge or the
// high-watermark label on the leader row, at any beat, from a start offset
// of 0 onwards.
func TestSecondShareFlagClear(t *testing.T) {
	tr := runScenario(t, "two-share", []byte(`id: two-share
brokers: 3
topic: {partitions: 1, replication.factor: 3}
producer: {records: 10, keys: [a, b], interval: 1}
share.groups:
  - {id: fast, members: 2, processing: 1}
  - {id: slow, members: 2, processing: 4}
beats: 24`))
	type box struct{ x0, y0, x1, y1 int }
	meets := func(a, b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }
	seen := 0
	for bi := range tr.Beats {
		leader := itoa(tr.Beats[bi].Partitions[0].Leader)
		byID := map[string]mark{}
		for _, m := range newScene(tr).draw(bi) {
			byID[m.id] = m
		}
		flag, ok := byID["wf-s1-p0"]
		if !ok {
			continue
		}
		seen++
		f := box{flag.x, flag.y, flag.x + flag.w, flag.y + flag.h}
		badge := byID["pr-b"+leader+"-p0"]
		if meets(f, box{badge.x, badge.y, badge.x + badge.w, badge.y + badge.h}) {
			t.Errorf("beat %d: the second flag %v covers the role badge at (%d,%d)", bi, f, badge.x, badge.y)
		}
		// The HW label: 9px bold text centred on the tick, its baseline 3
		// units above the tick's top.
		hw := byID["hw-b"+leader+"-p0"]
		half := 3*len(hw.text[0]) + 1
		if meets(f, box{hw.x - half, hw.y - 12, hw.x + half, hw.y - 3}) {
			t.Errorf("beat %d: the second flag %v covers the label %q at (%d,%d)", bi, f, hw.text[0], hw.x, hw.y)
		}
	}
	if seen < 10 {
		t.Fatalf("the second share group's flag is drawn at %d beats, want most of 25", seen)
	}
}

// TestVerdictDiscsCarryGroupLabel: on every beat of every figure the tests
// draw, each verdict disc names its share group — the group its title
// names, by that group's first letter, or by its number when two share
// groups of the figure start with the same letter — and no two share
// groups of a figure carry the same label.
func TestVerdictDiscsCarryGroupLabel(t *testing.T) {
	discs := 0
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		byGroup := map[string]string{}
		for bi := range nt.t.Beats {
			for _, m := range s.draw(bi) {
				if !strings.HasPrefix(m.id, "sv-") {
					continue
				}
				discs++
				group, _, _ := strings.Cut(strings.TrimPrefix(m.title, "share group "), ",")
				if m.text[0] == "" {
					t.Fatalf("%s beat %d: disc %s of group %s carries no label", nt.name, bi, m.id, group)
				}
				if was, ok := byGroup[group]; ok && was != m.text[0] {
					t.Errorf("%s beat %d: group %s's discs carry %q and %q", nt.name, bi, group, was, m.text[0])
				}
				byGroup[group] = m.text[0]
			}
		}
		seen := map[string]string{}
		for g, lbl := range byGroup {
			if o, ok := seen[lbl]; ok {
				t.Errorf("%s: groups %s and %s both carry %q", nt.name, o, g, lbl)
			}
			seen[lbl] = g
			if lbl != strings.ToLower(g[:1]) && (lbl < "1" || lbl > "9") {
				t.Errorf("%s: group %s's discs carry %q, neither its letter nor a number", nt.name, g, lbl)
			}
		}
	}
	if discs == 0 {
		t.Fatal("no figure draws a verdict disc: the test checks nothing")
	}
}

// TestShareLabelsClash: share groups whose names start alike are numbered.
func TestShareLabelsClash(t *testing.T) {
	l := Layout{Groups: []GroupLane{{Group: "readers", Type: "consumer"}, {Group: "workers", Type: "share"}, {Group: "watchers", Type: "share"}}}
	if got := strings.Join(shareLabels(l), ","); got != "1,2" {
		t.Errorf("workers and watchers are labelled %q, want 1,2", got)
	}
	l.Groups[2].Group = "batch"
	if got := strings.Join(shareLabels(l), ","); got != "w,b" {
		t.Errorf("workers and batch are labelled %q, want w,b", got)
	}
}
