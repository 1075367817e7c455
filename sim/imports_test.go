package sim_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStandardLibraryOnly parses every non-test Go file of package sim and
// fails on any import outside the standard library (an import path whose
// first element has no dot is standard; the module's own paths are not).
func TestStandardLibraryOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if strings.Contains(first, ".") || strings.HasPrefix(path, "github.com/kafkaflow/") {
				t.Errorf("%s imports %q: package sim may import the standard library only", f, path)
			}
			if path == "unsafe" || path == "os" || path == "time" || path == "sync" || strings.HasPrefix(path, "net") {
				t.Errorf("%s imports %q: the engine does no I/O, reads no clock and runs no goroutines", f, path)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked only %d files; run from the package directory", checked)
	}
}
