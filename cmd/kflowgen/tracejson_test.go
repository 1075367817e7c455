package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
)

// TestStreamedTraceSameBytes: the streamed trace is byte for byte what
// json.MarshalIndent prints, for every fence of the guide (both runs of a
// fence with compare:), so streaming changed how sim prints, not what.
func TestStreamedTraceSameBytes(t *testing.T) {
	n := 0
	err := fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := fs.ReadFile(content.FS, p)
		if err != nil {
			return err
		}
		for _, f := range site.FindFences(src) {
			parsed := fence.Parse(f.Body)
			if len(parsed.Errors) > 0 {
				continue
			}
			r := parsed.Run()
			for _, tr := range []*sim.Trace{r.Trace, r.CompareTrace} {
				if tr == nil {
					continue
				}
				want, err := json.MarshalIndent(tr, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := writeIndentedJSON(&got, tr); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), append(want, '\n')) {
					t.Fatalf("%s, fence at line %d: the streamed trace differs from MarshalIndent's", p, f.Line)
				}
				n++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("compared %d traces", n)
	}
}

// TestSimTraceBounded (issue 18.10): kflowgen sim measures a trace before
// printing it and refuses one over its limit (MaxTraceBytes, lowered here
// so that a small scenario crosses it), printing nothing rather than half
// a document; a trace within the limit is printed whole.
func TestSimTraceBounded(t *testing.T) {
	ref, err := fs.ReadFile(content.FS, "reference.md")
	if err != nil {
		t.Fatal(err)
	}
	if row := fmt.Sprintf("| a trace printed by `kflowgen sim` | %d bytes of JSON", MaxTraceBytes); !strings.Contains(string(ref), row) {
		t.Errorf("the reference page's Limits table lacks %q", row)
	}
	file := filepath.Join(t.TempDir(), "s.yaml")
	write(t, file, "id: s\nbeats: 20\nproducer: {records: 10}\n")
	code, stdout, _ := kflowgen(t, "sim", file)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	size := int64(len(stdout))
	defer func(l int64) { traceLimit = l }(traceLimit)
	traceLimit = size
	if code, out, stderr := kflowgen(t, "sim", file); code != 0 || out != stdout {
		t.Errorf("a trace of exactly the limit: exit %d, %d bytes, stderr %s", code, len(out), stderr)
	}
	traceLimit = size - 1
	code, out, stderr := kflowgen(t, "sim", file)
	want := fmt.Sprintf("kflowgen: %s: the trace of scenario \"s\" is more than %d bytes of JSON, which kflowgen sim does not print: use fewer beats, records, partitions or group members\n", filepath.ToSlash(file), size-1)
	if code != 1 || out != "" || stderr != want {
		t.Errorf("a trace one byte over: exit %d, stdout %d bytes, stderr %q, want %q", code, len(out), stderr, want)
	}
}
