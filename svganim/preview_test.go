package svganim

import (
	"os"
	"strings"
	"testing"
)

func TestZZDump(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><link rel="stylesheet" href="/work/main/templates/figure.css"><style>body{font-family:system-ui;max-width:60em;margin:1em auto}</style></head><body>`)
	for i, nt := range guideTraces(t) {
		fig, err := Figure(nt.t, Options{ID: "f" + itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("<h2>" + nt.name + "</h2>")
		b.Write(fig)
	}
	b.WriteString(`<script src="/work/main/templates/stepper.js"></script></body></html>`)
	os.WriteFile("/tmp/svganim-page.html", []byte(b.String()), 0o644)
}
