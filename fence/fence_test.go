package fence_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/fence"
)

const pair = "id: pair\ntitle: acks=1\nproducer: {acks: 1, records: 6}\ntimeline: [{at: 5, crash: 1}]\nbeats: 16\n" +
	"compare: {title: acks=all, producer: {acks: all}}\nexpect:\n  - {record: 2, outcome: L}\n"

// TestFigureIsTheSteps: Figure is Parse, Run and Draw, and gives both
// runs of a fence with compare: their traces and one side-by-side figure
// with the DOM id the options give.
func TestFigureIsTheSteps(t *testing.T) {
	o := fence.Options{ID: func(id string) string { return "page--" + id }}
	r := fence.Figure([]byte(pair), o)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	p := fence.Parse([]byte(pair))
	step := p.Run()
	step.Draw(o)
	if !bytes.Equal(r.HTML, step.HTML) || len(r.HTML) == 0 {
		t.Errorf("Figure drew %d bytes, the steps %d", len(r.HTML), len(step.HTML))
	}
	if r.Trace == nil || r.CompareTrace == nil || r.Trace.Title != "acks=1" || r.CompareTrace.Title != "acks=all" {
		t.Fatalf("traces: %+v, %+v", r.Trace, r.CompareTrace)
	}
	if !bytes.Contains(r.HTML, []byte(`id="page--pair"`)) {
		t.Errorf("the figure does not carry the DOM id the options give")
	}
	if w := p.Work(); w != (fence.Work{RecordBeats: 2 * 17 * 6, Frames: 2 * 17}) {
		t.Errorf("work %+v", w)
	}
}

// TestErrorsStayInTheFence: parse errors and failed expectations come back
// positioned in the fence body, with no file, and no markup is drawn.
func TestErrorsStayInTheFence(t *testing.T) {
	r := fence.Figure([]byte("id: x\nbrokerz: 3\n"), fence.Options{})
	if len(r.Errors) != 1 || r.Errors[0].Error() != `2:1: unknown setting "brokerz" (did you mean "brokers"?)` || r.HTML != nil || r.Trace != nil {
		t.Errorf("parse error: %v, %d bytes", r.Errors, len(r.HTML))
	}
	r = fence.Figure([]byte(strings.Replace(pair, "outcome: L", "outcome: acked", 1)), fence.Options{})
	if len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0].Error(), "8:26: expected outcome acked") || r.HTML != nil {
		t.Errorf("failed expectation: %v, %d bytes", r.Errors, len(r.HTML))
	}
}

// TestNoOSAccess keeps package fence free of the OS, so that it compiles
// for the browser (GOOS=js GOARCH=wasm) as it does for the build: its
// non-test files import only the packages listed here.
func TestNoOSAccess(t *testing.T) {
	allowed := map[string]bool{
		"fmt":                               true,
		"github.com/kafkaflow/kflowgen/sim": true,
		"github.com/kafkaflow/kflowgen/sim/scenario": true,
		"github.com/kafkaflow/kflowgen/svganim":      true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
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
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[path] {
				t.Errorf("%s imports %q: package fence stays pure (no files, clock or goroutines)", f, path)
			}
		}
	}
}
