package site

import (
	"html/template"
	"testing"

	"github.com/kafkaflow/kflowgen/templates"
)

// TestExecuteLayoutSplices checks that a page spliced around its Content
// is the page html/template writes, for layouts that print Content once,
// twice, nowhere, in a template they call, in other contexts than text
// (where it would be escaped, filtered or dropped), or decide on it, and
// for Content that is empty or holds the mark itself.
func TestExecuteLayoutSplices(t *testing.T) {
	layouts := []struct {
		name, text string
		splices    bool // printsContentOnly
	}{
		{"once", `<title>{{.Title}}</title><main>{{.Content}}</main>`, true},
		{"through $", `{{with .Title}}<h1>{{.}}</h1>{{$.Content}}{{end}}`, true},
		{"in a block", `<main>{{block "body" .}}{{.Content}}{{end}}</main>`, true},
		{"twice", `{{.Content}}<hr>{{.Content}}`, true},
		{"nowhere", `<p>{{.Title}}</p>`, true},
		{"in an attribute", `<div title="{{.Content}}">{{.Content}}</div>`, false},
		{"in a script", `<script>var c = {{.Content}};</script>{{.Content}}`, false},
		{"in a title", `<title>{{.Content}}</title>{{.Content}}`, false},
		{"in a URL", `<a href="/x?c={{.Content}}">x</a>{{.Content}}`, false},
		{"in a style", `<style>{{.Content}}</style>{{.Content}}`, false},
		{"as an attribute's name", `<input {{.Content}}>{{.Content}}`, false},
		{"in a comment", `<!-- {{.Content}} -->{{.Content}}`, false},
		{"in a template called", `{{define "main"}}<main>{{.Content}}</main>{{end}}{{template "main" .}}`, true},
		{"in a template called, in a script", `{{define "js"}}<script>var c = {{.Content}};</script>{{end}}{{.Content}}{{template "js" .}}`, false},
		{"in a condition", `{{if .Content}}<main>{{.Content}}</main>{{else}}empty{{end}}`, false},
		{"through a function", `{{len .Content}}:{{.Content}}`, false},
		{"through a pipe", `{{.Content | print}}`, false},
		{"in a variable", `{{$c := .Content}}{{$c}}`, false},
		{"as a template's data", `{{define "x"}}[{{.}}]{{end}}{{template "x" .Content}}`, false},
	}
	contents := []template.HTML{"", "<p>a &amp; b</p>\n", "<p>" + contentMark + "</p>", contentMark}
	for _, l := range layouts {
		parse := func() *template.Template {
			return template.Must(template.New("layout.html").Parse(l.text))
		}
		tmpl := parse()
		if got := printsContentOnly(tmpl, "layout.html"); got != l.splices {
			t.Errorf("%s: printsContentOnly = %v, want %v", l.name, got, l.splices)
		}
		plain := parse()
		for _, c := range contents {
			d := layoutData{Title: "T <1>", Content: c}
			got, err := executeLayout(tmpl, "layout.html", d, printsContentOnly(parse(), "layout.html"))
			if err != nil {
				t.Fatalf("%s: %v", l.name, err)
			}
			want, err := executeLayout(plain, "layout.html", d, false)
			if err != nil {
				t.Fatalf("%s: %v", l.name, err)
			}
			if string(got) != string(want) {
				t.Errorf("%s, Content %q:\nspliced %q\nwritten %q", l.name, c, got, want)
			}
		}
	}
}

// TestBuiltInLayoutSplices checks that the built-in layout prints Content
// only, so that a build's pages are spliced.
func TestBuiltInLayoutSplices(t *testing.T) {
	tmpl, err := template.ParseFS(templates.FS, "layout.html", "index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !printsContentOnly(tmpl, "layout.html") {
		t.Error("the built-in layout does more with Content than print it: its pages are written by html/template alone")
	}
}
