//go:build js && wasm

// Command wasm is the playground's engine: the fence package (scenario
// parser, engine, expect: checks, renderer) compiled with GOOS=js
// GOARCH=wasm. It defines one global function for playground.js,
//
//	kflowFigure(text, slug) → JSON {"html": "<figure…>", "errors": [{"line", "col", "msg"}]}
//
// (fence.Play: text is a fence body, slug the page slug that prefixes the
// figure's DOM id), then waits for calls forever. The built module is
// committed as ../kflow.wasm.gz; regenerate it with `go generate ./playground`.
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/kafkaflow/kflowgen/fence"
)

type jsError struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

type jsResult struct {
	HTML   string    `json:"html"`
	Errors []jsError `json:"errors"`
}

func main() {
	js.Global().Set("kflowFigure", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 {
			return `{"html":"","errors":[{"line":1,"col":1,"msg":"kflowFigure(text, slug) needs two strings"}]}`
		}
		r := fence.Play([]byte(args[0].String()), args[1].String())
		out := jsResult{HTML: string(r.HTML), Errors: []jsError{}}
		for _, e := range r.Errors {
			out.Errors = append(out.Errors, jsError{Line: e.Line, Col: e.Col, Msg: e.Msg})
		}
		b, _ := json.Marshal(out) // strings and ints only: cannot fail
		return string(b)
	}))
	select {}
}
