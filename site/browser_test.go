package site

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

// TestBrowserPhoneWidth opens every page of the built guide in Chromium at
// a phone's width (390 CSS pixels) and wants none wider than the screen:
// long inline code such as `Partition.checkEnoughReplicasReachOffset`
// wraps, and code blocks, tables and wide figures scroll inside
// themselves, so the page never scrolls sideways. Every figure's picture
// keeps at least half its drawn size (its labels stay legible), and the
// two pictures of a side-by-side figure, stacked, are drawn at one scale.
func TestBrowserPhoneWidth(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	s, err := Build(Options{Content: content.FS, ContentName: "content"}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, 390, 844)
	// A window narrower than about 500 px is widened by Chromium itself;
	// the emulated viewport is exactly a phone's.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, f := range s.Files {
		if !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		pages++
		tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, f.Path))))
		var width struct{ Viewport, Page int }
		var wide []string
		if err == nil {
			width, err = chromedp.Run(tctx, chromedp.Evaluate[struct{ Viewport, Page int }](
				`({Viewport: document.documentElement.clientWidth, Page: document.documentElement.scrollWidth})`))
		}
		if err == nil {
			// What sticks out: the first elements past the screen's edge
			// that are not inside something that scrolls on its own.
			wide, err = chromedp.Run(tctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("main *")]
				.filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
				.filter(e => !e.closest("pre, table, figure"))
				.slice(0, 3).map(e => e.tagName + " " + e.textContent.slice(0, 40))`))
		}
		titleFirst := true // on a phone the page's title comes before the guide's contents
		if err == nil {
			titleFirst, err = chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => { const n = document.querySelector(".toc");
				return !n || document.querySelector("main h1").getBoundingClientRect().top < n.getBoundingClientRect().top })()`))
		}
		var scales [][]float64 // per figure, each picture's drawn width over its --kf-w
		if err == nil {
			scales, err = chromedp.Run(tctx, chromedp.Evaluate[[][]float64](`[...document.querySelectorAll("figure.kflow")]
				.map(f => [...f.querySelectorAll(".kf-svg")].map(s => s.getBoundingClientRect().width / parseFloat(s.style.getPropertyValue("--kf-w"))))`))
		}
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if !titleFirst {
			t.Errorf("%s: on a phone the guide's contents come before the page's title", f.Path)
		}
		for i, fig := range scales {
			for _, sc := range fig {
				if sc < 0.495 || sc > fig[0]*1.01 || sc < fig[0]*0.99 {
					t.Errorf("%s, figure %d: pictures drawn at %.3f of their size, want at least 0.5 and one scale for both panels", f.Path, i+1, fig)
					break
				}
			}
		}
		if width.Page > width.Viewport {
			t.Errorf("%s is %d px wide on a %d px screen; sticking out: %q", f.Path, width.Page, width.Viewport, wide)
		}
	}
	if pages < 3 {
		t.Fatalf("checked %d pages", pages)
	}
}

// TestBrowserDesktopScale opens every page of the built guide at a desktop
// width (1280 CSS pixels) and wants every figure's picture drawn at no less
// than 0.6 of its size: a side-by-side pair too wide for the column stacks
// (svganim's kf-stack) rather than shrink its labels below about 6 px.
func TestBrowserDesktopScale(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	s, err := Build(Options{Content: content.FS, ContentName: "content"}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	figures := 0
	for _, f := range s.Files {
		if !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, f.Path))))
		var scales map[string][]float64
		if err == nil {
			scales, err = chromedp.Run(tctx, chromedp.Evaluate[map[string][]float64](`Object.fromEntries([...document.querySelectorAll("figure.kflow")]
				.map(f => [f.id, [...f.querySelectorAll(".kf-svg")].map(s => s.getBoundingClientRect().width / parseFloat(s.style.getPropertyValue("--kf-w")))]))`))
		}
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for id, sc := range scales {
			figures++
			for _, v := range sc {
				if v < 0.6 {
					t.Errorf("%s: figure %s drawn at %.3f of its size at 1280 px, want at least 0.6", f.Path, id, sc)
					break
				}
			}
		}
	}
	if figures < 20 {
		t.Fatalf("checked %d figures", figures)
	}
}
