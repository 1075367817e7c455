//go:build unix

package site

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests below run WriteDir in other processes: this test binary,
// started again with KFLOWGEN_WRITER set, runs TestWriterProcess only,
// which writes one of two sites and can kill itself or pause at a step.

// writerSite is site "A" or "B": two sites with different files, so a
// folder that mixes them, or misses a file, matches neither.
func writerSite(name string) *Site {
	s := &Site{}
	n := map[string]int{"A": 24, "B": 17}[name]
	for i := range n {
		s.Files = append(s.Files, File{Path: fmt.Sprintf("%s%02d.html", strings.ToLower(name), i), Data: []byte(name + strconv.Itoa(i))})
	}
	s.Files = append(s.Files, File{Path: "index.html", Data: []byte("site " + name)})
	slices.SortFunc(s.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return s
}

// wantTree is what WriteDir leaves in the output folder for a site.
func wantTree(s *Site) map[string]string {
	m := map[string]string{}
	var list strings.Builder
	list.WriteString(markerHead)
	for _, f := range s.Files {
		m[f.Path] = string(f.Data)
		list.WriteString(f.Path + "\n")
	}
	m[Marker] = list.String()
	return m
}

// whichSite says which site the folder holds whole ("A" or "B"), or
// describes what is wrong with it.
func whichSite(t *testing.T, dir string) (string, bool) {
	t.Helper()
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Sprintf("no output folder (%v)", err), false
	}
	if !st.IsDir() {
		return "the output is not a folder", false
	}
	got := readTree(t, dir)
	for _, name := range []string{"A", "B"} {
		if maps.Equal(got, wantTree(writerSite(name))) {
			return name, true
		}
	}
	return fmt.Sprintf("neither site whole: %d files: %v", len(got), slices.Sorted(maps.Keys(got))), false
}

// TestWriterProcess is the body of a writer process; it does nothing in a
// normal test run.
func TestWriterProcess(t *testing.T) {
	out := os.Getenv("KFLOWGEN_WRITER")
	if out == "" {
		t.Skip("only run as a writer process")
	}
	if d, err := time.ParseDuration(os.Getenv("KFLOWGEN_WRITER_WAIT")); err == nil {
		LockWait = d
	}
	killAt, _ := strconv.Atoi(os.Getenv("KFLOWGEN_WRITER_KILL_AT"))
	pauseAt := os.Getenv("KFLOWGEN_WRITER_PAUSE_AT")
	steps := 0
	writeHook = func(name string) {
		steps++
		if steps == killAt {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
		if name == pauseAt {
			fmt.Println("paused")
			io.Copy(io.Discard, os.Stdin) // until the test closes it
		}
	}
	err := writerSite(os.Getenv("KFLOWGEN_WRITER_SITE")).WriteDir(out, "")
	fmt.Printf("steps %d\n", steps)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(3)
	}
}

// writer is a writer process.
type writer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *bufio.Scanner
	out   strings.Builder
}

func startWriter(t *testing.T, out, site string, env ...string) *writer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), append([]string{"KFLOWGEN_WRITER=" + out, "KFLOWGEN_WRITER_SITE=" + site}, env...)...)
	cmd.Stderr = os.Stderr
	w := &writer{cmd: cmd}
	var err error
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w.lines = bufio.NewScanner(stdout)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return w
}

// waitLine reads the writer's output up to a line starting with prefix.
func (w *writer) waitLine(t *testing.T, prefix string) string {
	t.Helper()
	for w.lines.Scan() {
		l := w.lines.Text()
		w.out.WriteString(l + "\n")
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("the writer ended without printing %q:\n%s", prefix, w.out.String())
	return ""
}

// wait reads the rest of the output and waits for the process to end.
func (w *writer) wait() (string, error) {
	for w.lines.Scan() {
		w.out.WriteString(w.lines.Text() + "\n")
	}
	err := w.cmd.Wait()
	return w.out.String(), err
}

// newFolders lists the ".NAME.new-*" folders next to out.
func newFolders(out string) []string {
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".new-*"))
	return m
}

// TestWriteDirTwoWriters (issue 18.1): a second writer into the same
// output folder waits for the first and, past LockWait, refuses; it never
// removes the first one's unfinished folder. A writer killed while it
// holds the lock releases it (the system drops a dead process's flock),
// and the next writer removes the folder it left.
func TestWriteDirTwoWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := writerSite("A").WriteDir(out, ""); err != nil {
		t.Fatal(err)
	}

	// The first writer stops with its new site written, before the swap.
	first := startWriter(t, out, "B", "KFLOWGEN_WRITER_PAUSE_AT=written")
	first.waitLine(t, "paused")
	unfinished := newFolders(out)
	if len(unfinished) != 1 {
		t.Fatalf("the paused writer's folder: %v", unfinished)
	}
	second := startWriter(t, out, "A", "KFLOWGEN_WRITER_WAIT=300ms")
	text, err := second.wait()
	if err == nil || !strings.Contains(text, "another kflowgen has been writing into") {
		t.Errorf("a second writer did not refuse while the first held the lock (%v):\n%s", err, text)
	}
	if got := newFolders(out); !slices.Equal(got, unfinished) {
		t.Errorf("the second writer touched the first one's folder: before %v, after %v", unfinished, got)
	}
	if got, ok := whichSite(t, out); got != "A" {
		t.Errorf("while the first writer is paused, the output holds %s (ok %v)", got, ok)
	}

	// A third writer waits for the first, then writes: it always comes
	// last, so A is what stays.
	third := startWriter(t, out, "A", "KFLOWGEN_WRITER_WAIT=1m")
	first.stdin.Close()
	if text, err := first.wait(); err != nil {
		t.Fatalf("first writer: %v\n%s", err, text)
	}
	if text, err := third.wait(); err != nil {
		t.Fatalf("third writer: %v\n%s", err, text)
	}
	if got, ok := whichSite(t, out); got != "A" || !ok {
		t.Errorf("after both writers: %s", got)
	}
	noLeftovers(t, filepath.Dir(out))

	// A writer killed while holding the lock: the next one gets it and
	// clears what the dead one left.
	dead := startWriter(t, out, "B", "KFLOWGEN_WRITER_PAUSE_AT=written")
	dead.waitLine(t, "paused")
	dead.cmd.Process.Signal(syscall.SIGKILL)
	dead.wait()
	if len(newFolders(out)) != 1 {
		t.Fatalf("the killed writer left %v", newFolders(out))
	}
	next := startWriter(t, out, "B", "KFLOWGEN_WRITER_WAIT=1m")
	if text, err := next.wait(); err != nil {
		t.Fatalf("writer after a killed one: %v\n%s", err, text)
	}
	if got, ok := whichSite(t, out); got != "B" || !ok {
		t.Errorf("after the killed writer and the next: %s", got)
	}
	noLeftovers(t, filepath.Dir(out))
}

// TestWriteDirKilledAnywhere (issue 18.2): a writer killed (SIGKILL) at any
// step of WriteDir — every file written, the swap, every entry of the old
// site removed — leaves the output folder holding the old site or the new
// one whole, and the next writer clears up after it. Each kill point is
// one step of WriteDir's own, so the test covers every one of them without
// timing anything.
func TestWriteDirKilledAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := writerSite("A").WriteDir(out, ""); err != nil {
		t.Fatal(err)
	}
	// A whole run each way, to learn how many steps one takes.
	steps := 0
	for _, name := range []string{"B", "A"} {
		w := startWriter(t, out, name)
		n, _ := strconv.Atoi(strings.TrimPrefix(w.waitLine(t, "steps "), "steps "))
		if text, err := w.wait(); err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		steps = max(steps, n)
	}
	if steps < 40 {
		t.Fatalf("a run took %d steps", steps)
	}
	cur := "A"
	for k := 1; k <= steps+1; k++ {
		// The writer after a killed one clears what it left, and the kill
		// points of the next stay where they were.
		if err := writerSite(cur).WriteDir(out, ""); err != nil {
			t.Fatalf("writing %s after a writer killed at step %d: %v", cur, k-1, err)
		}
		noLeftovers(t, filepath.Dir(out))
		next := map[string]string{"A": "B", "B": "A"}[cur]
		w := startWriter(t, out, next, "KFLOWGEN_WRITER_KILL_AT="+strconv.Itoa(k))
		text, err := w.wait()
		if ws, ok := err.(*exec.ExitError); err != nil && (!ok || ws.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL) {
			t.Fatalf("writer killed at step %d: %v\n%s", k, err, text)
		}
		got, ok := whichSite(t, out)
		if !ok {
			t.Fatalf("killed at step %d of writing %s over %s: %s", k, next, cur, got)
		}
		if err == nil && got != next {
			t.Fatalf("a writer of %s that was not killed left %s", next, got)
		}
		cur = got
	}
	if err := writerSite("A").WriteDir(out, ""); err != nil {
		t.Fatal(err)
	}
	if got, ok := whichSite(t, out); got != "A" || !ok {
		t.Errorf("after the kills, a build left %s", got)
	}
	noLeftovers(t, filepath.Dir(out))
}
