//go:build js && wasm

// Command wasm is the playground's engine: the fence package (scenario
// parser, engine, expect: checks, renderer) compiled with GOOS=js
// GOARCH=wasm. It defines three global functions for playground.js:
//
//	kflowFigure(text, slug) → {html: "<figure…>", errors: [{line, col, msg}], run: N, knobs: K, def: D}
//	kflowVariant(run, i)    → the script of combination i of that run's figure, or ""
//	kflowIdle()
//
// kflowFigure is fence.Play: text is a fence body, slug the page slug that
// prefixes the figure's DOM id; the answer is a plain object, not JSON,
// so that the module carries no encoding/json. For a fence with knobs
// (K combinations, D the default, K = 0 without knobs) only the default
// is drawn; kflowVariant draws combination i of the figure of run N
// (fence.PlayVariant, the script the build writes to the variant's file)
// and answers "" for the default, for an i out of range, or when run N is
// no longer the latest (the module keeps only the latest figure). kflowIdle
// runs a garbage collection to its end. Then the module waits for calls
// forever. The built module is committed, gzipped, in ../kflow-wasm.js; regenerate
// it with `go generate ./playground`.
package main

import (
	"runtime"
	"syscall/js"

	"github.com/kafkaflow/kflowgen/fence"
)

func main() {
	object, array := js.Global().Get("Object"), js.Global().Get("Array")
	// The latest figure, which kflowVariant draws the other combinations
	// of, and its run number.
	var (
		last     *fence.Result
		lastSlug string
		run      int
	)
	js.Global().Set("kflowFigure", js.FuncOf(func(_ js.Value, args []js.Value) any {
		out, errs := object.New(), array.New()
		out.Set("html", "")
		out.Set("errors", errs)
		if len(args) < 2 {
			errs.Call("push", problem(object, 1, 1, "kflowFigure(text, slug) needs two strings"))
			return out
		}
		run++
		last, lastSlug = fence.Play([]byte(args[0].String()), args[1].String()), args[1].String()
		out.Set("html", string(last.HTML))
		out.Set("run", run)
		knobs := 0
		if last.HTML != nil && len(last.Knobs) > 0 {
			knobs = len(last.Variants)
		}
		out.Set("knobs", knobs)
		out.Set("def", last.Default)
		for _, e := range last.Errors {
			errs.Call("push", problem(object, e.Line, e.Col, e.Msg))
		}
		return out
	}))
	js.Global().Set("kflowVariant", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 || last == nil || args[0].Type() != js.TypeNumber || args[0].Int() != run || args[1].Type() != js.TypeNumber {
			return ""
		}
		script, err := fence.PlayVariant(last, lastSlug, args[1].Int())
		if err != nil {
			return ""
		}
		return string(script)
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
