package svganim

import (
	"fmt"
	"testing"
)

// TestUncommittedCellsPale: at every beat of every guide and test figure,
// a replica's cell is drawn pale (kf-uc) exactly when its offset is at or
// above that replica's high watermark, as reading-figures.md says: a cell
// drawn at one beat and kept at the next (drawFrame keeps the cells two
// beats share) is drawn again when the high watermark passes it.
func TestUncommittedCellsPale(t *testing.T) {
	cells := 0
	for _, nt := range allTraces(t) {
		u := unite(newScene(nt.t))
		for bi := range nt.t.Beats {
			ms, gone := u.beat(bi)
			for i := range ms {
				var broker, partition, offset int
				if gone[i] || !hasClass(ms[i].cls, "kf-cell") {
					continue
				}
				if _, err := fmt.Sscanf(ms[i].id, "c-b%d-p%d-%d", &broker, &partition, &offset); err != nil {
					t.Fatalf("%s: cell id %q: %v", nt.name, ms[i].id, err)
				}
				_, rep := replicaAt(&nt.t.Beats[bi], partition, broker)
				if rep == nil {
					t.Fatalf("%s beat %d: cell %s of no replica", nt.name, bi, ms[i].id)
				}
				if want := int64(offset) >= rep.HighWatermark; hasClass(ms[i].cls, "kf-uc") != want {
					t.Errorf("%s beat %d: cell %s (high watermark %d) pale: %t, want %t", nt.name, bi, ms[i].id, rep.HighWatermark, !want, want)
				}
				cells++
			}
		}
	}
	if cells < 1000 {
		t.Errorf("checked %d cells", cells)
	}
}
