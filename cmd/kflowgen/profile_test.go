package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// build --cpuprofile writes a profile Go's pprof reads (a gzip stream), and
// a profile path that cannot be created fails the command before it builds.
func TestBuildCPUProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "build.prof")
	code, _, stderr := kflowgen(t, "build", "--out", filepath.Join(dir, "site"), "--cpuprofile", prof)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("%s is not a gzip-compressed profile: starts % x", prof, b[:min(len(b), 4)])
	}

	out := filepath.Join(dir, "never")
	code, _, stderr = kflowgen(t, "build", "--out", out, "--cpuprofile", filepath.Join(dir, "no", "such", "x.prof"))
	if code == 0 || !strings.Contains(stderr, "cpu profile: ") {
		t.Errorf("exit %d, stderr %q: want a failure naming the cpu profile", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s: the failed command wrote a site (stat: %v)", out, err)
	}
}
