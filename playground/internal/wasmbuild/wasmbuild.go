// Package wasmbuild builds the playground's WebAssembly module from the
// current source, the one way both the generator (go generate
// ./playground) and the test that checks the committed module use, so the
// two can only agree or disagree about the source, never about the flags.
package wasmbuild

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Package is the main package compiled to WebAssembly, relative to the
// module root.
const Package = "./playground/wasm"

// Command is what to run, from the module root, after a change to the
// engine, the parser or the renderer (sim, sim/scenario, svganim, fence,
// playground/wasm): it rebuilds playground/kflow-wasm.js (see Script) and
// copies Go's wasm_exec.js beside it.
const Command = "go generate ./playground"

// Flags are the pinned go build flags: no file system paths (-trimpath),
// no VCS stamp (-buildvcs=false: the commit would change every commit),
// no symbol table or DWARF and an empty build id (-ldflags), so the same
// source and toolchain always give the same bytes. The YAML parser is
// compiled without inlining (-gcflags=…=-l): it reads a fence once per
// Run, and its inlined copies cost the module 18 KB of gzip (gzip -9:
// 1,568,927 → 1,550,700 bytes), with the module at the 1.5 MB budget.
var Flags = []string{"-trimpath", "-buildvcs=false", "-gcflags=github.com/kafkaflow/kflowgen/third_party/yaml=-l", "-ldflags=-s -w -buildid="}

// Env is the environment the module is built in: the caller's, with the
// target set and the settings that would change the bytes pinned.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOWASM", "GOEXPERIMENT":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=", "GOWASM=")
}

// GoTool returns the go command of the toolchain running this program
// (a test's or the generator's), falling back to "go" on PATH.
func GoTool() string {
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "go"
}

// Build compiles Package in the module rooted at root with Flags and Env
// and returns the module's bytes. The error carries go build's output.
func Build(root string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "kflow-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "kflow.wasm")
	args := append([]string{"build"}, Flags...)
	args = append(args, "-o", out, Package)
	cmd := exec.Command(GoTool(), args...)
	cmd.Dir, cmd.Env = root, Env()
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, msg.Bytes())
	}
	return os.ReadFile(out)
}

// WasmExecJS returns Go's own wasm_exec.js from the toolchain's GOROOT
// (lib/wasm since Go 1.24), the loader that matches the module it builds.
func WasmExecJS() ([]byte, error) {
	cmd := exec.Command(GoTool(), "env", "GOROOT")
	cmd.Env = Env()
	root, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	return os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
}

// ScriptFile is the committed, embedded form of the module, relative to
// the module root: the script the built site serves as
// assets/kflow-wasm.js, made by Script. It is committed in the form a
// build writes, so that a build copies it and does no base64 of its own
// (that was 11 ms of processor time, on the side, in every cold build).
const ScriptFile = "playground/kflow-wasm.js"

// scriptHead and scriptTail frame the module's base64 in ScriptFile. The
// head says what the base64 holds and what makes it.
const (
	scriptHead = "// Kafka Flow's engine, parser and renderer as WebAssembly: the module gzipped, in base64 (made by go generate ./playground).\nself.kfWasm=\""
	scriptTail = "\";\n"
)

// Script returns the script that carries gz, the module gzipped, to a
// page opened from file:// (where it may not fetch a file): it sets
// self.kfWasm to gz in standard base64 (RFC 4648 §4, padded).
func Script(gz []byte) []byte {
	n := base64.StdEncoding.EncodedLen(len(gz))
	b := make([]byte, 0, len(scriptHead)+n+len(scriptTail))
	b = append(b, scriptHead...)
	b = base64.StdEncoding.AppendEncode(b, gz)
	return append(b, scriptTail...)
}

// Gzip returns the gzipped module a Script carries. It fails when js is
// not framed as Script frames it or its payload is not standard base64.
func Gzip(js []byte) ([]byte, error) {
	if !bytes.HasPrefix(js, []byte(scriptHead)) || !bytes.HasSuffix(js, []byte(scriptTail)) || len(js) < len(scriptHead)+len(scriptTail) {
		return nil, errors.New(ScriptFile + ": not the script " + Command + " writes (its first or last line differs)")
	}
	gz, err := base64.StdEncoding.DecodeString(string(js[len(scriptHead) : len(js)-len(scriptTail)]))
	if err != nil {
		return nil, fmt.Errorf("%s: the module's base64: %w", ScriptFile, err)
	}
	return gz, nil
}
