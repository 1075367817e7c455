package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
)

// kflowgen runs the command in process and returns its exit status and
// output.
func kflowgen(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// This package's folder has no ./content, so build falls back to the guide
// embedded in the binary.
func TestBuildEmbeddedGuide(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	code, stdout, stderr := kflowgen(t, "build", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "there is no ./content folder here: building the guide built into kflowgen") ||
		!strings.Contains(stdout, "\nbuilt the home page and ") || stderr != "" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	for _, f := range []string{"index.html", "acks.html", "producer.html", "replicas.html", "assets/site.css", ".kflowgen"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
}

// The summary line counts in the singular and the plural as the numbers
// ask: one page with one figure, or several of each.
func TestBuildSummaryCounts(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one"), filepath.Join(dir, "two")
	write(t, filepath.Join(one, "a.md"), "---\ntitle: A\n---\n\n```kflow\nid: fine\nbeats: 4\n```\n")
	write(t, filepath.Join(two, "a.md"), "---\ntitle: A\n---\n\n```kflow\nid: x\nbeats: 1\n```\n\n```kflow\nid: y\nbeats: 2\n```\n")
	write(t, filepath.Join(two, "b.md"), "---\ntitle: B\n---\n\nNo figure here.\n")
	// A side-by-side figure draws both runs: 5 frames each, counted as
	// site.MaxFrames counts them.
	both := filepath.Join(dir, "both")
	write(t, filepath.Join(both, "a.md"), "---\ntitle: A\n---\n\n```kflow\nid: pair\nbeats: 4\ncompare: {title: acks 0, producer: {acks: 0}}\n```\n")
	for _, c := range []struct{ content, want string }{
		{one, "built the home page and 1 page with 1 figure (5 frames) into "},
		{two, "built the home page and 2 pages with 2 figures (5 frames) into "},
		{both, "built the home page and 1 page with 1 figure (10 frames) into "},
	} {
		out := filepath.Join(dir, "out")
		code, stdout, stderr := kflowgen(t, "build", "--content", c.content, "--out", out)
		if code != 0 {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
		if stdout != c.want+out+"\n" {
			t.Errorf("stdout %q, want %q", stdout, c.want+out+"\n")
		}
	}
}

// A broken page fails the build with positioned errors on stderr and
// leaves the previous output as it was.
func TestBuildErrorsKeepOldOutput(t *testing.T) {
	dir := t.TempDir()
	good, bad, out := filepath.Join(dir, "good"), filepath.Join(dir, "bad"), filepath.Join(dir, "out")
	write(t, filepath.Join(good, "a.md"), "---\ntitle: A\n---\n\n```kflow\nid: fine\nbeats: 4\n```\n")
	write(t, filepath.Join(bad, "a.md"), "---\ntitle: A\n---\n\n```kflow\nid: fine\nbeatz: 4\n```\n")
	write(t, filepath.Join(bad, "b.md"), "---\ntitel: B\n---\n")
	if code, _, stderr := kflowgen(t, "build", "--content", good, "--out", out); code != 0 {
		t.Fatalf("good build failed: %s", stderr)
	}
	before, err := os.ReadFile(filepath.Join(out, "a.html"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := kflowgen(t, "build", "--content", bad, "--out", out)
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	name := filepath.ToSlash(filepath.Clean(bad))
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	want := []string{
		name + `/a.md:7:1: unknown setting "beatz" (did you mean "beats"?)`,
		name + `/b.md:1:1: front matter has no title (add title: …)`,
		name + `/b.md:2:1: unknown front matter field "titel" (did you mean "title"?)`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, strings.Join(want, "\n"))
	}
	after, err := os.ReadFile(filepath.Join(out, "a.html"))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the failed build changed the output (%v)", err)
	}
}

func TestBuildRefusesContentFolderAsOutput(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "---\ntitle: A\n---\n")
	code, _, stderr := kflowgen(t, "build", "--content", dir, "--out", dir)
	if code != 1 || !strings.Contains(stderr, "refusing to build into") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestSimPage(t *testing.T) {
	code, stdout, stderr := kflowgen(t, "sim", "../../content/acks.md", "--scenario", "acks-one-loss")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var tr sim.Trace
	if err := json.Unmarshal([]byte(stdout), &tr); err != nil {
		t.Fatalf("output is not a trace: %v", err)
	}
	if tr.ID != "acks-one-loss" || len(tr.Beats) < 2 {
		t.Errorf("trace id %q with %d beats", tr.ID, len(tr.Beats))
	}
	for _, key := range []string{`"beats"`, `"partitions"`, `"highWatermark"`, `"logEndOffset"`, `"records"`} {
		if !strings.Contains(stdout, key) {
			t.Errorf("trace JSON lacks %s", key)
		}
	}
}

// TestSimPageByContent: a file whose name does not say what it holds —
// /dev/stdin redirected from a page, a page saved without .md — is read
// as a page when its text is one (front matter, a code fence), with every
// position in the page, and as a bare scenario otherwise; one that is
// neither says how it was read. /dev/stdin read a page as a bare
// scenario ("unknown setting \"weight\"" for its front matter).
func TestSimPageByContent(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page")
	write(t, page, "---\ntitle: One\nweight: 3\n---\n\nText.\n\n```kflow\nid: only\nbeats: 3\nbrokers: 99\n```\n")
	bare := filepath.Join(dir, "bare")
	write(t, bare, "id: bare\nbeats: 4\n")
	prose := filepath.Join(dir, "prose")
	write(t, prose, "# Notes\nsome text\n")
	code, _, stderr := kflowgen(t, "sim", page)
	if want := filepath.ToSlash(page) + ":11:10: "; code != 1 || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "weight") {
		t.Errorf("a page without .md: exit %d, stderr %q, want the fence's error at %s", code, stderr, want)
	}
	code, stdout, _ := kflowgen(t, "sim", bare)
	var tr sim.Trace
	if code != 0 || json.Unmarshal([]byte(stdout), &tr) != nil || tr.ID != "bare" {
		t.Errorf("a bare scenario without .yaml: exit %d, id %q", code, tr.ID)
	}
	code, _, stderr = kflowgen(t, "sim", prose)
	if code != 1 || !strings.Contains(stderr, filepath.ToSlash(prose)+":2:1: ") ||
		!strings.Contains(stderr, "was read as one bare scenario, since it has neither front matter nor a ``` fence") {
		t.Errorf("text that is neither: exit %d, stderr %q", code, stderr)
	}

	// /dev/stdin itself, from a page of the guide, in a kflowgen process
	// of its own (the test binary acting as main).
	if _, err := os.Stat("/dev/stdin"); err != nil {
		t.Skip("no /dev/stdin here")
	}
	in, err := os.Open("../../content/acks.md")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(os.Args[0], "sim", "/dev/stdin", "--scenario", "acks-one")
	cmd.Env = append(os.Environ(), asMain)
	cmd.Stdin = in
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || json.Unmarshal(out.Bytes(), &tr) != nil || tr.ID != "acks-one" {
		t.Errorf("sim /dev/stdin < acks.md: %v, id %q, stderr %q", err, tr.ID, errOut.String())
	}
}

// TestSimFromPipe: `cat page.md | kflowgen sim /dev/stdin` (or `-`)
// reads the page from the pipe, within the page size limit, and names the
// input "stdin" in its errors, file:line:col. The pipe was refused as "not
// a regular file".
func TestSimFromPipe(t *testing.T) {
	if _, err := os.Stat("/dev/stdin"); err != nil {
		t.Skip("no /dev/stdin here")
	}
	acks, err := os.ReadFile("../../content/acks.md")
	if err != nil {
		t.Fatal(err)
	}
	sim1 := func(stdin []byte, args ...string) (error, string, string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], append([]string{"sim"}, args...)...)
		cmd.Env = append(os.Environ(), asMain)
		// A bytes.Reader is not an *os.File: exec hands the child a pipe.
		cmd.Stdin = bytes.NewReader(stdin)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return err, out.String(), errOut.String()
	}
	for _, file := range []string{"/dev/stdin", "-"} {
		err, stdout, stderr := sim1(acks, file, "--scenario", "acks-one")
		var tr sim.Trace
		if err != nil || json.Unmarshal([]byte(stdout), &tr) != nil || tr.ID != "acks-one" {
			t.Errorf("cat acks.md | sim %s: %v, id %q, stderr %q", file, err, tr.ID, stderr)
		}
		page := "---\ntitle: One\n---\n\nText.\n\n```kflow\nid: only\nbeats: 3\nbrokers: 99\n```\n"
		err, _, stderr = sim1([]byte(page), file)
		if err == nil || !strings.HasPrefix(stderr, "stdin:10:10: ") {
			t.Errorf("a broken page through a pipe to sim %s: %v, stderr %q, want it at stdin:10:10", file, err, stderr)
		}
		big := bytes.Repeat([]byte("x"), site.MaxPageBytes+100)
		err, _, stderr = sim1(big, file)
		if want := fmt.Sprintf("kflowgen: stdin: the file is more than %d bytes", site.MaxPageBytes); err == nil || !strings.HasPrefix(stderr, want) {
			t.Errorf("%d bytes through a pipe to sim %s: %v, stderr %q, want %q", len(big), file, err, stderr, want)
		}
	}
}

func TestSimChoosing(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "two.md")
	write(t, page, "---\ntitle: Two\n---\n\n```kflow\nid: first\nbeats: 3\n```\n\n```kflow\nid: second\nbeats: 5\n```\n")
	bare := filepath.Join(dir, "one.yaml")
	write(t, bare, "id: bare\nbeats: 4\n")
	bad := filepath.Join(dir, "bad.md")
	write(t, bad, "---\ntitle: Bad\n---\n\n- item\n\n  ```kflow\n  id: x\n  brokers: 99\n  ```\n")

	if code, _, stderr := kflowgen(t, "sim", page); code != 1 || !strings.Contains(stderr, "choose one with --scenario (ids: first, second)") {
		t.Errorf("several fences without --scenario: exit %d, %q", code, stderr)
	}
	if code, _, stderr := kflowgen(t, "sim", page, "--scenario", "third"); code != 1 || !strings.Contains(stderr, `no scenario with id "third"`) {
		t.Errorf("unknown id: exit %d, %q", code, stderr)
	}
	code, stdout, _ := kflowgen(t, "sim", page, "--scenario", "second")
	var tr sim.Trace
	if code != 0 || json.Unmarshal([]byte(stdout), &tr) != nil || tr.ID != "second" || len(tr.Beats) != 6 {
		t.Errorf("--scenario second: exit %d, id %q, %d beats", code, tr.ID, len(tr.Beats))
	}
	code, stdout, _ = kflowgen(t, "sim", bare)
	if code != 0 || json.Unmarshal([]byte(stdout), &tr) != nil || tr.ID != "bare" {
		t.Errorf("bare scenario: exit %d, id %q", code, tr.ID)
	}
	code, stdout, stderr := kflowgen(t, "sim", bad)
	want := filepath.ToSlash(bad) + ":9:12: "
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("bad fence: exit %d, stderr %q, want prefix %q", code, stderr, want)
	}
}

func TestUsageErrorsPrintOnce(t *testing.T) {
	for _, args := range [][]string{{"bild"}, {"build", "--nope"}, {"sim"}} {
		code, stdout, stderr := kflowgen(t, args...)
		if code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "kflowgen: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// TestReadmeExampleBuilds keeps the README honest: the page it shows as an
// example of a fence must build, expectations included.
func TestReadmeExampleBuilds(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "````markdown\n")
	example, _, ok2 := strings.Cut(rest, "````\n")
	if !ok || !ok2 || !strings.Contains(example, "```kflow") {
		t.Fatal("README.md has no ````markdown example holding a kflow fence")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "content", "example.md"), example)
	code, _, stderr := kflowgen(t, "build", "--content", filepath.Join(dir, "content"), "--out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("the README's example does not build:\n%s", stderr)
	}
}

// TestNamesEscapedInErrors (issue 18.9): a file name holding a newline,
// an escape sequence or a bidirectional override is printed escaped, so it
// cannot forge another file's error line or recolour the terminal: each
// problem is one line of stderr, and the name reads as Go escapes.
func TestNamesEscapedInErrors(t *testing.T) {
	dir := t.TempDir()
	forged := "a.md:1:1: all is well\nz"
	write(t, filepath.Join(dir, "ok.md"), "---\ntitle: OK\n---\n\n[x](zz%0Afake.md)\n")
	write(t, filepath.Join(dir, forged+".md"), "no front matter\n")
	write(t, filepath.Join(dir, "b\x1b[31m\u202e.md"), "---\ntitle: [\n---\n")
	code, _, stderr := kflowgen(t, "build", "--content", dir, "--out", filepath.Join(t.TempDir(), "out"))
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	want := []string{
		"content/a.md:1:1: all is well\\nz.md:1:1: ",
		"content/b\\x1b[31m\\u202e.md:",
		"content/ok.md:5:1: link to \"zz%0Afake.md\": no page zz\\nfake.md in the content folder",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines of stderr, want %d:\n%s", len(lines), len(want), stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(strings.Replace(lines[i], filepath.ToSlash(dir), "content", 1), w) {
			t.Errorf("line %d: %q, want it to start %q", i+1, lines[i], w)
		}
	}

	// A plain error (not positioned) that names such a file: one line.
	pipe := filepath.Join(t.TempDir(), "p\nq")
	if err := os.Mkdir(pipe, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(pipe, "file"), "x")
	code, _, stderr = kflowgen(t, "build", "--content", filepath.Join(pipe, "file"), "--out", filepath.Join(t.TempDir(), "out"))
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `p\nq`) {
		t.Errorf("exit %d, stderr %q: want one line naming p\\nq", code, stderr)
	}
}

// TestSimInputBounded (issue 18.4, 18.5): kflowgen sim refuses a device
// before reading from it (a pipe it reads within the limit:
// TestSimFromPipe), a file over the page size limit
// without reading it (a sparse terabyte), and a page whose one line nests
// lists and quotes past the limit before parsing it.
func TestSimInputBounded(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "huge.yaml")
	write(t, sparse, "")
	if err := os.Truncate(sparse, 1<<40); err != nil {
		t.Skipf("no sparse files: %v", err)
	}
	deep := filepath.Join(dir, "deep.md")
	write(t, deep, "---\ntitle: D\n---\n"+strings.Repeat("* > ", 40_000)+"\n")
	for _, c := range []struct{ file, want string }{
		{"/dev/zero", "kflowgen: /dev/zero is not a regular file or a pipe (a device or folder); a page must be a file, or come through a pipe\n"},
		{sparse, fmt.Sprintf("kflowgen: %s: the file is 1099511627776 bytes: Kafka Flow reads at most %d bytes of a page (split it)\n", sparse, site.MaxPageBytes)},
		{deep, fmt.Sprintf("%s:4:%d: this line opens 80000 lists and quotes inside each other: Kafka Flow allows them %d deep\n", filepath.ToSlash(deep), 2*site.MaxNesting+1, site.MaxNesting)},
	} {
		code, stdout, stderr := kflowgen(t, "sim", c.file)
		if code != 1 || stdout != "" || stderr != c.want {
			t.Errorf("sim %s: exit %d, stdout %.80q, stderr %q, want %q", c.file, code, stdout, stderr, c.want)
		}
	}
}
