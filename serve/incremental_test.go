package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A save that changes one page's text renders that page alone and
// writes that page alone: every other file of the new generation is the
// previous generation's file, linked (the same inode), and keeps its
// version, so only the edited page reloads. The served bytes are still
// a cold build's (TestWarmCacheSameBytes, and site's
// TestIncrementalMatchesCold on random edits).
func TestSaveWritesOnlyWhatChanged(t *testing.T) {
	dir := copyGuide(t)
	s, err := New(Options{ContentDir: dir, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The previous generation is removed once the new one is served:
	// its files' identities are taken now.
	before := map[string]os.FileInfo{}
	for p := range readTree(t, s.Dir()) {
		st, err := os.Stat(filepath.Join(s.Dir(), filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		before[p] = st
	}
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
	after := s.Dir()
	files := 0
	for p := range readTree(t, after) {
		files++
		a := before[p]
		b, err := os.Stat(filepath.Join(after, filepath.FromSlash(p)))
		if a == nil || err != nil {
			t.Fatalf("%s: not in both generations (%v)", p, err)
		}
		if linked := os.SameFile(a, b); linked == (p == "acks.html") {
			t.Errorf("%s: linked to the previous generation's file = %v", p, linked)
		}
	}
	if files < 20 {
		t.Errorf("%d files in the generation", files)
	}
}

// A save that renames a page of one section renders and reloads that
// section's pages (each one's navigation shows the title) and its index
// page, and leaves every page of the other section as it was, linked to
// the previous generation's file.
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
	before := map[string]os.FileInfo{}
	for p := range readTree(t, s.Dir()) {
		st, err := os.Stat(filepath.Join(s.Dir(), filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		before[p] = st
	}
	write(t, filepath.Join(dir, "a", "p2.md"), fencePage("Page a2, renamed", "f2", "A figure", "beats: 3"))
	r := s.Rebuild()
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	want := []string{"a/index.html", "a/p1.html", "a/p2.html", "a/p3.html"}
	if strings.Join(r.Changed, " ") != strings.Join(want, " ") {
		t.Errorf("changed pages %v, want %v", r.Changed, want)
	}
	if s.pages.Rendered != 4 || s.pages.Reused != 4 {
		t.Errorf("%d pages rendered, %d reused; want 4 and 4 (section b's index and pages)", s.pages.Rendered, s.pages.Reused)
	}
	for _, p := range []string{"b/index.html", "b/p1.html", "b/p2.html", "b/p3.html"} {
		st, err := os.Stat(filepath.Join(s.Dir(), filepath.FromSlash(p)))
		if err != nil || before[p] == nil || !os.SameFile(before[p], st) {
			t.Errorf("%s was written again (%v)", p, err)
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
	before := map[string][]byte{}
	for p, b := range readTree(t, s.Dir()) {
		before[p] = b
	}
	write(t, page, string(src[:at])+"Edited, "+string(src[at:]))
	r := s.Rebuild()
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	variants := 0
	for p, b := range readTree(t, s.Dir()) {
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
