package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"sync"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/svganim"
)

// FigureResult is what the build computes for one fence: the figure's HTML
// and the problems found, positioned relative to the fence body (so a
// cached result stays right when the fence moves within its page).
type FigureResult struct {
	// ScenarioID is the fence's id ("" when it did not parse); IDPos is
	// where its value is written, relative to the fence body.
	ScenarioID string
	IDPos      sim.Pos
	// HTML is the <figure> markup (nil when the fence has errors).
	HTML []byte
	// Beats is the number of frames (beats 0..Scenario.Beats) and Records
	// the number of records the producer created (in both runs of a fence
	// with compare).
	Beats, Records int
	// Problems are parse errors and failed expectations, positioned
	// relative to the fence body (File empty), in the order the parser and
	// sim.Check gave them.
	Problems sim.ErrorList
}

// Cache keeps FigureResults between builds (serve mode rebuilds on every
// save; unchanged fences need not be simulated again). Keys come from
// CacheKey. Implementations must be safe for concurrent use; a hit must
// return exactly what was Put, so that a build from the cache is byte for
// byte the build without it.
type Cache interface {
	Get(key string) (*FigureResult, bool)
	Put(key string, r *FigureResult)
}

// CacheKey returns the cache key of a fence: a SHA-256 over the engine
// version, the page's slug (which with the fence body fixes the figure's
// DOM id) and the fence body, so a change to any of them misses.
func CacheKey(engineVersion, slug string, body []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s\x00%d:%s\x00", len(engineVersion), engineVersion, len(slug), slug)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// MemoryCache is a Cache held in memory, safe for concurrent use.
type MemoryCache struct {
	mu sync.Mutex
	m  map[string]*FigureResult
	// Hits and Misses count lookups, for tests and benchmarks.
	Hits, Misses int
}

// NewMemoryCache returns an empty MemoryCache.
func NewMemoryCache() *MemoryCache {
	return &MemoryCache{m: map[string]*FigureResult{}}
}

// Get implements Cache.
func (c *MemoryCache) Get(key string) (*FigureResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[key]
	if ok {
		c.Hits++
	} else {
		c.Misses++
	}
	return r, ok
}

// Put implements Cache.
func (c *MemoryCache) Put(key string, r *FigureResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = r
}

// figureJob is one fence of one page waiting for the scenario pass.
type figureJob struct {
	page *Page
	fig  *figureNode
}

// computeFigures parses, simulates, checks and draws every fence of every
// page, spread over GOMAXPROCS workers. Results are gathered by job index,
// so the outcome never depends on which worker finished first. It fills
// each figure's HTML and returns every positioned error (unsorted) plus the
// per-figure results in page order.
func computeFigures(pages []*Page, o *Options) ([]*FigureResult, sim.ErrorList) {
	var jobs []figureJob
	for _, pg := range pages {
		for _, f := range pg.figures {
			jobs = append(jobs, figureJob{pg, f})
		}
	}
	skip, errs := checkSiteLimits(jobs)
	results := make([]*FigureResult, len(jobs))
	for i := range jobs {
		if skip[i] {
			results[i] = &FigureResult{}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = cachedFigure(jobs[i], o)
			}
		}()
	}
	for i := range jobs {
		if !skip[i] {
			next <- i
		}
	}
	close(next)
	wg.Wait()

	ids := map[*Page]map[string]int{} // scenario id → file line of its first use
	for i, j := range jobs {
		r := results[i]
		for _, p := range r.Problems {
			errs = append(errs, sim.Error{File: j.page.File, Pos: j.fig.filePos(p.Pos), Msg: p.Msg})
		}
		if r.ScenarioID != "" {
			if ids[j.page] == nil {
				ids[j.page] = map[string]int{}
			}
			dom := FigureID(j.page.Slug, r.ScenarioID)
			pos := j.fig.filePos(r.IDPos)
			if first, dup := ids[j.page][dom]; dup {
				errs = append(errs, sim.Error{File: j.page.File, Pos: pos,
					Msg: fmt.Sprintf("duplicate figure id %q on this page (line %d uses it already): give each figure its own id", r.ScenarioID, first)})
				continue
			}
			ids[j.page][dom] = pos.Line
		}
		j.fig.HTML = r.HTML
	}
	return results, errs
}

// cachedFigure returns the job's result from the cache or computes it.
func cachedFigure(j figureJob, o *Options) *FigureResult {
	if o.Cache == nil {
		return computeFigure(j.page.Slug, j.fig.Body)
	}
	key := CacheKey(o.EngineVersion, j.page.Slug, j.fig.Body)
	if r, ok := o.Cache.Get(key); ok {
		return r
	}
	r := computeFigure(j.page.Slug, j.fig.Body)
	o.Cache.Put(key, r)
	return r
}

// InternalError starts the message of a problem that is not the user's
// mistake but a bug in Kafka Flow: a panic (a broken invariant) in the
// engine or the renderer while computing a figure. The build reports it at
// the fence instead of crashing, so serve mode stays up; tests and fuzzers
// treat such a message as a failure.
const InternalError = "internal error"

// computeFigure runs one fence through the parser, the engine, the
// expectation check and the renderer.
func computeFigure(slug string, body []byte) (r *FigureResult) {
	defer func() {
		if p := recover(); p != nil {
			r = &FigureResult{Problems: sim.ErrorList{{Pos: sim.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf(
				"%s while building this figure (a bug in Kafka Flow, not in the page; please report it with this fence): %v", InternalError, p)}}}
		}
	}()
	r = &FigureResult{}
	sc, variant, perrs := scenario.ParseCompare(body)
	r.Problems = append(r.Problems, perrs...)
	if len(perrs) > 0 || sc == nil {
		return r
	}
	r.ScenarioID, r.IDPos = sc.ID, sc.IDPos
	t := sim.Run(sc)
	r.Problems = append(r.Problems, sim.Check(sc, t)...)
	r.Beats = len(t.Beats)
	r.Records = len(t.Records)
	o := svganim.Options{ID: FigureID(slug, sc.ID)}
	var html []byte
	var err error
	if variant == nil {
		html, err = svganim.Figure(t, o)
	} else {
		// A fence with compare: run the second scenario too, check its
		// claims, and draw both runs as one side-by-side figure.
		vt := sim.Run(variant)
		for _, f := range sim.Check(variant, vt) {
			f.Msg = "compare run: " + f.Msg
			r.Problems = append(r.Problems, f)
		}
		r.Beats = max(r.Beats, len(vt.Beats))
		r.Records += len(vt.Records)
		html, err = svganim.FigureCompare(t, vt, o)
	}
	if err != nil {
		r.Problems = append(r.Problems, sim.Error{Pos: sc.Pos, Msg: "cannot draw the figure: " + err.Error()})
		return r
	}
	r.HTML = html
	return r
}
