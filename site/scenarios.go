package site

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
)

// FigureResult is what the build computes for one fence: the figure's HTML
// and the problems found, positioned relative to the fence body (so a
// cached result stays right when the fence moves within its page).
type FigureResult struct {
	// ScenarioID is the fence's id ("" when it did not parse); IDPos is
	// where its value is written, relative to the fence body.
	ScenarioID string
	IDPos      sim.Pos
	// FenceID and FenceIDPos are the fence's id as written, also when
	// the fence has errors (fence.Result.ID), for the duplicate-id check.
	FenceID    string
	FenceIDPos sim.Pos
	// HTML is the <figure> markup (nil when the fence has errors).
	HTML []byte
	// Assets are the scripts of a figure with knobs (fence.Result.Assets:
	// one per combination, nil for the default), written to the asset
	// folder at fence.VariantFile. Knobs are the figure's knobs, for the
	// checks of links that name their values.
	Assets [][]byte
	Knobs  []KnobInfo
	// Lasts is the last beat of each knob combination, in combination
	// order (fence.Result.Runs; the longer run of a side-by-side one),
	// and DefaultCombination the fence's own: a link to a beat is checked
	// against the combination it picks, since beats may itself be a knob.
	// Nil without knobs.
	Lasts              []int
	DefaultCombination int
	// Beats is the number of frames (beats 0..Scenario.Beats; of the
	// longer run of a fence with compare) and Records the number of
	// records the producer created (in both runs).
	Beats, Records int
	// Work is what the fence cost, as the site's limits count it; a hit
	// in the cache counts against them like a fence computed again.
	Work fence.Work
	// Problems are the fence's errors (fence.Result.Errors: parse errors,
	// failed expectations, invariant breaches), positioned relative to the
	// fence body (File empty).
	Problems sim.ErrorList

	// run is the fence's scenarios and traces, for Site.Figures. The
	// build never puts it into a Cache: a cache keeps markup, not traces.
	run *fence.Result
	// pending, for a figure with knobs whose other combinations are
	// not drawn yet (Options.DeferVariants), is what draws them.
	pending *pendingDraw
	// digest is the SHA-256 of HTML, taken once when the figure is drawn,
	// for the keys of the PageCache (pageKey), so that a save hashes no
	// unchanged figure's markup again; zero for a result from elsewhere
	// (a Cache that does not keep it), whose markup is hashed instead.
	digest [sha256.Size]byte
}

// KnobInfo is what a link check needs of a knob: its path in the fence
// and its values.
type KnobInfo struct {
	Path   string
	Values []string
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

// computeFigures computes every fence of every page and attaches each
// result to its fence (figureNode.result, and its HTML), returning every
// positioned error (unsorted). Each fence goes through the fence package
// once: looked up in the cache, else parsed (fence.Parse) — the parse the
// site's limits read — and, within the limits, run, checked and drawn
// (Parsed.Run, Result.Drawing), then named with its DOM id
// (Drawing.Named). Fences of the same body are one computation, shared
// (content-addressed: the same text gives the same scenario, traces and
// pictures; only the id, from the page's slug, differs): parsed once, run
// and drawn once, and named once on each page. Both passes are spread over
// GOMAXPROCS workers and gathered by fence index, so the outcome never
// depends on which worker finished first.
func computeFigures(pages []*Page, o *Options) sim.ErrorList {
	var jobs []figureJob
	for _, pg := range pages {
		for _, f := range pg.figures {
			jobs = append(jobs, figureJob{pg, f})
		}
	}
	results := make([]*FigureResult, len(jobs))
	parsed := make([]*fence.Parsed, len(jobs))
	keys := make([]string, len(jobs))
	if o.Cache != nil {
		parallel(len(jobs), func(i int) {
			j := jobs[i]
			if j.fig.Ordinal >= MaxFiguresPerPage {
				return // checkSiteLimits reports it; nothing is read
			}
			keys[i] = j.fig.cacheKey(o.EngineVersion, j.page.Slug)
			if r, ok := o.Cache.Get(keys[i]); ok {
				results[i] = r
			}
		})
	}
	// The fences left to parse, one per body: same[i] is the first job
	// with job i's body (in job order), which parses it for all of them.
	same := make([]int, len(jobs))
	var uniq []int
	first := map[string]int{}
	for i, j := range jobs {
		if j.fig.Ordinal >= MaxFiguresPerPage || results[i] != nil {
			same[i] = -1
			continue
		}
		k, ok := first[string(j.fig.Body)]
		if !ok {
			k = i
			first[string(j.fig.Body)] = i
			uniq = append(uniq, i)
		}
		same[i] = k
	}
	parallel(len(uniq), func(k int) {
		i := uniq[k]
		parsed[i] = fence.Parse(jobs[i].fig.Body)
	})
	for i, k := range same {
		if k >= 0 {
			parsed[i] = parsed[k]
		}
	}
	skip, errs := checkSiteLimits(jobs, results, parsed)
	// The bodies to run and draw, each with the fences that show it.
	members := map[int][]int{}
	var todo []int
	for i := range jobs {
		if skip[i] || results[i] != nil {
			continue
		}
		k := same[i]
		if members[k] == nil {
			todo = append(todo, k)
		}
		members[k] = append(members[k], i)
	}
	// The costliest first (frames drawn, knob combinations included), so
	// that the last to finish is a small one and no processor idles while
	// one big figure is drawn alone at the end; results are gathered by
	// fence index, so the order changes no byte.
	slices.SortStableFunc(todo, func(a, b int) int { return cmp.Compare(parsed[b].Work().Frames, parsed[a].Work().Frames) })
	// One level of workers: the bodies are spread over GOMAXPROCS of
	// them, and a figure draws its beats on its worker alone — unless
	// there are fewer bodies than processors (a save that changed one),
	// when each gets a share of the rest to draw its beats with.
	drawWorkers := max(1, runtime.GOMAXPROCS(0)/max(1, len(todo)))
	deferring := o.DeferVariants && o.Cache != nil && !o.KeepRuns
	parallel(len(todo), func(t int) {
		k := todo[t]
		run := parsed[k].Run()
		fo := fence.Options{Workers: drawWorkers}
		work := parsed[k].Work()
		ids := make([]func(string) string, len(members[k]))
		for m, i := range members[k] {
			slug := jobs[i].page.Slug
			ids[m] = func(id string) string { return FigureID(slug, id) }
		}
		var d *fence.Drawing
		var later *pendingDraw
		named := make([]*fence.Result, len(members[k]))
		if deferring && len(run.Knobs) > 0 && run.Trace != nil && len(run.Errors) == 0 {
			// The default combination alone, unless it fails to draw on
			// some page: then the whole figure, as a build that does not
			// defer draws it, so that the error is that build's.
			d = run.PageDrawing(fo)
			later = &pendingDraw{d: d, variants: len(run.Variants), def: run.Default}
			for m := range members[k] {
				fo.ID = ids[m]
				if named[m] = d.Named(fo); named[m].HTML == nil {
					later = nil
				}
			}
			if later == nil {
				d.DrawRest(fo)
				clear(named)
			}
		} else {
			d = run.Drawing(fo)
		}
		for m, i := range members[k] {
			fo.ID = ids[m]
			if named[m] == nil {
				named[m] = d.Named(fo)
			}
			r := figureResult(named[m], work, o.Cache != nil || o.Pages != nil)
			if !o.KeepRuns {
				r.run = nil
			}
			if later != nil {
				// Into the Cache once whole (DrawPending).
				r.pending = later
				later.members = append(later.members, pendingMember{r: r, key: keys[i], id: fo.ID})
			} else if o.Cache != nil {
				c := *r
				c.run = nil
				o.Cache.Put(keys[i], &c)
			}
			results[i] = r
		}
		for _, i := range members[k] {
			parsed[i] = nil // its scenario is in the results' runs, or gone with them
		}
	})

	ids := map[*Page]map[string]int{} // scenario id → file line of its first use
	for i, j := range jobs {
		r := results[i]
		if skip[i] {
			r = &FigureResult{}
		}
		j.fig.result, j.fig.HTML = r, r.HTML
		for _, p := range r.Problems {
			errs = append(errs, sim.Error{File: j.page.File, Pos: j.fig.filePos(p.Pos), Msg: p.Msg})
		}
		if r.FenceID != "" {
			if ids[j.page] == nil {
				ids[j.page] = map[string]int{}
			}
			dom := j.fig.domID(j.page.Slug, r.FenceID)
			pos := j.fig.filePos(r.FenceIDPos)
			if first, dup := ids[j.page][dom]; dup {
				errs = append(errs, sim.Error{File: j.page.File, Pos: pos,
					Msg: fmt.Sprintf("duplicate figure id %q on this page (line %d uses it already): give each figure its own id", r.FenceID, first)})
				continue
			}
			ids[j.page][dom] = pos.Line
		}
	}
	return errs
}

// parallel calls f(0) … f(n-1) on up to GOMAXPROCS goroutines and returns
// when every call has.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// figureResult is the FigureResult of a fence run and drawn (run, named
// with its DOM id) that cost work; digest says whether to take the
// SHA-256 of its markup, which only a build with a Cache or a PageCache
// reads.
func figureResult(run *fence.Result, work fence.Work, digest bool) *FigureResult {
	r := &FigureResult{HTML: run.HTML, Assets: run.Assets, Work: work, Problems: run.Errors, run: run}
	if r.HTML != nil && digest {
		r.digest = sha256.Sum256(r.HTML)
	}
	for _, k := range run.Knobs {
		r.Knobs = append(r.Knobs, KnobInfo{Path: k.Path, Values: k.Values})
	}
	if len(run.Knobs) > 0 {
		r.Lasts, r.DefaultCombination = make([]int, len(run.Runs)), run.Default
		for i, rn := range run.Runs {
			n := 0
			for _, t := range []*sim.Trace{rn.Trace, rn.CompareTrace} {
				if t != nil {
					n = max(n, len(t.Beats))
				}
			}
			r.Lasts[i] = n - 1
		}
	}
	if sc := run.Scenario; sc != nil {
		r.ScenarioID, r.IDPos = sc.ID, sc.IDPos
	}
	r.FenceID, r.FenceIDPos = run.ID, run.IDPos
	for _, t := range []*sim.Trace{run.Trace, run.CompareTrace} {
		if t != nil {
			r.Beats, r.Records = max(r.Beats, len(t.Beats)), r.Records+len(t.Records)
		}
	}
	return r
}

// pendingDraw is a figure with knobs whose page markup a build drew
// without its other combinations (Options.DeferVariants): d draws them,
// for each page that shows the figure (members: the same body on several
// pages is drawn once). variants is the number of combinations, def the
// default's index.
type pendingDraw struct {
	d             *fence.Drawing
	variants, def int
	members       []pendingMember
}

// pendingMember is one page's figure of a pendingDraw: its result, which
// gets the scripts, its Cache key and its DOM id.
type pendingMember struct {
	r   *FigureResult
	key string
	id  func(string) string
}

// DrawPending draws every variant script Generate left pending
// (Site.Pending, Options.DeferVariants), adds them to Files and puts
// their figures, whole, into the build's Cache: the Site is then byte for
// byte a build without DeferVariants. Figures are drawn on GOMAXPROCS
// workers. An error means a combination failed to draw, which fails a
// build that does not defer: build again without DeferVariants for that
// build's errors (the failed figures are not in the Cache); the Site must
// not be used.
func (s *Site) DrawPending() error {
	if len(s.draws) == 0 {
		return nil
	}
	files := make([][]File, len(s.draws))
	failed := make([]bool, len(s.draws))
	workers := max(1, runtime.GOMAXPROCS(0)/len(s.draws))
	parallel(len(s.draws), func(k int) {
		pd := s.draws[k]
		pd.d.DrawRest(fence.Options{Workers: workers})
		for _, m := range pd.members {
			full := pd.d.Named(fence.Options{ID: m.id})
			if full.HTML == nil || len(full.Assets) != pd.variants {
				failed[k] = true
				return
			}
			m.r.Assets, m.r.pending = full.Assets, nil
			id := full.Scenario.ID
			for i, a := range full.Assets {
				if a != nil {
					files[k] = append(files[k], File{Path: AssetDir + "/" + fence.VariantFile(m.id(id), i), Data: a})
				}
			}
			if s.cache != nil {
				c := *m.r
				c.run = nil
				s.cache.Put(m.key, &c)
			}
		}
	})
	s.draws = nil
	for k := range files {
		if failed[k] {
			return fmt.Errorf("a figure with knobs failed to draw one of its combinations")
		}
		s.Files = append(s.Files, files[k]...)
	}
	s.Pending = nil
	slices.SortFunc(s.Files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
	return nil
}
