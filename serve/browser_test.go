package serve

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

// tallPage is a page whose figure sits below a screenful of text, so that
// the scroll position matters.
func tallPage(figTitle, beatsLine string) string {
	var b strings.Builder
	b.WriteString("---\ntitle: Tall\n---\n\n")
	for range 30 {
		b.WriteString("A paragraph of text above the figure, long enough to wrap once or twice in a narrow window.\n\n")
	}
	b.WriteString("```kflow\nid: tall\ntitle: " + figTitle + "\n" + beatsLine + "\n```\n\n")
	for range 30 {
		b.WriteString("A paragraph of text below the figure.\n\n")
	}
	return b.String()
}

// TestBrowserReloadKeepsPlace drives the live client in Chromium: an edit
// reloads the page with the figure on the same beat and the page scrolled
// to the same place; a broken edit shows the overlay without reloading;
// the fix removes it.
func TestBrowserReloadKeepsPlace(t *testing.T) {
	browsertest.Chromium(t)
	dir := filepath.Join(t.TempDir(), "content")
	write(t, filepath.Join(dir, "tall.md"), tallPage("Before the edit", "beats: 8"))
	s, base := start(t, Options{ContentDir: dir, ContentName: "content"})

	ctx := browsertest.Start(t, 900, 700)
	var mu sync.Mutex
	var thrown []string
	cctx, stopConsole := context.WithCancel(ctx)
	defer stopConsole()
	go func() {
		for m, err := range chromedp.Console(cctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleException {
				mu.Lock()
				thrown = append(thrown, m.String())
				mu.Unlock()
			}
		}
	}()
	run := func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, deadline)
		defer cancel()
		if err := chromedp.Do(tctx, actions...); err != nil {
			t.Fatal(err)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, deadline)
		defer cancel()
		v, err := chromedp.Run(tctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	// poll waits until expr is true. The page may reload meanwhile, which
	// fails an evaluation in flight: such errors only mean "not yet".
	poll := func(what, expr string) {
		t.Helper()
		var last error
		for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](expr))
			cancel()
			if err == nil && ok {
				return
			}
			last = err
		}
		t.Fatalf("waiting for %s: not true within the deadline (last error: %v)", what, last)
	}

	const scrub = `document.querySelector('#tall--tall .kf-scrub')`
	run(chromedp.Navigate(base+"/tall.html"), chromedp.WaitVisible(`#tall--tall .kf-controls`))
	// Step the figure to a beat other than the one it opens on, as a hand
	// would, scroll, and leave a mark that a reload wipes.
	beat := "3"
	if eval(`document.getElementById('tall--tall').dataset.poster`) == beat {
		beat = "5"
	}
	if y := eval(scrub + `.value = ` + beat + `; ` + scrub + `.dispatchEvent(new Event('input'));
		window.scrollTo(0, 900); window.kflowMark = 1; String(window.scrollY)`); y != "900" {
		t.Fatalf("could not scroll the test page (scrollY %s)", y)
	}
	waitClients(t, s, 1)

	write(t, filepath.Join(dir, "tall.md"), tallPage("After the edit", "beats: 8"))
	poll("the reload", `!window.kflowMark && document.readyState === 'complete' &&
		document.querySelector('#tall--tall figcaption').textContent.includes('After the edit')`)
	poll("beat and scroll kept", scrub+`.value === '`+beat+`' && window.scrollY === 900 &&
		document.querySelector('#tall--tall .kf-at').textContent.startsWith('`+beat+` /')`)

	eval(`window.kflowMark = 2; ''`)
	write(t, filepath.Join(dir, "tall.md"), tallPage("After the edit", "beatz: 8"))
	poll("the overlay", `(document.getElementById('kflow-error') || {textContent: ''}).textContent.includes('content/tall.md:')`)
	if text := eval(`window.kflowMark + ' ' + document.getElementById('kflow-error').innerText`); !strings.HasPrefix(text, "2 ") || !strings.Contains(text, "beatz: 8") {
		t.Errorf("overlay (or the page reloaded when it should not):\n%s", text)
	}

	write(t, filepath.Join(dir, "tall.md"), tallPage("After the edit", "beats: 8"))
	poll("the overlay to go", `!document.getElementById('kflow-error')`)
	if mark := eval(`String(window.kflowMark)`); mark != "2" {
		t.Error("the fix reloaded a page whose bytes did not change")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(thrown) > 0 {
		t.Errorf("page exceptions:\n%s", strings.Join(thrown, "\n"))
	}
}

// waitClients waits until n pages hold an event stream.
func waitClients(t *testing.T, s *Server, n int) {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		got := len(s.clients)
		s.mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatalf("no %d event streams within the deadline", n)
}
