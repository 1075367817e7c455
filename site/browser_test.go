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
// themselves, so the page never scrolls sideways. Every figure's caption
// spans the figure's width (the lines are short enough to read there; a
// caption squeezed into a column beside something wraps at every word).
// A knob figure's outcome table
// too wide for the phone scrolls inside itself and says so: its right edge
// fades until it is scrolled to the end. Every figure's picture
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
		var narrow []string // captions narrower than their figure
		if err == nil {
			narrow, err = chromedp.Run(tctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("figure.kflow .kf-capbox")]
				.map(c => { const f = c.closest("figure"), s = getComputedStyle(f);
					const room = f.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight), w = c.getBoundingClientRect().width;
					return w < room - 1 ? f.id + ": " + w.toFixed(1) + " of " + room.toFixed(1) + " px" : "" })
				.filter(Boolean)`))
		}
		var hidden []string // outcome tables that scroll without showing it
		if err == nil {
			hidden, err = chromedp.Run(tctx, chromedp.Evaluate[[]string](`(async () => {
				const frame = () => new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok)));
				const out = [];
				for (const t of document.querySelectorAll("table.kf-outcomes")) {
					if (t.scrollWidth <= t.clientWidth + 1) continue;
					const at = () => getComputedStyle(t).maskImage;
					const start = at();
					t.scrollLeft = t.scrollWidth;
					await frame();
					const end = at();
					t.scrollLeft = 0;
					if (start === "none" || end !== "none")
						out.push(t.closest("figure").id + ": " + t.scrollWidth + " px of rows in " + t.clientWidth + " px, mask " + start + " at the start, " + end + " at the end");
				}
				return out;
			})()`, chromedp.EvalAwaitPromise))
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
		for _, h := range hidden {
			t.Errorf("%s: an outcome table scrolls sideways on a phone with no sign of it (its right edge fades until scrolled to the end): %s", f.Path, h)
		}
		for _, n := range narrow {
			t.Errorf("%s: a caption does not use its figure's width on a phone: %s", f.Path, n)
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

// TestBrowserSections opens a page one folder down, in a section, from
// file:// in Chromium: its stylesheet and the figure's scripts load from
// ../assets/ (the figure gets its controls), the list of sections shows
// with the current one marked, and following a link into another section
// lands on a page that is styled too. At a phone's width the page is no
// wider than the screen.
func TestBrowserSections(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Content: sectionedSite()}, out, ""); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, 1280, 900)
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	type look struct {
		Sticky    bool   // the nav is styled by site.css (sticky at a desktop's width)
		Current   string // the marked section's text
		Sections  int    // sections listed
		Pages     int    // pages listed under them
		Controls  bool   // the stepper ran on the figure
		Location  string // the page's file name, from its section's folder
		Scrolling bool   // wider than the screen
	}
	const probe = `(() => {
		const toc = document.querySelector(".toc");
		return {
			Sticky: getComputedStyle(toc).position === "sticky",
			Current: (document.querySelector('.toc .sections [aria-current]') || {}).textContent || "",
			Sections: document.querySelectorAll(".toc .sections li").length,
			Pages: document.querySelectorAll(".toc ol:not(.sections) li").length,
			Controls: !!document.querySelector("figure.kflow .kf-controls"),
			Location: location.pathname.split("/").slice(-2).join("/"),
			Scrolling: document.documentElement.scrollWidth > document.documentElement.clientWidth,
		};
	})()`
	get := func() look {
		t.Helper()
		l, err := chromedp.Run(tctx, chromedp.Evaluate[look](probe))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	if err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "ops", "isr.html"))),
		chromedp.WaitVisible(`#ops-isr--isr .kf-controls`)); err != nil {
		t.Fatal(err)
	}
	want := look{Sticky: true, Current: "Operations", Sections: 3, Pages: 2, Controls: true, Location: "ops/isr.html"}
	if got := get(); got != want {
		t.Errorf("ops/isr.html: got %+v, want %+v", got, want)
	}
	if err := chromedp.Do(tctx, chromedp.Click(`a[href="../more-stuff/z.html"]`), chromedp.WaitVisible(`.toc .sections`)); err != nil {
		t.Fatal(err)
	}
	want = look{Sticky: true, Current: "More Stuff", Sections: 3, Pages: 2, Location: "more-stuff/z.html"}
	if got := get(); got != want {
		t.Errorf("after the link into more-stuff: got %+v, want %+v", got, want)
	}
	if err := chromedp.Do(tctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "ops", "isr.html"))),
		chromedp.WaitVisible(`#ops-isr--isr .kf-controls`)); err != nil {
		t.Fatal(err)
	}
	if get().Scrolling {
		t.Error("ops/isr.html scrolls sideways on a phone")
	}
}
