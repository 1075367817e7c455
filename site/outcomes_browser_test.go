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

// outcomeRows is, for every knob figure's outcome table on a page, its
// figure's id, the width of its rows and of its box (CSS px), whether its
// header row is drawn, the height of one line of its cells' text (their
// computed line-height; 1.2 × the font size where that is normal) and the
// height of each of its body rows.
const outcomeRows = `[...document.querySelectorAll("table.kf-outcomes")].map(t => {
	const rows = [...t.tBodies[0].rows];
	return {Figure: t.closest("figure").id, Rows: t.scrollWidth, Box: t.clientWidth,
		Head: t.tHead.getBoundingClientRect().height > 1,
		Line: (c => parseFloat(c.lineHeight) || 1.2*parseFloat(c.fontSize))(getComputedStyle(rows[0].cells[0])),
		Heights: rows.map(r => r.getBoundingClientRect().height)};
})`

// TestBrowserOutcomeCards opens every page of the built guide with a knob
// figure's outcome table at a phone's width (390 CSS px) and wants each
// table's rows stacked as cards (kf-knobs.css, svganim.outcomeTable's
// data-h): nothing wider than the table's box, so nothing scrolls out of
// sight, and no row taller than six lines of its text. As a table at that
// width its rows ran 566 px in 382 and stood 75 px tall where a run's name
// wrapped in its column, 213 px where a group's outcome did. At a desktop
// width (1280 px) the table keeps its header row: it is a table there.
func TestBrowserOutcomeCards(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	s, err := Build(Options{Content: content.FS, ContentName: "content"}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	type table struct {
		Figure    string
		Rows, Box int
		Head      bool
		Line      float64
		Heights   []float64
	}
	for _, width := range []int{390, 1280} {
		ctx := browsertest.Start(t, width, 844)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), 844)); err != nil {
			t.Fatal(err)
		}
		tables := 0
		for _, f := range s.Files {
			if !strings.HasSuffix(f.Path, ".html") {
				continue
			}
			tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, f.Path))))
			var got []table
			if err == nil {
				got, err = chromedp.Run(tctx, chromedp.Evaluate[[]table](outcomeRows))
			}
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			for _, tb := range got {
				tables++
				if width == 1280 {
					if !tb.Head {
						t.Errorf("%d px: %s: %s's outcome table hides its header row", width, f.Path, tb.Figure)
					}
					continue
				}
				if tb.Head {
					t.Errorf("%d px: %s: %s's outcome table draws its header row: its rows are not cards", width, f.Path, tb.Figure)
				}
				if tb.Rows > tb.Box+1 {
					t.Errorf("%d px: %s: %s's outcome rows are %d px wide in a %d px table", width, f.Path, tb.Figure, tb.Rows, tb.Box)
				}
				for i, h := range tb.Heights {
					if h > 6*tb.Line+8 {
						t.Errorf("%d px: %s: %s's outcome row %d is %.0f px tall, %.1f lines of %.1f px; want at most 6",
							width, f.Path, tb.Figure, i+1, h, h/tb.Line, tb.Line)
					}
				}
			}
		}
		if tables < 5 {
			t.Fatalf("%d px: measured %d outcome tables", width, tables)
		}
	}
}
