package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/playground"
)

// brokenPages are pages with mistakes of every kind, several to a page and
// on several pages, in a content folder. Each mistake's message quotes the
// token at its position.
var brokenPages = map[string]string{
	"a.md": "---\ntitle: A\n---\n\nText.\n\n" +
		"```kflow\nid: one\nproducer: {ack: 1, records: 3}\n```\n\n" + // 9: "ack" at col 12
		"```kflow\nid: two\ntopic: {replica.lag.time.max.ms: 4}\nbrokerz: 3\n```\n", // 14: "replica.lag.time.max.ms" at col 9; 15: "brokerz"
	"b.md": "---\ntitle: B\nweigth: 3\n---\n\n" + // 3: "weigth"
		"- in a list:\n\n" +
		"  ```kflow\n  id: three\n  brokers: 3\n  timeline:\n    - {at: 2, crash: 7}\n  ```\n", // 12: 7 at col 22
	"sub/c.md": "---\ntitle: C\n---\n" +
		"```kflow\nid: four\nbeats: 8\nexpect:\n  - {at: 4, partition: 0, highWatermark: 99}\n```\n" + // 8: expectation fails
		"```kflow\nid: five\nbeats: \"many\"\n```\n", // 12: "many"
}

// TestErrorsAcrossPagesInOneRun builds a content folder with mistakes in
// several fences on several pages: one run reports them all, one a line as
// file:line:col: message, sorted by file, line and column, each message
// lowercase and quoting the token found at its position, with a hint where
// one helps; nothing is written.
func TestErrorsAcrossPagesInOneRun(t *testing.T) {
	t.Chdir(t.TempDir())
	for name, text := range brokenPages {
		write(t, filepath.Join("content", name), text)
	}
	code, stdout, stderr := kflowgen(t, "build", "--content", "content", "--out", "public")
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat("public"); err == nil {
		t.Error("a failed build wrote the output folder")
	}
	lineRE := regexp.MustCompile(`^(content/[a-z/]+\.md):(\d+):(\d+): (.+)$`)
	type pos struct {
		file      string
		line, col int
	}
	var got []pos
	var msgs []string
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		m := lineRE.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not file:line:col: message: %q", l)
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		got = append(got, pos{m[1], line, col})
		msgs = append(msgs, l)
		msg := m[4]
		if first := msg[:1]; first != strings.ToLower(first) {
			t.Errorf("message does not start in lower case: %q", l)
		}
		// The quoted token sits at the position given.
		src := strings.Split(brokenPages[strings.TrimPrefix(m[1], "content/")], "\n")
		if q := regexp.MustCompile(`"([^"]+)"`).FindStringSubmatch(msg); q != nil && line <= len(src) &&
			!strings.Contains(msg, "expected") && !strings.Contains(msg, "front matter has no") {
			at := src[line-1]
			if col-1 > len(at) || !strings.HasPrefix(strings.TrimLeft(at[col-1:], `"`), q[1]) {
				t.Errorf("%s: the quoted %q is not at column %d of %q", l, q[1], col, at)
			}
		}
	}
	if !slices.IsSortedFunc(got, func(a, b pos) int {
		if a.file != b.file {
			return strings.Compare(a.file, b.file)
		}
		if a.line != b.line {
			return a.line - b.line
		}
		return a.col - b.col
	}) {
		t.Errorf("errors are not sorted by file, line, column:\n%s", stderr)
	}
	for _, want := range []string{
		`content/a.md:9:12: unknown producer setting "ack" (did you mean "acks"?)`,
		`content/a.md:14:9: unknown topic setting "replica.lag.time.max.ms"`,
		`content/a.md:15:1: unknown setting "brokerz" (did you mean "brokers"?)`,
		`content/b.md:3:1: unknown front matter field "weigth" (did you mean "weight"?)`,
		`content/b.md:12:22: broker 7 does not exist at beat 2`,
		`content/sub/c.md:8:42: expected highWatermark 99 at beat 4 on partition 0`,
		`content/sub/c.md:12:8: "many" is quoted text, but beats is a whole number`,
	} {
		found := false
		for _, m := range msgs {
			found = found || strings.HasPrefix(m, want)
		}
		if !found {
			t.Errorf("no error starts with %q; got:\n%s", want, stderr)
		}
	}
	if len(msgs) != 7 {
		t.Errorf("%d errors, want 7:\n%s", len(msgs), stderr)
	}
	for _, hint := range []string{`drop ".ms"`, "brokers are 1 to 3", "remove the quotes"} {
		if !strings.Contains(stderr, hint) {
			t.Errorf("no error mentions %q:\n%s", hint, stderr)
		}
	}
}

// TestOutputFolderGuards runs build in a project folder (go.mod, content/)
// with output folders that would destroy work: each is refused with one
// line, and nothing in the project changes.
func TestOutputFolderGuards(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	write(t, "go.mod", "module example.com/guide\n")
	write(t, "content/a.md", "---\ntitle: A\n---\n\n```kflow\nid: fine\nbeats: 4\n```\n")
	write(t, "notes/keep.txt", "keep me")
	if err := os.Symlink("content", "link-to-content"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	snapshot := func() map[string]string {
		files := map[string]string{}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				files[p] = string(b)
			}
			return nil
		})
		return files
	}
	before := snapshot()
	for _, out := range []string{".", "..", "content", "content/", "./content/../content", "link-to-content", "notes", root} {
		code, stdout, stderr := kflowgen(t, "build", "--content", "content", "--out", out)
		if code != 1 || stdout != "" || !strings.Contains(stderr, "refusing") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q; want one refusal", out, code, stdout, stderr)
		}
	}
	after := snapshot()
	if len(after) != len(before) {
		t.Errorf("files before: %d, after: %d", len(before), len(after))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed", p)
		}
	}

	// A build of its own goes through, twice; a file added by hand then
	// stops the third.
	for range 2 {
		if code, _, stderr := kflowgen(t, "build", "--content", "content", "--out", "public"); code != 0 {
			t.Fatalf("build into public: %s", stderr)
		}
	}
	write(t, "public/mine.txt", "keep me")
	code, _, stderr := kflowgen(t, "build", "--content", "content", "--out", "public")
	if code != 1 || !strings.Contains(stderr, "mine.txt") {
		t.Errorf("exit %d, stderr %q; want a refusal naming mine.txt", code, stderr)
	}
	if b, err := os.ReadFile("public/mine.txt"); err != nil || string(b) != "keep me" {
		t.Errorf("public/mine.txt: %q %v", b, err)
	}
}

// TestBuildSameBytesAnyProcs builds the guide (every page of the embedded
// content plus a page at the group limits) with GOMAXPROCS 1 and 4 into two
// folders and compares every byte of every file, the marker included; then
// searches the output for absolute paths of this machine.
func TestBuildSameBytesAnyProcs(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	err := fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := fs.ReadFile(content.FS, p)
		write(t, filepath.Join("content", p), string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	write(t, "content/zz-groups.md", "---\ntitle: Groups at scale\nweight: 999\n---\n\n```kflow\n"+
		"id: many-groups\nbrokers: 5\nbeats: 40\ntopic: {partitions: 6, replication.factor: 3}\n"+
		"producer: {records: 30, keys: [a, b, c, d, e]}\n"+
		"consumer.groups:\n  - {id: c1, members: 4, auto.offset.reset: earliest}\n  - {id: c2, members: 2}\n"+
		"timeline:\n  - {at: 5, crash: 2}\n  - {at: 9, join: c2}\n  - {at: 12, restart: 2}\n  - {at: 20, leave: c1-2}\n```\n")

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	trees := map[int]map[string][]byte{}
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		out := "public-" + strconv.Itoa(procs)
		if code, _, stderr := kflowgen(t, "build", "--content", "content", "--out", out); code != 0 {
			t.Fatalf("GOMAXPROCS=%d: %s", procs, stderr)
		}
		tree := map[string][]byte{}
		_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(out, p)
				tree[filepath.ToSlash(rel)] = b
			}
			return nil
		})
		trees[procs] = tree
	}
	one, four := trees[1], trees[4]
	if len(one) != len(four) || len(one) < 5 {
		t.Fatalf("%d files at GOMAXPROCS=1, %d at 4", len(one), len(four))
	}
	for p, b := range one {
		if !bytes.Equal(b, four[p]) {
			t.Errorf("%s differs between GOMAXPROCS 1 and 4", p)
		}
	}

	// No path of this machine in any output, and no sign of a value
	// printed with a wrong or float verb.
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	needles := []string{root, wd, os.TempDir() + string(filepath.Separator), "%!", "NaN", "+Inf"}
	if home != "" && home != "/" {
		needles = append(needles, home+string(filepath.Separator))
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		needles = append(needles, r)
	}
	// Go's wasm_exec.js (copied verbatim) is JavaScript that names NaN,
	// and kflow-wasm.js is base64, where any three letters turn up: the
	// signs of a misprinted value mean nothing in them. The module inside
	// kflow-wasm.js is searched for this machine's paths instead.
	vendored := map[string]bool{"assets/wasm-exec.js": true, "assets/kflow-wasm.js": true}
	wasm, err := playground.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range one {
		if p == "assets/kflow-wasm.js" {
			b = wasm
		}
		for _, n := range needles {
			if vendored[p] && (n == "%!" || n == "NaN" || n == "+Inf") {
				continue
			}
			if bytes.Contains(b, []byte(n)) {
				t.Errorf("%s holds %q", p, n)
			}
		}
	}
	// The sim command's JSON, too.
	code, stdout, stderr := kflowgen(t, "sim", filepath.Join(root, "content", "zz-groups.md"))
	if code != 0 {
		t.Fatalf("sim: %s", stderr)
	}
	for _, n := range needles {
		if strings.Contains(stdout, n) {
			t.Errorf("the sim command's trace holds %q", n)
		}
	}
}
