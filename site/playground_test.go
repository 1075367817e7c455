package site

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/playground"
)

// TestPlaygroundPage: every site has playground.html, the only page that
// loads the WebAssembly; every figure is followed by an Edit link carrying
// its fence; and a content page named playground is refused.
func TestPlaygroundPage(t *testing.T) {
	body := "id: one\nbeats: 3\n"
	s, err := Generate(Options{Content: fstest.MapFS{
		"a.md": {Data: []byte("---\ntitle: A\n---\n```kflow\n" + body + "```\n")},
		"b.md": {Data: []byte("---\ntitle: B\n---\nNo figure.\n")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	pg := s.File(playground.PageFile)
	for _, want := range []string{`<textarea id="pg-text"`, `assets/kflow-wasm.js`, `assets/playground.js`, `assets/stepper.js`} {
		if !bytes.Contains(pg, []byte(want)) {
			t.Errorf("playground.html lacks %s", want)
		}
	}
	for _, f := range s.Files {
		if strings.HasSuffix(f.Path, ".html") && f.Path != playground.PageFile && bytes.Contains(f.Data, []byte("kflow-wasm.js")) {
			t.Errorf("%s loads the WebAssembly", f.Path)
		}
	}
	if s.File("assets/kflow-wasm.js") == nil || s.File("assets/wasm-exec.js") == nil {
		t.Error("the playground's scripts are not in assets/")
	}
	edit := `<p class="kf-edit"><a href="` + playground.EditHref([]byte(body)) + `">`
	if !bytes.Contains(s.File("a.html"), []byte(edit)) {
		t.Errorf("a.html has no Edit link carrying its fence")
	}

	_, err = Generate(Options{Content: fstest.MapFS{"playground.md": {Data: []byte("---\ntitle: P\n---\nText.\n")}}})
	if err == nil || !strings.Contains(err.Error(), `page name "playground" is taken`) {
		t.Errorf("a page named playground: %v", err)
	}
}
