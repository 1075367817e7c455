package site

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"io/fs"
	"sync"
)

// PageCache keeps the rendered pages of the last build, so that the next
// build (serve's, after a save) renders only the pages whose inputs
// changed. A page's key (pageKey) covers everything its output is made
// of: the templates' text, the site's title, the page set, the page's own
// source (front matter, Markdown, fences), its figures' markup, and the
// navigation every page shows (each page's link, title and summary, in
// site order, and which one is current). A hit returns the bytes the
// same inputs rendered before, so a build from the cache is byte for byte
// a build without it (TestIncrementalMatchesCold checks it on random edit
// sequences). Safe for concurrent use; the zero value is ready.
type PageCache struct {
	mu   sync.Mutex
	last map[string][]byte // the last successful build's pages, by key
	next map[string][]byte // this build's, filled as pages render
	// Rendered and Reused count the pages of the last build that were
	// rendered and taken from the cache, for tests and the log.
	Rendered, Reused int
}

func (c *PageCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.last[key]
	if ok {
		c.Reused++
	} else {
		c.Rendered++
	}
	return b, ok
}

func (c *PageCache) put(key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == nil {
		c.next = map[string][]byte{}
	}
	c.next[key] = b
}

// begin starts a build.
func (c *PageCache) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next, c.Rendered, c.Reused = nil, 0, 0
}

// commit keeps this build's pages for the next one; a build that failed
// before rendering never commits, so the last good build's pages stay.
func (c *PageCache) commit() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last, c.next = c.next, nil
}

// templatesDigest hashes the layouts a page is rendered with.
func templatesDigest(tfs fs.FS) ([]byte, error) {
	h := sha256.New()
	for _, name := range []string{"layout.html", "index.html"} {
		b, err := fs.ReadFile(tfs, name)
		if err != nil {
			return nil, err
		}
		writeField(h, string(b))
	}
	return h.Sum(nil), nil
}

// writeField writes s length-prefixed, so that no two field lists hash
// alike.
func writeField(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

// pageKey is the PageCache key of page i of pages: see PageCache for what
// it covers. pageSet lists every content path, index.md included.
func pageKey(tmpl []byte, siteTitle string, pageSet []string, pages []*Page, i int) string {
	h := sha256.New()
	h.Write(tmpl)
	writeField(h, siteTitle)
	for _, p := range pageSet {
		writeField(h, p)
	}
	writeField(h, "\x00nav")
	for _, p := range pages {
		writeField(h, outName(p))
		writeField(h, p.Title)
		writeField(h, p.Summary)
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(i))
	h.Write(n[:])
	pg := pages[i]
	writeField(h, pg.Path)
	writeField(h, string(pg.src))
	for _, f := range pg.figures {
		writeField(h, string(f.HTML))
	}
	return string(h.Sum(nil))
}
