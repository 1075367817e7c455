package playground_test

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/site"
)

var shots = flag.String("shots", "", "folder to save screenshots of the playground in (light and dark, 1280 and 390 px)")

// builtGuide builds the guide into a temporary folder and returns the
// site and the folder.
func builtGuide(t testing.TB) (*site.Site, string) {
	out := filepath.Join(t.TempDir(), "site")
	s, err := site.Build(site.Options{Content: content.FS, ContentName: "content", KeepRuns: true}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	return s, out
}

// eval runs expr (awaiting a promise) with a timeout that is a hang's, not
// a budget: a healthy step takes a fraction of it on a loaded machine.
func eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%.120s: %v", expr, err)
	}
	return v
}

func open(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	// Navigate can return on the previous document's load (about:blank
	// before a page): wait for this page's script to define kfReady.
	eval[bool](t, ctx, `new Promise(ok => { const w = () => self.kfReady ? kfReady.then(() => ok(true)) : setTimeout(w, 20); w(); })`)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserSameBytes runs the real module in Chromium, from the built
// site opened as files, on every fence of the guide with its page's slug,
// and wants the build's markup for that figure byte for byte; for a
// figure with knobs, it wants each other combination that kflowVariant
// draws afterwards to be the script the build wrote for it.
func TestBrowserSameBytes(t *testing.T) {
	browsertest.Chromium(t)
	s, out := builtGuide(t)
	built := map[string][]byte{}
	assets := map[string][][]byte{}
	for _, f := range s.Figures {
		built[f.ID], assets[f.ID] = f.Run.HTML, f.Run.Assets
	}
	bodies, slugs := guideFences(t)
	ctx := browsertest.Start(t, 1280, 900)
	open(t, ctx, "file://"+filepath.ToSlash(filepath.Join(out, playground.PageFile)))
	n, variants := 0, 0
	for i, b := range bodies {
		got := eval[struct {
			HTML       string
			Errors     []struct{ Line, Col int }
			Run, Knobs int
		}](t, ctx, `kfEngine.figure(`+jsString(string(b))+`, `+jsString(slugs[i])+`)`)
		p := fence.Parse(b)
		if p.Scenario == nil {
			t.Fatalf("%s fence %d does not parse", slugs[i], i)
		}
		id := site.FigureID(slugs[i], p.Scenario.ID)
		want := built[id]
		if len(got.Errors) > 0 || len(want) == 0 || got.HTML != string(want) {
			t.Errorf("%s: the playground drew %d bytes (errors %v), the build %d; first difference at byte %d",
				id, len(got.HTML), got.Errors, len(want), firstDiff(got.HTML, string(want)))
		}
		if got.Knobs != len(assets[id]) {
			t.Errorf("%s: the playground counts %d combinations, the build wrote %d", id, got.Knobs, len(assets[id]))
		}
		for v, want := range assets[id] {
			script := eval[string](t, ctx, fmt.Sprintf("kfEngine.variant(%d, %d)", got.Run, v))
			if script != string(want) {
				t.Errorf("%s: combination %d drawn in the playground is %d bytes, the build's %d; first difference at byte %d",
					id, v, len(script), len(want), firstDiff(script, string(want)))
			}
			variants++
		}
		n++
	}
	if n != len(s.Figures) || variants < 10 {
		t.Errorf("compared %d figures of %d and %d other combinations", n, len(s.Figures), variants)
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestBrowserPlayground drives the page as a reader does: the Edit link
// under the Acks page's first figure opens the playground holding that
// fence and runs it (acked records lost: "record 2 L:"); with acks turned
// from 1 to all and Run pressed, the figure no longer loses record 2 and
// the claims that it does are listed, positioned as the engine positions
// them, and the new figure's controls step it; the address bar then
// carries the edited text, which a fresh tab restores; and a broken fence
// shows its positioned error and no figure.
func TestBrowserPlayground(t *testing.T) {
	browsertest.Chromium(t)
	_, out := builtGuide(t)
	ctx := browsertest.Start(t, 1280, 900)
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "acks.html")))); err != nil {
		t.Fatal(err)
	}
	cancel()
	src, err := os.ReadFile("../content/acks.md")
	if err != nil {
		t.Fatal(err)
	}
	body := string(site.FindFences(src)[0].Body)
	href := eval[string](t, ctx, `document.querySelector('figure.kflow + .kf-edit a').href`)
	// As soon as the page has loaded, and before the engine is ready, the
	// editor holds the link's text or is read-only while restoring it: a
	// reader must not type into text the link's text then replaces.
	tctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Navigate(href)); err != nil {
		t.Fatal(err)
	}
	cancel()
	early := eval[[]bool](t, ctx, `(() => { const e = document.getElementById('pg-text');
		return [e.readOnly || e.value === `+jsString(body)+`, document.getElementById('pg-run').disabled]; })()`)
	if !early[0] {
		t.Errorf("on load, the playground's editor is editable and does not hold the link's text yet (run disabled: %v)", early[1])
	}
	eval[bool](t, ctx, `kfReady.then(() => true)`)
	const story = `new Promise(ok => { const w = () => { const s = document.querySelector('#pg-figure .kf-story'); s ? ok(s.textContent) : setTimeout(w, 20); }; w(); })`
	if got := eval[string](t, ctx, `document.getElementById('pg-text').value`); got != body {
		t.Fatalf("the Edit link opened the playground holding %q, want the fence %q", got, body)
	}
	if s := eval[string](t, ctx, story); !strings.Contains(s, "record 2 L:") {
		t.Errorf("the acks=1 fence, run from its link, does not lose record 2: %.300s", s)
	}

	edited := strings.Replace(body, "producer: {acks: 1,", "producer: {acks: all,", 1)
	if edited == body {
		t.Fatal("the Acks page's first fence no longer says acks: 1")
	}
	want := fence.Play([]byte(edited), playground.PageSlug)
	if len(want.Errors) == 0 || want.HTML == nil {
		t.Fatalf("acks=all should contradict the page's claims: %v", want.Errors)
	}
	got := eval[[]string](t, ctx, `(async () => {
		document.getElementById('pg-figure').replaceChildren();
		document.getElementById('pg-text').value = `+jsString(edited)+`;
		document.getElementById('pg-run').click();
		await kfLast;
		const s = await `+story+`;
		return [s, ...[...document.querySelectorAll('#pg-errors li')].map(li => li.textContent)];
	})()`)
	if strings.Contains(got[0], "record 2 L:") {
		t.Errorf("with acks=all record 2 is still lost: %.300s", got[0])
	}
	var wantList []string
	for _, e := range want.Errors {
		wantList = append(wantList, e.Error())
	}
	if !slices.Equal(got[1:], wantList) {
		t.Errorf("problems shown %q, want %q", got[1:], wantList)
	}
	// The figure a Run draws is wired by stepper.js (kfStep) — its controls
	// step it — and the page holds that one figure: the start-up warm-up
	// left none of its own.
	wired := eval[[]string](t, ctx, `(() => {
		const f = document.querySelector('#pg-figure figure.kflow'), at = f && f.querySelector('.kf-at');
		if (!at) return ['no controls'];
		const before = at.value;
		f.querySelector('[data-a="first"]').click();
		const first = at.value;
		f.querySelector('[data-a="fwd"]').click();
		return [before, first, at.value, String(document.querySelectorAll('figure.kflow, [id^="playground-warm"]').length)];
	})()`)
	if len(wired) != 4 || !strings.HasPrefix(wired[1], "0 / ") || !strings.HasPrefix(wired[2], "1 / ") || wired[3] != "1" {
		t.Errorf("the drawn figure's stepper and the page's figures: %q (want beat 0, then 1, and one figure)", wired)
	}
	// The other combinations are drawn when first picked (kflowVariant,
	// through self.kfV): acks=0 takes the figure's place at the beat it
	// showed, and stays defined for the next pick.
	flip := eval[[]string](t, ctx, `(async () => {
		const f = document.querySelector('#pg-figure figure.kflow'), at = () => f.querySelector('.kf-var .kf-at').value;
		const before = at(), drawn = Object.getOwnPropertyDescriptor(self.kfV || {}, f.id + '.0');
		f.querySelector('.kf-knobs [data-kb="0"][data-kval="0"]').click();
		for (let i = 0; i < 500 && !f.querySelector('.kf-var[data-v="0"]'); i++) await new Promise(ok => setTimeout(ok, 20));
		const now = Object.getOwnPropertyDescriptor(self.kfV || {}, f.id + '.0');
		return [before, f.querySelector('.kf-var').dataset.v, at(), typeof drawn?.value, typeof now?.value];
	})()`)
	if len(flip) != 5 || flip[1] != "0" || flip[2] != flip[0] || flip[3] != "undefined" || flip[4] != "string" {
		t.Errorf("picking acks=0: beat, combination shown, beat after, drawn before, drawn after = %q; want combination 0 at the same beat, drawn only at the pick", flip)
	}
	// The Run wrote the fence into the address: a fresh tab restores it.
	link := eval[string](t, ctx, `kfSaved.then(() => location.href)`)
	frag, _ := strings.CutPrefix(link[strings.Index(link, "#"):], "#f=")
	if dec, err := playground.DecodeFragment(frag); err != nil || string(dec) != edited {
		t.Errorf("the address after Run holds %q (%v), want the edited fence", dec, err)
	}
	fresh := browsertest.Start(t, 1280, 900)
	open(t, fresh, link)
	if v := eval[string](t, fresh, `document.getElementById('pg-text').value`); v != edited {
		t.Errorf("the link opened in a fresh browser holds %q, want the edited fence", v)
	}
	// A cut or mangled link says so once the engine is ready, rather than
	// passing the default scenario off as the link's.
	page := link[:strings.Index(link, "#")]
	// A fence that is not UTF-8 (a build refuses such a page) is not
	// read with U+FFFD in place of its bytes (try12 T5).
	for frag, why := range map[string]string{"#f=garbage!!": "other than", "#f=AAAA": "", "#f=": "nothing follows",
		"#f=" + playground.Fragment([]byte("id: a\ntitle: caf\xe9\n")): "not UTF-8"} {
		if err := chromedp.Do(fresh, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		open(t, fresh, page+frag)
		st := eval[string](t, fresh, `new Promise(ok => { const w = () => { const s = document.getElementById('pg-status').textContent; s.includes('Ready') ? ok(s) : setTimeout(w, 20); }; w(); })`)
		if !strings.Contains(st, "no readable scenario") || !strings.Contains(st, why) {
			t.Errorf("the playground opened with %s says %q; want it to say the link holds no readable scenario (%s)", frag, st, why)
		}
	}

	broken := "id: x\nbrokers: many\n"
	bad := fence.Play([]byte(broken), playground.PageSlug)
	got = eval[[]string](t, ctx, `(async () => {
		document.getElementById('pg-text').value = `+jsString(broken)+`;
		await kfRun();
		return [document.getElementById('pg-figure').innerHTML, ...[...document.querySelectorAll('#pg-errors li')].map(li => li.textContent)];
	})()`)
	if len(bad.Errors) != 1 || len(got) != 2 || got[0] != "" || got[1] != bad.Errors[0].Error() || !strings.HasPrefix(got[1], "2:10: ") {
		t.Errorf("broken fence: shown %q, the engine says %v", got, bad.Errors)
	}
	// Its position button puts the cursor on line 2, column 10.
	if at := eval[int](t, ctx, `(document.querySelector('#pg-errors .pg-at').click(), document.getElementById('pg-text').selectionStart)`); at != len("id: x\nbrokers: ") {
		t.Errorf("the error's position button put the cursor at %d", at)
	}
}

// TestBrowserEditorDoesNotWrap: the editor never wraps a line (a wrapped
// YAML line's continuation starts at the left edge and reads as a
// top-level key); it scrolls sideways instead. On a 390 px phone the
// sample has lines wider than the editor, which then scrolls. At 390 and
// 1280 px the editor has one row per line of text.
func TestBrowserEditorDoesNotWrap(t *testing.T) {
	browsertest.Chromium(t)
	_, out := builtGuide(t)
	for _, c := range []struct {
		width  int
		scroll bool
	}{{390, true}, {1280, false}} { // scroll: must scroll sideways
		ctx := browsertest.Start(t, c.width, 900)
		open(t, ctx, "file://"+filepath.ToSlash(filepath.Join(out, playground.PageFile)))
		// Rows beyond the text's line count are wrapped lines.
		got := eval[[]int](t, ctx, `(() => {
			const t = document.getElementById('pg-text'), lines = t.value.split('\n').length;
			t.style.height = '0'; t.style.minHeight = '0';
			const s = getComputedStyle(t), line = parseFloat(s.lineHeight), pad = parseFloat(s.paddingTop) + parseFloat(s.paddingBottom);
			return [t.scrollWidth - t.clientWidth, Math.round((t.scrollHeight - pad) / line) - lines];
		})()`)
		if len(got) != 2 || got[1] != 0 || (c.scroll && got[0] <= 0) {
			t.Errorf("at %d px the editor scrolls %v px sideways (want more than 0: %v) and wraps %v rows, want 0", c.width, got[0], c.scroll, got[1])
		}
	}
}

// TestBrowserShots saves the playground, with the sample run, at desktop
// and phone widths in the light and dark schemes, for a person to look
// at: go test ./playground -run Shots -shots DIR.
func TestBrowserShots(t *testing.T) {
	if *shots == "" {
		t.Skip("saves screenshots only with -shots DIR")
	}
	_, out := builtGuide(t)
	for _, w := range []int64{1280, 390} {
		for _, schemeName := range []string{"light", "dark"} {
			ctx := browsertest.Start(t, int(w), 900)
			scheme := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: schemeName}}})
				return err
			})
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900), scheme); err != nil {
				t.Fatal(err)
			}
			open(t, ctx, "file://"+filepath.ToSlash(filepath.Join(out, playground.PageFile)))
			eval[bool](t, ctx, `(async () => { document.getElementById('pg-text').value = document.getElementById('pg-text').value.replace('at: 5, partition: 0, leader: 2', 'at: 5, partition: 0, leader: 3'); await kfRun(); return true; })()`)
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(*shots, "playground-"+itoa(int(w))+"-"+schemeName+".png")
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// BenchmarkPlaygroundRun measures, in Chromium, the time from Run to the
// first frame drawn for every fence of the guide: the module parses,
// simulates, checks and draws, the page shows the figure, the stepper
// wires it, and the next animation frame has been painted (kfRun resolves
// after it). Each iteration runs every fence once; the metrics are the
// median and 99th percentile over all runs (issue 15's budget: 250 ms).
//
//	go test ./playground -run '^$' -bench PlaygroundRun -benchtime 3x
func BenchmarkPlaygroundRun(b *testing.B) {
	browsertest.Chromium(b)
	_, out := builtGuide(b)
	bodies, _ := guideFences(b)
	ctx := browsertest.Start(b, 1280, 900)
	open(b, ctx, "file://"+filepath.ToSlash(filepath.Join(out, playground.PageFile)))
	list, _ := json.Marshal(func() []string {
		var s []string
		for _, x := range bodies {
			s = append(s, string(x))
		}
		return s
	}())
	var all, last []float64
	b.ResetTimer()
	for range b.N {
		ms := eval[[]float64](b, ctx, `(async fences => {
			const text = document.getElementById('pg-text'), out = [];
			for (const f of fences) {
				text.value = f;
				const t0 = performance.now();
				await kfRun();
				out.push(performance.now() - t0);
			}
			return out;
		})(`+string(list)+`)`)
		all, last = append(all, ms...), ms
	}
	b.StopTimer()
	slices.Sort(all)
	b.ReportMetric(all[len(all)/2], "ms-median")
	b.ReportMetric(all[(len(all)*99+99)/100-1], "ms-p99")
	b.ReportMetric(all[len(all)-1], "ms-max")
	if testing.Verbose() {
		n := len(bodies)
		for i, x := range last {
			b.Logf("%6.1f ms  %.50q", x, bodies[i%n])
		}
	}
}

// TestBrowserPhoneTypeSize runs every fence of the guide in the
// playground on a 390 px phone and wants every text of the figure drawn
// at 10 CSS px or more (its font size times the picture's scale), the
// floor the guide's pages keep (site TestBrowserLegibleType): the
// playground's figure runs edge to edge on a phone as a guide page's does.
func TestBrowserPhoneTypeSize(t *testing.T) {
	browsertest.Chromium(t)
	_, out := builtGuide(t)
	bodies, slugs := guideFences(t)
	ctx := browsertest.Start(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, "file://"+filepath.ToSlash(filepath.Join(out, playground.PageFile)))
	for i, b := range bodies {
		got := eval[[]any](t, ctx, `(async () => {
			document.getElementById('pg-figure').replaceChildren();
			document.getElementById('pg-text').value = `+jsString(string(b))+`;
			document.getElementById('pg-run').click();
			await kfLast;
			let least = 1e9, what = '';
			for (const svg of document.querySelectorAll('#pg-figure .kf-svg')) {
				if (svg.closest('.kf-park')) continue;
				const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
				for (const tx of svg.querySelectorAll('text')) {
					if (!tx.textContent || tx.closest('.kf-gone')) continue;
					const px = parseFloat(getComputedStyle(tx).fontSize) * scale;
					if (px < least) { least = px; what = tx.textContent; }
				}
			}
			return [least, what];
		})()`)
		if px := got[0].(float64); px < 9.95 {
			t.Errorf("%s.md (the guide's fence %d): at 390 px the playground draws %q at %.1f px, want at least 10", slugs[i], i+1, got[1], px)
		}
	}
}

// TestBrowserLinkBomb: a link whose fence inflates far past
// playground.MaxFenceBytes (128 MiB of "a" in 130 KB of raw DEFLATE) ends
// with the "longer than 65536 bytes" message, having taken out of the
// decompressor little more than the limit (counted by a wrapper around
// DecompressionStream('deflate-raw') put in before the page's scripts) and
// leaving the page's heap small: reading stops at the limit, not after
// the whole stream.
func TestBrowserLinkBomb(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	pages := fstest.MapFS{"index.md": {Data: []byte("---\ntitle: Home\n---\n\nHome.\n")}}
	if _, err := site.Build(site.Options{Content: pages, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	mib := bytes.Repeat([]byte("a"), 1<<20)
	for range 128 {
		w.Write(mib)
	}
	w.Close()
	frag := base64.RawURLEncoding.EncodeToString(z.Bytes())

	ctx := browsertest.Start(t, 1280, 900)
	count := `(() => { const D = self.DecompressionStream; self.kfInflated = 0;
		self.DecompressionStream = function (format) {
			const d = new D(format);
			if (format != 'deflate-raw') return d;
			return { writable: d.writable, readable: d.readable.pipeThrough(new TransformStream({ transform(c, o) { self.kfInflated += c.length; o.enqueue(c); } })) };
		}; })()`
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: count})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, "file://"+filepath.ToSlash(filepath.Join(out, playground.PageFile))+"#f="+frag)
	got := eval[[]float64](t, ctx, `new Promise(ok => { const w = () => {
		const s = document.getElementById('pg-status').textContent;
		s.includes('Ready') ? ok([s.includes('longer than 65536 bytes') ? 1 : 0, self.kfInflated, performance.memory.usedJSHeapSize]) : setTimeout(w, 20); }; w(); })`)
	status := eval[string](t, ctx, `document.getElementById('pg-status').textContent`)
	if got[0] != 1 {
		t.Errorf("the bomb link (%d characters) ends with %q, want the fence longer than 65536 bytes", len(frag), status)
	}
	// One chunk of the link (256 bytes) inflates to at most 264,192 bytes.
	if limit := float64(playground.MaxFenceBytes + 1032*256 + 16384); got[1] > limit {
		t.Errorf("the page took %.0f bytes out of the decompressor, want at most %.0f", got[1], limit)
	}
	if got[2] > 64<<20 {
		t.Errorf("the page's heap holds %.0f bytes after the bomb link, want under 64 MiB", got[2])
	}
	t.Logf("inflated %.0f bytes, heap %.0f bytes", got[1], got[2])
}

// TestBrowserEngineInWorker: the engine runs in a Worker, so while it
// works on a long scenario (the sample over 200 beats, some hundreds of
// milliseconds of the module's work) the page goes on drawing
// frames, and none of the module's functions is defined on the page.
// A page with no Worker runs the engine on the page instead: it draws the
// same figure, and holds the page (no frame) until the engine answers.
func TestBrowserEngineInWorker(t *testing.T) {
	browsertest.Chromium(t)
	_, out := builtGuide(t)
	url := "file://" + filepath.ToSlash(filepath.Join(out, playground.PageFile))
	long := strings.NewReplacer("records: 4", "records: 60", "beats: 16", "beats: 200").Replace(playground.Sample)
	if long == playground.Sample {
		t.Fatal("the sample no longer says records: 4 and beats: 16")
	}
	probe := `(async text => {
		let frames = 0, counting = true;
		const tick = () => { if (counting) { frames++; requestAnimationFrame(tick); } };
		await new Promise(requestAnimationFrame);
		requestAnimationFrame(tick);
		const r = await kfEngine.figure(text, 'playground');
		counting = false;
		return {Where: kfEngine.where, Frames: frames, HTML: r.html, Errors: r.errors.length, Global: typeof self.kflowFigure};
	})(` + jsString(long) + `)`
	type answer struct {
		Where          string
		Frames, Errors int
		HTML, Global   string
	}
	ctx := browsertest.Start(t, 1280, 900)
	open(t, ctx, url)
	w := eval[answer](t, ctx, probe)
	if w.Where != "worker" || w.Global != "undefined" || w.Frames == 0 || w.HTML == "" {
		t.Errorf("with Workers: the engine runs on the %q, kflowFigure on the page is %q, %d frames drawn while it ran, %d bytes drawn; want the worker, undefined, frames, a figure",
			w.Where, w.Global, w.Frames, len(w.HTML))
	}

	bare := browsertest.Start(t, 1280, 900)
	if err := chromedp.Do(bare, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `self.Worker = undefined;`})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	open(t, bare, url)
	p := eval[answer](t, bare, probe)
	if p.Where != "page" || p.Global != "function" || p.Frames != 0 {
		t.Errorf("without Workers: the engine runs on the %q, kflowFigure on the page is %q, %d frames drawn while it ran; want the page, a function, none",
			p.Where, p.Global, p.Frames)
	}
	if p.HTML != w.HTML || p.Errors != w.Errors {
		t.Errorf("the worker drew %d bytes with %d problems, the page %d bytes with %d; first difference at byte %d",
			len(w.HTML), w.Errors, len(p.HTML), p.Errors, firstDiff(w.HTML, p.HTML))
	}
}
