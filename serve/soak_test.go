package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSoak saves pages of the guide again and again while many pages are
// open (issue 18), and checks that the server's memory, goroutines and file
// descriptors do not grow. It is long, so it runs only when KFLOWGEN_SOAK
// gives its length, e.g.
//
//	KFLOWGEN_SOAK=3m go test ./serve -run TestSoak -v
//
// Loopback only. Bounded: it stops after the given time or soakMaxSaves
// saves, whichever comes first. Each save edits one page's text (every
// tenth breaks a fence instead, and the next save mends it); the streams
// of the pages that reload are opened again, as a browser would.
func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("KFLOWGEN_SOAK"))
	if err != nil {
		t.Skip("set KFLOWGEN_SOAK to a duration (such as 3m) to run the soak test")
	}
	const soakMaxSaves = 5000
	dir := copyGuide(t)
	out := filepath.Join(t.TempDir(), "public")
	_, base := start(t, Options{ContentDir: dir, ContentName: "content", OutDir: out, LocalOnly: true})

	var pages []string // content files with an output page of their own
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") && e.Name() != "index.md" {
			pages = append(pages, e.Name())
		}
	}
	slices.Sort(pages)
	perPage := min(4, (MaxStreams-4)/len(pages))
	type open struct {
		page string
		st   *stream
	}
	var streams []*open
	connect := func(o *open) {
		r := get(t, base+"/"+o.page)
		o.st = openStream(t, base, o.page, version(t, r.body))
		o.st.expect(t, "fixed")
	}
	for _, p := range pages {
		for range perPage {
			o := &open{page: strings.TrimSuffix(p, ".md") + ".html"}
			connect(o)
			streams = append(streams, o)
		}
	}
	t.Cleanup(func() {
		for _, o := range streams {
			o.st.close()
		}
	})
	originals := map[string]string{}
	for _, p := range pages {
		b, _ := os.ReadFile(filepath.Join(dir, p))
		originals[p] = string(b)
	}

	measure := func() (heap uint64, goroutines, fds int) {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fd, _ := os.ReadDir("/proc/self/fd")
		if prof := os.Getenv("KFLOWGEN_SOAK_HEAP"); prof != "" {
			// KFLOWGEN_SOAK_HEAP=PREFIX writes PREFIX.start and
			// PREFIX.end heap profiles, to look into any growth.
			name := prof + ".start"
			if _, err := os.Stat(name); err == nil {
				name = prof + ".end"
			}
			if f, err := os.Create(name); err == nil {
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
		return m.HeapAlloc, runtime.NumGoroutine(), len(fd)
	}
	// A save edits one page, whose streams reload (and are opened again);
	// every tenth also breaks a fence on it (every stream is told) and then
	// mends it (its streams reload, the others are told it is fixed).
	edit := func(p, text string, others string) {
		write(t, filepath.Join(dir, p), text)
		page := strings.TrimSuffix(p, ".md") + ".html"
		for _, o := range streams {
			switch {
			case o.page == page:
				o.st.expect(t, "reload")
				o.st.close()
				connect(o)
			case others != "":
				o.st.expect(t, others)
			}
		}
	}
	save := func(i int) {
		p := pages[i%len(pages)]
		edit(p, originals[p]+fmt.Sprintf("\nSoak save %d.\n", i), "")
		if i%10 == 9 {
			write(t, filepath.Join(dir, p), originals[p]+"\n```kflow\nid: soak-broken\nbeats: many\n```\n")
			for _, o := range streams {
				o.st.expect(t, "broken")
			}
			edit(p, originals[p]+fmt.Sprintf("\nSoak save %d, mended.\n", i), "fixed")
		}
	}
	// One round of saves first, so that caches and pools are warm.
	for i := range len(pages) {
		save(i)
	}
	heap0, gor0, fd0 := measure()
	t.Logf("start: %d open pages, heap %.1f MB, %d goroutines, %d descriptors", len(streams), float64(heap0)/(1<<20), gor0, fd0)
	end := time.Now().Add(d)
	saves := 0
	for i := len(pages); saves < soakMaxSaves && time.Now().Before(end); i++ {
		save(i)
		saves++
	}
	heap1, gor1, fd1 := measure()
	t.Logf("end: %d saves, heap %.1f MB, %d goroutines, %d descriptors", saves, float64(heap1)/(1<<20), gor1, fd1)
	if fd1 > fd0+8 {
		t.Errorf("descriptors grew from %d to %d over %d saves", fd0, fd1, saves)
	}
	if gor1 > gor0+8 {
		t.Errorf("goroutines grew from %d to %d over %d saves", gor0, gor1, saves)
	}
	if heap1 > heap0*3/2+8<<20 {
		t.Errorf("the heap grew from %.1f MB to %.1f MB over %d saves", float64(heap0)/(1<<20), float64(heap1)/(1<<20), saves)
	}
}
