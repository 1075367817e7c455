package site

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// TestStaticFilesPublished: every file of the content folder that is not
// a page is published as it is, at its path (a folder directly under the
// content folder under its section's output name), and links and images
// to it pass the link check and point at it; hidden files, drafts ("_")
// and editors' temporary files are not published.
func TestStaticFilesPublished(t *testing.T) {
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	content := fstest.MapFS{
		"a.md":                page("title: A", "![a diagram](diagram.svg) [the data](Ops%20Guide/img/d.svg) [notes](notes) [demo](demo.html)"),
		"Ops Guide/g.md":      page("title: G", "![d](img/d.svg) ![up](../diagram.svg) ![out](../ops-guide/img/d.svg)"),
		"diagram.svg":         {Data: svg},
		"notes":               {Data: []byte("plain notes")},
		"demo.html":           {Data: []byte("<p>a page of its own</p>")},
		"Ops Guide/img/d.svg": {Data: []byte("<svg/>")},
		".hidden":             {Data: []byte("x")},
		"_draft.png":          {Data: []byte("x")},
		"a.md~":               {Data: []byte("x")},
		"old.bak":             {Data: []byte("x")},
		"img/.swp":            {Data: []byte("x")},
	}
	s, err := Generate(Options{Content: content})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string][]byte{
		"diagram.svg": svg, "notes": []byte("plain notes"), "demo.html": []byte("<p>a page of its own</p>"),
		"ops-guide/img/d.svg": []byte("<svg/>"),
	} {
		if got := s.File(p); !bytes.Equal(got, want) {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
	for _, f := range s.Files {
		for _, skipped := range []string{"hidden", "_draft", "~", ".bak", ".swp", ".go"} {
			if strings.Contains(f.Path, skipped) {
				t.Errorf("%s was published", f.Path)
			}
		}
	}
	for file, wants := range map[string][]string{
		"a.html":           {`<img src="diagram.svg" alt="a diagram">`, `href="ops-guide/img/d.svg"`, `href="notes"`, `href="demo.html"`},
		"ops-guide/g.html": {`<img src="img/d.svg" alt="d">`, `<img src="../diagram.svg" alt="up">`, `<img src="img/d.svg" alt="out">`},
	} {
		for _, want := range wants {
			if !strings.Contains(string(s.File(file)), want) {
				t.Errorf("%s lacks %s", file, want)
			}
		}
	}
	checkLinks(t, s)
}

// TestStaticFileErrors: a file published from the content folder may not
// land where the build writes a page, in the assets folder or on another
// such file; it must be a regular file, readable, at most MaxStaticBytes,
// and all of them at most MaxStaticTotal. Each is reported at the file,
// every one at once.
func TestStaticFileErrors(t *testing.T) {
	big := make([]byte, MaxStaticBytes)
	content := fstest.MapFS{
		"a.md":            page("title: A"),
		"a.html":          {Data: []byte("x")},
		"index.html":      {Data: []byte("x")},
		"playground.html": {Data: []byte("x")},
		"assets/x.png":    {Data: []byte("x")},
		"Img/x.png":       {Data: []byte("x")},
		"img/x.png":       {Data: []byte("y")},
		"huge.bin":        {Data: append(big, 0)},
		"pipe":            {Mode: fs.ModeNamedPipe},
	}
	_, err := Generate(Options{Content: content, ContentName: "content"})
	want := "content/pipe:1:1: this is a named pipe; a file the site publishes must be a regular file (or a link to one)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	delete(content, "pipe")
	_, err = Generate(Options{Content: content, ContentName: "content"})
	want = `content/a.html:1:1: this file would be written to a.html, where the build writes a page; rename it` + "\n" +
		`content/assets/x.png:1:1: this file would be written to assets/x.png, in the folder that holds the site's stylesheets and scripts; move it or rename its folder` + "\n" +
		`content/huge.bin:1:1: this file is 16777217 bytes: Kafka Flow publishes files of at most 16777216 bytes (16 MiB) from the content folder` + "\n" +
		`content/img/x.png:1:1: this file would be written to img/x.png, like content/Img/x.png; rename one` + "\n" +
		`content/index.html:1:1: this file would be written to index.html, where the build writes a page; rename it` + "\n" +
		`content/playground.html:1:1: this file would be written to playground.html, where the build writes a page; rename it`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}

	// Four files at the largest size are MaxStaticTotal; a fifth is too many.
	total := fstest.MapFS{"a.md": page("title: A")}
	for _, n := range []string{"1", "2", "3", "4", "5"} {
		total["f"+n+".bin"] = &fstest.MapFile{Data: big}
	}
	_, err = Generate(Options{Content: total, ContentName: "content"})
	want = "content/f5.bin:1:1: this file takes the files published from the content folder to 83886080 bytes: Kafka Flow allows at most 67108864 (64 MiB) in all"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// deniedFS is a content folder some of whose files and folders cannot be
// read (the tests run as root, for whom a mode does not deny a read).
type deniedFS struct {
	fstest.MapFS
	denied map[string]bool
}

func (d deniedFS) Open(name string) (fs.File, error) {
	if d.denied[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.Open(name)
}

func (d deniedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if d.denied[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.ReadDir(name)
}

// TestUnreadableFilesNamed: a page, a file or a folder that cannot be read
// is reported at its path under the content folder (not the bare name
// the system gave, "open b.md: permission denied"), every one of them;
// a content folder that cannot be read at all (removed while serve runs)
// is named, not called ".".
func TestUnreadableFilesNamed(t *testing.T) {
	content := deniedFS{fstest.MapFS{
		"a.md":     page("title: A", "[b](c/b.md) ![i](img.png)"),
		"c/b.md":   page("title: B"),
		"c/d.md":   page("title: D"),
		"img.png":  {Data: []byte("png")},
		"sec/x.md": page("title: X"),
		"tec/y.md": page("title: Y"),
	}, map[string]bool{"c/b.md": true, "c/d.md": true, "img.png": true, "sec": true, "tec": true}}
	_, err := Generate(Options{Content: content, ContentName: "content"})
	want := "content/sec:1:1: cannot read this folder: permission denied\ncontent/tec:1:1: cannot read this folder: permission denied"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	delete(content.denied, "sec")
	delete(content.denied, "tec")
	_, err = Generate(Options{Content: content, ContentName: "content"})
	want = "content/c/b.md:1:1: cannot read this page: permission denied\n" +
		"content/c/d.md:1:1: cannot read this page: permission denied\n" +
		"content/img.png:1:1: cannot read this file: permission denied"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}

	content.denied["."] = true
	_, err = Generate(Options{Content: content, ContentName: "content"})
	if want := "cannot read the content folder content: permission denied"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
