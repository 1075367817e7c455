//go:build unix

package site

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe given to shell completion (ReadInput with pipes false) is
// refused, not opened: opening it would wait for a writer for ever.
// Without the look before opening, this test never returns (go test's
// timeout ends it). kflowgen sim and figure (pipes true) read it, as cat
// does, within the page size limit.
func TestReadInputRefusesPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.md")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	_, err := ReadInput(p, false)
	if err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Fatalf("ReadInput(a named pipe, false) = %v, want a refusal", err)
	}

	for _, c := range []struct {
		text    []byte
		wantErr string
	}{
		{[]byte("id: piped\nbeats: 3\n"), ""},
		{bytes.Repeat([]byte("x"), MaxPageBytes+1), fmt.Sprintf("%s: the file is more than %d bytes", p, MaxPageBytes)},
	} {
		done := make(chan error, 1)
		go func() {
			w, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				done <- err
				return
			}
			_, err = w.Write(c.text)
			w.Close()
			if errors.Is(err, syscall.EPIPE) {
				err = nil // the reader stopped at the limit
			}
			done <- err
		}()
		b, err := ReadInput(p, true)
		if c.wantErr == "" && (err != nil || !bytes.Equal(b, c.text)) {
			t.Errorf("ReadInput(a named pipe, true) = %q, %v, want %q", b, err, c.text)
		}
		if c.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), c.wantErr)) {
			t.Errorf("ReadInput(a named pipe of %d bytes, true) = %d bytes, %v, want %q", len(c.text), len(b), err, c.wantErr)
		}
		if err := <-done; err != nil {
			t.Errorf("writer: %v", err)
		}
	}
}
