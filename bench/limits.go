package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// LimitsPath is the name LimitsPage's page takes in a content folder.
const LimitsPath = "limits.md"

// LimitsPage returns a guide page whose one ```kflow fence sits at every
// size limit of package sim at once: sim.MaxBeats beats, sim.MaxBrokers
// brokers, sim.MaxPartitions partitions of sim.MaxReplicationFactor
// replicas, sim.MaxRecords records over sim.MaxKeys keys, sim.MaxGroups
// groups (two consumer, two share) of sim.MaxMembers members each,
// sim.MaxTimeline timeline entries (a broker crash, pause, restart and
// resume every eight beats, then members leaving and stopping), and
// sim.MaxExpect expectations; comment lines pad the fence body to exactly
// sim.MaxFenceBytes bytes. Every expectation is fixed by the numbering
// rules alone (the preferred leaders, the full ISR and empty logs at beat
// 0), so the page builds whatever the engine's later choices.
//
// The benchmark times its build against the guide's budget; the tests
// check that it parses to the limits and that one byte more is refused.
func LimitsPage() []byte {
	body := LimitsFence()
	return []byte("---\ntitle: A scenario at every limit\nweight: 1000\n---\n\n" +
		"Everything at its maximum at once.\n\n```kflow\n" + string(body) + "```\n")
}

// LimitsFence returns the body of LimitsPage's fence: exactly
// sim.MaxFenceBytes bytes of YAML, ending in a newline.
func LimitsFence() []byte {
	return limitsFence(true)
}

// limitsFence writes the limits scenario, padded to sim.MaxFenceBytes or,
// without pad, as short as it comes.
func limitsFence(pad bool) []byte {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("id: at-the-limits")
	w("title: every size limit at once")
	w("seed: 7")
	w("brokers: %d", sim.MaxBrokers)
	w("beats: %d", sim.MaxBeats)
	w("topic: {partitions: %d, replication.factor: %d, min.insync.replicas: 2, replica.lag.time.max: 6}",
		sim.MaxPartitions, sim.MaxReplicationFactor)
	keys := make([]string, sim.MaxKeys)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i+1)
	}
	w("producer: {acks: all, records: %d, keys: [%s], interval: 1, start: 1}", sim.MaxRecords, strings.Join(keys, ", "))
	consumer, share := sim.MaxGroups/2, sim.MaxGroups-sim.MaxGroups/2
	w("consumer.groups:")
	for g := 1; g <= consumer; g++ {
		w("  - {id: c%d, members: %d, auto.offset.reset: earliest}", g, sim.MaxMembers)
	}
	w("share.groups:")
	for g := 1; g <= share; g++ {
		w("  - {id: s%d, members: %d, share.auto.offset.reset: earliest}", g, sim.MaxMembers)
	}

	// The timeline: every eight beats one broker crashes and later
	// restarts while another pauses and resumes; the last eight entries
	// make members leave and stop.
	w("timeline:")
	type entry struct {
		at   int
		text string
	}
	var tl []entry
	const tail = 8
	for i := 0; len(tl)+4 <= sim.MaxTimeline-tail; i++ {
		c, p := i%sim.MaxBrokers+1, (i+4)%sim.MaxBrokers+1
		at := 2 + 8*i
		tl = append(tl, entry{at, fmt.Sprintf("crash: %d", c)}, entry{at + 2, fmt.Sprintf("pause: %d", p)},
			entry{at + 4, fmt.Sprintf("restart: %d", c)}, entry{at + 6, fmt.Sprintf("resume: %d", p)})
	}
	end := tl[len(tl)-1].at
	step := max((sim.MaxBeats-end)/(tail+1), 1)
	for i := range tail {
		at := min(end+step*(i+1), sim.MaxBeats)
		var text string
		switch i % 4 {
		case 0:
			text = fmt.Sprintf("leave: c1-%d", i+1)
		case 1:
			text = fmt.Sprintf("leave: c2-%d", i+1)
		case 2:
			text = fmt.Sprintf("stop: s1-%d", i+1)
		default:
			text = fmt.Sprintf("stop: s2-%d", i+1)
		}
		tl = append(tl, entry{at, text})
	}
	for _, e := range tl {
		w("  - {at: %d, %s}", e.at, e.text)
	}

	// Expectations that follow from the numbering rules alone: partition
	// p's replicas are brokers ((p+i) mod N)+1, the first leads, and at
	// beat 0 every replica is online, in the ISR and empty. No broker
	// fails before beat 2 and the ISR cannot shrink before
	// replica.lag.time.max has passed, so beat 1 still holds the same
	// leaders and ISR.
	w("expect:")
	n := 0
	replicas := func(p int) []int {
		r := make([]int, sim.MaxReplicationFactor)
		for i := range r {
			r[i] = (p+i)%sim.MaxBrokers + 1
		}
		return r
	}
	list := func(v []int) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.Itoa(x)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	for p := range sim.MaxPartitions {
		r := replicas(p)
		w("  - {at: 0, partition: %d, leader: %d, leaderEpoch: 0, isr: %s, highWatermark: 0}", p, r[0], list(r))
		n += 4
		for _, br := range r {
			w("  - {at: 0, partition: %d, broker: %d, logEndOffset: 0, online: true}", p, br)
			n += 2
		}
	}
	for p := 0; n < sim.MaxExpect; p++ {
		r := replicas(p % sim.MaxPartitions)
		switch {
		case n+3 <= sim.MaxExpect:
			w("  - {at: 1, partition: %d, leader: %d, leaderEpoch: 0, isr: %s}", p%sim.MaxPartitions, r[0], list(r))
			n += 3
		default:
			w("  - {at: 1, partition: %d, leader: %d}", p%sim.MaxPartitions, r[0])
			n++
		}
	}

	if !pad {
		return []byte(b.String())
	}
	// Pad with comment lines to exactly the size limit.
	const line = "# padding up to the fence size limit\n"
	for sim.MaxFenceBytes-b.Len() >= 2*len(line) {
		b.WriteString(line)
	}
	switch rest := sim.MaxFenceBytes - b.Len(); {
	case rest >= 2:
		b.WriteString("#" + strings.Repeat("-", rest-2) + "\n")
	case rest == 1:
		b.WriteString("\n")
	}
	return []byte(b.String())
}
