package site

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testSite(body string) *Site {
	return &Site{Files: []File{
		{Path: "assets/site.css", Data: []byte("body{}")},
		{Path: "index.html", Data: []byte(body)},
	}}
}

// readTree returns every file under dir, by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// noLeftovers fails if a temporary folder of the swap stayed behind.
func noLeftovers(t *testing.T, parent string) {
	t.Helper()
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".new-") || strings.Contains(e.Name(), ".old-") {
			t.Errorf("leftover temporary folder %s", e.Name())
		}
	}
}

func TestWriteDirReplacesPreviousBuild(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if err := testSite("one").WriteDir(out, ""); err != nil {
		t.Fatal(err)
	}
	if err := testSite("two").WriteDir(out, ""); err != nil {
		t.Fatalf("replacing our own output: %v", err)
	}
	got := readTree(t, out)
	if got["index.html"] != "two" {
		t.Errorf("index.html = %q after the second build", got["index.html"])
	}
	if !strings.Contains(got[Marker], "\nassets/site.css\nindex.html\n") {
		t.Errorf("marker does not list the files:\n%s", got[Marker])
	}
	noLeftovers(t, parent)
}

func TestWriteDirFailureKeepsOldOutput(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if err := testSite("good").WriteDir(out, ""); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, out)
	// "a" as a file and as a folder cannot both be written.
	broken := &Site{Files: []File{{Path: "a", Data: []byte("x")}, {Path: "a/b.html", Data: []byte("y")}}}
	if err := broken.WriteDir(out, ""); err == nil {
		t.Fatal("a build that cannot be written reported success")
	}
	after := readTree(t, out)
	if len(after) != len(before) || after["index.html"] != "good" {
		t.Errorf("the failed write changed the old output: %v", after)
	}
	noLeftovers(t, parent)
}

func TestWriteDirRefusals(t *testing.T) {
	parent := t.TempDir()
	mk := func(rel string, files ...string) string {
		d := filepath.Join(parent, rel)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(d, f), []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	contentDir := mk("project/content", "acks.md")
	mk("project", "go.mod")
	mk("theirs", "notes.txt")
	ours := mk("ours")
	if err := testSite("x").WriteDir(ours, ""); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ours, "added.txt"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(parent, "file")
	if err := os.WriteFile(file, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct{ name, out, want string }{
		{"the content folder", contentDir, "it is the content folder"},
		{"a parent of the content folder", filepath.Join(parent, "project"), "it holds the content folder"},
		{"a grandparent of the content folder", parent, "it holds the content folder"},
		{"the content folder through ..", filepath.Join(contentDir, "..", "content"), "it is the content folder"},
		{"a folder inside the content folder", filepath.Join(contentDir, "public"), "it is inside the content folder"},
		{"a folder with go.mod", mk("other", "go.mod"), "it holds go.mod"},
		{"a folder not ours", filepath.Join(parent, "theirs"), "was not written by kflowgen build"},
		{"our folder with a file we did not write", ours, "holds added.txt, which kflowgen build did not write"},
		{"a file", file, "it is a file"},
		{"the current folder", ".", "it is the current folder"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := testSite("new").WriteDir(c.out, contentDir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	// Nothing was touched.
	for _, p := range []string{"project/content/acks.md", "project/go.mod", "theirs/notes.txt", "ours/added.txt", "file"} {
		if b, err := os.ReadFile(filepath.Join(parent, p)); err != nil || string(b) != "keep me" {
			t.Errorf("%s was changed: %q %v", p, b, err)
		}
	}
	noLeftovers(t, parent)

	// An empty folder may be used.
	empty := mk("empty")
	if err := testSite("ok").WriteDir(empty, contentDir); err != nil {
		t.Errorf("building into an empty folder: %v", err)
	}
}

// TestWriteDirRemovesInterruptedBuilds: the folders a build killed while
// writing leaves next to the output (".public.new-*", ".public.old-*")
// are removed by the next build, but only those holding kflowgen's marker.
func TestWriteDirRemovesInterruptedBuilds(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	ours, theirs := filepath.Join(parent, ".public.new-123"), filepath.Join(parent, ".public.old-456")
	for _, d := range []string{ours, theirs} {
		if err := os.MkdirAll(filepath.Join(d, "assets"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "assets", "x.css"), []byte("half written"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ours, Marker), []byte(markerHead), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := testSite("x").WriteDir(out, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ours); !os.IsNotExist(err) {
		t.Errorf("the interrupted build %s is still there (%v)", ours, err)
	}
	if _, err := os.Stat(filepath.Join(theirs, "assets", "x.css")); err != nil {
		t.Errorf("a folder without the marker was touched: %v", err)
	}
}

// TestLeftoverLinkNotFollowed (issue 18.3): a symbolic link named like an
// interrupted build's folder (".public.old-*", ".public.new-*") that
// points at a folder holding a Marker is not ours: the build neither
// empties the folder it points to nor removes the link.
func TestLeftoverLinkNotFollowed(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	victim := filepath.Join(t.TempDir(), "precious")
	if err := os.MkdirAll(filepath.Join(victim, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{Marker, "notes.txt", "sub/deep.txt"} {
		if err := os.WriteFile(filepath.Join(victim, f), []byte("keep "+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readTree(t, victim)
	links := []string{filepath.Join(parent, ".public.old-1"), filepath.Join(parent, ".public.new-2")}
	for _, l := range links {
		if err := os.Symlink(victim, l); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 { // once into a new folder, once replacing it
		if err := testSite("one").WriteDir(out, ""); err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
	}
	if got := readTree(t, victim); !maps.Equal(got, want) {
		t.Errorf("the folder a leftover-named link points to changed: %v, want %v", got, want)
	}
	for _, l := range links {
		if st, err := os.Lstat(l); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link %s was removed or replaced (%v)", l, err)
		}
	}
}
