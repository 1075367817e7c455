package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoModInstallable holds the module to what `go install
// github.com/kafkaflow/kflowgen/cmd/kflowgen@VERSION` and `go run …@VERSION`
// need: Go refuses a module whose go.mod has a replace or exclude
// directive there ("must not contain directives that would cause it to be
// interpreted differently than if it were the main module"), and a module
// zip leaves out every folder with a go.mod of its own, so a nested module
// (as third_party/yaml once was) would be fetched from upstream instead.
func TestGoModInstallable(t *testing.T) {
	root := filepath.Join("..", "..")
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 && (fields[0] == "replace" || fields[0] == "exclude") {
			t.Errorf("go.mod:%d: %q: go install …@version refuses a module with a %s directive", n, sc.Text(), fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "public" && filepath.Dir(p) == root) {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" && p != filepath.Join(root, "go.mod") {
			t.Errorf("%s: a nested module is left out of kflowgen's module zip", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
