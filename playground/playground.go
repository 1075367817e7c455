// Package playground is the built site's playground page: an editor
// holding one fence and a Run action that parses, simulates, checks
// expect: and draws the figure in the browser, with the very parser,
// engine and renderer the build uses (package fence, compiled with
// GOOS=js GOARCH=wasm from playground/wasm).
//
// The module is committed, gzipped and in base64, as kflow-wasm.js (the
// very script a build writes, see below) and embedded here, so a binary
// from `go install` writes the playground with no extra step and a build
// only copies it.
// TestEmbeddedModuleIsCurrent rebuilds it from the current source with
// pinned flags (wasmbuild.Flags) and fails, naming the command, when the
// bytes differ; after a change to sim, sim/scenario, svganim, fence or
// playground/wasm run
//
// which is `go generate ./playground` from the module root.
//
// The site works from file://, where a page may not fetch a file, so the
// module travels in a script: kflow-wasm.js sets self.kfWasm to the
// base64 of the gzipped module (WasmGz), and playground.js inflates it
// with DecompressionStream('gzip'). Only the playground page loads it.
// The module runs in a Worker, so that a long run (seconds, for a fence at
// the size limits) never holds the page: the worker's script is a Blob
// made by playground.js, which loads wasm-exec.js from the address the
// page loaded it from and is sent the module's base64. Where no worker
// starts, the module runs on the page, as it did before.
//
// A fence travels in the playground's URL fragment as
//
//	playground.html#f=BASE64URL
//
// where BASE64URL is the fence text (UTF-8) compressed as raw DEFLATE
// (RFC 1951, no zlib or gzip header) and written in the URL-safe base64
// alphabet (RFC 4648 §5) without padding: what the browser's
// CompressionStream('deflate-raw') and DecompressionStream read and write,
// so the page needs no library. Fragment and DecodeFragment are the Go
// side; every figure's Edit link is built with EditHref.
//
//go:generate go run ./internal/gen
package playground

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"sync"

	"github.com/kafkaflow/kflowgen/playground/internal/wasmbuild"
)

// PageFile is the playground page's output file, at the site's root.
const PageFile = "playground.html"

// PageSlug is the playground's page slug: the figure it draws has the DOM
// id "playground--" and the scenario's id (fence.FigureID).
const PageSlug = "playground"

// MaxFenceBytes bounds the fence text a fragment may carry once inflated
// (the site's own bound on a page, site.MaxPageBytes, is larger; a fence
// in a link is one scenario): DecodeFragment refuses more, and so does
// playground.js.
const MaxFenceBytes = 64 << 10

// wasmJS is kflow-wasm.js: the module, gzipped by zopfli, in base64
// (wasmbuild.Script). It costs the binary a third more than the gzip
// alone would (about 480 KB), and saves every build encoding it.
//
//go:embed kflow-wasm.js
var wasmJS []byte

//go:embed wasm_exec.js
var wasmExecJS []byte

//go:embed playground.js
var playgroundJS []byte

//go:embed playground.css
var playgroundCSS []byte

var wasmGz = sync.OnceValues(func() ([]byte, error) { return wasmbuild.Gzip(wasmJS) })

// WasmGz returns the embedded module, gzipped (what the .wasm costs on
// the wire), decoded from kflow-wasm.js's base64 on the first call; it
// fails only when that file is not what `go generate ./playground`
// writes. The slice is shared: do not modify it.
func WasmGz() ([]byte, error) { return wasmGz() }

// Wasm returns the embedded module's raw bytes.
func Wasm() ([]byte, error) {
	gz, err := WasmGz()
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("%s: the module's gzip: %w", wasmbuild.ScriptFile, err)
	}
	return io.ReadAll(zr)
}

// Asset is one file the playground adds to the site's assets folder.
type Asset struct {
	Name string
	Data []byte
}

// Assets returns the files the playground page loads, in the order it
// loads them: Go's wasm_exec.js (as wasm-exec.js), kflow-wasm.js (the module, see the
// package comment), playground.js, and playground.css.
func Assets() []Asset {
	return []Asset{
		{"wasm-exec.js", wasmExecJS},
		{"kflow-wasm.js", wasmJS},
		{"playground.js", playgroundJS},
		{"playground.css", playgroundCSS},
	}
}

// fragmentWriters holds DEFLATE writers at Fragment's level.
var fragmentWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestCompression) // a valid level: no error
	return zw
}}

// Fragment returns the URL fragment value (after "#f=") that carries
// fence text: raw DEFLATE, base64url without padding.
func Fragment(text []byte) string {
	var b bytes.Buffer
	// A writer is reused: making one allocates its 600 KB of tables, which
	// was 8% of a build of the guide; Reset leaves it as new.
	zw := fragmentWriters.Get().(*flate.Writer)
	defer fragmentWriters.Put(zw)
	zw.Reset(&b)
	zw.Write(text)
	zw.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// DecodeFragment reads a Fragment value back. It refuses a value that is
// not base64url, not raw DEFLATE, or inflates past MaxFenceBytes.
func DecodeFragment(s string) ([]byte, error) {
	z, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("fragment: not base64url: %w", err)
	}
	text, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), MaxFenceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fragment: not raw DEFLATE: %w", err)
	}
	if len(text) > MaxFenceBytes {
		return nil, errors.New("fragment: the fence is longer than the playground takes")
	}
	return text, nil
}

// EditHref is the link from a figure to the playground holding its
// fence, relative to a page at the site's root. Line ends are written
// "\n" first (CRLF and a lone CR, as a textarea normalises them), so a
// page saved with CRLF links the same text as one saved with LF.
func EditHref(fence []byte) string {
	if bytes.IndexByte(fence, '\r') >= 0 {
		fence = bytes.ReplaceAll(fence, []byte("\r\n"), []byte("\n"))
		fence = bytes.ReplaceAll(fence, []byte("\r"), []byte("\n"))
	}
	return PageFile + "#f=" + Fragment(fence)
}

// Sample is the fence the playground holds when its link carries none:
// acks=1 loses an acknowledged record when the leader fails.
const Sample = `id: try
title: acks=1, then the leader fails
brokers: 3
topic: {partitions: 1, replication.factor: 3, min.insync.replicas: 1}
producer: {acks: 1, max.in.flight.requests.per.connection: 1, records: 4, keys: [blue, green]}
timeline:
  - {at: 4, crash: 1}
  - {at: 10, restart: 1}
beats: 16
expect:
  - {at: 5, partition: 0, leader: 2}
`

var pageTmpl = template.Must(template.New("playground").Parse(`<p class="pg-intro">Write a scenario{{with .Reference}} (the keys are on the <a href="{{.}}">reference page</a>){{end}} and press Run: the page parses it, simulates it, checks its <code>expect:</code> entries and draws the figure with the engine the guide is built with, here in your browser. The address bar then holds the scenario, so you can send it to someone.</p>
<noscript><p class="pg-noscript">The playground needs JavaScript and WebAssembly; the guide's figures do not.</p></noscript>
<div class="pg" id="pg">
<div class="pg-edit">
<label for="pg-text">Scenario (YAML, as inside a <code>kflow</code> fence)</label>
<textarea id="pg-text" spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off" rows="16">{{.Text}}</textarea>
<div class="pg-bar"><button type="button" id="pg-run" disabled>Run</button> <span id="pg-status" role="status">Loading the engine…</span></div>
<ol id="pg-errors" class="pg-errors" aria-label="Problems"></ol>
</div>
<div id="pg-figure" class="pg-figure"></div>
</div>
`))

// Content returns the playground page's body: an introduction (linking
// to the scenario reference page at reference, when not empty), the
// editor holding text, the Run button, the problem list and the place the
// figure goes.
func Content(text, reference string) template.HTML {
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, struct{ Text, Reference string }{text, reference}); err != nil {
		panic(err) // a string into a fixed template: cannot fail
	}
	return template.HTML(b.String())
}
