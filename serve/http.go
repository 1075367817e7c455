package serve

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path"
	"strings"
	"time"
)

// The server's own paths. Output files never start with "_" (output names
// are letters, digits and '-'), so these cannot hide a page.
const (
	// EventsPath is the server-sent event stream an open page listens to:
	// EventsPath?page=acks.html&v=VERSION.
	EventsPath = "/_kflow/events"
	// ClientPath serves the live-reload client script.
	ClientPath = "/_kflow/live.js"
)

// liveJS is the live-reload client: added to HTML responses by the server,
// never part of a build's output.
//
//go:embed live.js
var liveJS []byte

// MaxStreams is how many event streams (open pages) the server keeps at
// once; a page opened past it is served but gets no live reload (its
// stream is answered 503). Each stream holds a connection, so without a
// cap a client could exhaust the process's file descriptors and stop the
// server from accepting; a browser opens at most six connections to one
// host over HTTP/1.1, so the cap leaves room for many browsers.
const MaxStreams = 100

// heartbeat is how often an idle event stream sends a comment, so that a
// dead connection is noticed.
const heartbeat = 25 * time.Second

// contentTypes are the types of the files a site holds, set explicitly so
// that neither the system's MIME tables nor sniffing can change them: the
// build's own, and the usual ones of files published from the content
// folder (images, fonts, PDF); any other type comes from Go's tables.
var contentTypes = map[string]string{
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".jpeg":  "image/jpeg",
	".gif":   "image/gif",
	".webp":  "image/webp",
	".avif":  "image/avif",
	".ico":   "image/x-icon",
	".pdf":   "application/pdf",
	".woff2": "font/woff2",
	".mp4":   "video/mp4",
	".html":  "text/html; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".svg":   "image/svg+xml",
	".json":  "application/json",
	".txt":   "text/plain; charset=utf-8",
}

// contentType returns the Content-Type for a file name.
func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// ServeHTTP answers GET and HEAD requests: the event stream, the client
// script, or a file of the served generation.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if s.o.LocalOnly && !loopbackHost(r.Host) {
		http.Error(w, "kflowgen serve answers only requests for localhost or a loopback address", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case EventsPath:
		s.serveEvents(w, r)
	case ClientPath:
		h.Set("Content-Type", contentType(ClientPath))
		http.ServeContent(w, r, "live.js", time.Time{}, bytes.NewReader(liveJS))
	default:
		s.serveFile(w, r)
	}
}

// loopbackHost reports whether a Host header names this machine:
// localhost or a loopback IP, with or without a port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// pagePath turns a request path into a file path inside the output folder
// ("/" → "index.html", "/acks.html" → "acks.html"), or reports that the
// path may not be served: "..", empty or "." segments, a hidden segment,
// a backslash or a NUL.
func pagePath(urlPath string) (string, bool) {
	p, ok := strings.CutPrefix(urlPath, "/")
	if !ok {
		return "", false
	}
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	if !fs.ValidPath(p) || strings.ContainsAny(p, "\\\x00") {
		return "", false
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	return p, true
}

// serveFile answers with a file of the served generation, looked up by
// its output path: only what the build made can be served, never a file
// of the disk. HTML gets the live client and, while the build is broken,
// the error overlay.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	p, ok := pagePath(r.URL.Path)
	if !ok {
		s.notFound(w, r, "")
		return
	}
	g, fail := s.state()
	if g == nil {
		s.noBuild(w, r, p, fail)
		return
	}
	data, ok := g.files[p]
	if pf := g.pending[p]; !ok && pf != nil {
		// A variant script published before it was drawn: wait for it,
		// so that a reader who picks a combination just after a save
		// gets the new picture, never the old one or none.
		if s.onWait != nil {
			s.onWait(p)
		}
		select {
		case <-pf.ready:
			data, ok = pf.data, pf.ok
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	if !ok {
		s.notFound(w, r, p)
		return
	}
	w.Header().Set("Content-Type", contentType(p))
	if path.Ext(p) == ".html" {
		data = inject(data, s.snippet(p, g.pages[p], fail))
	}
	http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(data))
}

// noBuild answers before any build succeeded: HTML paths get a page that
// shows the errors and reloads when a build succeeds.
func (s *Server) noBuild(w http.ResponseWriter, r *http.Request, p string, fail *failure) {
	if path.Ext(p) != ".html" {
		http.NotFound(w, r)
		return
	}
	page := []byte(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Not built yet · kflowgen serve</title></head>
<body><h1>Not built yet</h1><p>No build of the site has succeeded yet. Fix the problems and save: this page reloads by itself.</p>
</body></html>
`)
	w.Header().Set("Content-Type", contentType(p))
	w.WriteHeader(http.StatusServiceUnavailable)
	if r.Method != http.MethodHead {
		w.Write(inject(page, s.snippet(p, "", fail)))
	}
}

// notFound answers 404. A request for a missing page gets a small HTML page
// with the live client, so that a page being created or renamed appears by
// itself once built.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request, p string) {
	if p == "" || path.Ext(p) != ".html" {
		http.NotFound(w, r)
		return
	}
	_, fail := s.state()
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>No such page · kflowgen serve</title></head>\n<body><h1>No such page</h1><p>")
	template.HTMLEscape(&b, []byte(p))
	b.WriteString(" is not part of the site (yet). It will show here once a build writes it. <a href=\"/\">The guide's first page</a>.</p>\n</body></html>\n")
	w.Header().Set("Content-Type", contentType(p))
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(inject(b.Bytes(), s.snippet(p, "", fail)))
	}
}

// snippet is what the server adds to an HTML page: the overlay while the
// build is broken, and the live client told which page this is and which
// version of it was sent ("" for a page that does not exist).
func (s *Server) snippet(page, version string, fail *failure) []byte {
	var b bytes.Buffer
	if fail != nil {
		b.WriteString(fail.html)
		b.WriteByte('\n')
	}
	b.WriteString(`<script src="` + ClientPath + `" data-page="`)
	template.HTMLEscape(&b, []byte(page))
	b.WriteString(`" data-version="`)
	template.HTMLEscape(&b, []byte(version))
	b.WriteString("\" defer></script>\n")
	return b.Bytes()
}

// inject inserts snippet before the page's last </body> (in any case),
// or appends it.
func inject(page, snippet []byte) []byte {
	i := lastBodyEnd(page)
	if i < 0 {
		i = len(page)
	}
	out := make([]byte, 0, len(page)+len(snippet))
	out = append(out, page[:i]...)
	out = append(out, snippet...)
	return append(out, page[i:]...)
}

// lastBodyEnd returns where the page's last "</body>" starts, in any
// case, or -1. It looks from the end, where the tag is, and lowers no copy
// of the page: a page with figures is hundreds of kilobytes, and a page
// is served on every reload (and, in the benchmark, on every poll).
func lastBodyEnd(page []byte) int {
	const tag = "</body>"
	for i := bytes.LastIndexByte(page, '<'); i >= 0; i = bytes.LastIndexByte(page[:i], '<') {
		if len(page)-i >= len(tag) && bytes.EqualFold(page[i:i+len(tag)], []byte(tag)) {
			return i
		}
	}
	return -1
}

// client is one open page's event stream.
type client struct {
	wake chan struct{} // buffered (1): "the state changed, look again"
}

// wakeLocked tells every event stream to look at the state again. s.mu
// must be held.
func (s *Server) wakeLocked() {
	for c := range s.clients {
		select {
		case c.wake <- struct{}{}:
		default: // already woken; it will see the latest state
		}
	}
}

// serveEvents streams server-sent events to one open page. The stream is
// level-triggered: whenever the state changes it compares the page's
// version (sent by the page) with the served one and sends
//
//	event: reload   — the page's bytes (or an asset) changed; the stream ends
//	event: broken   — data {"html": overlay}: the build is broken
//	event: fixed    — the build is good again (or was good all along)
//
// On connection it sends broken or fixed at once, so a page opened while
// broken and connecting after the fix loses its overlay, and a page loaded
// just before a rebuild is told to reload.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	q := r.URL.Query()
	page, version := q.Get("page"), q.Get("v")

	c := &client{wake: make(chan struct{}, 1)}
	s.mu.Lock()
	if len(s.clients) >= MaxStreams {
		s.mu.Unlock()
		// EventSource does not retry after an error status: the page
		// stays as it is, without live reload, until it is reloaded.
		http.Error(w, fmt.Sprintf("kflowgen serve keeps at most %d pages live; close some and reload this one", MaxStreams), http.StatusServiceUnavailable)
		return
	}
	s.clients[c] = struct{}{}
	s.mu.Unlock()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	defer func() {
		s.mu.Lock()
		delete(s.clients, c)
		s.mu.Unlock()
	}()

	w.WriteHeader(http.StatusOK)
	send := func(event, data string) bool {
		_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
		return err == nil && rc.Flush() == nil
	}
	if _, err := io.WriteString(w, "retry: 1000\n\n"); err != nil {
		return
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	shown := -1 // the failure shown (its build number), 0 for "fixed"
	for {
		g, fail := s.state()
		current := ""
		if g != nil {
			current = g.pages[page]
		}
		switch {
		case current != version:
			send("reload", jsonString(map[string]string{"page": page}))
			return
		case fail != nil && shown != fail.n:
			if !send("broken", jsonString(map[string]string{"html": fail.html})) {
				return
			}
			shown = fail.n
		case fail == nil && shown != 0:
			if !send("fixed", "{}") {
				return
			}
			shown = 0
		}
		select {
		case <-c.wake:
		case <-beat.C:
			if _, err := io.WriteString(w, ": beat\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

// jsonString encodes v as one line of JSON (an event's data line).
func jsonString(v map[string]string) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("serve: " + err.Error())
	}
	return string(b)
}
