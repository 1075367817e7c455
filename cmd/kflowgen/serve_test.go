package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lines reads what the command prints, a line at a time.
type lines struct {
	ch chan string
}

func newLines(r io.Reader) *lines {
	l := &lines{ch: make(chan string, 64)}
	go func() {
		defer close(l.ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.ch <- sc.Text()
		}
	}()
	return l
}

// waitFor returns the first line starting with prefix, failing the test if
// none comes within a generous deadline or the output ends.
func (l *lines) waitFor(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case s, ok := <-l.ch:
			if !ok {
				t.Fatalf("output ended before a line starting %q", prefix)
			}
			if strings.HasPrefix(s, prefix) {
				return s
			}
		case <-timeout:
			t.Fatalf("no line starting %q", prefix)
		}
	}
}

// TestServeCommand starts `kflowgen serve` in process on a free port,
// fetches a page, edits it, and stops the command as Ctrl-C would (by
// cancelling its context).
func TestServeCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pages")
	write(t, filepath.Join(dir, "a.md"), "---\ntitle: Served page\n---\n\n```kflow\nid: one\nbeats: 3\n```\n")
	outR, outW := io.Pipe()
	errR, errW := io.Pipe()
	out, errs := newLines(outR), newLines(errR)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd(outW, errW)
	root.SetArgs([]string{"serve", "--content", dir, "--port", "0"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	line := out.waitFor(t, "serving ")
	name := filepath.ToSlash(filepath.Clean(dir)) + "/"
	if !strings.HasPrefix(line, "serving "+name+" at http://127.0.0.1:") {
		t.Fatalf("first line %q", line)
	}
	url := line[strings.Index(line, "http://"):]
	if w := out.waitFor(t, "watching "); w != "watching "+name+" for changes (the templates are the built-in ones)" {
		t.Errorf("watch line %q", w)
	}
	resp, err := http.Get(url + "a.html")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Served page") || !strings.Contains(string(body), "/_kflow/live.js") {
		t.Fatalf("GET a.html: %d\n%s", resp.StatusCode, body)
	}

	write(t, filepath.Join(dir, "a.md"), "---\ntitle: Served page\n---\n\n```kflow\nid: one\nbeatz: 3\n```\n")
	if e := errs.waitFor(t, name+"a.md:"); !strings.HasPrefix(e, name+"a.md:7:1: ") {
		t.Errorf("terminal error %q", e)
	}
	errs.waitFor(t, "build failed")
	write(t, filepath.Join(dir, "a.md"), "---\ntitle: Served page\n---\n\n```kflow\nid: one\nbeats: 4\n```\n")
	if l := out.waitFor(t, "rebuilt in "); !strings.HasSuffix(l, "ms: 1 page changed (a.html)") {
		t.Errorf("rebuild line %q", l)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop when its context was cancelled")
	}
	outW.Close()
	errW.Close()
	out.waitFor(t, "stopped")
}

// TestServeEmbeddedGuide serves the built-in guide when there is no content
// folder, and says that nothing is watched.
func TestServeEmbeddedGuide(t *testing.T) {
	outR, outW := io.Pipe()
	out := newLines(outR)
	ctx, cancel := context.WithCancel(context.Background())
	root := newRootCmd(outW, io.Discard)
	root.SetArgs([]string{"serve", "--port", "0"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	line := out.waitFor(t, "serving ")
	if !strings.HasPrefix(line, "serving the built-in guide at http://127.0.0.1:") {
		t.Errorf("first line %q", line)
	}
	out.waitFor(t, "this is the guide built into kflowgen, which cannot change: nothing is watched")
	resp, err := http.Get(line[strings.Index(line, "http://"):] + "acks.html")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET acks.html: %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	outW.Close()
}

// TestServeEmbeddedGuideWithTemplates serves the built-in pages with a
// templates folder: only the templates are watched, and the output says so.
func TestServeEmbeddedGuideWithTemplates(t *testing.T) {
	tdir := filepath.Join(t.TempDir(), "tpl")
	for _, name := range []string{"layout.html", "index.html", "site.css", "figure.css", "kf-knobs.css", "favicon.svg"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "templates", name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(tdir, name), string(b))
	}
	outR, outW := io.Pipe()
	out := newLines(outR)
	ctx, cancel := context.WithCancel(context.Background())
	root := newRootCmd(outW, io.Discard)
	root.SetArgs([]string{"serve", "--port", "0", "--templates", tdir})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	out.waitFor(t, "serving the built-in guide at ")
	if l := out.waitFor(t, "watching "); l != "watching "+filepath.ToSlash(tdir)+"/ for changes (the pages are the guide built into kflowgen, which cannot change; pass --content DIR to edit pages)" {
		t.Errorf("watch line %q", l)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	outW.Close()
}

// TestServeBadFlags checks the errors for a bad address, port or folder,
// for a port already in use and for an address of another machine.
func TestServeBadFlags(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	missing := filepath.Join(t.TempDir(), "nope")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--bind", "my laptop"}, `kflowgen: --bind "my laptop" is not an IP address`},
		{[]string{"serve", "--port", "70000"}, "kflowgen: --port 70000 is not a port"},
		{[]string{"serve", "--content", missing}, "kflowgen: content folder " + filepath.ToSlash(missing) + "/: no such file or directory"},
		{[]string{"serve", "--templates", missing}, "kflowgen: templates folder " + filepath.ToSlash(missing) + "/: no such file or directory"},
		{[]string{"serve", "--port", busy}, "kflowgen: cannot listen on 127.0.0.1:" + busy + ": the port is in use"},
		// An address of no interface of this machine (TEST-NET-1,
		// RFC 5737, is never assigned).
		{[]string{"serve", "--bind", "192.0.2.1", "--port", "0"}, "kflowgen: cannot listen on 192.0.2.1:0: 192.0.2.1 is not an address of this machine (--bind takes one of its own addresses"},
	} {
		code, stdout, stderr := kflowgen(t, c.args...)
		if code != 1 || stdout != "" || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestBuildHasNoLiveClient makes sure the live-reload client only exists
// in served pages: a build's output never mentions it.
func TestBuildHasNoLiveClient(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if code, _, stderr := kflowgen(t, "build", "--out", out); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if strings.Contains(string(b), "_kflow") || strings.Contains(string(b), "EventSource") {
			t.Errorf("%s holds the live client", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
