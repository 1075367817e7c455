package sim_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// allowedImports is every package the engine may import: the standard
// library's pure packages for formatting, sorting, JSON and the seeded
// generator. Anything else — another module, I/O, a clock, goroutines,
// unsafe — needs a reason and an entry here.
var allowedImports = map[string]bool{
	"bytes":         true,
	"encoding/json": true,
	"fmt":           true,
	"math/rand/v2":  true,
	"slices":        true,
	"strconv":       true,
	"strings":       true,
	"unicode/utf8":  true,
}

// TestStandardLibraryOnly parses every non-test Go file of package sim and
// fails on any import outside allowedImports, and on any init function
// (the engine keeps no registries filled at start-up: tables are literals).
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
		af, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowedImports[path] {
				t.Errorf("%s imports %q: package sim may import only %v", f, path, sortedKeys(allowedImports))
			}
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
				t.Errorf("%s:%d: func init: package sim fills its tables as literals, not at start-up", f, fset.Position(fd.Pos()).Line)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked only %d files; run from the package directory", checked)
	}
}

// sortedKeys lists a set's members in order.
func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
