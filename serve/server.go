package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
)

// Options configure a Server.
type Options struct {
	// ContentDir is the folder of Markdown pages, read on every build and
	// watched. When it is "", Content is served instead and nothing is
	// watched (an embedded guide cannot change).
	ContentDir string
	// Content holds the pages when ContentDir is "" (e.g. content.FS).
	Content fs.FS
	// ContentName prefixes page paths in error messages ("content" gives
	// "content/acks.md:12:3: …"); use the folder as the user typed it.
	ContentName string
	// TemplatesDir is a folder holding layout.html, index.html and the
	// assets, read on every build and watched. "" means the templates
	// embedded in the binary.
	TemplatesDir string
	// OutDir, when not "", also receives every good build through
	// site.WriteDir (atomic, with the build command's safety checks). Pages
	// are always served from the server's memory.
	OutDir string
	// Quiet is the batching period: a rebuild starts once no change has
	// arrived for this long. Zero means DefaultQuiet.
	Quiet time.Duration
	// Unsettled replaces Quiet while a file the pending changes name is
	// missing or empty, which is how a save looks halfway through (the
	// old file renamed away before the new one lands; truncated before it
	// is written). Zero means DefaultUnsettled; never less than Quiet.
	Unsettled time.Duration
	// LocalOnly refuses requests whose Host header is not localhost or a
	// loopback address (set it when listening on loopback).
	LocalOnly bool
	// Log receives a line per build; Errors the errors of failed builds,
	// one a line, and watcher problems. Nil discards.
	Log, Errors io.Writer
}

// DefaultQuiet and DefaultUnsettled are the batching periods used when
// Options.Quiet and Options.Unsettled are zero. Measured with fsnotify on
// this project's machine (two cores, load average 17 to 21), first to
// last event of one save of acks.md: vim 9.0 saves in place, two or three
// writes within 0.3 ms (0.73 ms idle), then a chmod up to 20 ms later,
// which is not a change; ed and os.WriteFile, one write event; written
// aside and renamed over, 0.43 ms; JetBrains' safe write (old file renamed
// away, new one renamed in), 0.42 ms; vim's backup rename (old file
// renamed away, new one created and written), 0.72 ms. 10 ms is over ten
// times the longest of these, so a save builds once; the steps in which a
// save leaves its file missing or empty get 50 ms (the period used before
// these measurements), so a slower writer caught there still builds once.
const (
	DefaultQuiet     = 10 * time.Millisecond
	DefaultUnsettled = 50 * time.Millisecond
)

// maxBatch bounds how long a stream of events can delay a rebuild.
const maxBatch = 500 * time.Millisecond

// EngineVersion identifies the engine and renderer compiled into this
// binary (sim.EngineVersion, module version, VCS revision and whether the tree was modified),
// mixed into every cache key. The cache lives in memory, so this only
// matters as documentation of what a key depends on, but it keeps the key
// honest should the cache ever be kept on disk.
var EngineVersion = engineVersion()

func engineVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "engine " + sim.EngineVersion
	}
	v := "engine " + sim.EngineVersion + " " + bi.Main.Path + "@" + bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			v += " " + s.Key + "=" + s.Value
		}
	}
	return v
}

// Server builds the site, serves the last good build, watches the sources
// and tells open pages when to reload. Create it with New; it is an
// http.Handler.
type Server struct {
	o     Options
	cache *genCache
	// pages keeps the last build's rendered pages (site.PageCache), so a
	// save renders only the pages whose inputs changed.
	pages   site.PageCache
	watcher *fsnotify.Watcher // nil when nothing is watched
	// content and templates read the watched folders for the build,
	// keeping what no event said changed (sourceFS); nil for a folder
	// not given.
	content, templates *sourceFS
	// roots are the watched folders (content, templates) by absolute
	// path; their parents are watched too, for one event only: a root
	// made anew (an editor or a script replacing the whole folder), which
	// the watch on the old folder cannot see.
	roots map[string]bool
	// linkTargets maps the target of each followed link to a folder
	// (absolute, links resolved) to the link's path as watched;
	// linkParents are the folders holding such targets that are watched
	// for the same one event as a root's parent (watchLinkTarget).
	linkTargets map[string]string
	linkParents map[string]bool

	buildMu sync.Mutex // one build at a time
	builds  int        // guarded by buildMu
	warned  string     // the warnings last written (site.Site.Warnings); guarded by buildMu

	mu      sync.Mutex
	gen     *generation // last good build; nil before the first
	fail    *failure    // the last build's problems; nil when it succeeded
	clients map[*client]struct{}

	// onEvent, set by tests before Run, hears every watcher event and
	// whether it was kept to start a rebuild; onBuild is called as each
	// build starts (before it reads anything) and ended, with its result.
	onEvent func(ev fsnotify.Event, kept bool)
	onBuild func(started bool, r BuildResult)
	// onCollect, set by tests before Run, is called after each garbage
	// collection the watcher runs while idle (collectIdle). onDrawPending
	// is called by a build that published pages before drawing their
	// figures' other combinations, just before it draws them.
	onCollect     func()
	onDrawPending func()
	// onPublish is called as a good build's generation is published.
	onPublish func()
	// onWait is called by a request for a variant script that is being
	// drawn, as it starts waiting for it.
	onWait func(path string)
	// collecting is set while such a collection runs.
	collecting atomic.Bool

	done      chan struct{} // closed when streams must end
	closeOnce sync.Once
	stopOnce  sync.Once
}

// generation is one good build, held in memory and never changed once
// published: requests read it without locks, and a request that took it
// keeps it alive (it is garbage once no request holds it) after the next
// build replaced it.
type generation struct {
	n int
	// pages maps every output HTML file to its version, a digest of its
	// bytes and of every shared asset: a page must reload when either
	// changed.
	pages map[string]string
	// files holds every output file's bytes by slash path, as
	// site.Site.Files has them: what is served. A file whose bytes did
	// not change since the previous generation is that generation's
	// slice, shared rather than copied, and keeps its version unhashed.
	// shared is the digest of the shared assets.
	files  map[string][]byte
	shared []byte
	// owned holds the variant scripts of figures with knobs: each is part
	// of its page's version, not of shared. variants holds, by page,
	// what its version takes of its figures' variant scripts: their paths
	// and keys (site.FigureStat.VariantsKey), which name the scripts
	// before they are drawn.
	owned    map[string]bool
	variants map[string]string
	// pending holds the variant scripts published before they were drawn
	// (site.Options.DeferVariants), by path; a request for one waits for
	// it (serveFile). Each is resolved before the next build starts.
	pending map[string]*pendingFile
}

// pendingFile is a variant script of a published generation being drawn:
// ready is closed once data holds it (ok) or it will not come (!ok: its
// figure failed to draw, and the build is published as failed).
type pendingFile struct {
	ready chan struct{}
	data  []byte
	ok    bool
}

// file returns the bytes of the output file at p: one of files, or a
// pending script once drawn (never waiting).
func (g *generation) file(p string) ([]byte, bool) {
	if b, ok := g.files[p]; ok {
		return b, true
	}
	if pf := g.pending[p]; pf != nil {
		select {
		case <-pf.ready:
			return pf.data, pf.ok
		default:
		}
	}
	return nil, false
}

// versionOf returns the version of the page at path p (false for a nil
// generation or a page it does not have).
func (g *generation) versionOf(p string) (string, bool) {
	if g == nil {
		return "", false
	}
	v, ok := g.pages[p]
	return v, ok
}

// failure is a failed build: what the terminal and the overlay show.
type failure struct {
	n     int
	items []problem
	html  string // the overlay fragment
}

// BuildResult describes one build, for the log, tests and benchmarks.
type BuildResult struct {
	// N numbers the builds from 1.
	N int
	// Err is nil for a good build; a sim.ErrorList for problems in the
	// user's files, or another error.
	Err error
	// Changed lists the output pages whose version changed (bytes of the
	// page or of a shared asset), added or removed, sorted. Nil when the
	// build failed.
	Changed []string
	// Pages and Figures count what a good build holds.
	Pages, Figures int
	// Hits and Misses count scenario cache lookups during the build.
	Hits, Misses int
	// Took is the build's wall-clock duration, the drawing deferred past
	// publication included.
	Took time.Duration
	// Published is the wall-clock time from the build's start to the
	// publication of its pages, after which the open pages reload: what a
	// reader waits for. Deferred counts the scripts of knob combinations
	// the build drew after it (site.Site.Pending), which no page shows
	// until a reader picks one; 0 when it drew everything before.
	Published time.Duration
	Deferred  int
	// OutErr is why a good build could not be written to Options.OutDir
	// (the server serves it all the same).
	OutErr error
}

// New builds the site once and returns a Server ready to Run. Watching
// starts here, before the first build, so no save is missed. Failing to
// build the site is not an error: the server starts and shows the problems
// in the browser. Errors are for what the server itself cannot do (an
// unwatchable content folder, an OutDir that site.WriteDir refuses).
func New(o Options) (*Server, error) {
	if o.ContentDir == "" && o.Content == nil {
		return nil, errors.New("no content to serve")
	}
	if o.OutDir != "" {
		// An output folder in a watched one would set off a rebuild with
		// every write: refuse it before anything runs.
		if err := site.CheckOutputDir(o.OutDir, o.ContentDir, o.TemplatesDir); err != nil {
			return nil, err
		}
	}
	if o.Quiet <= 0 {
		o.Quiet = DefaultQuiet
	}
	if o.Unsettled <= 0 {
		o.Unsettled = DefaultUnsettled
	}
	o.Unsettled = max(o.Unsettled, o.Quiet)
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Errors == nil {
		o.Errors = io.Discard
	}
	s := &Server{o: o, cache: newGenCache(), clients: map[*client]struct{}{}, done: make(chan struct{})}
	var dirs []string
	for _, d := range []string{o.ContentDir, o.TemplatesDir} {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	var err error
	if o.ContentDir != "" {
		if s.content, err = newSourceFS(o.ContentDir); err != nil {
			return nil, fmt.Errorf("reading %s: %w", o.ContentDir, err)
		}
	}
	if o.TemplatesDir != "" {
		if s.templates, err = newSourceFS(o.TemplatesDir); err != nil {
			return nil, fmt.Errorf("reading %s: %w", o.TemplatesDir, err)
		}
	}
	if len(dirs) > 0 {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return nil, fmt.Errorf("watching: %w", err)
		}
		s.watcher = w
		s.roots = map[string]bool{}
		for _, d := range dirs {
			// Known as roots before their trees are walked, so that a
			// link's target inside one is not watched twice
			// (watchLinkTarget).
			if abs, err := filepath.Abs(d); err == nil && filepath.Dir(abs) != abs {
				s.roots[abs] = true
			}
		}
		for _, d := range dirs {
			if err := s.addTree(d); err != nil {
				s.Close()
				return nil, fmt.Errorf("watching %s: %w", d, err)
			}
			if abs, err := filepath.Abs(d); err == nil && filepath.Dir(abs) != abs {
				_ = w.Add(filepath.Dir(abs)) // best effort: without it, only a replaced root goes unseen
			}
		}
	}
	if r := s.Rebuild(); r.OutErr != nil {
		// A folder that cannot take the build now will not later either
		// (it is the content folder, a project, someone else's files…).
		s.Close()
		return nil, r.OutErr
	}
	return s, nil
}

// Built reports whether a build has succeeded, so that pages are served
// (false while every build so far failed: pages show the errors).
func (s *Server) Built() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen != nil
}

// Watching reports whether the server watches folders for changes (false
// when it serves an embedded guide).
func (s *Server) Watching() bool { return s.watcher != nil }

// templatesName is how errors name the templates folder.
func (s *Server) templatesName() string { return filepath.ToSlash(filepath.Clean(s.o.TemplatesDir)) }

// contentFS returns the content as a file system.
func (s *Server) contentFS() fs.FS {
	if s.content != nil {
		return s.content
	}
	return s.o.Content
}

// Rebuild builds the site now, every file read afresh, and publishes the
// result: a good build replaces the served generation and reloads the
// pages it changed; a failed one keeps the last good generation and
// shows its errors in every page.
func (s *Server) Rebuild() BuildResult {
	s.forgetAll()
	return s.rebuild()
}

// forgetAll drops every file kept from the watched folders.
func (s *Server) forgetAll() {
	for _, c := range []*sourceFS{s.content, s.templates} {
		if c != nil {
			c.forgetAll()
		}
	}
}

// forget drops the files kept from the watched folders that watcher event
// ev may have changed.
func (s *Server) forget(ev fsnotify.Event) {
	for _, c := range []*sourceFS{s.content, s.templates} {
		if c != nil {
			c.forget(ev)
		}
	}
}

// rebuild is Rebuild reading only the files that no watcher event has
// said changed from memory: the watcher calls it after each batch of
// changes, each event of which it passed to forget.
func (s *Server) rebuild() BuildResult {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	start := time.Now()
	s.builds++
	r := BuildResult{N: s.builds}
	if s.onBuild != nil {
		s.onBuild(true, r)
		defer func() { s.onBuild(false, r) }()
	}

	// A save's build publishes its pages as soon as they are rendered
	// and draws the other knob combinations of the figures it computed
	// after (site.Options.DeferVariants): the reload does not wait for
	// pictures that no page shows until a reader picks them. The first
	// build, which nobody waits on, draws everything at once.
	opts := site.Options{Content: s.contentFS(), ContentName: s.o.ContentName, Cache: s.cache, Pages: &s.pages, EngineVersion: EngineVersion, Output: s.o.OutDir, ContentDir: s.o.ContentDir,
		DeferVariants: s.gen != nil}
	if s.templates != nil {
		opts.Templates, opts.TemplatesName = s.templates, s.templatesName()
	}
	h0, m0 := s.cache.begin()
	var built *site.Site
	var err error
	for {
		if built, err = site.Generate(opts); err != nil {
			break
		}
		old := s.gen // written by this goroutine alone (buildMu)
		g := s.newGeneration(r.N, built)
		r.Changed = s.publish(g)
		r.Published, r.Deferred = time.Since(start), len(built.Pending)
		if len(built.Pending) == 0 {
			break
		}
		if s.onDrawPending != nil {
			s.onDrawPending()
		}
		derr := built.DrawPending()
		for p, pf := range g.pending {
			pf.data = built.File(p)
			pf.ok = derr == nil && pf.data != nil
			close(pf.ready)
		}
		if derr == nil {
			break
		}
		// A combination failed to draw, which fails a build that draws
		// them all: the last good generation is served again, and the
		// build is made that way, for its errors.
		s.mu.Lock()
		s.gen = old
		s.wakeLocked()
		s.mu.Unlock()
		r.Changed, opts.DeferVariants = nil, false
	}
	r.Hits, r.Misses = s.cache.end(h0, m0)
	r.Took = time.Since(start)
	if err != nil {
		r.Err = err
		s.publishFailure(r.N, err)
		return r
	}
	r.Pages, r.Figures = len(built.Pages), len(built.Figures)
	// A warning is written when the build's warnings change, not at
	// every save that leaves them as they were.
	var warned strings.Builder
	for _, w := range built.Warnings {
		fmt.Fprintf(&warned, "kflowgen: warning: %s\n", w.Error())
	}
	if w := warned.String(); w != s.warned {
		s.warned = w
		fmt.Fprint(s.o.Errors, w)
	}
	if s.o.OutDir != "" {
		r.OutErr = built.WriteDir(s.o.OutDir, s.o.ContentDir)
		var left *site.LeftoverError
		if errors.As(r.OutErr, &left) { // written; only a folder of ours was left
			fmt.Fprintf(s.o.Errors, "kflowgen: warning: %s\n", sim.EscapeName(left.Error()))
			r.OutErr = nil
		}
		if r.OutErr != nil && r.N > 1 {
			fmt.Fprintf(s.o.Errors, "kflowgen: %s (the server still serves the new build)\n", sim.EscapeName(r.OutErr.Error()))
		}
	}
	if r.N > 1 {
		fmt.Fprintf(s.o.Log, "%s: %s\n", describeTook(r), describeChanged(r.Changed))
	}
	return r
}

// describeTook words a good build's time for the log: the time to its
// pages' publication, which the reload follows, and, for a build that drew
// knob combinations after it, how many and how long they took more.
func describeTook(r BuildResult) string {
	if r.Deferred == 0 {
		return fmt.Sprintf("rebuilt in %d ms", r.Published.Milliseconds())
	}
	combos := "combination"
	if r.Deferred > 1 {
		combos += "s"
	}
	return fmt.Sprintf("rebuilt in %d ms to the reload, then %d other knob %s drawn in %d ms more",
		r.Published.Milliseconds(), r.Deferred, combos, (r.Took - r.Published).Milliseconds())
}

// describeChanged words a build's changed pages for the log.
func describeChanged(changed []string) string {
	switch n := len(changed); {
	case n == 0:
		return "no page changed"
	case n == 1:
		return "1 page changed (" + changed[0] + ")"
	case n <= 4:
		return fmt.Sprintf("%d pages changed (%s)", n, strings.Join(changed, ", "))
	default:
		return fmt.Sprintf("%d pages changed", n)
	}
}

// newGeneration makes the generation of a built site. A file whose bytes
// are the previous generation's keeps that generation's slice (one copy
// of an unchanged file however many builds it survives), and a page whose
// bytes, shared assets and variant scripts are all unchanged keeps its
// version, so a save hashes only what it changed. The variant scripts
// still pending (site.Site.Pending) are pending in the generation too.
func (s *Server) newGeneration(n int, built *site.Site) *generation {
	g := &generation{n: n, pages: map[string]string{}, files: make(map[string][]byte, len(built.Files)), variants: map[string]string{}}
	s.mu.Lock()
	old := s.gen // written by this goroutine alone (buildMu)
	s.mu.Unlock()
	// same says a file is the previous generation's, byte for byte. A
	// page from the site.PageCache is the very slice the previous build
	// served, recognised without comparing its bytes.
	var oldFile []byte
	same := func(f site.File) bool {
		if old == nil {
			return false
		}
		b, ok := old.file(f.Path)
		oldFile = b
		return ok && sameBytes(b, f.Data)
	}
	// A figure's variant scripts are loaded by its own page alone: they
	// are part of that page's version, not of the assets every page
	// shares, so a save that changes one figure with knobs reloads its
	// page and no other. A page's version takes each script by its path
	// and the figure's VariantsKey, which names what the scripts are made
	// of before they are drawn (or, from a build without a Cache, by its
	// bytes).
	owner := map[string]bool{}
	keyed := map[string]bool{} // scripts named by their figure's key
	for _, f := range built.Figures {
		for _, v := range f.Variants {
			owner[v] = true
			keyed[v] = f.VariantsKey != ""
		}
	}
	if len(built.Pending) > 0 {
		g.pending = make(map[string]*pendingFile, len(built.Pending))
		for _, p := range built.Pending {
			g.pending[p] = &pendingFile{ready: make(chan struct{})}
		}
	}
	shared := func(p string) bool { return path.Ext(p) != ".html" && !owner[p] }
	unchanged := make(map[string]bool, len(built.Files))
	assetsSame := old != nil
	for _, f := range built.Files {
		unchanged[f.Path] = same(f)
		if unchanged[f.Path] {
			g.files[f.Path] = oldFile
		} else {
			g.files[f.Path] = f.Data
		}
		if shared(f.Path) && !unchanged[f.Path] {
			assetsSame = false
		}
	}
	if assetsSame {
		for p := range old.files {
			if path.Ext(p) != ".html" && !old.owned[p] && g.files[p] == nil {
				assetsSame = false // a shared asset was removed
			}
		}
	}
	if assetsSame {
		g.shared = old.shared
	} else {
		assets := sha256.New()
		for _, f := range built.Files {
			if shared(f.Path) {
				fmt.Fprintf(assets, "%d:%s\x00%d:", len(f.Path), f.Path, len(f.Data))
				assets.Write(f.Data)
			}
		}
		g.shared = assets.Sum(nil)
	}
	g.owned = owner
	for _, f := range built.Figures {
		if len(f.Variants) == 0 {
			continue
		}
		var b strings.Builder
		b.WriteString(g.variants[f.Page])
		for _, v := range f.Variants {
			fmt.Fprintf(&b, "\x00%d:%s\x00", len(v), v)
			if !keyed[v] {
				sum := sha256.Sum256(g.files[v])
				b.Write(sum[:])
			}
		}
		fmt.Fprintf(&b, "\x01%d:%s", len(f.VariantsKey), f.VariantsKey)
		g.variants[f.Page] = b.String()
	}
	for _, f := range built.Files {
		if path.Ext(f.Path) != ".html" {
			continue
		}
		// A page keeps its version, unhashed, when neither its bytes, nor
		// the shared assets, nor its own variant scripts changed.
		vs := g.variants[f.Path]
		if v, ok := old.versionOf(f.Path); ok && unchanged[f.Path] && assetsSame && old.variants[f.Path] == vs {
			g.pages[f.Path] = v
			continue
		}
		h := sha256.New()
		h.Write(g.shared)
		h.Write(f.Data)
		io.WriteString(h, vs)
		g.pages[f.Path] = hex.EncodeToString(h.Sum(nil))[:20]
	}
	return g
}

// sameBytes reports whether a and b hold the same bytes, at once when
// they are one slice.
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || bytes.Equal(a, b)
}

// publish makes g the served generation, clears any failure and wakes
// every event stream. It returns the pages whose version changed.
func (s *Server) publish(g *generation) []string {
	s.mu.Lock()
	old := s.gen
	s.gen, s.fail = g, nil
	s.wakeLocked()
	s.mu.Unlock()
	if s.onPublish != nil {
		s.onPublish()
	}

	var changed []string
	for p, v := range g.pages {
		if old == nil || old.pages[p] != v {
			changed = append(changed, p)
		}
	}
	if old != nil {
		for p := range old.pages {
			if _, ok := g.pages[p]; !ok {
				changed = append(changed, p)
			}
		}
	}
	slices.Sort(changed)
	return changed
}

// publishFailure records a failed build, prints its errors and wakes every
// event stream so that open pages show them.
func (s *Server) publishFailure(n int, err error) {
	items := s.problems(err)
	s.mu.Lock()
	built := s.gen != nil // written by this goroutine alone (buildMu)
	s.mu.Unlock()
	f := &failure{n: n, items: items, html: overlayHTML(items, built)}
	for _, it := range items {
		if it.Positioned {
			fmt.Fprintln(s.o.Errors, it.Text)
		} else {
			fmt.Fprintf(s.o.Errors, "kflowgen: %s\n", sim.EscapeName(it.Text))
		}
	}
	what := "the last good build"
	s.mu.Lock()
	if s.gen == nil {
		what = "an error page (no build has succeeded yet)"
	}
	s.fail = f
	s.wakeLocked()
	s.mu.Unlock()
	fmt.Fprintf(s.o.Errors, "build failed (%s); serving %s until the next good build\n", countErrors(len(items)), what)
}

func countErrors(n int) string {
	if n == 1 {
		return "1 error"
	}
	return fmt.Sprintf("%d errors", n)
}

// state returns the current versions of the served pages and the failure,
// for event streams.
func (s *Server) state() (*generation, *failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen, s.fail
}

// Run serves HTTP on ln and rebuilds on every batch of changes until ctx
// is cancelled; then it shuts the HTTP server down (ending every event
// stream) and returns. It returns an error only when serving failed.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	srv.RegisterOnShutdown(s.endStreams)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if s.watcher != nil {
			s.watch(watchCtx)
		}
	}()

	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	stopWatch()
	<-watched
	// Requests in flight get a moment to finish. Connections on which no
	// request ever came (browsers and HTTP clients open spare ones) would
	// hold Shutdown for five seconds: after the grace, close them.
	shutCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if serr := srv.Shutdown(shutCtx); errors.Is(serr, context.DeadlineExceeded) {
		srv.Close()
	} else if serr != nil && err == nil {
		err = serr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// shutdownGrace is how long Run waits for requests in flight when stopping.
const shutdownGrace = time.Second

// endStreams makes every event stream return, so that Shutdown can finish.
func (s *Server) endStreams() {
	s.stopOnce.Do(func() { close(s.done) })
}

// Close stops the watcher and ends event streams. The Server must not be
// used afterwards.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.endStreams()
		s.buildMu.Lock() // let a build in flight finish
		defer s.buildMu.Unlock()
		if s.watcher != nil {
			err = s.watcher.Close()
		}
		s.mu.Lock()
		s.gen = nil
		s.mu.Unlock()
	})
	return err
}
