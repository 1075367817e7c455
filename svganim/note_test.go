package svganim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// TestNotesCountDownToEviction reads the pictures, not the trace: on every
// beat of every figure the tests draw, a follower that the controller
// drops from the ISR for lagging (isr-shrink) showed a lag clock past
// replica.lag.time.max ("lag k/N", k > N, kf-lag-over) on the beat its
// leader proposed it; and each led partition's leader row reads its ISR
// size against min ISR, "<" exactly while the high watermark may not move.
func TestNotesCountDownToEviction(t *testing.T) {
	evictions := 0
	for _, nt := range allTraces(t) {
		s := newScene(nt.t)
		limit := nt.t.ReplicaLagTimeMax
		notes := make([]map[string]mark, len(nt.t.Beats))
		for bi := range nt.t.Beats {
			notes[bi] = map[string]mark{}
			for _, m := range s.draw(bi) {
				if strings.Contains(" "+m.cls+" ", " kf-note ") {
					notes[bi][m.id] = m
				}
			}
		}
		for bi := 1; bi < len(nt.t.Beats); bi++ {
			b := &nt.t.Beats[bi]
			for _, ev := range b.Events {
				if ev.Kind != sim.KindISRShrink {
					continue
				}
				for _, x := range ev.Removing {
					evictions++
					id := "lg-b" + itoa(x) + "-p" + itoa(ev.Partition)
					m, ok := notes[bi-1][id]
					if !ok || !strings.Contains(m.cls, "kf-lag-over") {
						t.Errorf("%s beat %d: broker %d leaves p%d's ISR, but the beat before its row read %q (%s)", nt.name, b.Beat, x, ev.Partition, m.text[0], m.cls)
						continue
					}
					var k, n int
					if _, err := fmt.Sscanf(m.text[0], "lag %d/%d", &k, &n); err != nil || n != limit || k <= limit {
						t.Errorf("%s beat %d: broker %d's clock read %q before it left, want lag k/%d with k > %d", nt.name, b.Beat, x, m.text[0], limit, limit)
					}
				}
			}
			for _, p := range b.Partitions {
				if p.Leader == 0 {
					continue
				}
				m, ok := notes[bi]["is-b"+itoa(p.Leader)+"-p"+itoa(p.Partition)]
				online := false
				for _, br := range b.Brokers {
					online = online || (br.Broker == p.Leader && br.Online)
				}
				if !online {
					continue
				}
				want := "ISR " + itoa(len(p.ISR)) + " / min " + itoa(p.MinInsyncReplicas)
				if p.UnderMinIsr {
					want = "ISR " + itoa(len(p.ISR)) + " < min " + itoa(p.MinInsyncReplicas)
				}
				if !ok || m.text[0] != want {
					t.Errorf("%s beat %d: p%d's leader row reads %q, want %q", nt.name, b.Beat, p.Partition, m.text[0], want)
				}
			}
		}
	}
	if evictions == 0 {
		t.Fatal("no figure drops a lagging follower: the test checks nothing")
	}
}
