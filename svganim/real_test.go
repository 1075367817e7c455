package svganim

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
)

// namedTrace is a real engine trace with a name for reports and goldens.
type namedTrace struct {
	name string
	t    *sim.Trace
}

// fences returns the bodies of the ```kflow fences in a Markdown page.
func fences(md string) []string {
	var out []string
	var cur []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trim, "```kflow"):
			in, cur = true, nil
		case in && strings.HasPrefix(trim, "```"):
			in = false
			out = append(out, strings.Join(cur, "\n")+"\n")
		case in:
			cur = append(cur, line)
		}
	}
	return out
}

func runScenario(t testing.TB, name string, src []byte) *sim.Trace {
	t.Helper()
	sc, errs := scenario.Parse(src)
	if errs != nil {
		t.Fatalf("%s: %v", name, errs)
	}
	return sim.Run(sc)
}

// guideTraces runs every scenario of the embedded guide.
func guideTraces(t testing.TB) []namedTrace {
	var out []namedTrace
	pages, err := fs.Glob(content.FS, "*.md")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages)
	for _, p := range pages {
		b, err := fs.ReadFile(content.FS, p)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fences(string(b)) {
			name := strings.TrimSuffix(p, ".md") + "#" + itoa(i+1)
			out = append(out, namedTrace{name, runScenario(t, name, []byte(f))})
		}
	}
	return out
}

// testdataTraces runs the scenarios in testdata/*.yaml, which stay fixed
// while the guide changes.
func testdataTraces(t testing.TB) []namedTrace {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out []namedTrace
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		out = append(out, namedTrace{name, runScenario(t, name, b)})
	}
	return out
}

// allTraces is every trace the tests draw: hand-told, guide, testdata.
func allTraces(t testing.TB) []namedTrace {
	out := []namedTrace{{"hand-acks-one-loss", acksOneLoss()}, {"hand-groups", groupsTrace()}}
	out = append(out, guideTraces(t)...)
	return append(out, testdataTraces(t)...)
}
