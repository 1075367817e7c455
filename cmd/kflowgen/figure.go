package main

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/svganim"
	"github.com/kafkaflow/kflowgen/templates"
	"github.com/spf13/cobra"
)

// figureOptions are the arguments of `kflowgen figure`.
type figureOptions struct {
	// file is a Markdown page or a bare scenario (YAML) file.
	file string
	// scenarioID picks a fence of a page by its id.
	scenarioID string
	// format is "html" (the whole figure, steppable) or "svg" (one frame).
	format string
	// beat is the frame an svg export draws (-1: not given).
	beat int
	// compare draws the fence's compare run in an svg export.
	compare bool
	// out is the file to write ("" or "-": standard output).
	out string
}

func newFigureCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &figureOptions{beat: -1}
	cmd := &cobra.Command{
		Use:   "figure FILE",
		Short: "Export one figure as a standalone HTML file, or one frame as an SVG",
		Long: "figure runs one scenario as the build does and writes it as a single file for slides or a wiki.\n" +
			"FILE is a guide page (.md; choose a fence with --scenario when it has several) or a bare scenario;\n" +
			"with no such file on disk, a page of the guide built into kflowgen (as for sim).\n" +
			"--format html (the default) writes one HTML document holding the figure with its styles, the\n" +
			"stepper and every frame inline, needing no other file; --format svg --beat N writes beat N as a\n" +
			"standalone SVG with its styles inline (--compare: the compare run's beat). A fence that does not\n" +
			"build (a parse error, a failed expect: entry) prints its positioned errors and writes nothing.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			if cmd.Flags().Changed("beat") && o.beat < 0 {
				return fmt.Errorf("--beat %d: a beat is 0 (the initial state) or later", o.beat)
			}
			return runFigure(o, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&o.scenarioID, "scenario", "", "id of the scenario to export when the page has several")
	cmd.Flags().StringVar(&o.format, "format", "html", "html (the whole figure) or svg (one frame, with --beat)")
	cmd.Flags().Var(beatFlag{&o.beat}, "beat", "the beat an svg export draws, 0 being the initial state (no default: --format svg needs it)")
	cmd.Flags().BoolVar(&o.compare, "compare", false, "in an svg export, draw the compare run (the second of a side-by-side figure's two runs)")
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "file to write (default: standard output)")
	addScenarioCompletion(cmd)
	return cmd
}

// beatFlag is --beat: a beat number, or -1 while not given. Its String is
// "" then, so that help shows no "(default -1)", a sentinel that means
// nothing to a reader.
type beatFlag struct{ n *int }

func (b beatFlag) String() string {
	if b.n == nil || *b.n < 0 {
		return ""
	}
	return strconv.Itoa(*b.n)
}

func (b beatFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a beat number (0, 1, 2, …)", s)
	}
	*b.n = v
	return nil
}

func (b beatFlag) Type() string { return "int" }

// runFigure exports the chosen fence.
func runFigure(o *figureOptions, stdout, stderr io.Writer) error {
	switch {
	case o.format != "html" && o.format != "svg":
		return fmt.Errorf("--format %q: want html or svg", o.format)
	case o.format == "html" && o.beat >= 0:
		return errors.New("--beat chooses an svg frame: add --format svg (the html export holds every beat)")
	case o.format == "html" && o.compare:
		return errors.New("--compare chooses an svg frame's run: add --format svg (the html export holds both runs)")
	case o.format == "svg" && o.beat < 0:
		return errors.New("--format svg draws one beat: give it with --beat N")
	}
	name, sc, err := readFence(o.file, o.scenarioID, o.compare, stderr)
	if err != nil {
		return err
	}
	r := sc.parsed.Run()
	slug := site.Slug(filepath.Base(o.file))
	r.Draw(fence.Options{ID: func(id string) string { return site.FigureID(slug, id) }})
	if len(r.Errors) > 0 {
		return positionList(name, r.Errors, sc.pos)
	}
	var out []byte
	if o.format == "html" {
		out, err = standaloneHTML(r.Trace.Title, r.HTML, r.Assets)
	} else {
		t := r.Trace
		if o.compare {
			t = r.CompareTrace
		}
		if o.beat >= len(t.Beats) {
			return fmt.Errorf("%s: --beat %d is outside scenario %q (beats 0 to %d)", name, o.beat, sc.parsed.Scenario.ID, len(t.Beats)-1)
		}
		var frame []byte
		if frame, err = svganim.Frame(t, o.beat); err == nil {
			out, err = standaloneSVG(frame)
		}
	}
	if err != nil {
		return err
	}
	if o.out == "" || o.out == "-" {
		_, err = stdout.Write(out)
		return err
	}
	return writeWhole(o.out, out)
}

// writeWhole writes data to path through a temporary file beside it and
// a rename, so the file is either the old one or the whole new one.
// A missing or unusable folder is reported by its own name, not by the
// temporary file's.
func writeWhole(path string, data []byte) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil {
		return fmt.Errorf("cannot write %s: folder %s: %w", path, dir, errors.Unwrap(err))
	} else if !fi.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder", path, dir)
	}
	// A folder (or anything but a file) at path would only fail the
	// rename below, with the temporary file's name.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("cannot write %s: it is a folder (-o names the file to write, such as %s)", path, filepath.Join(path, "figure.html"))
		}
		// A device or a pipe: the figure is written whole to a new file
		// and renamed into place, which they cannot be.
		return fmt.Errorf("cannot write %s: it is not a regular file (-o names a file to write, which the figure replaces whole; for the standard output leave -o out)", path)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, errors.Unwrap(err))
	}
	_, werr := f.Write(data)
	merr := f.Chmod(0o644) // CreateTemp makes it private; this is a file to share
	cerr := f.Close()
	if err := errors.Join(werr, merr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write %s: %w", path, errors.Unwrap(err))
	}
	return nil
}

// readAsset reads a file of the embedded templates; a stylesheet comes
// minified (site.MinifyCSS).
func readAsset(name string) (string, error) {
	b, err := templates.FS.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	if strings.HasSuffix(name, ".css") {
		// Minified as the site serves it: the comments are for the
		// people who edit the file, not for a slide deck.
		if b, err = site.MinifyCSS(name, b); err != nil {
			return "", err
		}
	}
	return string(b), nil
}

var standaloneTmpl = template.Must(template.New("standalone").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root { color-scheme: light dark; }
body { margin: 0; padding: 1rem; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
{{.CSS}}
</style>
</head>
<body>
{{.Figure}}
{{- range .Variants}}
<script>{{.}}</script>
{{- end}}
<script>{{.Words}}</script>
{{- if .Variants}}
<script>{{.Knobs}}</script>
{{- end}}
<script>{{.Link}}</script>
<script>{{.Stepper}}</script>
</body>
</html>
`))

// standaloneHTML is one HTML document holding a figure's markup with
// figure.css, kf-words.js, kf-link.js and stepper.js inline: it needs no
// other file, works from file:// and, without scripts, shows the poster
// beat and the storyboard like the guide. A figure with knobs brings every
// combination's script (variants, fence.Result.Assets; nil entries are
// skipped), kf-knobs.js and kf-knobs.css inline too.
func standaloneHTML(title string, figure []byte, variants [][]byte) ([]byte, error) {
	css, err := readAsset("figure.css")
	if err != nil {
		return nil, err
	}
	var vs []template.JS
	for _, v := range variants {
		if v != nil {
			vs = append(vs, template.JS(v))
		}
	}
	if len(vs) > 0 {
		kcss, err := readAsset("kf-knobs.css")
		if err != nil {
			return nil, err
		}
		css += kcss
	}
	words, stepper, knobs, link := string(svganim.WordsJS()), string(svganim.StepperJS()), string(svganim.KnobsJS()), string(svganim.LinkJS())
	// Inline, a script or style ends at its first closing tag: ours
	// must hold none (they are our own files and JSON that escapes "<";
	// this guards a change).
	checks := []struct{ name, text, end string }{{"figure.css", css, "</style"}, {"kf-words.js", words, "</script"}, {"stepper.js", stepper, "</script"}, {"kf-knobs.js", knobs, "</script"}, {"kf-link.js", link, "</script"}}
	for _, v := range vs {
		checks = append(checks, struct{ name, text, end string }{"a combination's script", string(v), "</script"})
	}
	for _, s := range checks {
		if strings.Contains(strings.ToLower(s.text), s.end) {
			return nil, fmt.Errorf("%s holds %q and cannot be inlined", s.name, s.end)
		}
	}
	var b bytes.Buffer
	err = standaloneTmpl.Execute(&b, struct {
		Title                       string
		CSS                         template.CSS
		Figure                      template.HTML
		Variants                    []template.JS
		Words, Stepper, Knobs, Link template.JS
	}{title, template.CSS(css), template.HTML(figure), vs, template.JS(words), template.JS(stepper), template.JS(knobs), template.JS(link)})
	return b.Bytes(), err
}

// standaloneSVG adds figure.css to a frame (svganim.Frame) so that it
// draws in its colours on its own, light or dark as the viewer prefers:
// a <style> after the root's <title>, and the marks wrapped in a group of
// class kflow, which holds the custom properties figure.css defines.
func standaloneSVG(frame []byte) ([]byte, error) {
	css, err := readAsset("figure.css")
	if err != nil {
		return nil, err
	}
	if strings.Contains(css, "]]>") {
		return nil, errors.New(`figure.css holds "]]>" and cannot go into a CDATA section`)
	}
	const endTitle, endSVG = "</title>", "</svg>"
	i, j := bytes.Index(frame, []byte(endTitle)), bytes.LastIndex(frame, []byte(endSVG))
	if i < 0 || j < i {
		return nil, errors.New("svganim.Frame wrote no <title> before </svg>: the export needs updating")
	}
	i += len(endTitle)
	var b bytes.Buffer
	b.Write(frame[:i])
	b.WriteString("\n<style><![CDATA[\n" + css + "]]></style>\n<g class=\"kflow\">")
	b.Write(frame[i:j])
	b.WriteString("</g>\n")
	b.Write(frame[j:])
	return b.Bytes(), nil
}
