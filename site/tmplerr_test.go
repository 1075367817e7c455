package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/templates"
)

// TestTemplateErrorsPositioned: a layout that does not parse, or fails
// while a page is drawn, is reported as TEMPLATES/FILE:LINE:COL: message,
// with the folder as the user named it, like every other build error.
func TestTemplateErrorsPositioned(t *testing.T) {
	content := fstest.MapFS{"a.md": page("title: A")}
	index, err := fs.ReadFile(templates.FS, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ layout, want string }{
		{"<html>\n{{if .Title}\n{{end}}\n", `mytemplates/layout.html:2:1: bad character U+007D '}'`},
		{"<html>\n{{if .Title}}\n", `mytemplates/layout.html:3:1: unexpected EOF`},
		{"<html>\n{{.Title\n\n", `mytemplates/layout.html:4:1: unclosed action started at line 2`},
		{"<html>\n<p>{{.NoSuchField}}</p>\n", `mytemplates/layout.html:2:6: executing "layout.html" at <.NoSuchField>: can't evaluate field NoSuchField in type site.layoutData`},
	} {
		tmpl := fstest.MapFS{"layout.html": {Data: []byte(c.layout)}, "index.html": {Data: index}}
		_, err := Generate(Options{Content: content, Templates: tmpl, TemplatesName: "mytemplates"})
		if err == nil || err.Error() != c.want {
			t.Errorf("layout %q:\ngot  %v\nwant %s", c.layout, err, c.want)
		}
	}
}

// TestTemplatesLoadWhatTheSiteHas (try11 F7): a templates folder whose
// layout.html or index.html loads an asset ({{.Assets}}NAME) that the
// site does not write fails the build at the reference, naming the
// template, instead of building pages that link a missing stylesheet; a
// layout that never writes {{.Content}} (an empty layout.html, say) fails
// rather than building every page empty. The built-in templates, and a
// folder holding all of them, build.
func TestTemplatesLoadWhatTheSiteHas(t *testing.T) {
	content := fstest.MapFS{"a.md": page("title: A", "Text.")}
	folder := func(drop string, layout []byte) fstest.MapFS {
		tmpl := fstest.MapFS{}
		entries, _ := fs.ReadDir(templates.FS, ".")
		for _, e := range entries {
			if b, err := fs.ReadFile(templates.FS, e.Name()); err == nil && e.Name() != drop && path.Ext(e.Name()) != ".go" {
				tmpl[e.Name()] = &fstest.MapFile{Data: b}
			}
		}
		if layout != nil {
			tmpl["layout.html"] = &fstest.MapFile{Data: layout}
		}
		return tmpl
	}
	if _, err := Generate(Options{Content: content, Templates: folder("", nil), TemplatesName: "tp"}); err != nil {
		t.Fatalf("the built-in templates as a folder: %v", err)
	}
	layout, _ := fs.ReadFile(templates.FS, "layout.html")
	index, _ := fs.ReadFile(templates.FS, "index.html")
	at := func(src []byte, s string) string {
		i := bytes.Index(src, []byte(s))
		line := bytes.Count(src[:i], []byte("\n")) + 1
		return fmt.Sprintf("%d:%d", line, i-bytes.LastIndexByte(src[:i], '\n'))
	}
	_, err := Generate(Options{Content: content, Templates: folder("site.css", nil), TemplatesName: "tp"})
	msg := func(name string) string {
		return ": this template loads site.css from assets/, which the site does not have: put site.css in the templates folder beside " + name + " (kflowgen's own templates/ folder has one), or remove the reference"
	}
	want := "tp/index.html:" + at(index, "{{.Assets}}site.css") + msg("index.html") + "\n" +
		"tp/layout.html:" + at(layout, "{{.Assets}}site.css") + msg("layout.html")
	if err == nil || err.Error() != want {
		t.Errorf("without site.css:\ngot  %v\nwant %s", err, want)
	}
	_, err = Generate(Options{Content: content, Templates: folder("", []byte{}), TemplatesName: "tp"})
	want = "tp/layout.html:1:1: this layout never writes a page's text ({{.Content}}), so every page would be built without it: put {{.Content}} where the page goes"
	if err == nil || err.Error() != want {
		t.Errorf("empty layout:\ngot  %v\nwant %s", err, want)
	}
	// {{.Content}} reached through a template the layout calls counts.
	called := []byte(`{{define "body"}}<main>{{.Content}}</main>{{end}}<html><body>{{template "body" .}}</body></html>`)
	if _, err := Generate(Options{Content: content, Templates: folder("", called), TemplatesName: "tp"}); err != nil {
		t.Errorf("a layout writing Content through a template it calls: %v", err)
	}
}
