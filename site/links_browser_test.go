package site

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

// linkState is what TestBrowserHandTypedLinks reads of a figure opened by
// a deep link: its beat counter, the knob value pressed (empty without
// knobs), the note kf-link.js wrote (empty for none), where the figure's
// top and its runs' titles sit in the viewport (CSS px from its top), and
// the viewport's height.
type linkState struct {
	At, Pressed, Note string
	Top, TitlesTop    float64
	TitlesBottom      float64
	Viewport          float64
}

const readLink = `(() => {
  const fig = document.getElementById(%q), v = fig.querySelector('.kf-var') || fig;
  // On a phone a compare figure's runs are stacked, and the second's
  // title is a run's height down: the figure's title and the first run's.
  const runs = [...v.querySelectorAll('.kf-ptitle')];
  const titles = [v.querySelector('.kf-title'), ...(innerWidth < 600 ? runs.slice(0, 1) : runs)]
    .filter(Boolean).map(e => e.getBoundingClientRect());
  return {
    At: v.querySelector('.kf-at').value,
    Pressed: fig.querySelector('.kf-knob [aria-pressed=true]')?.textContent || '',
    Note: fig.querySelector('.kf-linknote')?.textContent || '',
    Top: fig.getBoundingClientRect().top,
    TitlesTop: Math.min(...titles.map(r => r.top)),
    TitlesBottom: Math.max(...titles.map(r => r.bottom)),
    Viewport: innerHeight,
  };
})()`

// TestBrowserHandTypedLinks opens the guide's Acks page from file:// at
// deep links a reader might type by hand. Whatever the link gets wrong,
// the page scrolls to the figure it names, the beat clamps (past the end:
// the last beat) or stays (no number: the start), a knob or value the
// figure lacks is left out, and a note at the figure's top says so; a
// correct link writes no note. Every time the figure's title and its
// runs' titles are in view (on a phone, where a compare figure's runs are
// stacked, the first run's).
func TestBrowserHandTypedLinks(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Content: content.FS, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	const knobbed, plain = "acks--acks-one-loss", "acks--acks-zero"
	cases := []struct {
		id, frag string
		// settled is true once the link has been followed.
		settled     string
		at, pressed string
		note        []string // what the note says, in parts; nil: no note
	}{
		{knobbed, "@8?producer.acks=0", `v.dataset.v === "0" && v.querySelector('.kf-at').value === '8 / 16'`, "8 / 16", "0", nil},
		{knobbed, "@x", `!!note`, "0 / 16", "1", []string{"“@x” names no beat", "0 to 16"}},
		{knobbed, "@-1", `!!note`, "0 / 16", "1", []string{"“@-1” names no beat"}},
		{knobbed, "@999", `!!note && v.querySelector('.kf-at').value === '16 / 16'`, "16 / 16", "1", []string{"beat 999", "ends at beat 16"}},
		{knobbed, "@8?producer.acks=7", `!!note && v.querySelector('.kf-at').value === '8 / 16'`, "8 / 16", "1",
			[]string{"producer.acks=“7”", "0, 1, all", "keeps its own"}},
		{knobbed, "@8?nosuch=1&producer.acks=all", `!!note && v.dataset.v === "2" && v.querySelector('.kf-at').value === '8 / 16'`, "8 / 16", "all",
			[]string{"“nosuch” is not a knob", "producer.acks"}},
		{plain, "@3", `v.querySelector('.kf-at').value === '3 / 16'`, "3 / 16", "", nil},
		{plain, "@3?producer.acks=0", `!!note && v.querySelector('.kf-at').value === '3 / 16'`, "3 / 16", "", []string{"has no knobs", "producer.acks=0"}},
	}
	for _, width := range []int{1280, 390} {
		ctx := browsertest.Start(t, width, 900)
		// Chromium widens a window narrower than about 500 px; the
		// emulated viewport is exactly the width asked.
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), 844)); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%d/%s%s", width, c.id, c.frag), func(t *testing.T) {
				tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				defer cancel()
				// A fresh load each time: the link a reader pastes into a new tab.
				url := "file://" + filepath.ToSlash(filepath.Join(out, "acks.html")) + "#" + c.id + c.frag
				if err := chromedp.Do(tctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
					t.Fatal(err)
				}
				settled := fmt.Sprintf(`(() => { const fig = document.getElementById(%q), v = fig.querySelector('.kf-var') || fig;
					const note = fig.querySelector('.kf-linknote'); return !!v.querySelector('.kf-at') && (%s) })()`, c.id, c.settled)
				if _, err := chromedp.Run(tctx, chromedp.Poll[bool](settled)); err != nil {
					t.Fatalf("the link was never followed (%s): %v", c.settled, err)
				}
				// A pick loads the combination's script after the scroll:
				// wait (no fixed time, at most 5 s) until it shows with the
				// figure's top in view, then read what is shown.
				wait, cancelWait := context.WithTimeout(tctx, 5*time.Second)
				_, _ = chromedp.Run(wait, chromedp.Poll[bool](fmt.Sprintf(`(() => { const s = %s;
					return s.At === %q && s.Pressed === %q && s.Top >= 0 && s.Top <= 24 })()`, fmt.Sprintf(readLink, c.id), c.at, c.pressed)))
				cancelWait()
				s, err := chromedp.Run(tctx, chromedp.Evaluate[linkState](fmt.Sprintf(readLink, c.id)))
				if err != nil {
					t.Fatal(err)
				}
				if s.At != c.at || s.Pressed != c.pressed {
					t.Errorf("shows beat %q with %q pressed, want %q and %q", s.At, s.Pressed, c.at, c.pressed)
				}
				if c.note == nil && s.Note != "" {
					t.Errorf("a correct link wrote the note %q", s.Note)
				}
				for _, part := range c.note {
					if !strings.Contains(s.Note, part) {
						t.Errorf("the note %q does not say %q", s.Note, part)
					}
				}
				if s.Top < 0 || s.Top > 24 {
					t.Errorf("the figure's top is at %.0f px in the viewport, want 0–24 (scrolled to, its top in view)", s.Top)
				}
				if s.TitlesTop < 0 || s.TitlesBottom > s.Viewport {
					t.Errorf("the figure's titles span %.0f–%.0f px, outside the %.0f px viewport", s.TitlesTop, s.TitlesBottom, s.Viewport)
				}
			})
		}
	}
}

// TestBrowserLinkPastEndBeatsKnob: a deep link past the last beat of a
// figure whose beats is a knob names the last beat of the combination it
// shows, not of the fence's own (the note said "ends at beat 6" while the
// beats=12 combination it showed ends at 12), and so does the note for a
// beat that is no number.
func TestBrowserLinkPastEndBeatsKnob(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	fsys := fstest.MapFS{"b.md": page("title: B", "```kflow\nid: bk\nbeats: 6\nknobs:\n  beats: [6, 12]\n```\n")}
	if _, err := Build(Options{Content: fsys, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, 1280, 900)
	for _, c := range []struct {
		frag, at, pressed string
		note              []string
	}{
		{"@99?beats=12", "12 / 12", "12", []string{"beat 99", "ends at beat 12"}},
		{"@99", "6 / 6", "6", []string{"beat 99", "ends at beat 6"}},
		{"@x?beats=12", "0 / 12", "12", []string{"“@x” names no beat", "0 to 12"}},
	} {
		t.Run(c.frag, func(t *testing.T) {
			tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			url := "file://" + filepath.ToSlash(filepath.Join(out, "b.html")) + "#b--bk" + c.frag
			if err := chromedp.Do(tctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			settled := fmt.Sprintf(`(() => { const s = %s; return s.At === %q && s.Pressed === %q && s.Note !== '' })()`, fmt.Sprintf(readLink, "b--bk"), c.at, c.pressed)
			wait, cancelWait := context.WithTimeout(tctx, 10*time.Second)
			_, _ = chromedp.Run(wait, chromedp.Poll[bool](settled))
			cancelWait()
			s, err := chromedp.Run(tctx, chromedp.Evaluate[linkState](fmt.Sprintf(readLink, "b--bk")))
			if err != nil {
				t.Fatal(err)
			}
			if s.At != c.at || s.Pressed != c.pressed {
				t.Errorf("shows beat %q with %q pressed, want %q and %q", s.At, s.Pressed, c.at, c.pressed)
			}
			for _, part := range c.note {
				if !strings.Contains(s.Note, part) {
					t.Errorf("the note %q does not say %q", s.Note, part)
				}
			}
		})
	}
}
