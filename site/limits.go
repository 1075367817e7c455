package site

import (
	"fmt"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
)

// Limits on a whole page and a whole site, beside the limits on one
// scenario (sim.MaxBeats and the rest). Without them a page of a thousand
// fences at the scenario limits builds for half a minute into 3 GB of
// memory and a 0.5 GB page; serve would die on one save.
const (
	// MaxFiguresPerPage is how many ```kflow fences one page may hold.
	MaxFiguresPerPage = 100
	// MaxRecordBeats bounds the work of a whole build: the sum over every
	// figure of fence.Work.RecordBeats (fence.MaxRecordBeats, which one
	// fence alone must keep too).
	MaxRecordBeats = fence.MaxRecordBeats
	// MaxFrames bounds the frames of a whole build, summed the same way
	// (fence.MaxFrames).
	MaxFrames = fence.MaxFrames
)

// checkSiteLimits reports, at its opening line, the first fence of a page
// beyond MaxFiguresPerPage and the fence that takes the site past
// MaxRecordBeats or MaxFrames. It reads each fence's cost from its cached
// result or from its parse (fence.Parsed.Work), so no fence is parsed
// twice; a fence with errors costs nothing.
// skip says which jobs not to compute: those past a limit and, once the
// site is over MaxRecordBeats or MaxFrames, every fence that costs work,
// those before the one that crossed it too, so that a build that will fail
// spends none of the time and memory the limit guards (a site of 188
// figures at the broker, partition and member limits, over MaxFrames,
// took 18 s and 777 MB to run and draw the 187 before its error). A fence
// that costs nothing (it does not parse) is still computed, so that its
// errors are told beside the limit's, cold or from the cache alike.
func checkSiteLimits(jobs []figureJob, cached []*FigureResult, parsed []*fence.Parsed) (skip []bool, errs sim.ErrorList) {
	skip = make([]bool, len(jobs))
	total, frames := 0, 0
	over := false
	for i, j := range jobs {
		if j.fig.Ordinal >= MaxFiguresPerPage {
			skip[i] = true
			if j.fig.Ordinal == MaxFiguresPerPage {
				errs = append(errs, sim.Error{File: j.page.File, Pos: sim.Pos{Line: j.fig.OpenLine, Col: 1},
					Msg: fmt.Sprintf("too many figures on this page: Kafka Flow allows at most %d; split the page", MaxFiguresPerPage)})
			}
			continue
		}
		if over {
			skip[i] = true
			continue
		}
		var w fence.Work
		if cached[i] != nil {
			w = cached[i].Work
		} else {
			w = parsed[i].Work()
		}
		total, frames = total+w.RecordBeats, frames+w.Frames
		switch {
		case total > MaxRecordBeats:
			over, skip[i] = true, true
			errs = append(errs, sim.Error{File: j.page.File, Pos: sim.Pos{Line: j.fig.OpenLine, Col: 1},
				Msg: fmt.Sprintf("this figure takes the site to %d record-beats (beats × records, summed over every figure): Kafka Flow allows at most %d; use fewer beats or records, or fewer figures", total, MaxRecordBeats)})
		case frames > MaxFrames:
			over, skip[i] = true, true
			errs = append(errs, sim.Error{File: j.page.File, Pos: sim.Pos{Line: j.fig.OpenLine, Col: 1},
				Msg: fmt.Sprintf("this figure takes the site to %d frames (beats, counting beat 0, summed over every figure): Kafka Flow allows at most %d; use fewer beats or fewer figures", frames, MaxFrames)})
		}
	}
	if over {
		for i := range jobs {
			if cached[i] != nil && cached[i].Work != (fence.Work{}) || parsed[i] != nil && parsed[i].Work() != (fence.Work{}) {
				skip[i] = true
			}
		}
	}
	return skip, errs
}
