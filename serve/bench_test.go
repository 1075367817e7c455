package serve

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkServeReload measures save-to-reload on the guide: from writing
// content/acks.md with one fence changed to the reload event reaching the
// page that shows it, over a real HTTP event stream. It includes the
// watcher's batching period (DefaultQuiet), the rebuild (one scenario
// simulated and drawn again, the others from the cache), writing the new
// generation, and the notification. The budget is 200 ms.
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
	_, base := start(b, Options{ContentDir: dir, ContentName: "content"})

	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		v := version(b, get(b, base+"/acks.html").body)
		st := listen(b, base, "acks.html", v)
		st.expect(b, "fixed")
		// A new figure title: the scenario misses the cache and the page's
		// bytes change, as with an author's edit.
		edited := fmt.Appendf(nil, "%sedit %d, %s", src[:at], i, src[at:])
		b.StartTimer()
		t0 := time.Now()
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			b.Fatal(err)
		}
		st.expect(b, "reload")
		total += time.Since(t0)
		b.StopTimer()
		st.close()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/reload")
}
