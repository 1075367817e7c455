package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A save that changes one page's text renders that page alone and
// replaces that page alone: every other file of the new generation is the
// previous generation's own slice (one copy in memory, never copied
// again), and keeps its version, so only the edited page reloads. The
// served bytes are still a cold build's (TestWarmCacheSameBytes, and
// site's TestIncrementalMatchesCold on random edits).
func TestSaveWritesOnlyWhatChanged(t *testing.T) {
	dir := copyGuide(t)
	s, err := New(Options{ContentDir: dir, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := served(t, s)
	g0, _ := s.state()
	page := filepath.Join(dir, "acks.md")
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	write(t, page, strings.Replace(string(src), "\n\n", "\n\nA sentence added by the test.\n\n", 2))
	r := s.Rebuild()
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if len(r.Changed) != 1 || r.Changed[0] != "acks.html" {
		t.Errorf("changed pages %v, want [acks.html]", r.Changed)
	}
	if s.pages.Rendered != 1 {
		t.Errorf("%d pages rendered (%d reused), want 1", s.pages.Rendered, s.pages.Reused)
	}
	g1, _ := s.state()
	files := 0
	for p, b := range served(t, s) {
		files++
		a, ok := before[p]
		if !ok {
			t.Fatalf("%s: not in both generations", p)
		}
		if shared := sameSlice(a, b); shared == (p == "acks.html") {
			t.Errorf("%s: the previous generation's slice = %v", p, shared)
		}
		if kept := g0.pages[p] == g1.pages[p]; strings.HasSuffix(p, ".html") && kept == (p == "acks.html") {
			t.Errorf("%s: version kept = %v", p, kept)
		}
	}
	if files < 20 {
		t.Errorf("%d files in the generation", files)
	}
}

// sameSlice reports whether a and b are one slice (not merely equal bytes).
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// A save that renames a page of one section renders and reloads that
// section's pages (each one's navigation shows the title) and its index
// page, and leaves every page of the other section as it was, the
// previous generation's slice.
func TestSaveInOneSectionLeavesTheOther(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "content")
	write(t, filepath.Join(dir, "index.md"), "---\ntitle: Test guide\n---\n\nHome.\n")
	for _, sec := range []string{"a", "b"} {
		write(t, filepath.Join(dir, sec, "_index.md"), "---\ntitle: Section "+sec+"\n---\n\nThe section.\n")
		for _, n := range []string{"1", "2", "3"} {
			write(t, filepath.Join(dir, sec, "p"+n+".md"), fencePage("Page "+sec+n, "f"+n, "A figure", "beats: 3"))
		}
	}
	s, err := New(Options{ContentDir: dir, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := served(t, s)
	write(t, filepath.Join(dir, "a", "p2.md"), fencePage("Page a2, renamed", "f2", "A figure", "beats: 3"))
	r := s.Rebuild()
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	want := []string{"a/index.html", "a/p1.html", "a/p2.html", "a/p3.html"}
	if strings.Join(r.Changed, " ") != strings.Join(want, " ") {
		t.Errorf("changed pages %v, want %v", r.Changed, want)
	}
	if s.pages.Rendered != 4 || s.pages.Reused != 6 {
		t.Errorf("%d pages rendered, %d reused; want 4 and 6 (section b's index and pages, the home page, the playground)", s.pages.Rendered, s.pages.Reused)
	}
	for _, p := range []string{"b/index.html", "b/p1.html", "b/p2.html", "b/p3.html"} {
		if !sameSlice(before[p], served(t, s)[p]) {
			t.Errorf("%s was replaced", p)
		}
	}
}

// A save that changes a figure with knobs (its variant scripts change
// too) reloads that figure's page alone: a variant script is loaded by
// its own page only, so it is part of that page's version and not of the
// assets every page shares. Without that, every open page reloaded and
// every page was hashed again on each such save.
func TestSaveOfKnobFigureReloadsItsPageAlone(t *testing.T) {
	dir := copyGuide(t)
	s, err := New(Options{ContentDir: dir, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page := filepath.Join(dir, "acks.md")
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	fence := strings.Index(string(src), "```kflow\n")
	at := fence + strings.Index(string(src[fence:]), "\ntitle: ") + len("\ntitle: ")
	if fence < 0 || at < fence+len("\ntitle: ") || !strings.Contains(string(src[fence:]), "\nknobs:") {
		t.Fatal("acks.md's first fence has no title or no knobs to edit")
	}
	before := served(t, s)
	write(t, page, string(src[:at])+"Edited, "+string(src[at:]))
	r := s.Rebuild()
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	variants := 0
	for p, b := range served(t, s) {
		if strings.HasPrefix(p, "assets/v/acks--") && string(before[p]) != string(b) {
			variants++
		}
	}
	if variants == 0 {
		t.Fatal("no variant script of acks.html changed: the test edits nothing it means to")
	}
	if len(r.Changed) != 1 || r.Changed[0] != "acks.html" {
		t.Errorf("changed pages %v, want [acks.html]", r.Changed)
	}
}
