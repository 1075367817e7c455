//go:build js && wasm

// Command wasm is the playground's engine: the fence package (scenario
// parser, engine, expect: checks, renderer) compiled with GOOS=js
// GOARCH=wasm. It defines one global function for playground.js,
//
//	kflowFigure(text, slug) → {html: "<figure…>", errors: [{line, col, msg}]}
//
// (fence.Play: text is a fence body, slug the page slug that prefixes the
// figure's DOM id; the answer is a plain object, not JSON, so that the
// module carries no encoding/json) and kflowIdle(), which runs a garbage
// collection to its end, then waits for calls forever. The built module is
// committed as ../kflow.wasm.gz; regenerate it with `go generate ./playground`.
package main

import (
	"runtime"
	"syscall/js"

	"github.com/kafkaflow/kflowgen/fence"
)

func main() {
	object, array := js.Global().Get("Object"), js.Global().Get("Array")
	js.Global().Set("kflowFigure", js.FuncOf(func(_ js.Value, args []js.Value) any {
		out, errs := object.New(), array.New()
		out.Set("html", "")
		out.Set("errors", errs)
		if len(args) < 2 {
			errs.Call("push", problem(object, 1, 1, "kflowFigure(text, slug) needs two strings"))
			return out
		}
		r := fence.Play([]byte(args[0].String()), args[1].String())
		out.Set("html", string(r.HTML))
		// A figure's other knob combinations (fence.Result.Assets, "" for
		// the default), which the page runs before the stepper instead of
		// loading them from files.
		variants := array.New()
		for _, a := range r.Assets {
			variants.Call("push", string(a))
		}
		out.Set("variants", variants)
		for _, e := range r.Errors {
			errs.Call("push", problem(object, e.Line, e.Col, e.Msg))
		}
		return out
	}))
	// kflowIdle finishes the garbage collection a run leaves in progress
	// (Go's collector runs alongside the program, here inside the next
	// call): the page calls it after warming the engine, so that the
	// reader's first Run does not pay for the warm-up's garbage.
	js.Global().Set("kflowIdle", js.FuncOf(func(js.Value, []js.Value) any {
		runtime.GC()
		return nil
	}))
	select {}
}

// problem is one entry of the answer's errors: {line, col, msg}.
func problem(object js.Value, line, col int, msg string) js.Value {
	p := object.New()
	p.Set("line", line)
	p.Set("col", col)
	p.Set("msg", msg)
	return p
}
