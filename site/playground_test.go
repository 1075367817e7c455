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

// TestPlaygroundEditLinkCRLF: a page saved with CRLF line ends links the
// playground to the same text as the page saved with LF, so the editor
// does not receive the fence's "\r"s.
func TestPlaygroundEditLinkCRLF(t *testing.T) {
	page := "---\ntitle: A\n---\n```kflow\nid: one\nbeats: 3\n```\n"
	edit := func(src string) string {
		t.Helper()
		s, err := Generate(Options{Content: fstest.MapFS{"a.md": {Data: []byte(src)}}})
		if err != nil {
			t.Fatal(err)
		}
		html := string(s.File("a.html"))
		i := strings.Index(html, `<p class="kf-edit"><a href="`)
		if i < 0 {
			t.Fatal("a.html has no Edit link")
		}
		link, _, _ := strings.Cut(html[i+len(`<p class="kf-edit"><a href="`):], `"`)
		return link
	}
	lf, crlf := edit(page), edit(strings.ReplaceAll(page, "\n", "\r\n"))
	if crlf != lf {
		t.Errorf("the CRLF page's Edit link is %s, the LF page's %s", crlf, lf)
	}
	if want := playground.EditHref([]byte("id: one\nbeats: 3\n")); lf != want {
		t.Errorf("Edit link %s, want %s", lf, want)
	}
}
