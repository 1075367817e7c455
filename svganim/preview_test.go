package svganim

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var preview = flag.String("preview", "", "write an HTML page with every guide and testdata figure to this file, to open in a browser")

// TestPreview writes a page for looking at figures by eye:
//
//	go test ./svganim -run Preview -preview /tmp/figures.html
//
// It links figure.css from the templates folder by relative path, so open
// it from where it was written only if that path resolves;
// -preview-assets overrides the folder. The stepper and the words file are
// written beside the page.
func TestPreview(t *testing.T) {
	if *preview == "" {
		t.Skip("no -preview file given")
	}
	assets := *previewAssets
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
		`<link rel="stylesheet" href="` + assets + `/figure.css"><style>body{font-family:system-ui;max-width:60em;margin:1em auto;padding:0 .5em}` +
		`@media (prefers-color-scheme: dark){body{background:#111;color:#eee}}</style></head><body>`)
	for i, nt := range append(guideTraces(t), testdataTraces(t)...) {
		fig, err := Figure(nt.t, Options{ID: "f" + itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("<h2>" + nt.name + "</h2>\n")
		b.Write(fig)
	}
	b.WriteString(`<script src="` + WordsFile + `"></script><script src="` + StepperFile + `"></script></body></html>`)
	if err := os.WriteFile(*preview, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The words file is generated and the stepper lives in this package,
	// not in templates/: write both beside the page.
	for name, data := range map[string][]byte{WordsFile: WordsJS(), StepperFile: StepperJS()} {
		if err := os.WriteFile(filepath.Join(filepath.Dir(*preview), name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var previewAssets = flag.String("preview-assets", "../templates", "folder (or URL) holding figure.css, as the preview page should link it")
