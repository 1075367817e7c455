// Weighing is kflowgen bench's, never the playground's: built for the
// browser (GOOS=js GOARCH=wasm) the package leaves it out, and with it
// compress/gzip and two regular expressions (the module's gzip went from
// 1,633,890 to 1,626,702 bytes).

//go:build !(js && wasm)

package svganim

import (
	"bytes"
	"compress/gzip"
	"regexp"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// Weight is what one figure costs a reader's download, set against how
// much the trace it shows really says. Raw and Gzip are the figure
// markup's size in bytes, uncompressed and gzip-compressed (default
// level, as a static host serves it); Bound is the information bound, the
// gzip size of Delta(t) at the same level. Issue 6 targets Gzip ≤ 2×Bound.
//
// NoScript is the gzip size of the part of the figure a reader without
// JavaScript gets and issue 6 requires: the figure without its JSON script
// and without the poster's marks hidden at the poster beat (title, poster
// picture, legend, caption, storyboard). It is the floor under Gzip that no
// encoding of the stepper's data can lower.
type Weight struct {
	Beats    int
	Raw      int
	Gzip     int
	Bound    int
	NoScript int
}

// PerBeat is the raw and gzip bytes per beat, rounded down.
func (w Weight) PerBeat() (raw, gz int) {
	if w.Beats == 0 {
		return 0, 0
	}
	return w.Raw / w.Beats, w.Gzip / w.Beats
}

// Permille is Gzip/Bound in thousandths (2000 means twice the bound), an
// integer so reports never print a float.
func (w Weight) Permille() int {
	if w.Bound == 0 {
		return 0
	}
	return w.Gzip * 1000 / w.Bound
}

// String formats the weight as one report line.
func (w Weight) String() string {
	r, g := w.PerBeat()
	p := w.Permille()
	n := w.NoScriptPermille()
	return strconv.Itoa(w.Beats) + " beats, " + strconv.Itoa(w.Raw) + " B raw (" + strconv.Itoa(r) + "/beat), " +
		strconv.Itoa(w.Gzip) + " B gzip (" + strconv.Itoa(g) + "/beat), bound " + strconv.Itoa(w.Bound) +
		" B, ratio " + strconv.Itoa(p/1000) + "." + pad3(p%1000) + "; without scripts " + strconv.Itoa(w.NoScript) +
		" B, ratio " + strconv.Itoa(n/1000) + "." + pad3(n%1000)
}

func pad3(n int) string {
	s := strconv.Itoa(n)
	return strings.Repeat("0", 3-len(s)) + s
}

// NoScriptPermille is NoScript/Bound in thousandths.
func (w Weight) NoScriptPermille() int {
	if w.Bound == 0 {
		return 0
	}
	return w.NoScript * 1000 / w.Bound
}

// Measure weighs figure, the output of Figure or FigureCompare for t.
func Measure(t *sim.Trace, figure []byte) Weight {
	return Weight{Beats: len(t.Beats), Raw: len(figure), Gzip: gzipSize(figure), Bound: gzipSize(Delta(t)),
		NoScript: gzipSize(NoScriptPart(figure))}
}

var (
	tracksScript = regexp.MustCompile(`(?s)<script type="application/json" class="kf-tracks">.*?</script>\n?`)
	hiddenMark   = regexp.MustCompile(`(?s)<g class="[^"]*\bkf-gone\b[^"]*"[^>]*>.*?</g>\n?`)
)

// NoScriptPart is figure, the output of Figure or FigureCompare, as far as
// a reader without JavaScript can use it: without the JSON script the
// stepper reads and without the marks hidden at the poster beat (a mark
// is one <g> holding no other group, see writeMark).
func NoScriptPart(figure []byte) []byte {
	return hiddenMark.ReplaceAll(tracksScript.ReplaceAll(figure, nil), nil)
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	if _, err := z.Write(b); err != nil {
		panic("svganim: gzip into memory failed: " + err.Error())
	}
	if err := z.Close(); err != nil {
		panic("svganim: gzip into memory failed: " + err.Error())
	}
	return buf.Len()
}

// Delta is the compact per-beat state delta of a trace: the smallest
// plain text we could write that still holds everything a figure shows,
// so its gzip size bounds from below what a figure must weigh. It starts
// with the title, the keys and each record's key, then has one line per
// beat: "@N", the fields that differ from the beat before (beat 0 is
// compared with an empty cluster), and the beat's events in the engine's
// words. Field tokens, separated by spaces:
//
//	bID:o|x|i|p          broker online, offline, cut off (isolate), or online with fetchers paused
//	pP:lL eE iB,B hH aB,B dB,B
//	                     partition leader, leader epoch, ISR, high
//	                     watermark, replicas a reassignment adds and removes
//	rP.B:oO|x lL hH +R/E… ~N
//	                     replica online or not, log end offset, own high
//	                     watermark, appended record/epoch, truncated to N
//	cR:STAGE/ATTEMPT/OUTCOME, cR-
//	                     a producer card changed, or left the rail
//	gG:eE                group epoch; mG.NAME:P,P/STATE/REC a member
//	qG.P:OWNER/POS/COMMITTED/REPROCESSED, sG.P:START
//	                     consumer and share partitions
//	xG.P.O:STATE/COUNT/MEMBER, xG.P.O-
//	                     a share record changed or left the window
//
// Lines end with "|" and the events joined by "|".
func Delta(t *sim.Trace) []byte {
	var b strings.Builder
	b.WriteString(t.Title + "\nkeys " + strings.Join(t.Keys, ",") + "\n")
	for _, r := range t.Records {
		b.WriteString(strconv.Itoa(r.ID) + ":" + r.Key + " ")
	}
	b.WriteString("\n")
	prev := &sim.Beat{}
	for i := range t.Beats {
		cur := &t.Beats[i]
		b.WriteString("@" + strconv.Itoa(cur.Beat))
		deltaBeat(&b, prev, cur)
		b.WriteString("|" + strings.Join(cur.Texts(), "|") + "\n")
		prev = cur
	}
	return []byte(b.String())
}

func deltaBeat(b *strings.Builder, prev, cur *sim.Beat) {
	tok := func(s string) { b.WriteString(" " + s) }
	pb := map[int]sim.Broker{}
	for _, x := range prev.Brokers {
		pb[x.Broker] = x
	}
	for _, x := range cur.Brokers {
		if o, ok := pb[x.Broker]; !ok || o != x {
			st := "o"
			if !x.Online {
				st = "x"
			} else if x.Isolated {
				st = "i"
			} else if x.Paused {
				st = "p"
			}
			tok("b" + strconv.Itoa(x.Broker) + ":" + st)
		}
	}
	pp := map[int]*sim.Partition{}
	for i := range prev.Partitions {
		pp[prev.Partitions[i].Partition] = &prev.Partitions[i]
	}
	for i := range cur.Partitions {
		p := &cur.Partitions[i]
		o := pp[p.Partition]
		if o == nil {
			o = &sim.Partition{Leader: -1, LeaderEpoch: -1, HighWatermark: -1}
		}
		id := strconv.Itoa(p.Partition)
		var f []string
		if p.Leader != o.Leader {
			f = append(f, "l"+strconv.Itoa(p.Leader))
		}
		if p.LeaderEpoch != o.LeaderEpoch {
			f = append(f, "e"+strconv.Itoa(p.LeaderEpoch))
		}
		if ints(p.ISR) != ints(o.ISR) || o.Leader == -1 {
			f = append(f, "i"+ints(p.ISR))
		}
		if p.HighWatermark != o.HighWatermark {
			f = append(f, "h"+strconv.FormatInt(p.HighWatermark, 10))
		}
		if ints(p.Adding) != ints(o.Adding) || ints(p.Removing) != ints(o.Removing) {
			f = append(f, "a"+ints(p.Adding), "d"+ints(p.Removing))
		}
		if len(f) > 0 {
			tok("p" + id + ":" + strings.Join(f, " "))
		}
		pr := map[int]*sim.Replica{}
		for j := range o.Replicas {
			pr[o.Replicas[j].Broker] = &o.Replicas[j]
		}
		for j := range p.Replicas {
			r := &p.Replicas[j]
			q := pr[r.Broker]
			if q == nil {
				q = &sim.Replica{LogEndOffset: -1, HighWatermark: -1, Online: !r.Online}
			}
			var g []string
			if r.Online != q.Online {
				g = append(g, map[bool]string{true: "o", false: "x"}[r.Online])
			}
			if r.LogEndOffset != q.LogEndOffset {
				g = append(g, "l"+strconv.FormatInt(r.LogEndOffset, 10))
			}
			if r.HighWatermark != q.HighWatermark {
				g = append(g, "h"+strconv.FormatInt(r.HighWatermark, 10))
			}
			// The longest common prefix of the two logs; what follows is
			// truncated or appended.
			k := 0
			for k < len(r.Log) && k < len(q.Log) && r.Log[k] == q.Log[k] {
				k++
			}
			if k < len(q.Log) {
				g = append(g, "~"+strconv.Itoa(k))
			}
			for _, e := range r.Log[k:] {
				g = append(g, "+"+strconv.Itoa(e.Record)+"/"+strconv.Itoa(e.Epoch))
			}
			if len(g) > 0 {
				tok("r" + id + "." + strconv.Itoa(r.Broker) + ":" + strings.Join(g, " "))
			}
		}
	}
	pc := map[int]sim.Card{}
	for _, c := range prev.Producer.Cards {
		pc[c.Record] = c
	}
	now := map[int]bool{}
	for _, c := range cur.Producer.Cards {
		now[c.Record] = true
		if o, ok := pc[c.Record]; !ok || o != c {
			tok("c" + strconv.Itoa(c.Record) + ":" + c.Stage + "/" + strconv.Itoa(c.Attempt) + "/" + c.Outcome)
		}
	}
	for _, c := range prev.Producer.Cards {
		if !now[c.Record] {
			tok("c" + strconv.Itoa(c.Record) + "-")
		}
	}
	pg := map[string]*sim.Group{}
	for i := range prev.Groups {
		pg[prev.Groups[i].Group] = &prev.Groups[i]
	}
	for gi := range cur.Groups {
		g := &cur.Groups[gi]
		o := pg[g.Group]
		if o == nil {
			o = &sim.Group{GroupEpoch: -1}
		}
		gid := strconv.Itoa(gi)
		if g.GroupEpoch != o.GroupEpoch {
			tok("g" + gid + ":e" + strconv.Itoa(g.GroupEpoch))
		}
		om := map[string]string{}
		for _, m := range o.Members {
			om[m.Member] = memberText(m)
		}
		nm := map[string]bool{}
		for _, m := range g.Members {
			nm[m.Member] = true
			if s := memberText(m); om[m.Member] != s {
				tok("m" + gid + "." + m.Member + ":" + s)
			}
		}
		for _, m := range o.Members {
			if !nm[m.Member] {
				tok("m" + gid + "." + m.Member + "-")
			}
		}
		op := map[int]*sim.GroupPartition{}
		for i := range o.Partitions {
			op[o.Partitions[i].Partition] = &o.Partitions[i]
		}
		for i := range g.Partitions {
			p := &g.Partitions[i]
			q := op[p.Partition]
			if q == nil {
				q = &sim.GroupPartition{Position: -2, StartOffset: -2}
			}
			pid := gid + "." + strconv.Itoa(p.Partition)
			if !p.Share {
				s := p.Owner + "/" + strconv.FormatInt(p.Position, 10) + "/" + strconv.FormatInt(p.Committed, 10) + "/" + ints64(p.Reprocessed)
				t := q.Owner + "/" + strconv.FormatInt(q.Position, 10) + "/" + strconv.FormatInt(q.Committed, 10) + "/" + ints64(q.Reprocessed)
				if s != t {
					tok("q" + pid + ":" + s)
				}
				continue
			}
			if p.StartOffset != q.StartOffset {
				tok("s" + pid + ":" + strconv.FormatInt(p.StartOffset, 10))
			}
			or := map[int64]sim.ShareRecord{}
			for _, r := range q.Records {
				or[r.Offset] = r
			}
			nr := map[int64]bool{}
			for _, r := range p.Records {
				nr[r.Offset] = true
				if x, ok := or[r.Offset]; !ok || x != r {
					tok("x" + pid + "." + strconv.FormatInt(r.Offset, 10) + ":" + r.State + "/" + strconv.Itoa(r.DeliveryCount) + "/" + r.Member)
				}
			}
			for _, r := range q.Records {
				if !nr[r.Offset] {
					tok("x" + pid + "." + strconv.FormatInt(r.Offset, 10) + "-")
				}
			}
		}
	}
}

func memberText(m sim.Member) string {
	return ints(m.Partitions) + "/" + m.State + "/" + strconv.Itoa(m.Processing)
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func ints64(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, ",")
}
