package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fsnotify/fsnotify"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/kafkaflow/kflowgen/templates"
)

// deadline bounds every wait for an event. It is generous: a test waits
// for something to happen, it never measures how long it took.
const deadline = 20 * time.Second

// write puts text at path, making its folder.
func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// Written aside and renamed into place, as editors save, so that no
	// rebuild reads the file truncated but not yet written (the watcher
	// ignores *.tmp).
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// fencePage is a page with one fence; the fence's "beats" line is line 9.
func fencePage(title, id, figTitle, beatsLine string) string {
	return "---\ntitle: " + title + "\nweight: 1\n---\n\n```kflow\nid: " + id + "\ntitle: " + figTitle + "\n" + beatsLine + "\n```\n\nText after the figure.\n"
}

// smallSite writes a two-page site into a fresh content folder.
func smallSite(t testing.TB) string {
	dir := filepath.Join(t.TempDir(), "content")
	write(t, filepath.Join(dir, "index.md"), "---\ntitle: Test guide\n---\n\nHome.\n")
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "First title", "beats: 4"))
	write(t, filepath.Join(dir, "b.md"), fencePage("B", "two", "Other figure", "beats: 3"))
	return dir
}

// start creates a server for the options and runs it on a free loopback
// port until the test ends; it returns the server and its base URL.
func start(t testing.TB, o Options) (*Server, string) {
	t.Helper()
	return startWith(t, o, nil)
}

// startWith is start, calling setup (when not nil) on the server before
// it runs.
func startWith(t testing.TB, o Options, setup func(*Server)) (*Server, string) {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(s)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-ran:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(deadline):
			t.Errorf("Run did not return after its context was cancelled")
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s, "http://" + ln.Addr().String()
}

type response struct {
	status int
	ctype  string
	body   string
}

func get(t testing.TB, url string) response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}
}

var versionRE = regexp.MustCompile(`data-version="([0-9a-f]*)"`)

// version returns the page version the server wrote into a page's client
// script tag.
func version(t testing.TB, page string) string {
	t.Helper()
	m := versionRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no live client in the page:\n%s", page)
	}
	return m[1]
}

type event struct{ name, data string }

// stream is an open page's event stream, read by a goroutine.
type stream struct {
	events chan event
	close  func()
}

func listen(t testing.TB, base, page, v string) *stream {
	t.Helper()
	st := openStream(t, base, page, v)
	t.Cleanup(st.close)
	return st
}

// openStream is listen without the cleanup: the caller closes the stream
// (the soak test opens thousands, which cleanups would keep until the end).
func openStream(t testing.TB, base, page, v string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+EventsPath+"?page="+page+"&v="+v, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		cancel()
		t.Fatalf("events: status %d, type %q", resp.StatusCode, ct)
	}
	st := &stream{events: make(chan event, 16)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(st.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var ev event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					st.events <- ev
				}
				ev = event{}
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data += strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	st.close = func() { cancel(); resp.Body.Close(); <-done }
	return st
}

// next waits for the stream's next event.
func (st *stream) next(t testing.TB) event {
	t.Helper()
	select {
	case ev, ok := <-st.events:
		if !ok {
			t.Fatal("event stream ended")
		}
		return ev
	case <-time.After(deadline):
		t.Fatal("no event within the deadline")
	}
	return event{}
}

// expect waits for the next event and checks its name.
func (st *stream) expect(t testing.TB, name string) event {
	t.Helper()
	ev := st.next(t)
	if ev.name != name {
		t.Fatalf("got event %q (%.200s), want %q", ev.name, ev.data, name)
	}
	return ev
}

// TestEditBreakFix is an author's loop: open two pages, edit a fence on
// one, break it, fix it.
func TestEditBreakFix(t *testing.T) {
	dir := smallSite(t)
	var errs syncBuffer
	s, base := start(t, Options{ContentDir: dir, ContentName: "content", Errors: &errs})

	a := get(t, base+"/a.html")
	if a.status != 200 || a.ctype != "text/html; charset=utf-8" || !strings.Contains(a.body, "First title") {
		t.Fatalf("GET /a.html: %d %q\n%s", a.status, a.ctype, a.body)
	}
	// The page held is the build's output; the client is added on the
	// way out only.
	disk := served(t, s)["a.html"]
	if bytes.Contains(disk, []byte("/_kflow/")) {
		t.Error("the built page holds the live client")
	}
	if got := strings.Replace(a.body, string(s.snippet("a.html", version(t, a.body), nil)), "", 1); got != string(disk) {
		t.Error("the served page is not the built page plus the client snippet")
	}

	va, vb := version(t, a.body), version(t, get(t, base+"/b.html").body)
	sa, sb := listen(t, base, "a.html", va), listen(t, base, "b.html", vb)
	sa.expect(t, "fixed")
	sb.expect(t, "fixed")

	// Edit: a's figure title changes; only a reloads.
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Second title", "beats: 4"))
	sa.expect(t, "reload")
	a = get(t, base+"/a.html")
	if !strings.Contains(a.body, "Second title") || strings.Contains(a.body, "First title") {
		t.Fatalf("after the edit the page does not show the new title:\n%s", a.body)
	}
	va2 := version(t, a.body)
	if va2 == va {
		t.Error("the page's version did not change with its bytes")
	}
	sa = listen(t, base, "a.html", va2)
	sa.expect(t, "fixed")

	// Break: every open page shows the error; b's next event being
	// "broken" also shows it got no reload for a's edit.
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Second title", "beatz: 4"))
	const pos = "content/a.md:9:1"
	for _, st := range []*stream{sa, sb} {
		ev := st.expect(t, "broken")
		if !strings.Contains(ev.data, pos) || !strings.Contains(ev.data, "beatz") {
			t.Errorf("broken event lacks the position or the token: %s", ev.data)
		}
	}
	// Pages opened now show the error too, over the last good build.
	for _, p := range []string{"/a.html", "/b.html", "/"} {
		r := get(t, base+p)
		for _, want := range []string{`id="kflow-error"`, pos, "beatz: 4", "title: Second title", `&#34;beatz&#34;`} {
			if !strings.Contains(r.body, want) {
				t.Errorf("GET %s while broken: no %q in the overlay", p, want)
			}
		}
	}
	if !strings.Contains(get(t, base+"/a.html").body, "<figcaption") {
		t.Error("the last good page is not served while broken")
	}
	if !strings.Contains(errs.String(), pos+": ") {
		t.Errorf("terminal errors:\n%s\nwant a line starting %s", errs.String(), pos)
	}

	// Fix: back to the last good text. a's bytes equal the last good
	// build, so it is not reloaded; both overlays go.
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Second title", "beats: 4"))
	sa.expect(t, "fixed")
	sb.expect(t, "fixed")
	if r := get(t, base+"/a.html"); strings.Contains(r.body, "kflow-error") || version(t, r.body) != va2 {
		t.Errorf("after the fix: overlay still there or version changed\n%s", r.body)
	}
}

// TestNewFolderWatched creates a folder after the server started: its page
// appears, as a section (sub/c.html; an open 404 for it reloads), and later
// edits inside it rebuild.
func TestNewFolderWatched(t *testing.T) {
	dir := smallSite(t)
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	missing := get(t, base+"/sub/c.html")
	if missing.status != 404 || version(t, missing.body) != "" {
		t.Fatalf("missing page: %d\n%s", missing.status, missing.body)
	}
	sc := listen(t, base, "sub/c.html", "")
	sc.expect(t, "fixed")
	write(t, filepath.Join(dir, "sub", "c.md"), fencePage("C", "three", "In a new folder", "beats: 2"))
	sc.expect(t, "reload")
	r := get(t, base+"/sub/c.html")
	if r.status != 200 || !strings.Contains(r.body, "In a new folder") {
		t.Fatalf("new page: %d\n%s", r.status, r.body)
	}
	sc = listen(t, base, "sub/c.html", version(t, r.body))
	sc.expect(t, "fixed")
	write(t, filepath.Join(dir, "sub", "c.md"), fencePage("C", "three", "Edited in the new folder", "beats: 2"))
	sc.expect(t, "reload")
	if r := get(t, base+"/sub/c.html"); !strings.Contains(r.body, "Edited in the new folder") {
		t.Fatalf("edit in the new folder not built:\n%s", r.body)
	}
}

// TestStaticFileServed: a file of the content folder that is not a page
// is served at its path, with its type; a save of it is served at once
// and reloads the page that shows it; removing it fails the build of
// the page whose image it was, and the fix publishes it again.
func TestStaticFileServed(t *testing.T) {
	dir := smallSite(t)
	write(t, filepath.Join(dir, "img", "d.svg"), "<svg>one</svg>")
	write(t, filepath.Join(dir, "c.md"), "---\ntitle: C\n---\n\n![the diagram](img/d.svg)\n")
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	r := get(t, base+"/img/d.svg")
	if r.status != 200 || r.ctype != "image/svg+xml" || r.body != "<svg>one</svg>" {
		t.Fatalf("GET /img/d.svg: %d %q %q", r.status, r.ctype, r.body)
	}
	page := get(t, base+"/c.html")
	if !strings.Contains(page.body, `<img src="img/d.svg" alt="the diagram">`) {
		t.Fatalf("c.html lacks the image:\n%s", page.body)
	}
	c := listen(t, base, "c.html", version(t, page.body))
	c.expect(t, "fixed")
	write(t, filepath.Join(dir, "img", "d.svg"), "<svg>two</svg>")
	c.expect(t, "reload")
	if r := get(t, base+"/img/d.svg"); r.body != "<svg>two</svg>" {
		t.Fatalf("after the save, /img/d.svg is %q", r.body)
	}
	c = listen(t, base, "c.html", version(t, get(t, base+"/c.html").body))
	c.expect(t, "fixed")
	if err := os.Remove(filepath.Join(dir, "img", "d.svg")); err != nil {
		t.Fatal(err)
	}
	ev := c.expect(t, "broken")
	if !strings.Contains(ev.data, `content/c.md:5:1`) || !strings.Contains(ev.data, `the content folder has no file img/d.svg`) {
		t.Errorf("broken event: %s", ev.data)
	}
	write(t, filepath.Join(dir, "img", "d.svg"), "<svg>three</svg>")
	c.expect(t, "reload")
	if r := get(t, base+"/img/d.svg"); r.status != 200 || r.body != "<svg>three</svg>" {
		t.Fatalf("after the fix, /img/d.svg: %d %q", r.status, r.body)
	}
}

// TestLinkedFolderWatched: a symbolic link to a folder outside the
// content folder is read as the build reads it (its page is a page of the
// section named by the link), and a save in the linked folder rebuilds,
// because the watch follows the link.
func TestLinkedFolderWatched(t *testing.T) {
	dir := smallSite(t)
	shared := t.TempDir()
	write(t, filepath.Join(shared, "c.md"), fencePage("C", "three", "Shared page", "beats: 2"))
	if err := os.Symlink(shared, filepath.Join(dir, "linked")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	r := get(t, base+"/linked/c.html")
	if r.status != 200 || !strings.Contains(r.body, "Shared page") {
		t.Fatalf("linked page: %d\n%s", r.status, r.body)
	}
	sc := listen(t, base, "linked/c.html", version(t, r.body))
	sc.expect(t, "fixed")
	write(t, filepath.Join(shared, "c.md"), fencePage("C", "three", "Edited through the link", "beats: 2"))
	sc.expect(t, "reload")
	if r := get(t, base+"/linked/c.html"); !strings.Contains(r.body, "Edited through the link") {
		t.Fatalf("edit in the linked folder not built:\n%s", r.body)
	}
}

// TestLinkedFolderReplaced (try11 F13): a linked folder's target removed
// and made anew (a branch switch, a generator rewriting it) is watched
// again under the link's name, as a plain folder made anew is: the watch
// on the old target followed it away, and the link itself did not change.
func TestLinkedFolderReplaced(t *testing.T) {
	dir := smallSite(t)
	shared := filepath.Join(t.TempDir(), "shared")
	write(t, filepath.Join(shared, "c.md"), fencePage("C", "three", "Shared page", "beats: 2"))
	if err := os.Symlink(shared, filepath.Join(dir, "linked")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	shows := func(what string) {
		t.Helper()
		for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			if r := get(t, base+"/linked/c.html"); r.status == 200 && strings.Contains(r.body, what) {
				return
			}
		}
		t.Fatalf("linked/c.html never showed %q", what)
	}
	shows("Shared page")
	if err := os.RemoveAll(shared); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(shared, "c.md"), fencePage("C", "three", "The new folder", "beats: 2"))
	shows("The new folder")
	write(t, filepath.Join(shared, "c.md"), fencePage("C", "three", "Edited in the new folder", "beats: 2"))
	shows("Edited in the new folder")
}

// TestWatcherErrorSaysWhat (try11 F13): an error from the system's file
// watcher, often an errno alone, is printed with what was watched and
// what serve does about it, where it read "kflowgen: watching: invalid
// argument".
func TestWatcherErrorSaysWhat(t *testing.T) {
	dir := smallSite(t)
	var errs syncBuffer
	s, _ := start(t, Options{ContentDir: dir, ContentName: "content", Errors: &errs})
	s.watcher.Errors <- syscall.EINVAL
	want := "kflowgen: watching " + filepath.ToSlash(dir) + "/ for changes: the system's file watcher reported \"invalid argument\"; a change may have been missed, so the next build reads every file again\n"
	for end := time.Now().Add(deadline); time.Now().Before(end) && errs.String() == ""; time.Sleep(10 * time.Millisecond) {
	}
	if got := errs.String(); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// TestFirstBuildBroken starts on a broken site: pages show the error, and
// the first good build reloads them.
func TestFirstBuildBroken(t *testing.T) {
	dir := smallSite(t)
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "First title", "beats: many"))
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	r := get(t, base+"/a.html")
	if r.status != 503 || !strings.Contains(r.body, "content/a.md:9:") || version(t, r.body) != "" {
		t.Fatalf("GET before any good build: %d\n%s", r.status, r.body)
	}
	// There is no last good build to speak of (try8 finding 10).
	if strings.Contains(r.body, "last good build") || !strings.Contains(r.body, "No build has succeeded yet") {
		t.Errorf("the overlay before any good build claims one:\n%s", r.body)
	}
	st := listen(t, base, "a.html", "")
	if ev := st.expect(t, "broken"); !strings.Contains(ev.data, "content/a.md:9:") {
		t.Errorf("broken event: %s", ev.data)
	}
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "First title", "beats: 4"))
	st.expect(t, "reload")
	if r := get(t, base+"/a.html"); r.status != 200 || strings.Contains(r.body, "kflow-error") {
		t.Fatalf("after the fix: %d\n%s", r.status, r.body)
	}
}

// TestContentFolderRemoved: a content folder removed while serve runs is
// named in the error, not called "." ("stat .: no such file or
// directory"), and the pages keep the last good build under it.
func TestContentFolderRemoved(t *testing.T) {
	dir := smallSite(t)
	var errs syncBuffer
	_, base := start(t, Options{ContentDir: dir, ContentName: "content", Errors: &errs})
	st := listen(t, base, "a.html", version(t, get(t, base+"/a.html").body))
	st.expect(t, "fixed")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	ev := st.expect(t, "broken")
	const want = "cannot read the content folder content: no such file or directory"
	if !strings.Contains(ev.data, want) || !strings.Contains(ev.data, "last good build") {
		t.Errorf("broken event: %s", ev.data)
	}
	if !strings.Contains(errs.String(), "kflowgen: "+want+"\n") {
		t.Errorf("the terminal got %q", errs.String())
	}
}

// TestTraversalRefused sends raw requests that try to leave the site;
// none may return the secret placed in the content folder and beside it
// (the files the server reads; it serves only what the build made).
func TestTraversalRefused(t *testing.T) {
	dir := smallSite(t)
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	const secret = "kflow-secret-7f3a"
	write(t, filepath.Join(dir, "secret.txt"), secret)
	write(t, filepath.Join(filepath.Dir(dir), "secret.txt"), secret)
	addr := strings.TrimPrefix(base, "http://")
	for _, target := range []string{
		"/../secret.txt",
		"/../../secret.txt",
		"/%2e%2e/secret.txt",
		"/%2e%2e%2fsecret.txt",
		"/assets/..%2f..%2fsecret.txt",
		"/assets/%2e%2e/%2e%2e/secret.txt",
		"/..%5csecret.txt",
		"/./../secret.txt",
		"//../secret.txt",
		"/assets/",
		"/assets",
		"/.kflowgen",
		"/a.html%00.css",
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, addr)
		resp, err := io.ReadAll(conn)
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(string(resp), "\r\n")
		if strings.Contains(string(resp), secret) || !strings.Contains(head, " 404 ") && !strings.Contains(head, " 400 ") {
			t.Errorf("GET %s: %s", target, head)
		}
	}
}

// TestContentTypes checks the types of every kind of file a site holds.
func TestContentTypes(t *testing.T) {
	_, base := start(t, Options{ContentDir: smallSite(t), ContentName: "content"})
	for p, want := range map[string]string{
		"/":                  "text/html; charset=utf-8",
		"/index.html":        "text/html; charset=utf-8",
		"/a.html":            "text/html; charset=utf-8",
		"/assets/site.css":   "text/css; charset=utf-8",
		"/assets/stepper.js": "text/javascript; charset=utf-8",
		ClientPath:           "text/javascript; charset=utf-8",
	} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != want || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: %d, %q, nosniff %q; want 200 %q", p, resp.StatusCode,
				resp.Header.Get("Content-Type"), resp.Header.Get("X-Content-Type-Options"), want)
		}
	}
	if got := contentType("frame.svg"); got != "image/svg+xml" {
		t.Errorf("svg: %q", got)
	}
	resp, err := http.Post(base+"/a.html", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
}

// TestLocalOnly refuses requests for other host names (DNS rebinding).
func TestLocalOnly(t *testing.T) {
	_, base := start(t, Options{ContentDir: smallSite(t), ContentName: "content", LocalOnly: true})
	for host, want := range map[string]int{"evil.example": 403, "evil.example:80": 403,
		"localhost:1313": 200, "127.0.0.1": 200, "[::1]:1313": 200} {
		req, _ := http.NewRequest("GET", base+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// TestTemplatesWatched edits a shared stylesheet in a templates folder:
// every open page reloads, since what it shows changed though its HTML did
// not.
func TestTemplatesWatched(t *testing.T) {
	tdir := filepath.Join(t.TempDir(), "templates")
	if err := os.CopyFS(tdir, templates.FS); err != nil {
		t.Fatal(err)
	}
	_, base := start(t, Options{ContentDir: smallSite(t), ContentName: "content", TemplatesDir: tdir})
	var streams []*stream
	for _, p := range []string{"a.html", "b.html", "index.html"} {
		st := listen(t, base, p, version(t, get(t, base+"/"+p).body))
		st.expect(t, "fixed")
		streams = append(streams, st)
	}
	css, err := os.ReadFile(filepath.Join(tdir, "site.css"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(tdir, "site.css"), string(css)+"\n.kflow-test-rule { color: red }\n")
	for _, st := range streams {
		st.expect(t, "reload")
	}
	if r := get(t, base+"/assets/site.css"); !strings.Contains(r.body, ".kflow-test-rule") {
		t.Error("the served stylesheet is the old one")
	}

	// A broken layout is an error at its line in the templates folder:
	// the overlay shows it with the layout's lines, and the fix clears it.
	st := listen(t, base, "a.html", version(t, get(t, base+"/a.html").body))
	st.expect(t, "fixed")
	layout, err := os.ReadFile(filepath.Join(tdir, "layout.html"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(tdir, "layout.html"), string(layout)+"{{.Title")
	lines := strings.Count(string(layout), "\n") + 1
	if ev := st.expect(t, "broken"); !strings.Contains(ev.data, filepath.ToSlash(tdir)+"/layout.html:"+strconv.Itoa(lines)+":1") ||
		!strings.Contains(ev.data, "unclosed action") || !strings.Contains(ev.data, "kfe-hit") {
		t.Errorf("broken layout: %s", ev.data)
	}
	write(t, filepath.Join(tdir, "layout.html"), string(layout))
	st.expect(t, "fixed")
}

// TestOutDir writes every good build to Options.OutDir as the build
// command would (no live client), and refuses an OutDir that build would
// refuse.
func TestOutDir(t *testing.T) {
	dir := smallSite(t)
	out := filepath.Join(t.TempDir(), "public")
	s, err := New(Options{ContentDir: dir, ContentName: "content", OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	held, written := served(t, s), readTree(t, out)
	if _, ok := written[site.Marker]; !ok || len(written) != len(held)+1 {
		t.Fatalf("out holds %d files, the served build %d (plus the marker)", len(written), len(held))
	}
	for p, b := range held {
		if !bytes.Equal(written[p], b) {
			t.Errorf("%s differs between --out and the served folder", p)
		}
	}
	if _, err := New(Options{ContentDir: dir, ContentName: "content", OutDir: dir}); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("serving into the content folder: %v", err)
	}
}

// TestOutDirReachedThroughLink (try11 F1): a link in the content folder to
// the output folder fails the build, naming the link, where each rebuild
// copied the last site into the new one a level deeper; out keeps the last
// good build.
func TestOutDirReachedThroughLink(t *testing.T) {
	dir := smallSite(t)
	out := filepath.Join(t.TempDir(), "public")
	s, err := New(Options{ContentDir: dir, ContentName: "content", OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Symlink(out, filepath.Join(dir, "outlink")); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
	r := s.Rebuild()
	if r.Err == nil || !strings.Contains(r.Err.Error(), "content/outlink:1:1: following this symbolic link reaches the output folder "+out) {
		t.Errorf("rebuild with a link to --out: %v", r.Err)
	}
	if _, err := os.Lstat(filepath.Join(out, "outlink")); !os.IsNotExist(err) {
		t.Errorf("the output folder holds a copy of itself (%v)", err)
	}
}

// copyGuide copies the embedded guide into a content folder.
func copyGuide(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "content")
	err := fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		b, err := fs.ReadFile(content.FS, p)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dir, filepath.FromSlash(p)), string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// served returns the files of the generation s serves, by slash path,
// its variant scripts still being drawn included once they are.
func served(t testing.TB, s *Server) map[string][]byte {
	t.Helper()
	g, _ := s.state()
	if g == nil {
		t.Fatal("no generation is served")
	}
	if len(g.pending) == 0 {
		return g.files
	}
	files := maps.Clone(g.files)
	for p, pf := range g.pending {
		select {
		case <-pf.ready:
		case <-time.After(deadline):
			t.Fatalf("%s was never drawn", p)
		}
		if pf.ok {
			files[p] = pf.data
		}
	}
	return files
}

// readTree returns every file under dir, by slash path.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestWarmCacheSameBytes rebuilds the guide with every scenario in the
// cache and compares the output with a cold build and with a build that
// uses no cache at all.
func TestWarmCacheSameBytes(t *testing.T) {
	dir := copyGuide(t)
	plain, err := site.Generate(site.Options{Content: os.DirFS(dir), ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{ContentDir: dir, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cold := served(t, s)
	r := s.Rebuild()
	if r.Err != nil || r.Misses != 0 || r.Hits != len(plain.Figures) || len(r.Changed) != 0 {
		t.Fatalf("warm rebuild: %+v; want %d hits, no miss, nothing changed", r, len(plain.Figures))
	}
	warm := served(t, s)
	if len(warm) != len(plain.Files) || len(cold) != len(plain.Files) {
		t.Fatalf("%d warm and %d cold files, want %d", len(warm), len(cold), len(plain.Files))
	}
	for _, f := range plain.Files {
		if !bytes.Equal(warm[f.Path], f.Data) || !bytes.Equal(cold[f.Path], f.Data) {
			t.Errorf("%s differs between builds with a warm cache, a cold one and none", f.Path)
		}
	}
}

// TestCacheForgets checks that results unused for keepBuilds builds are
// dropped and that used ones stay.
func TestCacheForgets(t *testing.T) {
	c := newGenCache()
	h, m := c.begin()
	c.Put("old", &site.FigureResult{})
	c.Put("kept", &site.FigureResult{})
	c.end(h, m)
	for i := 1; i < keepBuilds; i++ {
		h, m := c.begin()
		if _, ok := c.Get("kept"); !ok {
			t.Fatalf("build %d: kept result gone", i+1)
		}
		c.end(h, m)
	}
	if _, ok := c.m["old"]; !ok {
		t.Fatalf("result dropped after %d unused builds, want it kept until %d", keepBuilds-1, keepBuilds)
	}
	h, m = c.begin()
	c.Get("kept")
	hits, misses := c.end(h, m)
	if _, ok := c.m["old"]; ok || c.len() != 1 || hits != 1 || misses != 0 {
		t.Errorf("after %d unused builds: old kept=%v, %d entries, %d hits, %d misses", keepBuilds, ok, c.len(), hits, misses)
	}
}

// TestIgnoredEvents checks which watcher events start a rebuild.
func TestIgnoredEvents(t *testing.T) {
	for name, want := range map[string]bool{
		"acks.md": true, "new-folder": true, "notes.txt": true,
		".acks.md.swp": false, "acks.md.swp": false, "acks.md.swx": false, "acks.md~": false,
		".#acks.md": false, "#acks.md#": false, "4913": false, "acks.md.tmp": false,
		"acks.md___jb_tmp___": false, ".git": false, "ACKS.MD.TMP": false,
	} {
		for _, op := range []fsnotify.Op{fsnotify.Create, fsnotify.Write, fsnotify.Remove, fsnotify.Rename} {
			if got := relevant(fsnotify.Event{Name: filepath.Join("content", name), Op: op}); got != want {
				t.Errorf("%s %s: relevant=%v, want %v", op, name, got, want)
			}
		}
	}
	if relevant(fsnotify.Event{Name: "content/acks.md", Op: fsnotify.Chmod}) {
		t.Error("a chmod-only event starts a rebuild")
	}
	if !relevant(fsnotify.Event{Name: "content/acks.md", Op: fsnotify.Chmod | fsnotify.Write}) {
		t.Error("a write that also changed the mode is ignored")
	}
}

// TestExcerpt checks the overlay's source lines: two lines of context, the
// caret under the column (counted in characters), tabs kept, columns past
// the end clamped.
func TestExcerpt(t *testing.T) {
	src := []string{"one", "two", "\tbeatz: 4", "four", "five", "six"}
	got := excerpt(src, 3, 2)
	if len(got) != 5 || got[0].N != 1 || got[4].N != 5 || !got[2].Hit || got[2].Caret != "\t^" {
		t.Errorf("excerpt: %+v", got)
	}
	if e := excerpt(src, 6, 40); len(e) != 3 || e[2].Caret != "   ^" {
		t.Errorf("past the end: %+v", e)
	}
	if e := excerpt([]string{"héllo"}, 1, 3); e[0].Caret != "  ^" {
		t.Errorf("multibyte: %q", e[0].Caret)
	}
	// Each byte that is not UTF-8 is one character, as the page's
	// "not UTF-8" error counts it: column 3 is the "x".
	if e := excerpt([]string{"\xe9\xe9xy"}, 1, 3); e[0].Caret != "  ^" || e[0].Text != "\uFFFD\uFFFDxy" {
		t.Errorf("invalid bytes: %q under %q", e[0].Caret, e[0].Text)
	}
	if excerpt(src, 9, 1) != nil {
		t.Error("excerpt of a line past the file")
	}
	// A long line shows excerptWidth characters around the column, cut
	// with "…", and the caret still lands on the column's character
	// (try12 T10: 250 KB lines, one excerpt each, gigabytes).
	long := strings.Repeat("[x](#a) ", 31250)
	for _, col := range []int{1, 5, 125001, 249997, 250001} {
		e := excerpt([]string{"above " + long, long}, 2, col)
		hit := []rune(e[1].Text)
		caret := utf8.RuneCountInString(e[1].Caret) - 1
		if len(hit) > excerptWidth+2 || len([]rune(e[0].Text)) > excerptWidth+2 {
			t.Errorf("column %d: lines of %d and %d characters shown", col, len([]rune(e[0].Text)), len(hit))
		}
		wantChar := ' ' // past the end: just after the last character
		if col <= len(long) {
			wantChar = rune(long[col-1])
		}
		if got := ' '; caret < len(hit) {
			got = hit[caret]
			if got != wantChar {
				t.Errorf("column %d: the caret is under %q, want %q (%q)", col, got, wantChar, e[1].Text)
			}
		} else if col <= len(long) {
			t.Errorf("column %d: the caret is past the text shown", col)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestContentFolderReplaced: a content folder moved away and made anew
// (as some editors and scripts replace a folder whole) is watched again,
// and edits in the new folder rebuild; changes beside it (the output
// folder of a build) do not. Whether an event beside the folder started a
// rebuild is read from the watcher's own record of what it kept, so the
// test waits for events, never for time.
func TestContentFolderReplaced(t *testing.T) {
	dir := smallSite(t)
	var log syncBuffer
	type decision struct {
		name string
		kept bool
	}
	var mu sync.Mutex
	var decisions []decision
	// moving is closed once the new folder is in place; while hold is
	// set, the watcher's goroutine (which calls onEvent) waits there at
	// the first event about the content folder.
	moving := make(chan struct{})
	var hold atomic.Bool
	_, base := startWith(t, Options{ContentDir: dir, ContentName: "content", Log: &log, Errors: &log}, func(s *Server) {
		s.onEvent = func(ev fsnotify.Event, kept bool) {
			if hold.Load() && ev.Name == dir {
				<-moving
			}
			mu.Lock()
			decisions = append(decisions, decision{ev.Name, kept})
			mu.Unlock()
		}
	})
	r := get(t, base+"/a.html")
	st := listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")
	// The new folder is made aside and moved into place whole, so no
	// rebuild can see it half written. Between the two renames there is
	// no content folder: a script does both within a millisecond, but
	// this test may be descheduled between them for longer than
	// Options.Unsettled, and then a build rightly finds the folder
	// missing ("broken" before "reload": TestContentFolderReplacedSlowly).
	// So the watcher is held at the first event of the move until both
	// renames are done, as if they had come at once.
	staged := stageReplacement(t, dir)
	hold.Store(true)
	if err := os.Rename(dir, dir+"-old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(staged, dir); err != nil {
		t.Fatal(err)
	}
	close(moving)
	st.expect(t, "reload")
	r = editInReplacement(t, base, dir, &log)
	st = listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")
	// A folder and a file beside the content folder, then a new page in
	// it. The watcher reads the events in the order they happened, so
	// once the new page's rebuild has reloaded a.html (whose contents list
	// gains the page), it has decided about the folder beside: dropped.
	beside := filepath.Join(filepath.Dir(dir), "beside")
	write(t, filepath.Join(beside, "x.md"), "not a page of the site")
	write(t, filepath.Join(dir, "c.md"), "---\ntitle: C\nweight: 3\n---\n\nA page added last.\n")
	st.expect(t, "reload")
	mu.Lock()
	defer mu.Unlock()
	var besideSeen, pageKept bool
	for _, d := range decisions {
		switch {
		case d.name == beside || strings.HasPrefix(d.name, beside+string(filepath.Separator)):
			besideSeen = true
			if d.kept {
				t.Errorf("an event beside the content folder (%s) was kept to start a rebuild", d.name)
			}
		case d.name == filepath.Join(dir, "c.md"):
			pageKept = pageKept || d.kept
		}
	}
	if !besideSeen || !pageKept {
		t.Errorf("the watcher saw the folder beside: %v; kept the new page's event: %v; its decisions: %v\nlog:\n%s", besideSeen, pageKept, decisions, log.String())
	}
}

// TestContentFolderReplacedSlowly: a content folder moved away and, only
// after a build has found it missing, replaced by another is "broken",
// then "reload" with the new folder's pages, which are watched.
func TestContentFolderReplacedSlowly(t *testing.T) {
	dir := smallSite(t)
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	r := get(t, base+"/a.html")
	st := listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")
	staged := stageReplacement(t, dir)
	if err := os.Rename(dir, dir+"-old"); err != nil {
		t.Fatal(err)
	}
	st.expect(t, "broken")
	if err := os.Rename(staged, dir); err != nil {
		t.Fatal(err)
	}
	st.expect(t, "reload")
	editInReplacement(t, base, dir, nil)
}

// stageReplacement writes the folder that replaces the content folder dir
// (TestContentFolderReplaced, …Slowly) beside it, whole, for the test to
// move into place: a home page and a.md, whose figure is titled "In the
// new folder". It returns the staged folder.
func stageReplacement(t *testing.T, dir string) string {
	t.Helper()
	staged := dir + "-new"
	write(t, filepath.Join(staged, "index.md"), "---\ntitle: Test guide\n---\n\nHome.\n")
	write(t, filepath.Join(staged, "a.md"), fencePage("A", "one", "In the new folder", "beats: 4"))
	return staged
}

// editInReplacement checks, once the server has reloaded after the
// content folder dir was replaced by stageReplacement's, that it serves
// the new folder's a.html, edits that page in the new folder and wants the
// edit built (the new folder is watched); it returns the edited page.
// log, when not nil, is shown with a failure.
func editInReplacement(t *testing.T, base, dir string, log *syncBuffer) response {
	t.Helper()
	logged := ""
	if log != nil {
		logged = "\nlog:\n" + log.String()
	}
	r := get(t, base+"/a.html")
	if !strings.Contains(r.body, "In the new folder") {
		t.Fatalf("the new content folder was not built:\n%s%s", r.body, logged)
	}
	st := listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Edited in the new folder", "beats: 4"))
	st.expect(t, "reload")
	if r = get(t, base+"/a.html"); !strings.Contains(r.body, "Edited in the new folder") {
		if log != nil {
			logged = "\nlog:\n" + log.String()
		}
		t.Fatalf("an edit in the new content folder was not built:\n%s%s", r.body, logged)
	}
	return r
}

// TestOutDirInsideWatchedFolder: an output folder inside the content or
// templates folder would set off a rebuild with every write; New refuses
// it before building.
func TestOutDirInsideWatchedFolder(t *testing.T) {
	dir := smallSite(t)
	tpl := filepath.Join(filepath.Dir(dir), "templates")
	write(t, filepath.Join(tpl, "layout.html"), "x")
	for _, c := range []struct{ out, want string }{
		{filepath.Join(dir, "pub"), "inside the content folder"},
		{filepath.Join(tpl, "pub"), "inside the templates folder"},
	} {
		s, err := New(Options{ContentDir: dir, TemplatesDir: tpl, OutDir: c.out})
		if err == nil {
			s.Close()
			t.Fatalf("--out %s: no error", c.out)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("--out %s: %v, want %q", c.out, err, c.want)
		}
		if _, err := os.Stat(c.out); !os.IsNotExist(err) {
			t.Errorf("--out %s was written (%v)", c.out, err)
		}
	}
}

// TestStreamsCapped (issue 18.10): the server keeps at most MaxStreams
// event streams; one more is answered 503 at once (so open pages cannot use
// up the process's descriptors), and once a page closes, a new one is
// live again.
func TestStreamsCapped(t *testing.T) {
	dir := smallSite(t)
	_, base := start(t, Options{ContentDir: dir, ContentName: "content"})
	v := version(t, get(t, base+"/a.html").body)
	var open []*stream
	for range MaxStreams {
		st := listen(t, base, "a.html", v)
		st.expect(t, "fixed")
		open = append(open, st)
	}
	// The status comes first: a stream accepted would never end, so read
	// the body only once it is known to be the refusal.
	resp, err := http.Get(base + EventsPath + "?page=a.html&v=" + v)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable {
		resp.Body.Close()
		t.Fatalf("stream %d: status %d, want 503", MaxStreams+1, resp.StatusCode)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), fmt.Sprintf("at most %d pages", MaxStreams)) {
		t.Errorf("the refusal says %q", body)
	}
	// Pages are still served while the streams are full.
	if r := get(t, base+"/a.html"); r.status != http.StatusOK {
		t.Errorf("a page while the streams are full: %d", r.status)
	}
	open[0].close()
	// The server lets the closed stream go when its request ends: wait
	// for that (it does not take long, but it is not at once).
	give := time.After(deadline)
	for {
		req, _ := http.NewRequest("GET", base+EventsPath+"?page=a.html&v="+v, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		status := resp.StatusCode
		resp.Body.Close()
		if status == http.StatusOK {
			break
		}
		select {
		case <-give:
			t.Fatalf("after a stream closed, a new one is still refused (%d)", status)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestInject puts the client before the page's last </body>, in any
// case, or at the end without one; it is checked against the naive
// search it replaced (lower the whole page, find the last tag).
func TestInject(t *testing.T) {
	naive := func(page, snippet []byte) []byte {
		i := bytes.LastIndex(bytes.ToLower(page), []byte("</body>"))
		if i < 0 {
			i = len(page)
		}
		return slices.Concat(page[:i], snippet, page[i:])
	}
	for _, page := range []string{
		"<html><body>text</body></html>\n",
		"<HTML><BODY>text</BODY></HTML>",
		"<body>a</body> then </Body> again</html>",
		"<body>no end tag",
		"",
		"<",
		"text </body",
		"</body>",
		"a </body><!-- </bodx> --> <",
	} {
		got, want := inject([]byte(page), []byte("<S>")), naive([]byte(page), []byte("<S>"))
		if !bytes.Equal(got, want) {
			t.Errorf("inject(%q) = %q, want %q", page, got, want)
		}
	}
}

// TestIdleCollect: once a build is done and no change has come for
// idleCollect, the server collects its garbage (collectIdle), after the
// first build and after each save's, so that the next save starts with
// the heap's whole room and sets off no collection of its own.
func TestIdleCollect(t *testing.T) {
	dir := smallSite(t)
	collected := make(chan struct{}, 10)
	var builds atomic.Int32
	_, base := startWith(t, Options{ContentDir: dir, ContentName: "content"}, func(s *Server) {
		s.onBuild = func(started bool, _ BuildResult) {
			if !started {
				builds.Add(1)
			}
		}
		s.onCollect = func() { collected <- struct{}{} }
	})
	wait := func(what string) {
		t.Helper()
		select {
		case <-collected:
		case <-time.After(deadline):
			t.Fatalf("no garbage collection %s", what)
		}
	}
	wait("after the first build")
	r := get(t, base+"/a.html")
	st := listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")
	before := builds.Load()
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Edited", "beats: 4"))
	st.expect(t, "reload")
	wait("after a save's build")
	if builds.Load() == before {
		t.Errorf("the collection came before the save's build ended")
	}
}

// knobLines make a fencePage figure one with knobs (three combinations),
// appended to its beats line.
const knobLines = "\nproducer: {acks: 1, records: 2}\nknobs:\n  producer.acks: [0, 1, all]"

// coldFiles is a cold build of the content folder dir, by path.
func coldFiles(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	cold, err := site.Generate(site.Options{Content: os.DirFS(dir), ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range cold.Files {
		files[f.Path] = f.Data
	}
	return files
}

// TestVariantWaitsForItsDrawing: a save of a figure with knobs reloads
// its page before the figure's other combinations are drawn, and a
// request for one of their scripts in that time waits for it and gets
// the new script (a cold build's), never the old one or a 404.
func TestVariantWaitsForItsDrawing(t *testing.T) {
	dir := smallSite(t)
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "First title", "beats: 4"+knobLines))
	waiting := make(chan string, 10)
	drawing := make(chan struct{}, 10)
	release := make(chan struct{})
	_, base := startWith(t, Options{ContentDir: dir, ContentName: "content"}, func(s *Server) {
		s.onWait = func(p string) { waiting <- p }
		s.onDrawPending = func() {
			drawing <- struct{}{}
			<-release
		}
	})
	script := "assets/v/a--one.0.js"
	before := get(t, base+"/"+script)
	if before.status != http.StatusOK {
		t.Fatalf("%s: %d before the save", script, before.status)
	}
	r := get(t, base+"/a.html")
	st := listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Second title", "beats: 5"+knobLines))
	select {
	case <-drawing:
	case <-time.After(deadline):
		t.Fatal("the save's build never came to drawing its figure's other combinations")
	}
	// The drawing is held: the reload is already sent.
	st.expect(t, "reload")
	got := make(chan response, 1)
	go func() {
		resp, err := http.Get(base + "/" + script)
		if err != nil {
			t.Error(err)
			got <- response{}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- response{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}
	}()
	select {
	case p := <-waiting:
		if p != script {
			t.Errorf("waiting for %s, want %s", p, script)
		}
	case <-time.After(deadline):
		t.Fatal("the request for the script did not wait for its drawing")
	}
	close(release)
	after := <-got
	want := coldFiles(t, dir)[script]
	if after.status != http.StatusOK || after.body != string(want) || after.body == before.body {
		t.Fatalf("%s after the save: %d, %d bytes, the cold build's: %v, the old one: %v", script, after.status, len(after.body), after.body == string(want), after.body == before.body)
	}
}

// TestLogSaysWhatTheReaderWaitsFor: the log's "rebuilt in N ms" is the
// time to the pages' publication, which the reload follows; a save whose
// figure has knobs draws the other combinations after it, and the log says
// how many and how long they took more, apart (the number included them,
// as if the reader had waited for pictures no page shows until picked).
// A save that draws nothing after keeps the one number.
func TestLogSaysWhatTheReaderWaitsFor(t *testing.T) {
	dir := smallSite(t)
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "First title", "beats: 4"+knobLines))
	var log syncBuffer
	ended := make(chan BuildResult, 10)
	_, base := startWith(t, Options{ContentDir: dir, ContentName: "content", Log: &log, Errors: &log}, func(s *Server) {
		s.onBuild = func(started bool, r BuildResult) {
			if !started {
				ended <- r
			}
		}
	})
	next := func() BuildResult {
		t.Helper()
		select {
		case r := <-ended:
			return r
		case <-time.After(deadline):
			t.Fatalf("no build ended; log:\n%s", log.String())
		}
		return BuildResult{}
	}
	r := get(t, base+"/a.html")
	st := listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")

	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Second title", "beats: 5"+knobLines))
	st.expect(t, "reload")
	saved := next()
	if saved.N != 2 || saved.Err != nil || saved.Deferred != 2 || saved.Published <= 0 || saved.Published > saved.Took {
		t.Fatalf("the save's build %+v: want it to publish, then draw the 2 other combinations", saved)
	}
	line := regexp.MustCompile(`(?m)^rebuilt in (\d+) ms to the reload, then 2 other knob combinations drawn in (\d+) ms more: 1 page changed \(a\.html\)$`)
	m := line.FindStringSubmatch(log.String())
	if m == nil || m[1] != strconv.FormatInt(saved.Published.Milliseconds(), 10) || m[2] != strconv.FormatInt((saved.Took-saved.Published).Milliseconds(), 10) {
		t.Fatalf("the log does not say the save's times apart (%v to publish, %v in all):\n%s", saved.Published, saved.Took, log.String())
	}

	write(t, filepath.Join(dir, "b.md"), fencePage("B", "two", "Other figure, again", "beats: 3"))
	saved = next()
	if saved.N != 3 || saved.Deferred != 0 ||
		!regexp.MustCompile(`(?m)^rebuilt in `+strconv.FormatInt(saved.Published.Milliseconds(), 10)+` ms: 1 page changed \(b\.html\)$`).MatchString(log.String()) {
		t.Fatalf("a save without knobs: %+v; log:\n%s", saved, log.String())
	}
}

// TestEditDuringDeferredDrawing: a save that lands while the build before
// it draws its figures' other combinations is built after that drawing,
// and the site served then is a cold build of the last save, scripts
// included.
func TestEditDuringDeferredDrawing(t *testing.T) {
	dir := smallSite(t)
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "First title", "beats: 4"+knobLines))
	var once sync.Once
	saved := make(chan struct{})
	s, base := startWith(t, Options{ContentDir: dir, ContentName: "content"}, func(s *Server) {
		s.onDrawPending = func() {
			once.Do(func() {
				// On the build's goroutine, between publishing and drawing.
				if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte(fencePage("A", "one", "Third title", "beats: 3"+knobLines)), 0o644); err != nil {
					t.Error(err)
				}
				close(saved)
			})
		}
	})
	r := get(t, base+"/a.html")
	st := listen(t, base, "a.html", version(t, r.body))
	st.expect(t, "fixed")
	write(t, filepath.Join(dir, "a.md"), fencePage("A", "one", "Second title", "beats: 5"+knobLines))
	st.expect(t, "reload")
	<-saved
	for {
		r = get(t, base+"/a.html")
		if strings.Contains(r.body, "Third title") {
			break
		}
		// The page may change again between the GET and the listen; then
		// the stream opens with "reload" instead of "fixed" first.
		st = listen(t, base, "a.html", version(t, r.body))
		if ev := st.next(t); ev.name == "fixed" {
			st.expect(t, "reload")
		} else if ev.name != "reload" {
			t.Fatalf("got event %q (%.200s), want fixed or reload", ev.name, ev.data)
		}
	}
	want := coldFiles(t, dir)
	have := served(t, s)
	if len(have) != len(want) {
		t.Errorf("%d files served, a cold build has %d", len(have), len(want))
	}
	for p, b := range want {
		if !bytes.Equal(have[p], b) {
			t.Errorf("%s differs from a cold build", p)
		}
	}
}

// TestLayoutWarning: a templates folder whose layout never loads the
// stepper is served, and its warning is written once, not again at a
// rebuild whose warnings are the same.
func TestLayoutWarning(t *testing.T) {
	tdir := t.TempDir()
	entries, err := fs.ReadDir(templates.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(templates.FS, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "layout.html" {
			b = regexp.MustCompile(`(?m)^.*stepper\.js.*\n`).ReplaceAll(b, nil)
		}
		write(t, filepath.Join(tdir, e.Name()), string(b))
	}
	var errs syncBuffer
	s, _ := start(t, Options{ContentDir: smallSite(t), ContentName: "content", TemplatesDir: tdir, Errors: &errs})
	want := "layout.html:1:1: this layout never loads stepper.js"
	for end := time.Now().Add(deadline); time.Now().Before(end) && !strings.Contains(errs.String(), want); time.Sleep(10 * time.Millisecond) {
	}
	if r := s.rebuild(); r.Err != nil {
		t.Fatal(r.Err)
	}
	if got := errs.String(); strings.Count(got, "kflowgen: warning: ") != 1 || !strings.Contains(got, want) {
		t.Errorf("printed %q, want the warning %q once", got, want)
	}
}
