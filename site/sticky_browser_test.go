package site

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

// TestBrowserControlsInReach opens the guide's Acks compare figure on a
// phone (390 × 844 CSS px), where its two runs are stacked and together
// taller than the screen, and scrolls each run's picture into the middle
// of the screen: the figure's controls must be on screen with it, their
// step button the element under the reader's finger, so that the run
// being stepped stays in view. Pressing it steps the figure. At 1280 px,
// where the runs sit side by side, the controls stay where the figure
// puts them, under the pictures.
func TestBrowserControlsInReach(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Content: content.FS, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	const id = "acks--acks-one-loss"
	for _, width := range []int64{390, 1280} {
		ctx := browsertest.Start(t, int(width), 900)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 844)); err != nil {
			t.Fatal(err)
		}
		tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		if err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "acks.html")))); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`!!document.querySelector('#%s .kf-var .kf-controls')`, id))); err != nil {
			t.Fatal(err)
		}
		type reach struct {
			Panels                   int
			PanelTop, PanelBottom    float64
			ControlsTop, ControlsBot float64
			ViewTop, ViewBottom      float64
			UnderFinger              bool
			Viewport                 float64
		}
		for panel := 0; panel < 2; panel++ {
			r, err := chromedp.Run(tctx, chromedp.Evaluate[reach](fmt.Sprintf(`(() => {
				const fig = document.getElementById(%q), v = fig.querySelector('.kf-var');
				const panels = v.querySelectorAll('.kf-panel'), p = panels[%d];
				p.scrollIntoView({block: 'center'});
				const pr = p.getBoundingClientRect(), c = v.querySelector('.kf-controls').getBoundingClientRect();
				const view = v.querySelector('.kf-view').getBoundingClientRect();
				const fwd = v.querySelector('[data-a=fwd]').getBoundingClientRect();
				const under = document.elementFromPoint(fwd.left + fwd.width / 2, fwd.top + fwd.height / 2);
				return {Panels: panels.length, PanelTop: pr.top, PanelBottom: pr.bottom, ControlsTop: c.top, ControlsBot: c.bottom,
					ViewTop: view.top, ViewBottom: view.bottom,
					UnderFinger: !!under && under.closest('button') === v.querySelector('[data-a=fwd]'), Viewport: innerHeight};
			})()`, id, panel)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Panels != 2 {
				t.Fatalf("the Acks figure has %d runs, want 2", r.Panels)
			}
			if width == 390 {
				if r.ControlsTop < 0 || r.ControlsBot > r.Viewport || !r.UnderFinger {
					t.Errorf("390 px, run %d in view (%.0f–%.0f px): the controls sit at %.0f–%.0f px of a %.0f px screen, step button reachable: %v",
						panel+1, r.PanelTop, r.PanelBottom, r.ControlsTop, r.ControlsBot, r.Viewport, r.UnderFinger)
				}
			} else if r.ControlsTop < r.ViewBottom-1 {
				t.Errorf("1280 px: the controls (top %.0f px) moved up over the pictures (bottom %.0f px)", r.ControlsTop, r.ViewBottom)
			}
		}
		// The step button, pressed where the reader sees it, steps.
		if width == 390 {
			got, err := chromedp.Run(tctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
				const v = document.getElementById(%q).querySelector('.kf-var'), fwd = v.querySelector('[data-a=fwd]').getBoundingClientRect();
				document.elementFromPoint(fwd.left + fwd.width / 2, fwd.top + fwd.height / 2).closest('button').click();
				return v.querySelector('.kf-at').value })()`, id)))
			if err != nil || got != "1 / 16" {
				t.Errorf("pressing the step button where it shows: counter %q (%v), want 1 / 16", got, err)
			}
		}
		cancel()
	}
}
