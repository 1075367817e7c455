package serve

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// BenchmarkServeReload measures save-to-reload on the guide: from writing
// content/acks.md with one fence changed to the reload event reaching the
// page that shows it, over a real HTTP event stream, then the page fetched
// again as the reloading browser does. It includes the watcher's batching
// period (DefaultQuiet), the rebuild (one scenario simulated and drawn
// again, the other pages and figures from the caches, the files no event
// named from memory), publishing the new generation, and the
// notification. The budget is 100 ms (issue 17). Beside ms/reload (write
// to reload event) it reports each step's mean: ms/event (write to the
// watcher's first event of it), ms/quiet (that event to the build's
// start), ms/build (the build's start to its generation published),
// ms/notify (published to the reload event at the page), ms/fetch (the
// page fetched after it) and ms/after (published to the build's end: the
// other knob combinations of the figure drawn, off the reload's path).
//
//	go test ./serve -run '^$' -bench ServeReload -benchtime 10x
func BenchmarkServeReload(b *testing.B) {
	dir := copyGuide(b)
	file := filepath.Join(dir, "acks.md")
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	fence := bytes.Index(src, []byte("```kflow\n"))
	title := bytes.Index(src[max(fence, 0):], []byte("\ntitle: "))
	if fence < 0 || title < 0 {
		b.Fatal("acks.md has no kflow fence with a title")
	}
	at := fence + title + len("\ntitle: ")
	// The watcher's first kept event and the build's start, publication
	// and end after each save, from the server's hooks; builtEnd hears
	// each end.
	var mu sync.Mutex
	var event, started, published, ended time.Time
	builtEnd := make(chan struct{}, 1)
	_, base := startWith(b, Options{ContentDir: dir, ContentName: "content"}, func(s *Server) {
		s.onEvent = func(_ fsnotify.Event, kept bool) {
			mu.Lock()
			if kept && event.IsZero() {
				event = time.Now()
			}
			mu.Unlock()
		}
		s.onPublish = func() {
			mu.Lock()
			if !started.IsZero() && published.IsZero() {
				published = time.Now()
			}
			mu.Unlock()
		}
		s.onBuild = func(start bool, _ BuildResult) {
			mu.Lock()
			if start && started.IsZero() {
				started = time.Now()
			} else if !start && !started.IsZero() {
				ended = time.Now()
				select {
				case builtEnd <- struct{}{}:
				default:
				}
			}
			mu.Unlock()
		}
	})

	var total, toEvent, quiet, build, notify, fetch, after time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		v := version(b, get(b, base+"/acks.html").body)
		st := listen(b, base, "acks.html", v)
		st.expect(b, "fixed")
		mu.Lock()
		event, started, published, ended = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		mu.Unlock()
		select {
		case <-builtEnd: // a build before this save
		default:
		}
		// A new figure title: the scenario misses the cache and the page's
		// bytes change, as with an author's edit.
		mark := fmt.Appendf(nil, "edit %d, ", i)
		edited := fmt.Appendf(nil, "%s%s%s", src[:at], mark, src[at:])
		b.StartTimer()
		t0 := time.Now()
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			b.Fatal(err)
		}
		st.expect(b, "reload")
		t1 := time.Now()
		page := get(b, base+"/acks.html")
		t2 := time.Now()
		b.StopTimer()
		select {
		case <-builtEnd:
		case <-time.After(deadline):
			b.Fatal("the save's build did not end")
		}
		if !bytes.Contains([]byte(page.body), mark) {
			b.Fatal("the reloaded page does not show the save")
		}
		total += t1.Sub(t0)
		mu.Lock()
		toEvent += event.Sub(t0)
		quiet += started.Sub(event)
		build += published.Sub(started)
		notify += t1.Sub(published)
		after += ended.Sub(published)
		mu.Unlock()
		fetch += t2.Sub(t1)
		st.close()
	}
	for _, m := range []struct {
		d    time.Duration
		unit string
	}{{total, "ms/reload"}, {toEvent, "ms/event"}, {quiet, "ms/quiet"}, {build, "ms/build"}, {notify, "ms/notify"}, {fetch, "ms/fetch"}, {after, "ms/after"}} {
		b.ReportMetric(float64(m.d.Microseconds())/1000/float64(b.N), m.unit)
	}
}
