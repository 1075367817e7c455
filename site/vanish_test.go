package site

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// vanishFS lists the paths in gone but cannot open or list them, as when
// an editor's temporary file or folder is deleted between the walk's
// listing of its folder and the build's read of it.
type vanishFS struct {
	fstest.MapFS
	gone map[string]bool
}

func (v vanishFS) Open(name string) (fs.File, error) {
	if v.gone[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return v.MapFS.Open(name)
}

func (v vanishFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if v.gone[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return v.MapFS.ReadDir(name)
}

func (v vanishFS) Stat(name string) (fs.FileInfo, error) {
	if v.gone[name] {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return v.MapFS.Stat(name)
}

// TestVanishedInput (hostile13 T3): a page, a file to publish or a folder
// that the walk listed and that is gone when it is read was deleted: the
// build goes on as if it had never been listed, where it failed with
// "cannot read this page: file does not exist". The site is the one built
// without them, byte for byte.
func TestVanishedInput(t *testing.T) {
	files := fstest.MapFS{
		"index.md":        page("title: Home", "Home."),
		"p.md":            page("title: P", "Text."),
		"gone.md":         page("title: Gone", "Gone."),
		"img.png":         {Data: []byte("png")},
		"gone.png":        {Data: []byte("png")},
		"tmpdir/x.md":     page("title: X", "X."),
		"sec/_index.md":   page("title: Sec", "Sec."),
		"sec/q.md":        page("title: Q", "Q."),
		"sec/gone-too.md": page("title: G", "G."),
	}
	gone := map[string]bool{"gone.md": true, "gone.png": true, "tmpdir": true, "sec/gone-too.md": true}
	got, err := Generate(Options{Content: vanishFS{files, gone}, ContentName: "content"})
	if err != nil {
		t.Fatalf("a build whose inputs vanished after the listing failed: %v", err)
	}
	without := fstest.MapFS{}
	for p, f := range files {
		if !gone[p] && !strings.HasPrefix(p, "tmpdir/") {
			without[p] = f
		}
	}
	want, err := Generate(Options{Content: without, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Files) != len(want.Files) {
		t.Fatalf("got %d files, want %d", len(got.Files), len(want.Files))
	}
	for i := range got.Files {
		if got.Files[i].Path != want.Files[i].Path || string(got.Files[i].Data) != string(want.Files[i].Data) {
			t.Errorf("file %d: got %s, want %s (or their bytes differ)", i, got.Files[i].Path, want.Files[i].Path)
		}
	}
	// Every page gone: the content holds no pages, as when deleted.
	all := map[string]bool{}
	for p := range files {
		if strings.HasSuffix(p, ".md") {
			all[p] = true
		}
	}
	if _, err := Generate(Options{Content: vanishFS{files, all}, ContentName: "content"}); err == nil || err.Error() != "content holds no pages (*.md files)" {
		t.Errorf("every page gone: got %v", err)
	}
}
