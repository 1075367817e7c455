package site

import (
	"io/fs"
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
