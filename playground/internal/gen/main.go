// Command gen rebuilds the playground's committed WebAssembly module,
// playground/kflow-wasm.js (wasmbuild.Script of the gzip of the module
// wasmbuild.Build makes: the script a build writes as is), and
// copies Go's wasm_exec.js into
// playground/wasm_exec.js. Run it as `go generate ./playground` from the
// module root after any change to sim, sim/scenario, svganim, fence or
// playground/wasm; TestEmbeddedModuleIsCurrent fails until you do.
//
// The gzip is made by zopfli (Debian's package zopfli) when it is on PATH,
// with a fixed iteration count so the bytes are the same every run; it
// is what keeps the module under bench.WasmGzipBudget. Without zopfli, gen
// falls back to compress/gzip at best compression and warns that the
// result will be over the budget. The test compares the decompressed
// module, so either encoder passes it.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/playground/internal/wasmbuild"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	gomod, err := exec.Command(wasmbuild.GoTool(), "env", "GOMOD").Output()
	if err != nil {
		return err
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	wasm, err := wasmbuild.Build(root)
	if err != nil {
		return err
	}
	gz, err := compress(wasm)
	if err != nil {
		return err
	}
	exec, err := wasmbuild.WasmExecJS()
	if err != nil {
		return err
	}
	dir := filepath.Join(root, "playground")
	js := wasmbuild.Script(gz)
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(wasmbuild.ScriptFile)), js, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), exec, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes, carrying %d bytes of gzip (%d raw)\n", wasmbuild.ScriptFile, len(js), len(gz), len(wasm))
	return nil
}

// zopfliIterations is zopfli's own default, pinned so that a change of
// default could not change the committed bytes. On the 5.9 MB module it
// costs about half a minute of CPU.
const zopfliIterations = 15

// compress returns wasm gzipped by zopfli if it is on PATH, else by
// compress/gzip at best compression, with a warning on standard error.
func compress(wasm []byte) ([]byte, error) {
	zopfli, err := exec.LookPath("zopfli")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen: warning: zopfli is not on PATH (Debian: apt-get install zopfli); "+
			"compress/gzip's output will be over bench.WasmGzipBudget, so do not commit it")
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // a valid level: no error
		zw.Write(wasm)
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return gz.Bytes(), nil
	}
	dir, err := os.MkdirTemp("", "kflow-zopfli-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "kflow.wasm")
	if err := os.WriteFile(in, wasm, 0o644); err != nil {
		return nil, err
	}
	// zopfli writes in + ".gz" beside its input.
	cmd := exec.Command(zopfli, "--gzip", "--i"+strconv.Itoa(zopfliIterations), in)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", zopfli, err, out)
	}
	return os.ReadFile(in + ".gz")
}
