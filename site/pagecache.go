package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash"
	"html/template"
	"io"
	"io/fs"
	"reflect"
	"slices"
	"sync"

	"github.com/kafkaflow/kflowgen/sim"
)

// PageCache keeps the rendered pages of the last build, so that the next
// build (serve's, after a save) renders only the pages whose inputs
// changed. A page's key (pageKey) covers everything its output is made
// of: the templates' text; everything the layout shows but the page's
// text — its title and summary, its table of contents, the links to the
// site's root, and the navigation: its own section's pages (each one's
// link, title and summary, in order, and which one is current), the
// list of sections (each one's link, title and summary) and prev/next;
// and the page's own source (front matter, Markdown, fences), its
// figures' markup and its links as the build rewrote them. A page's
// navigation shows its own section alone, so an edit in one section
// (a title, a weight, a page added or removed) renders the pages of
// that section again and no other, unless it changes what the list of
// sections shows. A hit returns the bytes the same inputs rendered
// before, so a build from the cache is byte for byte a build without it
// (TestIncrementalMatchesCold checks it on random edit sequences). Safe
// for concurrent use; the zero value is ready.
type PageCache struct {
	mu   sync.Mutex
	last map[string][]byte // the last successful build's pages, by key
	next map[string][]byte // this build's, filled as pages render
	// lastParsed and nextParsed hold the parsed pages of the last
	// successful build and of this one, by content path: a page whose
	// file and bytes are the same is not parsed again (getParsed).
	lastParsed, nextParsed map[string]*keptParse
	// lastNav and nextNav hold each section's navigation entries as
	// drawn (navHTML), by navKey: a build that renders a page of a
	// section whose navigation did not change draws none of it again.
	lastNav, nextNav map[string]*navHTML
	// links holds each page's last link check (checkLinks), by page:
	// kept whether or not its build succeeded, since the check rewrote
	// the page's links either way.
	links map[*Page]*linkMemo
	// css holds each stylesheet of the templates minified, with the
	// bytes it was minified from, by name (minifiedCSS).
	css map[string][2][]byte
	// Rendered and Reused count the pages of the last build that were
	// rendered and taken from the cache, for tests and the log; Linked
	// the pages whose links it checked (the others' last check stood:
	// checkPageLinks).
	Rendered, Reused, Linked int
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

// keptParse is one page as parsePage left it, with the bytes it was
// parsed from.
type keptParse struct {
	file string
	src  []byte
	pg   *Page
	errs sim.ErrorList
}

// getParsed returns the page at content path p parsed by the last build,
// when it was parsed from the same file name and bytes, and keeps it for
// the next build. Generate reassigns everything a build sets on a page
// (its figures' results, its links: see resolveLinks), so a kept page
// builds as a fresh parse does.
func (c *PageCache) getParsed(p, file string, src []byte) (*Page, sim.ErrorList, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lastParsed[p]
	if !ok || e.file != file || !sameBytes(e.src, src) {
		return nil, nil, false
	}
	c.putParsedLocked(p, e)
	return e.pg, e.errs, true
}

// putParsed keeps a page parsed by this build.
func (c *PageCache) putParsed(p, file string, src []byte, pg *Page, errs sim.ErrorList) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putParsedLocked(p, &keptParse{file: file, src: src, pg: pg, errs: errs})
}

func (c *PageCache) putParsedLocked(p string, e *keptParse) {
	if c.nextParsed == nil {
		c.nextParsed = map[string]*keptParse{}
	}
	c.nextParsed[p] = e
}

// getNav returns the navigation entries drawn under key by the last
// build, and keeps them for the next.
func (c *PageCache) getNav(key string) (*navHTML, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.lastNav[key]
	if ok {
		c.putNavLocked(key, n)
	}
	return n, ok
}

// putNav keeps navigation entries drawn by this build.
func (c *PageCache) putNav(key string, n *navHTML) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putNavLocked(key, n)
}

func (c *PageCache) putNavLocked(key string, n *navHTML) {
	if c.nextNav == nil {
		c.nextNav = map[string]*navHTML{}
	}
	c.nextNav[key] = n
}

// linkMemos returns the pages' last link checks, for the build's own
// goroutine (checkLinks) to read and update.
func (c *PageCache) linkMemos() map[*Page]*linkMemo {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.links == nil {
		c.links = map[*Page]*linkMemo{}
	}
	return c.links
}

// minifiedCSS is minifyCSS(name, b), kept: a stylesheet whose bytes are
// the ones minified last time is given the same minified bytes. A nil
// PageCache keeps nothing.
func (c *PageCache) minifiedCSS(name string, b []byte) ([]byte, error) {
	if c == nil {
		return minifyCSS(name, b)
	}
	c.mu.Lock()
	kept, ok := c.css[name]
	c.mu.Unlock()
	if ok && sameBytes(kept[0], b) {
		return kept[1], nil
	}
	out, err := minifyCSS(name, b)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.css == nil {
		c.css = map[string][2][]byte{}
	}
	c.css[name] = [2][]byte{b, out}
	return out, nil
}

// begin starts a build.
func (c *PageCache) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next, c.nextParsed, c.nextNav, c.Rendered, c.Reused, c.Linked = nil, nil, nil, 0, 0, 0
}

// commit keeps this build's pages for the next one; a build that failed
// before rendering never commits, so the last good build's pages stay.
func (c *PageCache) commit() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last, c.next = c.next, nil
	c.lastParsed, c.nextParsed = c.nextParsed, nil
	c.lastNav, c.nextNav = c.nextNav, nil
}

// navKey is the PageCache key of a section's navigation entries drawn
// with the layout's "nav-item" template: the templates' digest and the
// section's navigation (sectionNav.digest covers every field drawn).
func navKey(tmpl []byte, sn *sectionNav) string {
	h := sha256.New()
	h.Write(tmpl)
	writeField(h, "\x00nav")
	h.Write(sn.digest)
	return string(h.Sum(nil))
}

// renderWhole renders a page that is not a renderJob (the home page with
// the template "index.html", the playground with "layout.html") from its
// layout data d, or takes the bytes the same inputs rendered in the last
// build from c (nil: always render). page is the content page whose
// Markdown becomes Content, or nil; fill adds to d what its key stands
// for but d does not hold yet — the navigation drawn with the layout's
// own "nav-item" template (from d.Nav), the page's Content — before it is
// executed. The key is pageKey's, over all of d (the navigation
// included) and the template's name. root, when not nil, is the root
// section's navigation, which d.Nav lists (the home page and the
// playground are in the root folder, as its pages are, so the links are
// the same and none is current): its digest stands for d.Nav in the key,
// so that a save does not encode the whole list twice.
func renderWhole(c *PageCache, tmplDigest []byte, t *template.Template, name string, d layoutData, page *Page, root *sectionNav, fill func(*layoutData) error) ([]byte, error) {
	var key string
	if c != nil {
		j := renderJob{out: name, data: d, page: page}
		if root != nil && slices.Equal(d.Nav, root.pages) {
			j.data.Nav, j.shared, j.pos = nil, root, -1
		}
		if k := pageKey(tmplDigest, &j); k != "" {
			key = k + "\x00" + name
		}
		if b, ok := c.get(key); ok && key != "" {
			c.put(key, b)
			return b, nil
		}
	}
	if err := fill(&d); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, d); err != nil {
		return nil, &templateError{err}
	}
	if key != "" {
		c.put(key, buf.Bytes())
	}
	return buf.Bytes(), nil
}

// dataJSON returns d as JSON. A page keeps the data its last key was made
// of and its encoding: when d is that data again field for field (strings
// equal, slices and pointers the very same), as it is for an unchanged
// page of an unchanged section, the kept encoding is returned instead of
// encoding d again. The comparison walks every field of layoutData by
// reflection, so a field added later is compared too; a kind it does not
// know counts as changed. pg may be nil (nothing is kept).
func dataJSON(pg *Page, d *layoutData) ([]byte, error) {
	if pg != nil && pg.keyJSON != nil && shallowEqual(reflect.ValueOf(&pg.keyData).Elem(), reflect.ValueOf(d).Elem()) {
		return pg.keyJSON, nil
	}
	b, err := json.Marshal(d)
	if err == nil && pg != nil {
		pg.keyData, pg.keyJSON = *d, b
	}
	return b, err
}

// shallowEqual compares two structs of one type field by field: strings
// and booleans by value, slices and pointers by identity (both nil, or
// the same array and length; the same pointee), anything else as
// different.
func shallowEqual(a, b reflect.Value) bool {
	for i := range a.NumField() {
		x, y := a.Field(i), b.Field(i)
		switch x.Kind() {
		case reflect.String:
			if x.String() != y.String() {
				return false
			}
		case reflect.Bool:
			if x.Bool() != y.Bool() {
				return false
			}
		case reflect.Slice:
			if x.IsNil() != y.IsNil() || x.Len() != y.Len() || x.Len() > 0 && x.Pointer() != y.Pointer() {
				return false
			}
		case reflect.Pointer:
			if x.Pointer() != y.Pointer() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// sameBytes reports whether a and b hold the same bytes, at once when
// they are one slice (a page read again from a HeldFile).
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || bytes.Equal(a, b)
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
	io.WriteString(h, s)
}

// writeBytes is writeField for bytes, without copying them.
func writeBytes(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

// pageKey is the PageCache key of a page rendered with layout.html: see
// PageCache for what it covers. j.data is everything the layout shows but
// the page's Content (still empty) and, for a page of a section, its
// navigation, which j.shared's digest and j.pos stand for (see
// renderJob); j.page is the content page whose Markdown becomes Content
// (nil for a generated section index). It returns "" (render, do not
// keep) in the case, which does not arise, that the data cannot be
// encoded.
func pageKey(tmpl []byte, j *renderJob) string {
	// The layout data as JSON (struct fields in declaration order, so
	// one encoding per value): whatever a later field adds is in the key
	// without a line here.
	d, err := dataJSON(j.page, &j.data)
	if err != nil {
		return ""
	}
	in := keyInputs{tmpl: tmpl, data: d}
	if j.shared != nil {
		in.shared, in.pos = j.shared.digest, j.pos
	}
	pg := j.page
	if pg != nil {
		// The source by its digest: a page kept from the last build
		// (getParsed) has it already. Only this page's job reads or
		// sets it.
		if pg.srcDigest == ([sha256.Size]byte{}) {
			pg.srcDigest = sha256.Sum256(pg.src)
		}
		for _, f := range pg.figures {
			// The markup by its digest, taken when it was drawn.
			if r := f.result; r != nil && r.HTML != nil && r.digest != ([sha256.Size]byte{}) && len(r.HTML) == len(f.HTML) {
				in.figs = append(in.figs, keyPart{digest: true, b: r.digest[:]})
			} else {
				in.figs = append(in.figs, keyPart{b: f.HTML})
			}
		}
		// The links as the build rewrote them (a short figure link,
		// "b.md#fig", becomes the figure's full id only when the page it
		// names has that figure, which that page's text decides), by the
		// count of the page's link checks: a check rewrites them, and
		// only a check does.
		in.links = pg.linkChecks
		// The same inputs as the page's last key (a page kept from the
		// last build, with nothing it shows changed): the same key,
		// unhashed.
		if m := pg.keyMemo; m != nil && m.in.same(&in) {
			return m.key
		}
	}
	h := sha256.New()
	h.Write(tmpl)
	if j.shared != nil {
		writeField(h, "\x00section")
		h.Write(j.shared.digest)
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(j.pos))
		h.Write(n[:])
	}
	writeBytes(h, d)
	if pg != nil {
		writeField(h, pg.Path)
		h.Write(pg.srcDigest[:])
		for _, f := range in.figs {
			if f.digest {
				writeField(h, "\x00figure")
				h.Write(f.b)
			} else {
				writeField(h, "\x00markup")
				writeBytes(h, f.b)
			}
		}
		for _, l := range pageLinks(pg) {
			writeBytes(h, *l.dest)
		}
	}
	key := string(h.Sum(nil))
	if pg != nil {
		pg.keyMemo = &keyMemo{in: in, key: key}
	}
	return key
}

// keyInputs is what pageKey hashes besides the page's own path and
// source (fixed for a *Page): the templates' digest, the section's
// navigation digest and the page's place in it, the layout data's JSON,
// each figure's markup (by its digest when it has one) and the links'
// destinations as the build rewrote them, which the count of the page's
// link checks stands for (Page.linkChecks).
type keyInputs struct {
	tmpl, shared, data []byte
	pos, links         int
	figs               []keyPart
}

// keyPart is one figure's part of a key: its digest, or its markup.
type keyPart struct {
	digest bool
	b      []byte
}

// keyMemo is a page's last PageCache key and what it was made of.
type keyMemo struct {
	in  keyInputs
	key string
}

// same says whether a and b are the same inputs, byte for byte (at once
// for the same slices, which is how an unchanged page's come).
func (a *keyInputs) same(b *keyInputs) bool {
	if a.pos != b.pos || !sameBytes(a.tmpl, b.tmpl) || !sameBytes(a.shared, b.shared) || (a.shared == nil) != (b.shared == nil) ||
		!sameBytes(a.data, b.data) || len(a.figs) != len(b.figs) || a.links != b.links {
		return false
	}
	for i := range a.figs {
		if a.figs[i].digest != b.figs[i].digest || !sameBytes(a.figs[i].b, b.figs[i].b) {
			return false
		}
	}
	return true
}
