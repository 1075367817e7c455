package serve

import (
	"bytes"
	"errors"
	"html/template"
	"io/fs"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// maxShown bounds the errors the overlay lists (the terminal gets all).
const maxShown = 20

// excerptAround is how many lines of source the overlay shows above and
// below an error's line.
const excerptAround = 2

// excerptWidth bounds the characters an excerpt shows of a line (the
// overlay scrolls sideways within that).
const excerptWidth = 240

// problem is one error of a failed build, as the terminal and the overlay
// show it.
type problem struct {
	// Text is the whole line: "file:line:col: message" when positioned.
	Text string
	// Positioned says Text starts with a position and is printed as it is;
	// otherwise the terminal prefixes "kflowgen: ".
	Positioned bool
	// Pos ("content/acks.md:14:9", or just the file) and Msg split Text for
	// the overlay; Pos is "" for errors about no file in particular.
	Pos, Msg string
	// Lines is the source around the error (empty when unknown).
	Lines []sourceLine
}

// sourceLine is one line of an excerpt; for the offending line (Hit),
// Caret is the text to print under it so that its "^" lands on the column.
type sourceLine struct {
	N     int
	Text  string
	Hit   bool
	Caret string
}

// problems turns a build error into what the overlay shows, with the
// source lines around each positioned error read from the content.
func (s *Server) problems(err error) []problem {
	var list sim.ErrorList
	if !errors.As(err, &list) {
		return []problem{{Text: err.Error(), Msg: err.Error()}}
	}
	files := map[string][]string{}
	var out []problem
	for i, e := range list {
		p := problem{Text: e.Error(), Positioned: true, Pos: e.File, Msg: e.Msg}
		// Only the errors the overlay lists get an excerpt: a page of
		// thousands of bad links on one long line made one excerpt of
		// that line each, gigabytes in all (try12 T10).
		if e.Line > 0 && i < maxShown {
			p.Pos = strings.TrimSuffix(e.Error(), ": "+e.Msg)
			src, ok := files[e.File]
			if !ok {
				src = s.sourceLines(e.File)
				files[e.File] = src
			}
			p.Lines = excerpt(src, e.Line, e.Col)
		}
		out = append(out, p)
	}
	return out
}

// sourceLines reads the content or templates file an error names (its
// path as errors print it: ContentName, "/", the page's path, or the
// templates folder's name, "/", the layout), split into lines; nil when
// it cannot be read.
func (s *Server) sourceLines(file string) []string {
	p, fsys := file, s.contentFS()
	rest, inTemplates := "", false
	if s.templates != nil {
		// An error in a layout names the templates folder (site's
		// Options.TemplatesName, as rebuild sets it).
		rest, inTemplates = strings.CutPrefix(file, s.templatesName()+"/")
	}
	switch {
	case inTemplates:
		p, fsys = rest, s.templates
	case s.o.ContentName != "":
		var ok bool
		if p, ok = strings.CutPrefix(file, s.o.ContentName+"/"); !ok {
			return nil
		}
	}
	if !fs.ValidPath(p) {
		return nil
	}
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil
	}
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return strings.Split(string(b), "\n")
}

// excerpt returns the lines around line (1-based) with a caret under col
// (1-based, counted in characters as every position is: see sim.Pos; tabs
// before it are kept so the caret lines up). Each byte that is not UTF-8
// is shown as one replacement character, so it takes the one column it
// counts for.
func excerpt(src []string, line, col int) []sourceLine {
	if line < 1 || line > len(src) {
		return nil
	}
	var out []sourceLine
	for n := max(1, line-excerptAround); n <= min(len(src), line+excerptAround); n++ {
		// Ranging over a string yields U+FFFD once for each invalid byte.
		chars := []rune(src[n-1])
		// Columns past the end point just after the last character.
		want := min(max(col, 1), len(chars)+1) - 1
		// A long line shows excerptWidth characters of it, around the
		// column on the error's line and from the start on the others,
		// with "…" where it is cut.
		from := 0
		if n == line {
			from = max(0, min(want-excerptWidth/2, len(chars)-excerptWidth))
		}
		to := min(len(chars), from+excerptWidth)
		shown, lead := chars[from:to], ""
		if from > 0 {
			lead = "…"
		}
		sl := sourceLine{N: n, Text: lead + string(shown)}
		if to < len(chars) {
			sl.Text += "…"
		}
		if n == line {
			sl.Hit = true
			var pad strings.Builder
			if from > 0 {
				pad.WriteByte(' ') // under the "…"
			}
			for _, r := range chars[from:want] {
				if r == '\t' {
					pad.WriteByte('\t')
				} else {
					pad.WriteByte(' ')
				}
			}
			sl.Caret = pad.String() + "^"
		}
		out = append(out, sl)
	}
	return out
}

type overlayData struct {
	Problems []problem
	More     int
	// Built says a build has succeeded, whose pages are shown under the
	// overlay; before one has, the pages are error pages.
	Built bool
}

var overlayTmpl = template.Must(template.New("overlay").Parse(`<div id="kflow-error" role="alert" aria-live="assertive">
<style>
#kflow-error{position:fixed;inset:0 0 auto 0;z-index:2147483647;max-height:70vh;overflow:auto;margin:0;padding:1rem 1.25rem;
background:#fff5f5;color:#1a1a1a;border-bottom:4px solid #c0262d;box-shadow:0 4px 16px rgba(0,0,0,.25);
font:15px/1.45 system-ui,sans-serif}
#kflow-error h2{margin:0 0 .5rem;font-size:1.05rem;color:#9b1c22}
#kflow-error .kfe-note{margin:0 0 .75rem}
#kflow-error .kfe-msg{margin:.75rem 0 .25rem;font-weight:600}
#kflow-error .kfe-pos{font-family:ui-monospace,monospace;font-weight:400}
#kflow-error pre{margin:0;padding:.5rem .75rem;background:#fff;border:1px solid #e3b3b5;overflow:auto;font:13px/1.4 ui-monospace,monospace;tab-size:4}
#kflow-error .kfe-n{display:inline-block;min-width:3.5em;color:#777;user-select:none}
#kflow-error .kfe-hit{background:#ffe1e1;display:inline-block;min-width:100%}
#kflow-error .kfe-caret{color:#c0262d;font-weight:700}
#kflow-error button{float:right;font:inherit}
@media (prefers-color-scheme:dark){#kflow-error{background:#2a1416;color:#f3e9e9}#kflow-error h2{color:#ff9ea3}
#kflow-error pre{background:#1b1b1b;border-color:#6b3034}#kflow-error .kfe-hit{background:#4a1d21}#kflow-error .kfe-n{color:#999}}
</style>
<button type="button" data-kflow-hide>hide</button>
{{- if .Built}}
<h2>The last change does not build</h2>
<p class="kfe-note">This page shows the last good build. Fix the problem and save: the page recovers by itself.</p>
{{- else}}
<h2>The site does not build</h2>
<p class="kfe-note">No build has succeeded yet, so there is no page to show. Fix the problem and save: the page loads by itself.</p>
{{- end}}
{{- range .Problems}}
<p class="kfe-msg">{{with .Pos}}<span class="kfe-pos">{{.}}</span>: {{end}}{{.Msg}}</p>
{{- with .Lines}}
<pre>{{range .}}{{if .Hit}}<span class="kfe-hit"><span class="kfe-n">{{.N}}</span>{{.Text}}</span>
<span class="kfe-n"></span><span class="kfe-caret">{{.Caret}}</span>
{{else}}<span class="kfe-n">{{.N}}</span>{{.Text}}
{{end}}{{end}}</pre>
{{- end}}
{{- end}}
{{- if .More}}
<p class="kfe-note">… and {{.More}} more (see the terminal).</p>
{{- end}}
</div>`))

// overlayHTML renders the error overlay fragment that pages show while the
// build is broken; built says whether an earlier build succeeded (the
// pages under it are that build's). Every piece of user text goes through
// html/template.
func overlayHTML(items []problem, built bool) string {
	d := overlayData{Problems: items, Built: built}
	if len(items) > maxShown {
		d.Problems, d.More = items[:maxShown], len(items)-maxShown
	}
	var b strings.Builder
	if err := overlayTmpl.Execute(&b, d); err != nil {
		panic("serve: overlay template: " + err.Error())
	}
	return b.String()
}
