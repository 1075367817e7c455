package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
)

// asMain makes the test binary act as kflowgen when bench --against-hugo
// runs it (selfEnv).
const asMain = "KFLOWGEN_TEST_AS_MAIN=1"

// guidePages is how many pages --pages 0 times: the built-in guide's
// *.md files, index.md included, as "N pages" at the start of a row.
func guidePages(t *testing.T) string {
	t.Helper()
	pages, err := fs.Glob(content.FS, "*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("the built-in guide has no pages: %v", err)
	}
	return fmt.Sprintf("%d pages", len(pages))
}

func TestMain(m *testing.M) {
	if os.Getenv("KFLOWGEN_TEST_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// Without hugo on PATH, bench --against-hugo says so and times kflowgen
// alone: its cold build with its peak memory, and its save-to-reload.
func TestBenchAgainstHugoWithoutHugo(t *testing.T) {
	selfEnv = []string{asMain}
	t.Setenv("PATH", t.TempDir())
	code, stdout, stderr := kflowgen(t, "bench", "--against-hugo", "--pages", "0", "--save-pages", "0", "--varied-pages", "0", "--runs", "1")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "hugo is not installed (no hugo on PATH; apt-get install hugo): timing kflowgen alone") {
		t.Errorf("stderr does not say hugo is missing:\n%s", stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^hugo is not installed`),
		regexp.MustCompile(`(?m)^  ` + guidePages(t) + ` +[0-9]+\.[0-9] ms +- +- +≤ 1\.000× +- +[0-9]+\.[0-9] ms +- +- +[0-9]+ MB +- +[0-9.]+$`),
		regexp.MustCompile(`(?m)^save to reload`),
		regexp.MustCompile(`(?m)^  ` + guidePages(t) + ` +[0-9]+\.[0-9] ms +- +≤ 100\.0 ms +(ok|MISSED) +[0-9.]+$`),
	} {
		if !want.MatchString(stdout) {
			t.Errorf("stdout has no line %s:\n%s", want, stdout)
		}
	}
}

// With hugo installed, both are run and the ratios printed, on the
// repeated guide and on a site of two copies whose fences differ.
func TestBenchAgainstHugo(t *testing.T) {
	if _, err := exec.LookPath("hugo"); err != nil {
		t.Skip("hugo is not installed")
	}
	selfEnv = []string{asMain}
	two := strings.TrimSuffix(guidePages(t), " pages")
	n, _ := strconv.Atoi(two)
	two = strconv.Itoa(2 * n)
	code, stdout, stderr := kflowgen(t, "bench", "--against-hugo", "--pages", "0", "--save-pages", "0", "--varied-pages", two, "--runs", "1")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^against hugo v`),
		regexp.MustCompile(`(?m)^  ` + two + ` pages, fences varied +[0-9]+\.[0-9] ms +[0-9]+\.[0-9] ms +[0-9]+\.[0-9]{3}× +≤ 1\.000× +(ok|MISSED) +`),
		regexp.MustCompile(`(?m)^  ` + guidePages(t) + ` +[0-9]+\.[0-9] ms +[0-9]+\.[0-9] ms +[0-9]+\.[0-9]{3}× +≤ 1\.000× +(ok|MISSED) +[0-9]+\.[0-9] ms +[0-9]+\.[0-9] ms +[0-9]+\.[0-9]{3}× +[0-9]+ MB +[0-9]+ MB +[0-9.]+$`),
		regexp.MustCompile(`(?m)^  ` + guidePages(t) + ` +[0-9]+\.[0-9] ms +[0-9]+\.[0-9] ms +≤ 100\.0 ms +(ok|MISSED) +[0-9.]+$`),
	} {
		if !want.MatchString(stdout) {
			t.Errorf("stdout has no line %s:\n%s", want, stdout)
		}
	}
}

// --pages, --save-pages and --varied-pages take "" for no rows (pflag's int
// slice failed on it with strconv's message) and name a bad count.
func TestBenchPageCounts(t *testing.T) {
	for in, want := range map[string]string{"": "[]", " ": "[]", "0,288, 1000": "[0,288,1000]", "500": "[500]"} {
		var p pageCounts
		if err := p.Set(in); err != nil || p.String() != want {
			t.Errorf("Set(%q): %v, %v; want %s", in, p.String(), err, want)
		}
	}
	for _, in := range []string{"x", "1,,2", "-5", "1.5"} {
		var p pageCounts
		if err := p.Set(in); err == nil || !strings.Contains(err.Error(), "is not a page count") {
			t.Errorf("Set(%q): %v, want an error naming the count", in, err)
		}
	}
}
