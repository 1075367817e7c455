package svganim

import (
	"testing"
)

func TestWeightReport(t *testing.T) {
	tr := acksOneLoss()
	fig, err := Figure(tr, Options{ID: "w"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("acks-one-loss (hand): %s", Measure(tr, fig))
}

func TestWeightFullFrames(t *testing.T) {
	tr := acksOneLoss()
	fig, err := Figure(tr, Options{ID: "w", FullFrames: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("acks-one-loss (hand), full frames: %s", Measure(tr, fig))
}

func TestWeightGuide(t *testing.T) {
	for _, nt := range append(guideTraces(t), testdataTraces(t)...) {
		for _, full := range []bool{false, true} {
			fig, err := Figure(nt.t, Options{ID: "w", FullFrames: full})
			if err != nil {
				t.Fatal(err)
			}
			mode := "tracks"
			if full {
				mode = "frames"
			}
			t.Logf("%-14s %s: %s", nt.name, mode, Measure(nt.t, fig))
		}
	}
}
