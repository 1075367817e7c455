package serve

import (
	"sync"

	"github.com/kafkaflow/kflowgen/site"
)

// keepBuilds is how many builds a scenario result survives without being
// used. Two would do for "break a fence, then undo": the good result is
// used by build N, missed by the broken build N+1 and wanted again by
// N+2. A few more cover an author trying several values in a row.
const keepBuilds = 4

// genCache is the server's site.Cache: a map of scenario results that
// remembers which build last used each entry and forgets entries unused
// for keepBuilds builds. Safe for concurrent use (the build runs fences on
// several goroutines).
type genCache struct {
	mu           sync.Mutex
	build        int
	m            map[string]cacheEntry
	hits, misses int
}

type cacheEntry struct {
	r    *site.FigureResult
	used int // the last build that got or put it
}

func newGenCache() *genCache {
	return &genCache{m: map[string]cacheEntry{}}
}

// Get implements site.Cache; a hit marks the entry as used by this build.
func (c *genCache) Get(key string) (*site.FigureResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok {
		c.misses++
		return nil, false
	}
	c.hits++
	e.used = c.build
	c.m[key] = e
	return e.r, true
}

// Put implements site.Cache.
func (c *genCache) Put(key string, r *site.FigureResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = cacheEntry{r: r, used: c.build}
}

// begin starts a build and returns the lookup counters so far.
func (c *genCache) begin() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.build++
	return c.hits, c.misses
}

// end finishes a build: it drops entries unused for keepBuilds builds and
// returns this build's hits and misses (counters minus begin's).
func (c *genCache) end(hits0, misses0 int) (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.m {
		if c.build-e.used >= keepBuilds {
			delete(c.m, k)
		}
	}
	return c.hits - hits0, c.misses - misses0
}

// len returns the number of results held.
func (c *genCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
