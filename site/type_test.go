package site

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

// typeSize is the smallest text a figure draws, in CSS pixels, at one
// beat: the text and the mark it belongs to.
type typeSize struct {
	Px   float64
	Beat int
	Text string
	Mark string
}

// measureType is a script that steps the figure with id %s through every
// beat (Home, then → until its last) and returns, over all beats, its
// smallest drawn <text>: the computed font size (user units inside the
// SVG) times the scale from user units to CSS pixels (the text's screen
// transform, which holds the viewBox's fit to its box). Empty and hidden
// texts (an absent mark's, kf-gone) are not drawn and not measured.
const measureType = `(function(f){
	var best={Px:1e9, Beat:-1, Text:'', Mark:''}, last=+f.dataset.last;
	function key(k){ f.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true})); }
	key('Home');
	for(var b=0;b<=last;b++){
		f.querySelectorAll('.kf-svg text').forEach(function(x){
			if(!x.textContent.trim() || x.closest('.kf-gone') || !x.checkVisibility({visibilityProperty:true})) return;
			var m=x.getScreenCTM(); if(!m) return;
			var px=parseFloat(getComputedStyle(x).fontSize)*Math.hypot(m.a,m.b);
			if(px<best.Px){ best={Px:px, Beat:b, Text:x.textContent, Mark:x.closest('g.m').getAttribute('class')}; }
		});
		key('ArrowRight');
	}
	return best;
})(document.getElementById('%s'))`

// TestBrowserLegibleType opens every page of the built guide in Chromium
// at a desktop (1280 CSS px) and a phone (390 CSS px) width, steps every
// figure through every beat, and wants every text of every picture drawn
// at 12 px or more on the desktop and 10 px or more on the phone: the
// figures reach it by their layout (a narrow layout on a phone, panels
// side by side only where both fit), not by type too small to read.
func TestBrowserLegibleType(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	s, err := Build(Options{Content: content.FS, ContentName: "content"}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		width int
		least float64
	}{{1280, 12}, {390, 10}} {
		ctx := browsertest.Start(t, w.width, 900)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w.width), 900)); err != nil {
			t.Fatal(err)
		}
		figures := 0
		var report []string
		for _, f := range s.Files {
			if !strings.HasSuffix(f.Path, ".html") {
				continue
			}
			tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, f.Path))))
			var ids []string
			if err == nil {
				ids, err = chromedp.Run(tctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("figure.kflow")].map(f => f.id)`))
			}
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			for _, id := range ids {
				figures++
				tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
				got, err := chromedp.Run(tctx, chromedp.Evaluate[typeSize](strings.Replace(measureType, "%s", id, 1)))
				cancel()
				if err != nil {
					t.Fatalf("%s: figure %s: %v", f.Path, id, err)
				}
				report = append(report, fmt.Sprintf("%-48s %5.1f", id, got.Px))
				if got.Px < w.least {
					t.Errorf("%d px: %s: figure %s draws %q (%s) at %.1f px at beat %d, want at least %.0f px",
						w.width, f.Path, id, got.Text, got.Mark, got.Px, got.Beat, w.least)
				}
			}
		}
		sort.Strings(report)
		t.Logf("%d px, smallest text per figure (CSS px):\n%s", w.width, strings.Join(report, "\n"))
		if figures < 20 {
			t.Fatalf("%d px: checked %d figures", w.width, figures)
		}
	}
}
