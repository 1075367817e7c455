package serve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
)

// addTree watches dir and every folder below it (fsnotify watches one
// folder at a time). Hidden folders (.git, .cache, …) are skipped. A
// symbolic link to a folder is followed, as the build reads pages through
// one (site's readPages), unless it leads back to a folder holding it; the
// watch is added under the link's name, so events name the pages as the
// build does.
func (s *Server) addTree(dir string) error {
	return s.addFolder(dir, true)
}

func (s *Server) addFolder(dir string, root bool) error {
	if err := s.watcher.Add(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		// A folder removed while we walk: nothing to watch there.
		if !root && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil || !st.IsDir() || linksBack(p, st) {
				continue
			}
			s.watchLinkTarget(p)
		} else if !e.IsDir() {
			continue
		}
		if err := s.addFolder(p, false); err != nil {
			return err
		}
	}
	return nil
}

// watchLinkTarget watches the folder that holds the target of the link at
// p, a followed link to a folder, so that a target removed and made anew
// (a branch switch, a generator rewriting its folder) is watched again:
// the watch under the link's name followed the old folder away, and no
// event in the content folder says the new one came (the link itself did
// not change). It is best effort, as the watch on a root's parent is, and
// skipped when that folder is already watched as part of a tree (a second
// watch on one folder would rename its events).
func (s *Server) watchLinkTarget(p string) {
	target, err := filepath.EvalSymlinks(p)
	if err == nil {
		target, err = filepath.Abs(target)
	}
	if err != nil {
		return
	}
	if s.linkTargets == nil {
		s.linkTargets = map[string]string{}
	}
	if _, ok := s.linkTargets[target]; ok {
		s.linkTargets[target] = p
		return
	}
	parent := filepath.Dir(target)
	if parent == target {
		return
	}
	for _, tree := range s.watchedTrees() {
		if within(parent, tree) {
			return
		}
	}
	s.linkTargets[target] = p
	if !s.linkParents[parent] {
		if s.watcher.Add(parent) == nil {
			if s.linkParents == nil {
				s.linkParents = map[string]bool{}
			}
			s.linkParents[parent] = true
		}
	}
}

// watchedTrees lists the folders whose trees are watched, with links
// resolved: the roots and every followed link's target.
func (s *Server) watchedTrees() []string {
	var trees []string
	for r := range s.roots {
		if t, err := filepath.EvalSymlinks(r); err == nil {
			trees = append(trees, t)
		}
	}
	for t := range s.linkTargets {
		trees = append(trees, t)
	}
	return trees
}

// within reports whether p is dir or inside it (both absolute and clean).
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// linksBack reports whether the link at p, to the folder st, leads to a
// folder that holds p.
func linksBack(p string, st fs.FileInfo) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return true
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if up, err := os.Stat(dir); err == nil && os.SameFile(up, st) {
			return true
		}
		if filepath.Dir(dir) == dir {
			return false
		}
	}
}

// watch batches watcher events and rebuilds after each batch, until ctx is
// done. A batch ends when no relevant event has arrived for Options.Quiet
// — or, while a name the batch touched is missing or an empty file (a
// save caught halfway: renamed away before its new copy lands, truncated
// before it is written), for Options.Unsettled — or maxBatch after its
// first event, whichever comes first.
func (s *Server) watch(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	// idle collects the garbage of the last build once nothing has
	// changed for idleCollect since it (see collectIdle); the first
	// build's too.
	idle := time.NewTimer(idleCollect)
	defer idle.Stop()
	var first, last time.Time // first and last event of the pending batch; zero when none
	touched := map[string]bool{}
	// arm waits d from now, or until maxBatch after the first event.
	arm := func(now time.Time, d time.Duration) {
		if left := maxBatch - now.Sub(first); left < d {
			d = max(left, 0)
		}
		timer.Reset(d)
	}
	schedule := func() {
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		last = now
		arm(now, s.o.Quiet)
	}
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case ev, ok := <-s.watcher.Events:
			if !ok {
				return
			}
			// Every event, kept or not, forgets the files it names: a
			// chmod may make a page unreadable, and dropping a file
			// costs the next build one read at most.
			s.forget(ev)
			if s.parentEvent(&ev) || !relevant(ev) {
				s.sawEvent(ev, false)
				continue
			}
			s.sawEvent(ev, true)
			touched[ev.Name] = true
			idle.Stop() // the build this event starts collects after it
			if ev.Has(fsnotify.Create) {
				// A new folder: watch it and everything already in it
				// (files may have landed before the watch did; the
				// rebuild reads them anyway).
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
					if err := s.addTree(ev.Name); err != nil {
						fmt.Fprintf(s.o.Errors, "kflowgen: watching %s: %s\n", sim.EscapeName(ev.Name), sim.EscapeName(err.Error()))
					}
				}
			}
			schedule()
		case err, ok := <-s.watcher.Errors:
			if !ok {
				return
			}
			// An errno alone ("invalid argument", from a watch the
			// system dropped with its folder) says nothing of what was
			// watched or what happens next: say both.
			next := "the next build reads every file again"
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				next = "the site is built again from the files as they are now"
			}
			fmt.Fprintf(s.o.Errors, "kflowgen: watching %s for changes: the system's file watcher reported %q; a change may have been missed, so %s\n",
				s.watchedNames(), sim.EscapeName(err.Error()), next)
			// Events may have been lost: nothing kept can be trusted.
			s.forgetAll()
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Rebuild to be sure nothing is missed (not after every
				// error: one that a build's own writes set off would
				// rebuild forever).
				schedule()
			}
		case <-timer.C:
			now := time.Now()
			if wait := s.o.Unsettled - now.Sub(last); wait > 0 && now.Sub(first) < maxBatch && unsettled(touched) {
				arm(now, wait)
				continue
			}
			first, last = time.Time{}, time.Time{}
			clear(touched)
			s.rebuild()
			idle.Reset(idleCollect)
		case <-idle.C:
			if first.IsZero() { // no batch pending
				s.collectIdle()
			}
		}
	}
}

// watchedNames names the watched folders for a message: "content/", or
// "content/ and templates/".
func (s *Server) watchedNames() string {
	var names []string
	for _, d := range []string{s.o.ContentDir, s.o.TemplatesDir} {
		if d != "" {
			names = append(names, sim.EscapeName(filepath.ToSlash(filepath.Clean(d))+"/"))
		}
	}
	return strings.Join(names, " and ")
}

// idleCollect is how long the watcher waits after a build, with no change
// arriving, before it collects the garbage (collectIdle): long enough for
// the browser to fetch the reloaded page, short against the seconds
// between an author's saves.
const idleCollect = 100 * time.Millisecond

// collectIdle runs a garbage collection now, on its own goroutine, unless
// one it started is still running. A save makes garbage (the pages and
// figures it replaced, its own scratch) and the runtime collects when the
// heap has grown by GOGC percent of what is live, which at 500 pages is a
// few saves: measured on two cores, the save that set it off took 190 ms
// instead of 70 to 110 (the collection's mark took 163 ms of wall time,
// 170 ms of processor, of a 172 MB live heap). Collected while the
// server is idle, the heap starts every save with all of GOGC's room, so
// a save sets off no collection unless saves come faster than the build
// and idleCollect.
func (s *Server) collectIdle() {
	if !s.collecting.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.collecting.Store(false)
		runtime.GC()
		if s.onCollect != nil {
			s.onCollect()
		}
	}()
}

// unsettled reports whether one of the named paths is missing or an
// empty file: what a save looks like halfway (vim's and JetBrains' rename
// of the old file before the new one lands, a truncate before the write).
// A page really removed or emptied is built all the same, Unsettled
// later.
func unsettled(names map[string]bool) bool {
	for name := range names {
		st, err := os.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) || err == nil && st.Mode().IsRegular() && st.Size() == 0 {
			return true
		}
	}
	return false
}

// sawEvent tells the test hook (Server.onEvent) what the watcher made of
// an event: kept (it schedules a rebuild) or dropped.
func (s *Server) sawEvent(ev fsnotify.Event, kept bool) {
	if s.onEvent != nil {
		s.onEvent(ev, kept)
	}
}

// parentEvent reports whether ev is to be dropped because it comes from
// the watch on a root's parent folder and is not about the root itself
// (a sibling such as the output folder changed). A root made anew is
// watched again (the old watch followed the old folder away) and kept, so
// it starts a rebuild; a root removed or renamed away is kept too, so the
// rebuild says what is missing.
//
// The watch on the folder holding a followed link's target
// (watchLinkTarget) works the same way: an event about the target is
// renamed to the link (so the target made anew is watched again under the
// link's name) and kept, and an event about its siblings is dropped.
func (s *Server) parentEvent(ev *fsnotify.Event) bool {
	abs, err := filepath.Abs(ev.Name)
	if err != nil {
		return false
	}
	if link, ok := s.linkTargets[abs]; ok && s.linkParents[filepath.Dir(abs)] {
		// From here on the event is about the link, whose target is
		// gone or new: what was kept under it is forgotten, and a new
		// target is watched under the link's name.
		ev.Name = link
		s.forget(fsnotify.Event{Name: link, Op: fsnotify.Remove})
		return false
	}
	if s.roots[abs] {
		if ev.Has(fsnotify.Create) {
			if err := s.addTree(abs); err != nil {
				fmt.Fprintf(s.o.Errors, "kflowgen: watching %s: %s\n", sim.EscapeName(ev.Name), sim.EscapeName(err.Error()))
			}
		}
		return false
	}
	dir := filepath.Dir(abs)
	if s.roots[dir] {
		return false // in a root (which may also be another root's parent)
	}
	for r := range s.roots {
		if filepath.Dir(r) == dir {
			return true // beside a root
		}
	}
	return s.linkParents[dir] // beside a link's target
}

// relevant reports whether a watcher event may change the site: not a
// chmod-only event, and not about a hidden name or an editor's temporary
// file.
func relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod || ev.Op == 0 {
		return false
	}
	return !ignoredName(filepath.Base(ev.Name))
}

// ignoredName is site.IgnoredName: a name the build does not publish
// either.
func ignoredName(name string) bool { return site.IgnoredName(name) }
