package site

import (
	"bytes"
	"io/fs"
	"regexp"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/templates"
)

// TestStylesheetsMinified checks that the site serves each stylesheet of
// the templates folder without its comments and smaller than written,
// and that no class, custom property or at-rule of the source is lost on
// the way: a minifier that dropped a rule would fail here, not only in a
// screenshot.
func TestStylesheetsMinified(t *testing.T) {
	s, err := Generate(Options{Content: fstest.MapFS{"a.md": {Data: []byte("---\ntitle: A\n---\n\nText.\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(templates.FS, "*.css")
	if err != nil || len(names) < 3 {
		t.Fatalf("templates hold %v (%v); want site.css, figure.css, kf-knobs.css at least", names, err)
	}
	comment := regexp.MustCompile(`(?s)/\*.*?\*/`)
	token := regexp.MustCompile(`\.[a-z][a-z0-9-]*|--[a-z][a-z0-9-]*|@[a-z-]+`)
	for _, name := range names {
		src, err := fs.ReadFile(templates.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		got := s.File(AssetDir + "/" + name)
		if got == nil {
			t.Errorf("%s is not in the site", name)
			continue
		}
		if bytes.Contains(got, []byte("/*")) {
			t.Errorf("%s is served with a comment", name)
		}
		if len(got) >= len(src) {
			t.Errorf("%s is served at %d bytes, written at %d", name, len(got), len(src))
		}
		seen := map[string]bool{}
		for _, tok := range token.FindAll(comment.ReplaceAll(src, nil), -1) {
			if !seen[string(tok)] && !bytes.Contains(got, tok) {
				t.Errorf("%s: %s is in the source but not in what the site serves", name, tok)
			}
			seen[string(tok)] = true
		}
	}
}
