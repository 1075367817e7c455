//go:build unix

package site

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe given to kflowgen sim or figure is refused, not opened:
// opening it would wait for a writer for ever. Without the look before
// opening, this test never returns (go test's timeout ends it).
func TestReadInputRefusesPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.md")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	_, err := ReadInput(p)
	if err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Fatalf("ReadInput(a named pipe) = %v, want a refusal", err)
	}
}
