// Command gen rebuilds the playground's committed WebAssembly module,
// playground/kflow.wasm.gz (gzip, best compression, of the module
// wasmbuild.Build makes), and copies Go's wasm_exec.js into
// playground/wasm_exec.js. Run it as `go generate ./playground` from the
// module root after any change to sim, sim/scenario, svganim, fence or
// playground/wasm; TestEmbeddedModuleIsCurrent fails until you do.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // a valid level: no error
	zw.Write(wasm)
	if err := zw.Close(); err != nil {
		return err
	}
	exec, err := wasmbuild.WasmExecJS()
	if err != nil {
		return err
	}
	dir := filepath.Join(root, "playground")
	if err := os.WriteFile(filepath.Join(dir, "kflow.wasm.gz"), gz.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), exec, 0o644); err != nil {
		return err
	}
	fmt.Printf("playground/kflow.wasm.gz: %d bytes (%d raw)\n", gz.Len(), len(wasm))
	return nil
}
