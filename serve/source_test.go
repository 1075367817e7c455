package serve

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/templates"
)

// builds follows a running server's builds (Server.onBuild): each ended
// build is sent on ended.
type builds struct {
	ended chan BuildResult
	mu    sync.Mutex
	// during, when set, is called once as the next build starts, before
	// it reads anything: a save made there lands during a build.
	during func()
	// reads holds, for each build, how many content files it read from
	// the disk (sourceFS.reads).
	reads []int
}

func followBuilds(s *Server) *builds {
	b := &builds{ended: make(chan BuildResult, 1000)}
	read0 := 0
	contentReads := func() int {
		if s.content == nil {
			return 0
		}
		s.content.mu.Lock()
		defer s.content.mu.Unlock()
		return s.content.reads
	}
	s.onBuild = func(started bool, r BuildResult) {
		if started {
			read0 = contentReads()
			b.mu.Lock()
			f := b.during
			b.during = nil
			b.mu.Unlock()
			if f != nil {
				f()
			}
			return
		}
		b.mu.Lock()
		b.reads = append(b.reads, contentReads()-read0)
		b.mu.Unlock()
		b.ended <- r
	}
	return b
}

// settle waits, build after build, until the site s serves is, file for
// file, a cold build of the content folder dir (and templates folder
// tdir, unless "") as it is now (or, when
// that build fails, until the server's last build failed with the same
// errors), once at least one build has ended. It fails the test when two minutes pass first: a save whose
// change never reaches the served site. It returns the builds it saw.
func settle(t *testing.T, s *Server, b *builds, dir, tdir, what string) []BuildResult {
	t.Helper()
	o := site.Options{Content: os.DirFS(dir), ContentName: "content"}
	if tdir != "" {
		o.Templates = os.DirFS(tdir)
	}
	cold, coldErr := site.Generate(o)
	matches := func(last *BuildResult) string {
		g, fail := s.state()
		if coldErr != nil {
			if last == nil || last.Err == nil || last.Err.Error() != coldErr.Error() {
				return "the build should fail with: " + coldErr.Error()
			}
			return ""
		}
		if fail != nil {
			return "the last build failed: " + fmt.Sprint(fail.items)
		}
		if g == nil {
			return "nothing served"
		}
		var diff []string
		for _, f := range cold.Files {
			if b, _ := g.file(f.Path); !bytes.Equal(b, f.Data) {
				diff = append(diff, f.Path)
			}
		}
		if n := len(g.files) + len(g.pending); n != len(cold.Files) {
			diff = append(diff, fmt.Sprintf("(%d files served, %d built cold)", n, len(cold.Files)))
		}
		if len(diff) > 0 {
			return "differs from a cold build: " + strings.Join(diff, ", ")
		}
		return ""
	}
	var seen []BuildResult
	deadline := time.After(2 * time.Minute)
	for {
		var last *BuildResult
		if len(seen) > 0 {
			last = &seen[len(seen)-1]
		}
		why := matches(last)
		if why == "" && last != nil {
			return seen
		}
		if why == "" {
			why = "no build ended since the save"
		}
		select {
		case r := <-b.ended:
			seen = append(seen, r)
		case <-deadline:
			t.Fatalf("%s: the served site never caught up: %s", what, why)
		}
	}
}

// saveStyle is one way an editor or a tool writes a file.
type saveStyle struct {
	name string
	save func(t *testing.T, path string, data []byte)
}

var saveStyles = []saveStyle{
	// Truncate and write in place (os.WriteFile; nano, VS Code, vim
	// with backupcopy=yes).
	{"in place", func(t *testing.T, p string, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	// Truncate, then write in a second step, as a slow writer does.
	{"truncate, then write", func(t *testing.T, p string, data []byte) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		half := len(data) / 2
		if _, err := f.Write(data[:half]); err != nil {
			t.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(data[half:]); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}},
	// Written aside and renamed over (JetBrains, Emacs, atomic writers).
	{"rename over", func(t *testing.T, p string, data []byte) {
		write(t, p, string(data))
	}},
	// vim's default: the file renamed to its backup, a new file written,
	// the backup removed.
	{"vim", func(t *testing.T, p string, data []byte) {
		backup := p + "~"
		if err := os.Rename(p, backup); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(backup); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}},
}

// TestWatchedSavesMatchCold saves a site through the watcher in every way
// editors save (in place, truncated then written, renamed over, vim's
// backup dance), with random edits: a figure, a page's text or title, a
// save that changes no byte, a page added or removed, a folder section
// added, renamed or removed, the layout, a save landing while a build
// runs. After each, the served site must become, file for file, a cold
// build of the folder: the files the server keeps between builds
// (sourceFS) are forgotten whenever an event says they may have changed.
func TestWatchedSavesMatchCold(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "content")
	tdir := filepath.Join(root, "templates")
	layout := filepath.Join(tdir, "layout.html")
	if err := os.CopyFS(tdir, templates.FS); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "index.md"), "---\ntitle: Test guide\n---\n\nHome.\n")
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "First title", "beats: 4"))
	write(t, filepath.Join(dir, "b.md"), fencePage("B", "two", "Other figure", "beats: 3"))
	var b *builds
	s, _ := startWith(t, Options{ContentDir: dir, ContentName: "content", TemplatesDir: tdir}, func(s *Server) { b = followBuilds(s) })

	rng := rand.New(rand.NewPCG(17, 6))
	pages := []string{"a.md", "b.md"} // the pages besides index.md
	sections := []string{}            // the folder sections made so far
	n := 0
	for step := range 40 {
		n++
		style := saveStyles[rng.IntN(len(saveStyles))]
		var what string
		switch k := rng.IntN(10); {
		case k < 3: // a figure's title or length
			p := pages[rng.IntN(len(pages))]
			what = "figure of " + p
			beats := fmt.Sprintf("beats: %d", 2+rng.IntN(4))
			if rng.IntN(2) == 0 { // with knobs: its other combinations are drawn after the reload
				what += ", with knobs"
				beats += knobLines
			}
			style.save(t, filepath.Join(dir, p), []byte(fencePage("Page "+p, "f", fmt.Sprintf("Title %d", n), beats)))
		case k < 5: // a page's title, which every page's navigation shows
			p := pages[rng.IntN(len(pages))]
			what = "title of " + p
			style.save(t, filepath.Join(dir, p), []byte(fencePage(fmt.Sprintf("Renamed %d", n), "f", "Same figure", "beats: 3")))
		case k == 5: // the same bytes again
			p := pages[rng.IntN(len(pages))]
			what = "unchanged " + p
			data, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				t.Fatal(err)
			}
			style.save(t, filepath.Join(dir, p), data)
		case k == 6: // a page added, or one removed
			if len(pages) > 2 && rng.IntN(2) == 0 {
				i := rng.IntN(len(pages))
				what = "removed " + pages[i]
				if err := os.Remove(filepath.Join(dir, pages[i])); err != nil {
					t.Fatal(err)
				}
				pages = slices.Delete(pages, i, i+1)
			} else {
				p := fmt.Sprintf("new-%d.md", n)
				if len(sections) > 0 && rng.IntN(2) == 0 {
					p = sections[rng.IntN(len(sections))] + "/" + p
				}
				what = "added " + p
				style.save(t, filepath.Join(dir, filepath.FromSlash(p)), []byte(fencePage("New "+p, "f", "A new figure", "beats: 2")))
				pages = append(pages, p)
			}
		case k == 7: // a folder section made aside and moved in, renamed, or removed
			switch {
			case len(sections) == 0 || rng.IntN(3) == 0:
				sec := fmt.Sprintf("sec%d", n)
				staged := filepath.Join(root, sec)
				write(t, filepath.Join(staged, "_index.md"), "---\ntitle: Section "+sec+"\n---\n\nThe section.\n")
				write(t, filepath.Join(staged, "p.md"), fencePage("P in "+sec, "f", "A figure", "beats: 2"))
				if err := os.Rename(staged, filepath.Join(dir, sec)); err != nil {
					t.Fatal(err)
				}
				what = "section " + sec + " moved in"
				sections = append(sections, sec)
				pages = append(pages, sec+"/p.md")
			case rng.IntN(2) == 0:
				i := rng.IntN(len(sections))
				old, sec := sections[i], fmt.Sprintf("ren%d", n)
				if err := os.Rename(filepath.Join(dir, old), filepath.Join(dir, sec)); err != nil {
					t.Fatal(err)
				}
				what = "section " + old + " renamed " + sec
				sections[i] = sec
				for j, p := range pages {
					if rest, ok := strings.CutPrefix(p, old+"/"); ok {
						pages[j] = sec + "/" + rest
					}
				}
			default:
				i := rng.IntN(len(sections))
				old := sections[i]
				if err := os.RemoveAll(filepath.Join(dir, old)); err != nil {
					t.Fatal(err)
				}
				what = "section " + old + " removed"
				sections = slices.Delete(sections, i, i+1)
				pages = slices.DeleteFunc(pages, func(p string) bool { return strings.HasPrefix(p, old+"/") })
			}
		case k == 8: // the layout
			data, err := os.ReadFile(layout)
			if err != nil {
				t.Fatal(err)
			}
			what = "layout"
			style.save(t, layout, bytes.Replace(data, []byte("</body>"), fmt.Appendf(nil, "<!-- %d --></body>", n), 1))
		default: // a save, then another while the build it set off runs
			p, q := pages[rng.IntN(len(pages))], pages[rng.IntN(len(pages))]
			what = "saves of " + p + " and, during its build, " + q
			b.mu.Lock()
			during := fencePage("During "+q, "f", fmt.Sprintf("Saved during build %d", n), "beats: 3")
			done := make(chan struct{})
			b.during = func() { // on the watcher's goroutine: no t.Fatal
				defer close(done)
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(q)), []byte(during), 0o644); err != nil {
					t.Error(err)
				}
			}
			b.mu.Unlock()
			style.save(t, filepath.Join(dir, filepath.FromSlash(p)), []byte(fencePage("Before "+p, "f", fmt.Sprintf("Saved before %d", n), "beats: 2")))
			<-done // the folder settle compares with is the one after both saves
		}
		settle(t, s, b, dir, tdir, fmt.Sprintf("step %d (%s, %s)", step, what, style.name))
	}
}

// TestSaveReadsOnlyTheFileSaved: with the watcher running, a save of one
// page reads that page from the disk and no other (every other file is
// kept from the build before), whichever way it is saved — in each build
// it sets off, should its events fall into more than one; Rebuild, which
// trusts nothing, reads every page again.
func TestSaveReadsOnlyTheFileSaved(t *testing.T) {
	dir := copyGuide(t)
	var b *builds
	s, _ := startWith(t, Options{ContentDir: dir, ContentName: "content"}, func(s *Server) { b = followBuilds(s) })
	reads := func() []int {
		b.mu.Lock()
		defer b.mu.Unlock()
		return slices.Clone(b.reads)
	}
	pages, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(pages) < 10 {
		t.Fatalf("%d pages (%v)", len(pages), err)
	}
	page := filepath.Join(dir, "acks.md")
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, style := range saveStyles {
		style.save(t, page, fmt.Appendf(nil, "%s\nA sentence saved %s.\n", src, style.name))
		settle(t, s, b, dir, "", style.name)
	}
	r := reads() // every build since New's, which read every page
	if len(r) == 0 {
		t.Fatal("no build followed")
	}
	for i, n := range r {
		if n > 1 {
			t.Errorf("build %d after a save read %d files, want 1 at most (reads of every build: %v)", i+2, n, r)
		}
	}
	if res := s.Rebuild(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := reads(); got[len(got)-1] != len(pages) {
		t.Errorf("Rebuild read %d files, want every page (%d)", got[len(got)-1], len(pages))
	}
}

// TestUnsettledFiles: what a save looks like halfway — a file missing
// (renamed away before its new copy lands) or empty (truncated before it
// is written) — counts as unsettled; a written file or a folder does not.
func TestUnsettledFiles(t *testing.T) {
	dir := t.TempDir()
	full, empty, folder := filepath.Join(dir, "full.md"), filepath.Join(dir, "empty.md"), filepath.Join(dir, "sub")
	write(t, full, "text")
	write(t, empty, "")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		names []string
		want  bool
	}{
		{[]string{full}, false},
		{[]string{full, folder}, false},
		{[]string{full, empty}, true},
		{[]string{filepath.Join(dir, "gone.md"), full}, true},
		{nil, false},
	} {
		names := map[string]bool{}
		for _, n := range c.names {
			names[n] = true
		}
		if got := unsettled(names); got != c.want {
			t.Errorf("unsettled(%v) = %v, want %v", c.names, got, c.want)
		}
	}
}

// TestHalfwaySaveBuildsOnce saves a page in two steps with a pause
// between them, first as vim's backup rename does (the page renamed away,
// then written anew), then as a truncate before the write: no build may
// start while the page is missing or empty, since Options.Unsettled (here
// far longer than the pause) replaces the quiet period (here 1 ms) then.
// On a machine so loaded that the pause passes before the watcher sees
// the first step, the test proves nothing, but cannot fail wrongly.
func TestHalfwaySaveBuildsOnce(t *testing.T) {
	dir := smallSite(t)
	page := filepath.Join(dir, "a.md")
	var mu sync.Mutex
	var halfway []string
	var b *builds
	s, _ := startWith(t, Options{ContentDir: dir, ContentName: "content", Quiet: time.Millisecond, Unsettled: time.Hour}, func(s *Server) {
		b = followBuilds(s)
		follow := s.onBuild
		s.onBuild = func(started bool, r BuildResult) {
			if st, err := os.Stat(page); started && (err != nil || st.Size() == 0) {
				mu.Lock()
				halfway = append(halfway, fmt.Sprintf("build %d (%v)", r.N, err))
				mu.Unlock()
			}
			follow(started, r)
		}
	})
	pause := 100 * time.Millisecond // under maxBatch, which ends any wait
	if err := os.Rename(page, page+"~"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(pause)
	if err := os.WriteFile(page, []byte(fencePage("A", "one", "Saved after a rename", "beats: 4")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(page + "~"); err != nil {
		t.Fatal(err)
	}
	settle(t, s, b, dir, "", "backup rename")

	f, err := os.OpenFile(page, os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(pause)
	if _, err := f.WriteString(fencePage("A", "one", "Saved after a truncate", "beats: 4")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	settle(t, s, b, dir, "", "truncate, then write")
	mu.Lock()
	defer mu.Unlock()
	if len(halfway) > 0 {
		t.Errorf("builds started while the page was missing or empty: %v", halfway)
	}
}
