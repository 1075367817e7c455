package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

const exportPage = "---\ntitle: Export\n---\nText.\n\n```kflow\nid: first\ntitle: acks=1, leader fails\nproducer: {acks: 1, records: 4}\n" +
	"timeline: [{at: 4, crash: 1}]\nbeats: 12\n```\n\n```kflow\nid: pair\ntitle: acks=1\nproducer: {acks: 1, records: 4}\nbeats: 10\n" +
	"compare: {title: acks=all, producer: {acks: all}}\n```\n"

// TestFigureHTMLStandalone: the html export is one document needing no
// other file (no src or href to anything, no <link>), holding the figure,
// its styles, the controls' words and the stepper; opened from file:// in
// Chromium, the stepper runs and steps it.
func TestFigureHTMLStandalone(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "export.md")
	write(t, page, exportPage)
	out := filepath.Join(dir, "first.html")
	if code, stdout, stderr := kflowgen(t, "figure", page, "--scenario", "first", "-o", out); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, %q, %q", code, stdout, stderr)
	}
	html, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if refs := regexp.MustCompile(`(?:src|href)="[^"#]`).FindAll(html, -1); len(refs) > 0 || bytes.Contains(html, []byte("<link")) {
		t.Errorf("the export refers to other files: %q", refs)
	}
	for _, want := range []string{`<figure class="kflow" id="export--first"`, "--kf-bg:", "var kfWords", "function Stepper(fig, root = fig)", "<title>acks=1, leader fails</title>"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("the export lacks %q", want)
		}
	}
	// Standard output gives the same bytes.
	if _, stdout, _ := kflowgen(t, "figure", page, "--scenario", "first"); stdout != string(html) {
		t.Errorf("standard output differs from -o")
	}

	browsertest.Chromium(t)
	ctx := browsertest.Start(t, 1100, 900)
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(out))); err != nil {
		t.Fatal(err)
	}
	at, err := chromedp.Run(tctx, chromedp.Evaluate[string](`(document.querySelector('[data-a=first]').click(), document.querySelector('[data-a=fwd]').click(), document.querySelector('.kf-at').value)`, chromedp.EvalAwaitPromise))
	if err != nil || at != "1 / 12" {
		t.Errorf("after first and forward the counter says %q (%v)", at, err)
	}
}

// TestFigureSVGFrame: --format svg --beat N writes beat N of the fence (or
// of its compare run) as one SVG document that parses as XML and carries
// figure.css; a beat outside the figure, or flags that do not go together,
// are refused.
func TestFigureSVGFrame(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "export.md")
	write(t, page, exportPage)
	for _, c := range []struct {
		args  []string
		title string
	}{
		{[]string{"--scenario", "first", "--beat", "5"}, "acks=1, leader fails — beat 5"},
		{[]string{"--scenario", "pair", "--beat", "10", "--compare"}, "acks=all — beat 10"},
	} {
		code, svg, stderr := kflowgen(t, append([]string{"figure", page, "--format", "svg"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		d := xml.NewDecoder(strings.NewReader(svg))
		var root string
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%v: not XML: %v", c.args, err)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" || !strings.Contains(svg, "<title>"+c.title+"</title>") || !strings.Contains(svg, "<![CDATA[") || !strings.Contains(svg, `<g class="kflow">`) {
			t.Errorf("%v: root %q, or no title %q, styles or kflow group:\n%.400s", c.args, root, c.title, svg)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenario", "first", "--format", "svg", "--beat", "13"}, `--beat 13 is outside scenario "first" (beats 0 to 12)`},
		{[]string{"--scenario", "first", "--format", "svg"}, "give it with --beat N"},
		{[]string{"--scenario", "first", "--format", "svg", "--beat", "-1"}, "--beat -1: a beat is 0 (the initial state) or later"},
		{[]string{"--scenario", "first", "--beat", "3"}, "add --format svg"},
		{[]string{"--scenario", "first", "--format", "png"}, `--format "png": want html or svg`},
		{[]string{"--scenario", "first", "--format", "svg", "--beat", "1", "--compare"}, `scenario "first" has no compare run`},
		{[]string{"--format", "svg", "--beat", "1"}, "choose one with --scenario"},
	} {
		code, stdout, stderr := kflowgen(t, append([]string{"figure", page}, c.args...)...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want %q", c.args, code, len(stdout), stderr, c.want)
		}
	}
}

// TestFigureHelpBeat (try10 D): --beat's help says it has no default and
// when it is needed, where it showed "(default -1)", the sentinel for "not
// given"; a --beat that is no number names what it wants.
func TestFigureHelpBeat(t *testing.T) {
	code, stdout, _ := kflowgen(t, "figure", "--help")
	var line string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, "--beat int") {
			line = l
		}
	}
	if code != 0 || strings.Contains(line, "default -1") || !strings.Contains(line, "no default: --format svg needs it") {
		t.Errorf("exit %d, --beat's help line %q", code, line)
	}
	code, _, stderr := kflowgen(t, "figure", "x.md", "--beat", "x")
	if want := `"x" is not a beat number (0, 1, 2, …)`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("--beat x: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestFigureBadPage: a page whose fence does not parse, or whose claim
// fails, prints file:line:col errors, exits 1 and writes no file.
func TestFigureBadPage(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "bad.md")
	out := filepath.Join(dir, "out.html")
	write(t, page, "---\ntitle: Bad\n---\n\n```kflow\nid: x\nbrokers: many\n```\n")
	code, _, stderr := kflowgen(t, "figure", page, "-o", out)
	if code != 1 || !strings.HasPrefix(stderr, filepath.ToSlash(page)+":7:10: ") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	write(t, page, "---\ntitle: Bad\n---\n\n```kflow\nid: x\nbeats: 4\nexpect:\n  - {at: 4, partition: 0, leader: 3}\n```\n")
	code, _, stderr = kflowgen(t, "figure", page, "-o", out)
	if code != 1 || !strings.HasPrefix(stderr, filepath.ToSlash(page)+":9:") || !strings.Contains(stderr, "expected leader 3") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed export wrote %s (%v)", out, err)
	}
}

// TestFigureOutFolderMissing: -o into a folder that does not exist names
// that folder, not the temporary file the write goes through, and writes
// nothing.
func TestFigureOutFolderMissing(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "export.md")
	write(t, page, exportPage)
	missing := filepath.Join(dir, "no-such-folder")
	code, _, stderr := kflowgen(t, "figure", page, "--scenario", "first", "-o", filepath.Join(missing, "f.html"))
	if code != 1 || !strings.Contains(stderr, "folder "+missing+": no such file or directory") || strings.Contains(stderr, ".tmp-") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the failed export made %s (%v)", missing, err)
	}
}

// TestFigureOutIsFolder: -o naming a folder says so, and what -o wants,
// instead of the rename's "file exists" with the temporary file's name;
// nothing is left behind.
func TestFigureOutIsFolder(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "export.md")
	write(t, page, exportPage)
	folder := filepath.Join(dir, "isdir")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := kflowgen(t, "figure", page, "--scenario", "first", "-o", folder)
	want := "kflowgen: cannot write " + folder + ": it is a folder (-o names the file to write, such as " + filepath.Join(folder, "figure.html") + ")\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr %q; want %q", code, stderr, want)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	// A device is not a folder to write a figure.html into (try12 T9b).
	if _, err := os.Stat("/dev/null"); err == nil {
		code, _, stderr = kflowgen(t, "figure", page, "--scenario", "first", "-o", "/dev/null")
		want = "kflowgen: cannot write /dev/null: it is not a regular file (-o names a file to write, which the figure replaces whole; for the standard output leave -o out)\n"
		if code != 1 || stderr != want {
			t.Errorf("-o /dev/null: exit %d, stderr %q; want %q", code, stderr, want)
		}
	}
}
