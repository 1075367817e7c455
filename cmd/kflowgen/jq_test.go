package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReferenceJQ runs the jq one-liners of the trace reference page
// (content/trace.md) as a reader would: each ```sh line
// "kflowgen sim ARGS | jq -c 'EXPR'" of the page is split at the pipe, kflowgen sim runs in process (the guide page it names
// read from content/, FILE replaced by testdata/duplicate-append.yaml) and
// jq reads its output. The archived-record one-liner must find the record
// the delivery-count page archives, and the duplicate one record 1's two
// appends. It needs jq on PATH and is skipped without it.
func TestReferenceJQ(t *testing.T) {
	jq, err := exec.LookPath("jq")
	if err != nil {
		const why = "jq is not installed (no jq on PATH): the trace reference page's jq one-liners are not run"
		if os.Getenv("CI") == "true" {
			t.Fatal(why + " (CI=true: .ci/run installs jq)")
		}
		t.Skip(why + "; apt-get install jq runs them")
	}
	page, err := os.ReadFile("../../content/trace.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"archived": `{"group":"workers","partition":0,"offset":4,"deliveryCount":3}`,
		"appends":  `{"id":1,"appends":[{"offset":0,"leaderEpoch":0,"beat":2},{"offset":1,"leaderEpoch":0,"beat":8}]}`,
	}
	found := 0
	for _, line := range strings.Split(string(page), "\n") {
		cmd, expr, ok := strings.Cut(line, " | jq -c ")
		if !ok || !strings.HasPrefix(cmd, "kflowgen sim ") {
			continue
		}
		found++
		args := strings.Fields(strings.TrimPrefix(cmd, "kflowgen "))
		switch {
		case args[1] == "FILE":
			args[1] = "testdata/duplicate-append.yaml"
		default:
			args[1] = "../../content/" + args[1]
		}
		code, stdout, stderr := kflowgen(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
		}
		c := exec.Command(jq, "-c", strings.Trim(expr, "'"))
		c.Stdin = strings.NewReader(stdout)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		if err := c.Run(); err != nil {
			t.Fatalf("jq %s: %v: %s", expr, err, errb.String())
		}
		got := strings.TrimSpace(out.String())
		key := "archived"
		if strings.Contains(expr, "appends") {
			key = "appends"
		}
		if got != want[key] {
			t.Errorf("%s\ngot  %s\nwant %s", line, got, want[key])
		}
	}
	if found != 2 {
		t.Errorf("trace.md has %d kflowgen sim | jq one-liners, want 2", found)
	}
}
