package site

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

// knobState is what the knob browser tests read of a figure: the beat
// counter, the combination shown, the pressed value of each knob, the
// outcome letters of the records drawn at that beat, the combination the
// outcome table's caption names and the knob value of its marked row, and
// whether the figure's accessible name (aria-labelledby) is the shown
// combination's title.
type knobState struct {
	At, Shown        string
	Pressed          []string
	Outcomes         string
	TableShows, OnAt string
	Labelled         bool
}

const readKnobs = `(() => {
  const fig = document.getElementById(%q);
  const v = fig.querySelector('.kf-var');
  return {
    At: v.querySelector('.kf-at').value,
    Shown: v.dataset.v,
    Pressed: [...fig.querySelectorAll('.kf-knob')].map(g => g.querySelector('[aria-pressed=true]').textContent),
    Outcomes: [...v.querySelectorAll('.kf-svg > g.kf-card:not(.kf-gone)')].map(g =>
      g.querySelector('text').textContent + ':' + ([...g.classList].find(c => c.startsWith('kf-out-')) || '').slice(7)).sort().join(' '),
    // The caption's names shown (after a pick it holds every
    // combination's, one visible).
    TableShows: [...fig.querySelectorAll('.kf-outcomes caption span')].filter(s => !s.children.length && getComputedStyle(s).visibility === 'visible').map(s => s.textContent).join(' | '),
    OnAt: [...fig.querySelectorAll('.kf-outcomes tr.kf-on')].map(r => r.cells[0].textContent)[0],
    Labelled: document.getElementById(fig.getAttribute('aria-labelledby')) === v.querySelector('.kf-title'),
  };
})()`

// openKnobs builds the pages and opens page#frag from file://, the way a
// reader opens a downloaded site, once the stepper has run.
func openKnobs(t *testing.T, ctx context.Context, out, page, frag string) context.Context {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(cancel)
	if err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, page))+frag)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!!document.querySelector('.kf-knobs:not([hidden]) ~ .kf-var .kf-controls')`)); err != nil {
		t.Fatal(err)
	}
	return tctx
}

func knobs(t *testing.T, ctx context.Context, id string) knobState {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[knobState](fmt.Sprintf(readKnobs, id)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBrowserKnobs, from file://: at beat 8 of the guide's Acks figure, picking
// acks=0 loads that combination's script and shows it at beat 8, with
// other outcome letters; picking acks=1 again shows the first one, still at
// beat 8; a deep link naming a beat and a knob value opens the figure
// there.
func TestBrowserKnobs(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Content: content.FS, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, 1280, 900)
	const id = "acks--acks-one-loss"
	tctx := openKnobs(t, ctx, out, "acks.html", "")
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
		const f = document.getElementById(%q); for (let i = 0; i < 8; i++) f.querySelector('[data-a=fwd]').click(); return true })()`, id))); err != nil {
		t.Fatal(err)
	}
	before := knobs(t, tctx, id)
	if before.At != "8 / 16" || before.Shown != "1" || before.Pressed[0] != "1" {
		t.Fatalf("before the flip: %+v, want beat 8 of acks=1", before)
	}
	// The outcome table and the figure's name follow the combination
	// shown.
	named := func(s knobState, acks string) {
		t.Helper()
		if s.TableShows != "acks="+acks || s.OnAt != acks || !s.Labelled {
			t.Errorf("with acks=%s shown, the table's caption names %q, its marked row is acks=%q, the figure is named by the shown title: %v",
				acks, s.TableShows, s.OnAt, s.Labelled)
		}
	}
	named(before, "1")
	flip := func(value int, shown string) knobState {
		t.Helper()
		if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector('#%s [data-kb="0"][data-kval="%d"]').click(), true)`, id, value))); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector('#%s .kf-var').dataset.v === %q`, id, shown))); err != nil {
			t.Fatalf("combination %s never shown: %v", shown, err)
		}
		return knobs(t, tctx, id)
	}
	after := flip(0, "0")
	if after.At != "8 / 16" || after.Pressed[0] != "0" {
		t.Errorf("after picking acks=0: %+v, want beat 8 with 0 pressed", after)
	}
	if after.Outcomes == before.Outcomes {
		t.Errorf("acks=0 shows the outcome letters of acks=1 at beat 8: %q", after.Outcomes)
	}
	named(after, "0")
	// From here on a flip changes no text in the outcome table and no
	// button's type: either would lay them out again at every flip (the
	// table, a size container, then restyles its rows in the layout pass).
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
		const f = document.getElementById(%q);
		self.kfTableTexts = 0;
		new MutationObserver(ms => self.kfTableTexts += ms.length).observe(f.querySelector('.kf-outcomes'), {characterData: true, childList: true, subtree: true});
		return true })()`, id))); err != nil {
		t.Fatal(err)
	}
	back := flip(1, "1")
	if back.At != "8 / 16" || back.Outcomes != before.Outcomes || back.Pressed[0] != "1" {
		t.Errorf("back at acks=1: %+v, want %+v", back, before)
	}
	named(back, "1")
	// Back at acks=0, loaded before: the same beat and letters again, and
	// keys step the combination shown (not one picked earlier).
	again := flip(0, "0")
	if again.At != "8 / 16" || again.Outcomes != after.Outcomes {
		t.Errorf("acks=0 again: %+v, want %+v", again, after)
	}
	named(again, "0")
	if got, err := chromedp.Run(tctx, chromedp.Evaluate[[]any](fmt.Sprintf(`(() => {
		const weights = [...document.querySelectorAll('#%s .kf-knob button')].map(b => getComputedStyle(b).fontWeight);
		return [self.kfTableTexts, new Set(weights).size] })()`, id))); err != nil || got[0].(float64) != 0 || got[1].(float64) != 1 {
		t.Errorf("two flips changed the outcome table's text %v times, and the knob buttons are in %v weights (want 0 and 1; %v)", got[0], got[1], err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.getElementById(%q).dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true})), true)`, id))); err != nil {
		t.Fatal(err)
	}
	if got := knobs(t, tctx, id); got.At != "9 / 16" || got.Shown != "0" {
		t.Errorf("→ after the flips: %+v, want beat 9 of acks=0", got)
	}
	if n, err := chromedp.Run(tctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll('#%s .kf-park .kf-at').length && [...document.querySelectorAll('#%s .kf-park')].filter(p => p.querySelector('.kf-at').value !== '8 / 16').length`, id, id))); err != nil || n != 0 {
		t.Errorf("→ moved %d parked combinations too (%v)", n, err)
	}

	// The combinations not shown are out of sight in every way: out of
	// the accessibility tree, out of the tab order, and not hit where they
	// lie under the one shown; and each part of every combination (the
	// picture, the controls, the caption, …) is in the same place, so a
	// flip moves none (acks=all, loaded last, has the tallest picture).
	flip(2, "2")
	flip(0, "0")
	if got, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](fmt.Sprintf(`(() => {
		const f = document.getElementById(%q), v = f.querySelector('.kf-var'), bad = [];
		const parked = [...f.querySelectorAll('.kf-park')];
		if (parked.length !== 2) bad.push(parked.length + ' combinations parked');
		for (const p of parked) {
			if (p.ariaHidden !== 'true') bad.push('combination ' + p.dataset.v + ' not aria-hidden');
			const tabbable = [...p.querySelectorAll('button,input,select,summary,a[href]')].filter(e => e.tabIndex >= 0 && e.checkVisibility({visibilityProperty: true}));
			if (tabbable.length) bad.push('combination ' + p.dataset.v + ' has ' + tabbable.length + ' controls in the tab order');
		}
		if (v.ariaHidden) bad.push('the shown combination is aria-hidden');
		const controls = [...v.querySelectorAll('button,input,select')];
		if (!controls.length || controls.some(e => e.tabIndex < 0)) bad.push('the shown combination has controls out of the tab order');
		for (const c of controls) {
			c.scrollIntoView({block: 'center'});
			const r = c.getBoundingClientRect(), hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
			if (r.width && !v.contains(hit)) bad.push(c.outerHTML.slice(0, 40) + ' is covered by ' + (hit?.outerHTML.slice(0, 40) || 'nothing'));
		}
		// Each part of the shown combination is where the same part of
		// the others is.
		for (const part of ['.kf-title', '.kf-view', '.kf-controls', '.kf-legend', '.kf-capbox', '.kf-story']) {
			const y = v.querySelector(part).getBoundingClientRect().top;
			for (const p of parked) {
				const py = p.querySelector(part).getBoundingClientRect().top;
				if (Math.abs(py - y) > 0.5) bad.push(part + ' of combination ' + p.dataset.v + ' at ' + py + ', of the one shown at ' + y);
			}
		}
		return bad;
	})()`, id))); err != nil || len(got) > 0 {
		t.Errorf("after the flips, with acks=0 shown: %q (%v)", got, err)
	}

	// A flip keeps the whole story open, and shuts it in the combination
	// left (open there, it would keep its row as tall under the others).
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector('#%s .kf-var .kf-story').open = true)`, id))); err != nil {
		t.Fatal(err)
	}
	flip(1, "1")
	if got, err := chromedp.Run(tctx, chromedp.Evaluate[[]bool](fmt.Sprintf(`[document.querySelector('#%s .kf-var .kf-story'), ...document.querySelectorAll('#%s .kf-park .kf-story')].map(s => s.open)`, id, id))); err != nil || len(got) != 3 || !got[0] || got[1] || got[2] {
		t.Errorf("the story opened under acks=0, after a flip to acks=1: open under acks=1, then under the parked ones: %v (%v); want shown open, parked shut", got, err)
	}

	// A deep link with a beat and a knob value.
	tctx = openKnobs(t, ctx, out, "acks.html", "#"+id+"@8?producer.acks=all")
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector('#%s .kf-var').dataset.v === "2"`, id))); err != nil {
		t.Fatalf("the link's combination never shown: %v", err)
	}
	if got := knobs(t, tctx, id); got.At != "8 / 16" || got.Pressed[0] != "all" {
		t.Errorf("opened from #%s@8?producer.acks=all: %+v", id, got)
	}
}

// TestBrowserKnobFlipLaysOutNothing: once loaded, a flip between
// combinations changes no box, whichever is the taller (acks=all's
// picture is): the forced layout after the click lays out no object, the
// figure keeps its height, and the style pass restyles a few dozen
// elements (the two combinations' roots, the knob buttons, the outcome
// table's marked rows), not the combinations' insides — parking a
// combination with visibility or inert, inherited, restyled 700 elements
// a flip, and content-visibility laid both combinations out again. Counts,
// read from a Chrome trace of the frame callbacks that each flip marks,
// not times, and not the number of frames the browser ran.
func TestBrowserKnobFlipLaysOutNothing(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Content: fstest.MapFS{"acks.md": page("title: Acks", knobFence...)}, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, 1280, 900)
	const id = "acks--acks-crash"
	tctx := openKnobs(t, ctx, out, "acks.html", "#"+id+"@8")
	for _, v := range []string{"0", "2", "1"} {
		if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector('#%s [data-kb="0"][data-kval="%s"]').click(), true)`, id, v))); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector('#%s .kf-var').dataset.v === %q`, id, v))); err != nil {
			t.Fatal(err)
		}
	}
	height, err := chromedp.Run(tctx, chromedp.Evaluate[float64](fmt.Sprintf(`document.getElementById(%q).getBoundingClientRect().height`, id)))
	if err != nil {
		t.Fatal(err)
	}
	// Each flip marks itself (a user timing mark, in its frame callback),
	// and the count is read from the frame callbacks that hold a mark: a
	// trace that starts late, on a busy machine, misses the first frames,
	// and then the round is traced again.
	const flips = 6
	var flipFrames []browsertest.Frame
	for try := 0; try < 3 && len(flipFrames) < flips; try++ {
		events, err := browsertest.Trace(tctx, func() error {
			_, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(async () => {
				const f = document.getElementById(%q);
				for (let i = 0; i < %d; i++) {
					await new Promise(r => requestAnimationFrame(() => r()));
					performance.mark('kf-flip');
					f.querySelector('[data-kb="0"][data-kval="' + [0, 2, 1][i %% 3] + '"]').click();
					await null; // the pick runs in a promise callback
					f.offsetHeight;
				}
				return true;
			})()`, id, flips), chromedp.EvalAwaitPromise))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		// The frame callbacks that hold a flip's mark.
		flipFrames = flipFrames[:0]
		for _, f := range browsertest.Frames(events) {
			for _, m := range events {
				if m.Name == "kf-flip" && m.Ts >= f.Start && m.Ts <= f.End {
					flipFrames = append(flipFrames, f)
					break
				}
			}
		}
	}
	if len(flipFrames) < flips {
		t.Fatalf("three traces of %d flips each held at most %d of their frame callbacks", flips, len(flipFrames))
	}
	shown, err := chromedp.Run(tctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector('#%s .kf-var').dataset.v`, id)))
	if err != nil || shown != "1" {
		t.Fatalf("after the flips combination %q is shown (%v), want 1", shown, err)
	}
	restyled, laidOut := 0, 0
	for _, f := range flipFrames {
		restyled += f.Restyled
		laidOut += f.LaidOut
	}
	after, err := chromedp.Run(tctx, chromedp.Evaluate[float64](fmt.Sprintf(`document.getElementById(%q).getBoundingClientRect().height`, id)))
	if err != nil || after != height {
		t.Errorf("the figure was %v px high before the flips, %v after (%v)", height, after, err)
	}
	if laidOut != 0 || restyled > 60*flips {
		t.Errorf("%d flips laid out %d layout objects and restyled %d elements; want none laid out, at most 60 restyled a flip", flips, laidOut, restyled)
	}
}

// TestBrowserKnobPickMovesNothing: at a figure's first pick kf-knobs.js
// marks it kf-picked, and its combinations' parts go into rows of the
// figure's grid (the rules kf-knobs.js brings), whose margins do not
// collapse as the page's did; for every knob figure of the guide, at desktop and phone
// widths, with a mark's explanation shown under the controls and
// without, that moves no element of the figure by a pixel.
func TestBrowserKnobPickMovesNothing(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	s, err := Build(Options{Content: content.FS, ContentName: "content"}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, f := range s.Files {
		if strings.HasSuffix(f.Path, ".html") && bytes.Contains(f.Data, []byte(" data-kn=")) {
			pages = append(pages, f.Path)
		}
	}
	if len(pages) < 10 {
		t.Fatalf("%d guide pages with knob figures, want the 10 at least: %q", len(pages), pages)
	}
	for _, w := range []int{1280, 390} {
		ctx := browsertest.Start(t, w, 1000)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), 1000)); err != nil {
			t.Fatal(err)
		}
		for _, name := range pages {
			tctx := openKnobs(t, ctx, out, name, "")
			// The rules come with kf-knobs.js, which a pick loads.
			if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`new Promise((ok, fail) => {
				const s = document.head.appendChild(document.createElement('script'));
				s.onload = () => ok(true);
				s.onerror = fail;
				s.src = 'assets/kf-knobs.js';
			})`, chromedp.EvalAwaitPromise)); err != nil {
				t.Fatal(err)
			}
			moved, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](`(() => {
				const moved = [];
				for (const f of document.querySelectorAll('figure[data-kn]')) {
					const boxes = () => [...f.querySelectorAll('*')].map(e => {
						const r = e.getBoundingClientRect();
						return [r.x, r.y, r.width, r.height].map(Math.round).join(',');
					});
					for (const explained of ['', 'a mark explained']) {
						f.querySelector('.kf-explain').textContent = explained;
						const before = boxes();
						f.classList.add('kf-picked');
						const after = boxes();
						f.classList.remove('kf-picked');
						const n = before.filter((b, i) => b !== after[i]).length;
						if (n) moved.push(f.id + (explained ? ', explained' : '') + ': ' + n + ' of ' + before.length + ' elements');
					}
				}
				return moved;
			})()`))
			if err != nil || len(moved) > 0 {
				t.Errorf("%d px, %s: kf-picked moves %q (%v)", w, name, moved, err)
			}
		}
	}
}

// BenchmarkBrowserKnobFlip measures, in Chromium, how long a flip to a
// combination already loaded takes to redraw: from the click on a knob
// value to the new combination's marks, caption and controls laid out (as
// BenchmarkBrowserStep in svganim measures a step), one click per
// animation frame, round after round over every value of the acks
// figure's knob, at beat 8. It reports the median and the 99th percentile;
// the budget is the stepping budget, a p99 of 4 ms, reported, never
// tested, since it depends on the machine.
//
//	go test ./site -run '^$' -bench BrowserKnobFlip -benchtime 20x
func BenchmarkBrowserKnobFlip(b *testing.B) {
	browsertest.Chromium(b)
	out := filepath.Join(b.TempDir(), "site")
	if _, err := Build(Options{Content: fstest.MapFS{"acks.md": page("title: Acks", knobFence...)}, ContentName: "content"}, out, ""); err != nil {
		b.Fatal(err)
	}
	ctx := browsertest.Start(b, 1280, 900)
	const id = "acks--acks-crash"
	tctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "acks.html"))+"#"+id+"@8")); err != nil {
		b.Fatal(err)
	}
	// Every combination loaded once, untimed.
	for _, v := range []string{"0", "2", "1"} {
		if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector('#%s [data-kb="0"][data-kval="%s"]').click(), true)`, id, v))); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector('#%s .kf-var').dataset.v === %q`, id, v))); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var all []float64
	for i := 0; i < b.N; i++ {
		got, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(async () => {
			const f = document.getElementById(%q), out = [];
			const frame = () => new Promise(r => requestAnimationFrame(() => r()));
			for (const v of [0, 2, 1]) {
				await frame();
				const t = performance.now();
				f.querySelector('[data-kb="0"][data-kval="' + v + '"]').click();
				// The pick runs in a promise callback (the loaded
				// kf-knobs.js): let it run before the layout is read.
				await null;
				f.offsetHeight;
				out.push(performance.now() - t);
			}
			return out;
		})()`, id), chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, got...)
	}
	b.StopTimer()
	sort.Float64s(all)
	b.ReportMetric(all[len(all)/2], "ms-median")
	b.ReportMetric(all[len(all)*99/100], "ms-p99")
	b.Logf("%d flips: median %.2f ms, p99 %.2f ms, max %.2f ms", len(all), all[len(all)/2], all[len(all)*99/100], all[len(all)-1])
}
