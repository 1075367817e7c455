// Package browsertest starts the headless Chromium that Kafka Flow's
// browser tests drive through chromedp, with the flags this project runs it
// with everywhere (no sandbox, no GPU, no QUIC, no background networking,
// component updates or sync: the test machines have no internet, and
// without these flags Chromium keeps trying to reach it).
//
// Without a Chromium the tests that call it are skipped, except when
// CI=true, where they fail: CI installs Debian's chromium (.ci/run).
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// missingChromium says why a browser test cannot run, naming where the
// browser was looked for.
const missingChromium = "no Chromium: /usr/bin/chromium (Debian's chromium package) is missing, $CHROMIUM is not set, and none of chromium, chromium-browser, google-chrome is on PATH"

// Chromium returns the browser to drive: $CHROMIUM, else chromium (or
// chromium-browser, google-chrome) on PATH. With none it skips t, or fails
// it when CI=true.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(missingChromium + " (CI=true: browser tests must run)")
	}
	t.Skip(missingChromium + ": skipping this browser test (apt-get install chromium runs it)")
	return ""
}

// Start launches a headless Chromium with a fresh profile and a viewport
// of exactly width × height CSS pixels, and returns a tab context. The
// window alone is not enough: headless Chromium widens a window narrower
// than about 500 px, so a "390 px phone" laid the page out ~500 px wide;
// Start also overrides the device metrics (Emulation.setDeviceMetricsOverride,
// scale 1) and fails t unless the page then reports innerWidth == width.
// The browser is already running when Start returns (the first action,
// which starts it, must not carry a timeout); t's cleanup closes it.
func Start(t testing.TB, width, height int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(tctx, chromedp.Evaluate[[2]int](`[innerWidth, innerHeight]`))
	if err != nil {
		t.Fatal(err)
	}
	if got != [2]int{width, height} {
		t.Fatalf("asked for a %d × %d viewport, the page has %d × %d", width, height, got[0], got[1])
	}
	return ctx
}
