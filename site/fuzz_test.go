package site

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
)

// FuzzPage runs whole pages — front matter, Markdown, kflow fences —
// through the pipeline. Whatever the bytes, Generate must not panic, and
// every error must be an ErrorList entry positioned inside the page.
// Seeds: every page of the guide plus a few broken shapes.
func FuzzPage(f *testing.F) {
	_ = fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := fs.ReadFile(content.FS, p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	for _, s := range []string{
		"",
		"---\n",
		"---\ntitle: x\n",
		"---\ntitle: [a\n---\n",
		"---\ntitle: T\n---\n```kflow\n```\n",
		"---\ntitle: T\n---\n> ```kflow\n> id: q\n> ack: 1\n> ```\n",
		"---\ntitle: T\n---\n1. x\n\n   ```kflow\n   id: a\n\tbeats: 3\n   ```\n",
		"---\ntitle: T\n---\n```kflow\nid: a\n```\n```kflow\nid: a\n```\n",
		"---\r\ntitle: T\r\n---\r\n```kflow\r\nid: crlf\r\nbrokers: x\r\n```\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Generate(Options{Content: fstest.MapFS{"p.md": {Data: src}}, ContentName: "c"})
		if err == nil {
			if s.File("p.html") == nil {
				t.Fatal("a successful build wrote no page")
			}
			return
		}
		var l sim.ErrorList
		if !errors.As(err, &l) {
			t.Fatalf("not a positioned error: %v", err)
		}
		lines := bytes.Split(src, []byte("\n"))
		for _, e := range l {
			if e.File != "c/p.md" {
				t.Errorf("error names file %q: %v", e.File, e)
			}
			// Inside the page: a real line, and a column on it or just
			// after its last character (where "unexpected end" errors
			// point); columns count characters (sim.Pos).
			if e.Line < 1 || e.Line > len(lines) || e.Col < 1 || e.Col > utf8.RuneCount(lines[e.Line-1])+1 {
				t.Errorf("error outside the page (%d lines): %v", len(lines), e)
			}
			if strings.HasPrefix(e.Msg, fence.InternalError) {
				t.Errorf("the engine or renderer broke: %v", e)
			}
			if !utf8.ValidString(e.Msg) && utf8.Valid(src) {
				t.Errorf("message is not UTF-8: %q", e.Msg)
			}
		}
	})
}

// BenchmarkGenerateGuide builds the embedded guide in memory with no
// figure cache: every scenario parsed, simulated and drawn. It is not a
// cold process's build: svganim keeps, for the whole process, the codes
// of titles and the bytes svgo wrote for marks (svg.go, words.go), so the
// iterations after the first find those full, as serve's rebuilds do. A
// cold process is what `kflowgen bench` times first, and what its
// --against-hugo runs time every time.
func BenchmarkGenerateGuide(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(Options{Content: content.FS}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateGuideCached rebuilds the guide with every figure in the
// cache, as serve mode does after a save that changed no fence.
func BenchmarkGenerateGuideCached(b *testing.B) {
	c := NewMemoryCache()
	if _, err := Generate(Options{Content: content.FS, Cache: c}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Generate(Options{Content: content.FS, Cache: c}); err != nil {
			b.Fatal(err)
		}
	}
}
