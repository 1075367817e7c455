package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// TestSimCompare prints both runs of a compare fence: without --compare the
// fence as written, with it the compare run, whose own claims are checked
// (a false one fails at its place in the file); --compare on a fence
// without compare is an error.
func TestSimCompare(t *testing.T) {
	dir := t.TempDir()
	fence := "id: pair\ntitle: acks=1\nproducer: {acks: 1, records: 6}\ntimeline: [{at: 5, crash: 1}]\nbeats: 16\n" +
		"compare: {title: acks=all, producer: {acks: all}}\nexpect:\n  - {record: 2, outcome: L}\n  - {record: 2, outcome: WANT, variant: compare}\n"
	good := filepath.Join(dir, "good.yaml")
	write(t, good, strings.Replace(fence, "WANT", "U", 1))
	for _, c := range []struct {
		args  []string
		title string
	}{{nil, "acks=1"}, {[]string{"--compare"}, "acks=all"}} {
		code, stdout, stderr := kflowgen(t, append([]string{"sim", good}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		var tr sim.Trace
		if err := json.Unmarshal([]byte(stdout), &tr); err != nil {
			t.Fatal(err)
		}
		if tr.Title != c.title {
			t.Errorf("%v: trace of %q, want %q", c.args, tr.Title, c.title)
		}
	}
	bad := filepath.Join(dir, "bad.yaml")
	write(t, bad, strings.Replace(fence, "WANT", "acked", 1))
	if code, _, stderr := kflowgen(t, "sim", bad, "--compare"); code != 1 || !strings.Contains(stderr, "bad.yaml:9:") {
		t.Errorf("a false compare claim: exit %d, stderr %q", code, stderr)
	}
	plain := filepath.Join(dir, "plain.yaml")
	write(t, plain, "id: plain\n")
	if code, _, stderr := kflowgen(t, "sim", plain, "--compare"); code != 1 || !strings.Contains(stderr, "no compare run") {
		t.Errorf("--compare without compare: exit %d, stderr %q", code, stderr)
	}
}
