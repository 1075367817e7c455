package site

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
)

// TestKnobSaysWhichRun: on a side-by-side figure a knob changes both runs,
// except a setting the fence's compare gives, which it changes in the
// first run only (the reference's knobs section). Such a knob's control
// says so beside its values; the others say nothing. In the guide the
// Acks, In-flight and Replica lag figures compare the knob's own setting,
// and the Min ISR figure compares acks beside a min.insync.replicas knob.
func TestKnobSaysWhichRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Content: content.FS, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	knob := regexp.MustCompile(`<div class="kf-knob" role="group" aria-label="[^"]*" data-path="([^"]+)">(.*?)</div>`)
	for _, c := range []struct {
		page, path string
		leftOnly   bool
	}{
		{"acks.html", "producer.acks", true},
		{"in-flight.html", "producer.max.in.flight.requests.per.connection", true},
		{"replica-lag.html", "topic.replica.lag.time.max", true},
		{"min-insync-replicas.html", "topic.min.insync.replicas", false},
	} {
		b, err := os.ReadFile(filepath.Join(out, c.page))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range knob.FindAllStringSubmatch(string(b), -1) {
			if m[1] != c.path {
				continue
			}
			found = true
			if said := strings.Contains(m[2], `<span class="kf-kscope">changes the first run; the second keeps its own</span>`); said != c.leftOnly {
				t.Errorf("%s: knob %s says it changes the first run only: %v, want %v (%s)", c.page, c.path, said, c.leftOnly, m[2])
			}
		}
		if !found {
			t.Errorf("%s has no knob %s", c.page, c.path)
		}
	}
}
