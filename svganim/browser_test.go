package svganim

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
	"github.com/kafkaflow/kflowgen/sim"
)

var (
	shots     = flag.String("shots", "", "write browser screenshots of the test page into this folder")
	shotIDs   = flag.String("shot-ids", "", "with -shots: only these figures (comma-separated ids, as safeID writes them)")
	stepTrace = flag.String("steptrace", "", "with -bench BrowserStep: record one more round, one press a frame, as a Chrome trace into this file (chrome://tracing, Perfetto) and log where its time went, press by press")
	stepPace  = flag.Duration("steppace", 350*time.Millisecond, "with -bench BrowserStep: the time between two presses of its sliding rounds (each step starts its slides); with -steptrace, a round at this pace is traced too")
	stepWhy   = flag.Bool("stepwhy", false, "with -steptrace: also record why the style and layout passes had work (DevTools' invalidation tracking, which slows the round) and log the class and attribute changes behind it")
)

// guidePage serves every guide figure on one testPage and returns the
// server with the figures' DOM ids, in guideTraces' order.
func guidePage(t testing.TB) (*httptest.Server, []string) {
	t.Helper()
	var figs [][]byte
	var ids []string
	for _, nt := range guideTraces(t) {
		id := safeID(nt.name)
		figs = append(figs, mustFigure(t, nt.t, id))
		ids = append(ids, id)
	}
	return testPage(t, figs...), ids
}

// testPage serves a page with the given figures, figure.css, kf-words.js
// and stepper.js, as a site would, and kf-link.js, which stepper.js loads
// for a deep link.
func testPage(t testing.TB, figs ...[]byte) *httptest.Server {
	t.Helper()
	css, err := os.ReadFile(filepath.Join("..", "templates", "figure.css"))
	if err != nil {
		t.Fatal(err)
	}
	js := StepperJS()
	words := WordsJS()
	var page strings.Builder
	page.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
		`<title>figures</title><link rel="stylesheet" href="figure.css"><style>body{font-family:system-ui;max-width:60em;margin:1em auto;padding:0 .5em}` +
		`@media (prefers-color-scheme: dark){body{background:#111;color:#eee}}</style></head><body>`)
	for _, f := range figs {
		page.Write(f)
		page.WriteString("<p>Some prose between figures.</p>\n")
	}
	page.WriteString(`<script src="kf-words.js"></script><script src="stepper.js"></script></body></html>`)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page.String())
	})
	mux.HandleFunc("/figure.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Write(css)
	})
	mux.HandleFunc("/stepper.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(js)
	})
	mux.HandleFunc("/kf-link.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(LinkJS())
	})
	mux.HandleFunc("/kf-words.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(words)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// browser starts a headless Chromium and returns a tab context and a
// function that fails the test if the page logged an error or a warning,
// or threw.
func browser(t testing.TB, width, height int) (context.Context, func()) {
	t.Helper()
	ctx := browsertest.Start(t, width, height)
	var mu sync.Mutex
	var errs []string
	cctx, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	msgs := chromedp.Console(cctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			switch m.Type {
			case chromedp.ConsoleError, chromedp.ConsoleWarning, chromedp.ConsoleException:
				mu.Lock()
				errs = append(errs, m.String())
				mu.Unlock()
			}
		}
	}()
	return ctx, func() {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(errs) > 0 {
			t.Errorf("page errors:\n%s", strings.Join(errs, "\n"))
		}
	}
}

// run runs browser actions, each batch bounded by a timeout.
func run(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression and returns its value.
func eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// figState reads what a figure shows: its counter, caption, scrubber and
// every mark's class, position and texts. A mark's position is its CSS
// transform once the stepper has moved it (which overrides its transform
// attribute, left as the poster drew it), else that attribute.
type figState struct {
	At      string   `json:"at"`
	Caption string   `json:"caption"`
	Scrub   string   `json:"scrub"`
	Marks   []string `json:"marks"`
}

func readFig(t testing.TB, ctx context.Context, id string) figState {
	t.Helper()
	return eval[figState](t, ctx, `(function(){var f=document.getElementById(`+"`"+id+"`"+`);
		return {at:f.querySelector('.kf-counter text').textContent.replace('beat ',''), caption:f.querySelector('.kf-caption .kf-now').textContent,
		scrub:f.querySelector('.kf-scrub').value,
		marks:Array.from(f.querySelectorAll('.kf-svg > g')).map(function(g){
			var r=g.querySelector('rect');
			var moved=g.style.transform.match(/-?[\d.]+/g);
			return g.getAttribute('class')+'|'+(moved?'translate('+moved.join(',')+')':g.getAttribute('transform'))+'|'+(r?r.getAttribute('width'):'')+'|'+g.querySelector('title').textContent+'|'+
			Array.from(g.querySelectorAll('text')).map(function(x){return x.textContent}).join('|')})}})()`)
}

// wantMarks is what the DOM must show at beat bi: each mark of the union
// with the class, position, title and texts of that beat, exactly as the
// full frame for that beat draws it, and kf-new on the marks that changed
// since the beat before (union.changedAt).
func wantMarks(u *union, bi int) []string { return wantMarksRinged(u, bi, u.changedAt(bi)) }

// wantMarksRinged is wantMarks with hot marking the marks that carry kf-new.
func wantMarksRinged(u *union, bi int, hot []bool) []string {
	out := make([]string, len(u.marks))
	for i := range u.marks {
		m, here := u.at(bi, i)
		var texts []string
		for k := 0; k < textCount[m.shape]; k++ {
			texts = append(texts, m.text[k])
		}
		w := ""
		if m.shape != shLabel && m.shape != shTickUp && m.shape != shTickDown && m.shape != shArrow {
			w = itoa(m.w)
		}
		cls := classOf(m, !here)
		if hot[i] {
			cls += " kf-new"
		}
		out[i] = cls + "|translate(" + itoa(m.x) + "," + itoa(m.y) + ")|" + w + "|" + m.title + "|" + strings.Join(texts, "|")
	}
	return out
}

// sameClasses compares two mark strings with the class attribute's words
// compared as sets (the stepper may order a mark's classes differently).
func sameMark(a, b string) bool {
	pa, pb := strings.SplitN(a, "|", 2), strings.SplitN(b, "|", 2)
	if len(pa) != 2 || len(pb) != 2 || pa[1] != pb[1] {
		return false
	}
	ca, cb := strings.Fields(pa[0]), strings.Fields(pb[0])
	sort.Strings(ca)
	sort.Strings(cb)
	return strings.Join(ca, " ") == strings.Join(cb, " ")
}

func TestBrowserStepper(t *testing.T) {
	hand := acksOneLoss()
	crowded := testdataTraces(t)
	var second *namedTrace
	for i := range crowded {
		if crowded[i].name == "crowded" {
			second = &crowded[i]
		}
	}
	if second == nil {
		t.Fatal("testdata/crowded.yaml is missing")
	}
	a, err := Figure(hand, Options{ID: "hand"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Figure(second.t, Options{ID: "crowded"})
	if err != nil {
		t.Fatal(err)
	}
	srv := testPage(t, a, b)
	ctx, checkErrors := browser(t, 1000, 900)
	defer checkErrors()
	run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#hand .kf-controls`))

	last := len(hand.Beats) - 1
	poster := PosterBeat(hand)
	u := unite(newScene(hand))
	check := func(what string, beat int) {
		t.Helper()
		s := readFig(t, ctx, "hand")
		if want := itoa(beat) + " / " + itoa(last); s.At != want {
			t.Fatalf("%s: counter %q, want %q", what, s.At, want)
		}
		if s.Scrub != itoa(beat) {
			t.Errorf("%s: scrubber at %s, want %d", what, s.Scrub, beat)
		}
		if want := beatCaption(&hand.Beats[beat], "", "", sim.Shown{}).textContent("beat " + itoa(beat) + " — "); s.Caption != want {
			t.Errorf("%s: caption %q, want %q", what, s.Caption, want)
		}
		want := wantMarks(u, beat)
		if len(s.Marks) != len(want) {
			t.Fatalf("%s: %d marks, want %d", what, len(s.Marks), len(want))
		}
		for i := range want {
			if !sameMark(s.Marks[i], want[i]) {
				// The counter is kept by the stepper, not by tracks.
				if u.marks[i].id == "beat" && strings.Contains(s.Marks[i], "beat "+itoa(beat)+" / ") {
					continue
				}
				t.Errorf("%s: mark %d (%s)\n got %s\nwant %s", what, i, u.marks[i].id, s.Marks[i], want[i])
			}
		}
	}
	// With scripts on, a figure opens at the start of its story.
	check("opened", 0)
	_ = poster

	// Buttons: every beat forward from the first, then back again, each
	// compared mark by mark with the full frame of that beat.
	run(t, ctx, chromedp.Click(`#hand [data-a=first]`))
	check("first", 0)
	for bt := 1; bt <= last; bt++ {
		run(t, ctx, chromedp.Click(`#hand [data-a=fwd]`))
		check("forward", bt)
	}
	for bt := last - 1; bt >= 0; bt-- {
		run(t, ctx, chromedp.Click(`#hand [data-a=back]`))
		check("back", bt)
	}
	run(t, ctx, chromedp.Click(`#hand [data-a=last]`))
	check("last", last)

	// The other figure did not move.
	if s := readFig(t, ctx, "crowded"); s.Scrub != "0" {
		t.Errorf("stepping one figure moved the other to %s", s.Scrub)
	}

	// Keyboard on the focused figure.
	run(t, ctx, chromedp.Focus(`#hand`), chromedp.KeyEvent(kb.Home))
	check("Home", 0)
	run(t, ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	check("ArrowRight twice", 2)
	run(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	check("ArrowLeft", 1)
	run(t, ctx, chromedp.KeyEvent(kb.End))
	check("End", last)

	// ↓ moves keyboard focus onto the marks and writes out the focused
	// mark's title; Escape gives focus back to the figure.
	run(t, ctx, chromedp.Focus(`#hand`), chromedp.KeyEvent(kb.ArrowDown))
	focused := eval[[]string](t, ctx, `[document.activeElement.tagName, document.activeElement.querySelector('title').textContent, document.querySelector('#hand .kf-explain').textContent]`)
	if focused[0] != "g" || focused[1] == "" || focused[1] != focused[2] {
		t.Errorf("↓ focused %q with title %q and explained %q", focused[0], focused[1], focused[2])
	}
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowRight))
	if s := readFig(t, ctx, "hand"); s.Scrub != itoa(last) {
		t.Errorf("→ on a focused mark moved to beat %s, want %d (the last beat, already shown)", s.Scrub, last)
	}
	run(t, ctx, chromedp.KeyEvent(kb.Escape))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "hand" {
		t.Errorf("Escape left focus on %q", id)
	}

	// Scrubber.
	eval[bool](t, ctx, `(function(s){s.value=3;return s.dispatchEvent(new Event('input'))})(document.querySelector('#hand .kf-scrub'))`)
	check("scrubber", 3)

	// Key isolation: pressing a key dims the others, pressing it again
	// brings them back.
	const isoJS = `document.getElementById('hand').dataset.iso||''`
	run(t, ctx, chromedp.Click(`#hand .kf-key[data-k="1"]`), chromedp.Sleep(400*time.Millisecond)) // the fade is a transition
	if iso := eval[string](t, ctx, isoJS); iso != "1" {
		t.Errorf("isolating key slot 1 set data-iso=%q", iso)
	}
	if !eval[bool](t, ctx, `getComputedStyle(document.querySelector('#hand .kf-svg .kf-cell.k0:not(.kf-gone)')).opacity < 0.5`) {
		t.Errorf("a mark of another key is not dimmed while key 1 is isolated")
	}
	// On the other figure, marks about records on the wire and in share
	// lanes (kf-ks) fade unless one of their records has the isolated key.
	run(t, ctx, chromedp.Click(`#crowded .kf-key[data-k="0"]`), chromedp.Sleep(400*time.Millisecond))
	if got := eval[[]float64](t, ctx, `Array.from(document.querySelectorAll('#crowded .kf-svg .kf-ks')).map(function(g){
		var o=parseFloat(getComputedStyle(g).opacity); return g.classList.contains('k0') ? -o : o})`); len(got) == 0 {
		t.Errorf("the crowded figure has no marks about several records to fade")
	} else {
		for _, o := range got {
			if o >= 0.5 || (o < 0 && o > -1) {
				t.Errorf("while key 0 is isolated a record mark of the wire or a share lane has opacity %v (negative: it carries key 0 and must stay at 1)", o)
				break
			}
		}
	}
	run(t, ctx, chromedp.Click(`#crowded .kf-key[data-k="0"]`))
	run(t, ctx, chromedp.Click(`#hand .kf-key[data-k="1"]`))
	if iso := eval[string](t, ctx, isoJS); iso != "" {
		t.Errorf("pressing the isolated key again left data-iso=%q", iso)
	}

	// The link button puts #ID@BEAT in the address; opening it restores
	// that beat.
	run(t, ctx, chromedp.Click(`#hand [data-a=link]`))
	if href := eval[string](t, ctx, `location.hash`); href != "#hand@3" {
		t.Errorf("link button set the fragment %q, want #hand@3", href)
	}
	run(t, ctx, chromedp.Navigate(srv.URL+"/#crowded@7"), chromedp.WaitVisible(`#crowded .kf-controls`))
	waitScrub(t, ctx, "crowded", "7")
	if s := readFig(t, ctx, "crowded"); s.Scrub != "7" || !strings.HasPrefix(s.Caption, "beat 7 ") {
		t.Errorf("deep link #crowded@7 shows beat %s (%q)", s.Scrub, s.Caption)
	}
	// The same on a fresh load of the page (above, only the fragment
	// changed): the link a reader pastes into a new tab.
	run(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(srv.URL+"/#crowded@4"), chromedp.WaitVisible(`#crowded .kf-controls`))
	waitScrub(t, ctx, "crowded", "4")
	if s := readFig(t, ctx, "crowded"); s.Scrub != "4" || !strings.HasPrefix(s.Caption, "beat 4 ") {
		t.Errorf("opened afresh, #crowded@4 shows beat %s (%q)", s.Scrub, s.Caption)
	}

	// Play runs by itself only when asked, and stops at the end.
	run(t, ctx, chromedp.Click(`#hand [data-a=first]`), chromedp.Click(`#hand [data-a=play]`), chromedp.Sleep(2500*time.Millisecond))
	if s := readFig(t, ctx, "hand"); s.Scrub == "0" {
		t.Errorf("play did not advance the figure")
	}
	run(t, ctx, chromedp.Click(`#hand [data-a=play]`))
}

// waitScrub waits until figure id's scrubber is at beat: a deep link is
// followed by kf-link.js, which stepper.js loads when the address holds
// one.
func waitScrub(t testing.TB, ctx context.Context, id, beat string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelector('#`+id+` .kf-scrub').value === '`+beat+`'`)); err != nil {
		t.Fatalf("%s never showed beat %s: %v", id, beat, err)
	}
}

// TestBrowserNoAutoplay: nothing moves unless the reader asks.
func TestBrowserNoAutoplay(t *testing.T) {
	fig, err := Figure(acksOneLoss(), Options{ID: "hand"})
	if err != nil {
		t.Fatal(err)
	}
	srv := testPage(t, fig)
	ctx, checkErrors := browser(t, 800, 600)
	defer checkErrors()
	run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#hand .kf-controls`), chromedp.Sleep(1500*time.Millisecond))
	if s := readFig(t, ctx, "hand"); s.Scrub != "0" {
		t.Errorf("figure moved by itself to beat %s (it opens at 0)", s.Scrub)
	}
}

// TestBrowserShots takes screenshots of every guide and testdata figure
// in light and dark mode at desktop (1280 px) and phone (390 px) widths,
// each at beat 0, its poster beat and its last beat, for a person to look
// at: go test ./svganim -run Shots -shots /tmp/shots [-shot-ids a,b]
func TestBrowserShots(t *testing.T) {
	if *shots == "" {
		t.Skip("no -shots folder given")
	}
	var figs [][]byte
	var ids []string
	want := map[string]bool{}
	for _, id := range strings.Split(*shotIDs, ",") {
		if id != "" {
			want[id] = true
		}
	}
	for _, nt := range append(guideTraces(t), testdataTraces(t)...) {
		id := safeID(nt.name)
		if len(want) > 0 && !want[id] {
			continue
		}
		figs = append(figs, mustFigure(t, nt.t, id))
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		t.Fatalf("no figure matches -shot-ids %q: ids are a page and its fence's ordinal (acks-1, brokers-2) or a testdata name", *shotIDs)
	}
	srv := testPage(t, figs...)
	if err := os.MkdirAll(*shots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sz := range []struct {
		name string
		w, h int
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		for _, scheme := range []string{"light", "dark"} {
			ctx, checkErrors := browser(t, sz.w, sz.h)
			run(t, ctx, emulateScheme(scheme), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`.kf-controls`))
			for _, id := range ids {
				for _, at := range []string{"start", "poster", "last"} {
					eval[bool](t, ctx, `(function(f){var b={start:0, poster:+f.dataset.poster, last:+f.dataset.last}['`+at+`'];
						location.hash='#'+f.id+'@'+b; return true})(document.getElementById('`+id+`'))`)
					run(t, ctx, chromedp.Sleep(400*time.Millisecond)) // let the slides end
					buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#"+id)))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(*shots, id+"-"+sz.name+"-"+scheme+"-"+at+".png"), buf, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			checkErrors()
		}
	}
}

func mustFigure(t testing.TB, tr *sim.Trace, id string) []byte {
	t.Helper()
	f, err := Figure(tr, Options{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// emulateScheme makes the page prefer a light or dark colour scheme.
func emulateScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// BenchmarkBrowserStep measures stepping latency in Chromium on the
// heaviest figure of the guide (most JSON; test-only figures are left
// out, the budget is about what readers get), and names it: for every beat,
// the time from a → key press to the figure's new state laid out (the
// handler runs synchronously and sets the marks, the caption and the
// controls; reading offsetHeight forces the style pass, which starts the
// CSS transitions of moved marks, and the layout), one press per animation
// frame, every beat forward then backward. Each b.N iteration is one such
// round. It reports the median and the 99th percentile of all presses,
// and the same over each press's fastest round ("-best"): on a machine
// shared with other work a press is slowed by whatever else runs, and its
// fastest round is what the figure itself costs. Presses one frame apart
// cut (a step while the last slide runs does not slide), so three more
// rounds, untimed by the benchmark, press every 0.35 s (-steppace), each
// step starting its slides: "-sliding". The budget is a p99 of 4 ms; it is
// reported, never tested, since it depends on the machine.
//
//	go test ./svganim -run '^$' -bench BrowserStep -benchtime 7x [-steppace 350ms] [-steptrace FILE [-stepwhy]]
func BenchmarkBrowserStep(b *testing.B) {
	var heavy namedTrace
	most := -1
	for _, nt := range guideTraces(b) {
		s := newScene(nt.t)
		if n := len(figureJSON(unite(s).encode(s.l.CellW, 0))); n > most {
			heavy, most = nt, n
		}
	}
	fig, err := Figure(heavy.t, Options{ID: "heavy"})
	if err != nil {
		b.Fatal(err)
	}
	srv := testPage(b, fig)
	ctx, checkErrors := browser(b, 1100, 900)
	defer checkErrors()
	run(b, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#heavy .kf-controls`))
	b.ResetTimer()
	var all, best []float64
	var rounds [][]float64
	for i := 0; i < b.N; i++ {
		// One step per animation frame, as a reader steps: the browser
		// renders (and runs the tweens) between two presses.
		got := stepRound(b, ctx, 0)
		rounds = append(rounds, got)
		all = append(all, got...)
		if best == nil {
			best = got
		}
		for j := range got {
			best[j] = min(best[j], got[j])
		}
	}
	b.StopTimer()
	pace := int(stepPace.Milliseconds())
	var slide []float64
	for range 3 { // 243 presses, so that one stray press is not the p99
		slide = append(slide, stepRound(b, ctx, pace)...)
	}
	for _, v := range [][]float64{all, best, slide} {
		sort.Float64s(v)
	}
	if *stepTrace != "" {
		s := newScene(heavy.t)
		u := unite(s)
		var fig struct{ K [][]any }
		if err := json.Unmarshal(figureJSON(u.encode(s.l.CellW, 0)), &fig); err != nil {
			b.Fatal(err)
		}
		tracks := fig.K
		traceRound(b, ctx, *stepTrace, heavy.name, tracks, u.beats-1, 0)
		ext := filepath.Ext(*stepTrace)
		traceRound(b, ctx, strings.TrimSuffix(*stepTrace, ext)+"-sliding"+ext, heavy.name+" sliding", tracks, u.beats-1, pace)
	}
	b.ReportMetric(all[len(all)/2], "ms-median")
	b.ReportMetric(all[len(all)*99/100], "ms-p99")
	b.ReportMetric(best[len(best)/2], "ms-median-best")
	b.ReportMetric(best[len(best)*99/100], "ms-p99-best")
	b.ReportMetric(slide[len(slide)/2], "ms-median-sliding")
	b.ReportMetric(slide[len(slide)*99/100], "ms-p99-sliding")
	b.Logf("%s", overBudget(rounds, heavy.t))
	b.Logf("%s: %d presses in %d rounds: median %.1f ms, p99 %.1f ms, max %.1f ms; fastest round per press: median %.1f ms, p99 %.1f ms, max %.1f ms; "+
		"%d presses %v apart: median %.1f ms, p99 %.1f ms, max %.1f ms, %d over %.0f ms",
		heavy.name, len(all), b.N, all[len(all)/2], all[len(all)*99/100], all[len(all)-1], best[len(best)/2], best[len(best)*99/100], best[len(best)-1],
		len(slide), *stepPace, slide[len(slide)/2], slide[len(slide)*99/100], slide[len(slide)-1], overCount(slide), stepBudget)
}

// stepBudget is the stepping budget BenchmarkBrowserStep reports against:
// a p99 of 4 ms (issue 14's weight budget).
const stepBudget = 4.0

// overBudget says whether the presses of stepRound rounds (each the same
// sequence of presses) that took longer than stepBudget are the same
// presses round after round, which is the figure's structure, or strays,
// which is the machine (other work, a collection, a timer). A press over
// budget in at least half the rounds is structural; it names those by the
// beat they show. tr is the figure's trace, for its last beat.
func overBudget(rounds [][]float64, tr *sim.Trace) string {
	if len(rounds) == 0 {
		return "no rounds"
	}
	last := len(tr.Beats) - 1
	over, slow := 0, map[int]int{} // presses over budget; press → rounds it was over in
	for _, r := range rounds {
		for j, ms := range r {
			if ms > stepBudget {
				over++
				slow[j]++
			}
		}
	}
	var structural []string
	strays := 0
	for j := range rounds[0] {
		switch n := slow[j]; {
		case 2*n >= len(rounds):
			beat := j // press j of Home, → × last, ← × last shows this beat
			if j > last {
				beat = 2*last - j
			}
			structural = append(structural, fmt.Sprintf("%d (%d/%d)", beat, n, len(rounds)))
		default:
			strays += n
		}
	}
	names := "none"
	if len(structural) > 0 {
		names = strings.Join(structural, ", ")
	}
	return fmt.Sprintf("presses over %.0f ms: %d of %d; over in at least half the rounds, by the beat shown (rounds over/rounds): %s; over in fewer rounds (strays): %d presses",
		stepBudget, over, len(rounds)*len(rounds[0]), names, strays)
}

// overCount is how many of the presses took longer than stepBudget.
func overCount(ms []float64) int {
	n := 0
	for _, v := range ms {
		if v > stepBudget {
			n++
		}
	}
	return n
}

// traceRound records one stepRound, each press gapMS after the last (at
// least one frame), as a Chrome trace into file, and logs the renderer
// main thread's time per press by phase: in all, and within the frame callbacks stepRound times (the key press,
// its handler and the style and layout its offsetHeight forces). Then,
// press by press (tracks are the figure's, last its last beat): the beat
// it shows, how many tracks change there by field (patch.go names them),
// how many elements its style pass recalculated and how many layout
// objects its layout pass laid out, and its processor time, the slowest
// presses first, into file's name with .txt for its extension. With
// -stepwhy it records invalidation tracking too and lists, for the three
// slowest presses, the class and attribute changes that made style work
// and the elements they invalidated, and why layout objects needed layout.
func traceRound(b testing.TB, ctx context.Context, file, name string, tracks [][]any, last, gapMS int) {
	var presses int
	var extra []string
	if *stepWhy {
		extra = append(extra, browsertest.InvalidationTracking)
	}
	events, err := browsertest.Trace(ctx, func() error {
		presses = len(stepRound(b, ctx, gapMS))
		return nil
	}, extra...)
	if err != nil {
		b.Fatal(err)
	}
	out, err := json.Marshal(map[string]any{"traceEvents": events})
	if err == nil {
		err = os.WriteFile(file, out, 0o644)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s, traced (%d presses, %d events, %s): main thread processor time per press, in the timed part: %s; in the whole frame: %s", name, presses, len(events), file,
		browsertest.FormatBreakdown(browsertest.Breakdown(events, "FireAnimationFrame", browsertest.CPU), presses),
		browsertest.FormatBreakdown(browsertest.Breakdown(events, "", browsertest.CPU), presses))

	// The beat each press of stepRound shows, and the beat whose changes
	// it applies (a step applies the changes at the later of its two
	// beats; the first press, Home, changes nothing).
	works := pressWorks(events)
	first := presses - len(works) // presses whose frame callback the trace missed (it starts as the round does)
	if first < 0 || first > 1 {
		b.Logf("per press: %d frame callbacks in the trace for %d presses; not broken down", len(works), presses)
		return
	}
	changes := map[int]map[string]int{} // beat → field → tracks changing there
	for _, tr := range tracks {
		at := 0
		for i := 3; i+1 < len(tr); i += 2 {
			at += int(tr[i].(float64))
			if changes[at] == nil {
				changes[at] = map[string]int{}
			}
			changes[at][tr[1].(string)]++
		}
	}
	type press struct {
		pressWork
		i, beat int
		fields  string
	}
	var ps []press
	var elements, dirty int
	for k, w := range works {
		i := first + k
		p := press{pressWork: w, i: i}
		switch {
		case i == 0:
			p.fields = "none (Home)"
		case i <= last:
			p.beat = i
			p.fields = fieldCounts(changes[i])
		default:
			p.beat = 2*last - i
			p.fields = fieldCounts(changes[p.beat+1])
		}
		ps = append(ps, p)
		elements += w.elements
		dirty += w.dirty
	}
	b.Logf("per press: %.0f elements restyled, %.0f layout objects laid out, on average", float64(elements)/float64(len(ps)), float64(dirty)/float64(len(ps)))
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].cpu > ps[j].cpu })
	var lines []string
	for k, p := range ps {
		line := fmt.Sprintf("press %d (to beat %d): %.2f ms, %d elements restyled, %d layout objects; tracks changing: %s", p.i, p.beat, p.cpu, p.elements, p.dirty, p.fields)
		if k < 3 && *stepWhy { // the three slowest
			line += "\n\t" + strings.Join(p.why, "\n\t")
		}
		lines = append(lines, line)
	}
	// Into a file: go test keeps only a benchmark log's first ten lines.
	list := strings.TrimSuffix(file, filepath.Ext(file)) + ".txt"
	if err := os.WriteFile(list, []byte(name+": presses, slowest first (processor time of the frame callback):\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Logf("presses, slowest first: %s", list)
}

// fieldCounts writes how many tracks change, by field: "c 31, 0 7, v 4".
func fieldCounts(byField map[string]int) string {
	var fields []string
	for f := range byField {
		fields = append(fields, f)
	}
	sort.Slice(fields, func(i, j int) bool {
		if byField[fields[i]] != byField[fields[j]] {
			return byField[fields[i]] > byField[fields[j]]
		}
		return fields[i] < fields[j]
	})
	var parts []string
	for _, f := range fields {
		parts = append(parts, fmt.Sprintf("%s %d", f, byField[f]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// pressWork is what one timed press cost the renderer's main thread: the
// processor time of its animation frame callback (FireAnimationFrame: the
// key press, its handler, and the style and layout passes its offsetHeight
// forces) and what those passes touched.
type pressWork struct {
	cpu      float64  // milliseconds
	elements int      // elements restyled (UpdateLayoutTree's elementCount)
	dirty    int      // layout objects laid out (Layout's dirtyObjects)
	why      []string // with invalidation tracking: what invalidated them, with counts
}

// pressWorks reads each frame callback of a trace, in order, with the
// style and layout passes inside it. Invalidation tracking events (when
// recorded) are instants, and go to the frame callback they fall in.
func pressWorks(events []browsertest.TraceEvent) []pressWork {
	frames := browsertest.Frames(events)
	out := make([]pressWork, len(frames))
	for k, f := range frames {
		out[k] = pressWork{cpu: f.CPU, elements: f.Restyled, dirty: f.LaidOut}
	}
	whys := make([]map[string]int, len(frames))
	for _, e := range events {
		if !strings.HasSuffix(e.Name, "InvalidationTracking") {
			continue
		}
		k := browsertest.FrameOf(frames, e)
		if k < 0 {
			continue
		}
		var args struct {
			Data struct {
				ChangedClass     string `json:"changedClass"`
				ChangedAttribute string `json:"changedAttribute"`
				Reason           string `json:"reason"`
				NodeName         string `json:"nodeName"`
				InvalidationList []struct {
					TagNames []string `json:"tagNames"`
					Classes  []string `json:"classes"`
				} `json:"invalidationList"`
			} `json:"data"`
		}
		if json.Unmarshal(e.Args, &args) != nil {
			continue
		}
		d := args.Data
		node, _, _ := strings.Cut(d.NodeName, " ") // the element's tag
		why := ""
		switch e.Name {
		case "ScheduleStyleInvalidationTracking":
			why = "change of " + d.ChangedClass + d.ChangedAttribute
		case "StyleInvalidatorInvalidationTracking":
			var sets []string
			for _, l := range d.InvalidationList {
				sets = append(sets, strings.Join(append(l.TagNames, l.Classes...), " "))
			}
			why = "style of " + node + ": " + d.Reason + " " + strings.Join(sets, "; ")
		case "StyleRecalcInvalidationTracking":
			why = "restyle of " + node + ": " + d.Reason
		case "LayoutInvalidationTracking":
			why = "layout of " + node + ": " + d.Reason
		}
		if why != "" {
			if whys[k] == nil {
				whys[k] = map[string]int{}
			}
			whys[k][why]++
		}
	}
	for k, w := range whys {
		var reasons []string
		for why := range w {
			reasons = append(reasons, why)
		}
		sort.Slice(reasons, func(i, j int) bool {
			if w[reasons[i]] != w[reasons[j]] {
				return w[reasons[i]] > w[reasons[j]]
			}
			return reasons[i] < reasons[j]
		})
		for _, why := range reasons {
			out[k].why = append(out[k].why, fmt.Sprintf("%3d× %s", w[why], why))
		}
	}
	return out
}

// stepRound presses Home, then → to the last beat and ← back to the
// first on the figure "heavy", each press gapMS milliseconds (at least one
// animation frame) after the one before, and returns each press's time in
// milliseconds from the key event to the new state laid out.
func stepRound(b testing.TB, ctx context.Context, gapMS int) []float64 {
	tctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	got, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](`(async function(gap){
		var f=document.getElementById('heavy'), out=[], last=+f.dataset.last;
		function frame(){return new Promise(function(r){requestAnimationFrame(function(){r()})})}
		async function key(k){await new Promise(function(r){setTimeout(r,gap)});await frame();var t=performance.now();f.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}));f.offsetHeight;out.push(performance.now()-t);}
		await key('Home');
		for(var i=0;i<last;i++) await key('ArrowRight');
		for(var i=0;i<last;i++) await key('ArrowLeft');
		return out;})(`+itoa(gapMS)+`)`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatal(err)
	}
	return got
}

// TestBrowserPrintAndNoScript: printed, a figure drops its controls and
// shows every beat's caption; with scripts off, the poster beat is shown,
// the controls stay hidden and the storyboard is there to open.
func TestBrowserPrintAndNoScript(t *testing.T) {
	fig := mustFigure(t, acksOneLoss(), "hand")
	srv := testPage(t, fig)

	ctx, checkErrors := browser(t, 900, 800)
	defer checkErrors()
	run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#hand .kf-controls`),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}))
	got := eval[[]bool](t, ctx, `[getComputedStyle(document.querySelector('#hand .kf-controls')).display === 'none',
		Array.from(document.querySelectorAll('#hand .kf-story li')).every(function(li){return li.getBoundingClientRect().height > 0})]`)
	if !got[0] || !got[1] {
		t.Errorf("printed: controls hidden %v, every storyboard caption shown %v", got[0], got[1])
	}

	ctx2, checkErrors2 := browser(t, 900, 800)
	defer checkErrors2()
	run(t, ctx2, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#hand .kf-svg`))
	// Scripts are off for the page, not for the test's own evaluation.
	state := eval[[]any](t, ctx2, `[document.querySelector('#hand .kf-controls') === null,
		document.querySelector('#hand .kf-svg').getBoundingClientRect().height > 100,
		document.querySelectorAll('#hand .kf-story li').length,
		document.querySelector('#hand .kf-counter text').textContent]`)
	if state[0] != true || state[1] != true || int(state[2].(float64)) != len(acksOneLoss().Beats) {
		t.Errorf("without scripts: no controls %v, picture shown %v, %v captions", state[0], state[1], state[2])
	}
	if want := "beat " + itoa(PosterBeat(acksOneLoss())) + " / "; !strings.HasPrefix(state[3].(string), want) {
		t.Errorf("without scripts the counter reads %q, want the poster %q…", state[3], want)
	}
}

// TestBrowserTween: a step to the next beat slides the marks that moved
// (CSS transitions on transform); a jump, a step taken while the last
// slide still runs (0.3 s), and any step for a reader who prefers reduced
// motion cut.
func TestBrowserTween(t *testing.T) {
	srv := testPage(t, mustFigure(t, acksOneLoss(), "hand"))
	const sliding = `document.getAnimations().filter(function(a){return a.transitionProperty==='transform'}).length`
	for _, reduce := range []bool{false, true} {
		ctx, checkErrors := browser(t, 900, 700)
		if reduce {
			run(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
				return err
			}))
		}
		run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#hand .kf-controls`),
			chromedp.Focus(`#hand`), chromedp.KeyEvent(kb.Home), chromedp.Sleep(400*time.Millisecond))
		moved := 0
		for b := 1; b < len(acksOneLoss().Beats) && moved == 0; b++ {
			run(t, ctx, chromedp.Sleep(350*time.Millisecond), chromedp.KeyEvent(kb.ArrowRight))
			moved = eval[int](t, ctx, sliding)
		}
		if reduce && moved != 0 {
			t.Errorf("reduced motion: a step slid %d marks", moved)
		}
		if !reduce && moved == 0 {
			t.Errorf("no step to the next beat slid a mark")
		}
		if !reduce && moved > 0 {
			// Back and forward again at once: the second step comes while
			// the first one's slide runs, so it cuts, and nothing slides.
			run(t, ctx, chromedp.Sleep(400*time.Millisecond))
			got := eval[[]any](t, ctx, `(function(){var f=document.getElementById('hand');
				['ArrowLeft','ArrowRight'].forEach(function(k){f.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}))});
				return [`+sliding+`, f.classList.contains('kf-cut')]})()`)
			if got[0].(float64) != 0 || got[1] != true {
				t.Errorf("two steps at once: %v marks slide, cut %v; want 0, true", got[0], got[1])
			}
		}
		run(t, ctx, chromedp.Sleep(400*time.Millisecond), chromedp.KeyEvent(kb.Home))
		if n := eval[int](t, ctx, sliding); n != 0 {
			t.Errorf("a jump to the first beat slid %d marks", n)
		}
		checkErrors()
	}
}

// TestBrowserFlyIn: a step that shows a message's token again flies it in
// from its sender's row (stepper.js fly), and Chromium runs each flight on
// the compositor thread, never on the main thread frame after frame (as it
// ran a CSS animation of translate on an SVG element: compositeFailed
// SVGTargetHasIndependentTransformProperty). A reader who prefers reduced
// motion gets no flight, and a jump flies nothing.
func TestBrowserFlyIn(t *testing.T) {
	var tr *sim.Trace
	for _, nt := range testdataTraces(t) {
		if nt.name == "acks-one-loss" {
			tr = nt.t
		}
	}
	if tr == nil {
		t.Fatal("no testdata/acks-one-loss.yaml")
	}
	srv := testPage(t, mustFigure(t, tr, "hand"))
	steps := min(len(tr.Beats)-1, 8)
	for _, reduce := range []bool{false, true} {
		ctx, checkErrors := browser(t, 900, 700)
		if reduce {
			run(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
				return err
			}))
		}
		run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#hand .kf-controls`), chromedp.Sleep(400*time.Millisecond))
		// Steps to the next beat, each after the last one's slides and
		// flights, then a jump to the last beat and back to the first.
		var shown float64
		events, err := browsertest.Trace(ctx, func() error {
			tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			var err error
			shown, err = chromedp.Run(tctx, chromedp.Evaluate[float64](`(async function(steps){
				var f=document.getElementById('hand'), shown=0;
				function key(k){f.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}))}
				function wait(ms){return new Promise(function(r){setTimeout(r,ms)})}
				for(var i=0;i<steps;i++){
					var gone=new Set(f.querySelectorAll('.kf-msg.kf-gone'));
					key('ArrowRight');
					f.querySelectorAll('.kf-msg:not(.kf-gone)').forEach(function(g){if(gone.has(g))shown++});
					await wait(600);
				}
				key('End'); await wait(600); key('Home'); await wait(600);
				return shown;})(`+itoa(steps)+`)`, chromedp.EvalAwaitPromise))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if shown == 0 {
			t.Fatalf("no step of the first %d showed a token again", steps)
		}
		var flights []browsertest.Animation
		for _, a := range browsertest.Animations(events) {
			// A token's slide and fade are transitions, named by their property.
			if strings.Contains(a.Node, "kf-msg") && a.Name != "transform" && a.Name != "opacity" {
				flights = append(flights, a)
			}
		}
		switch {
		case reduce && len(flights) > 0:
			t.Errorf("reduced motion: %d tokens flew in (the first: %+v)", len(flights), flights[0])
		case !reduce && len(flights) != int(shown):
			t.Errorf("steps showed %.0f tokens again, and %d flew in", shown, len(flights))
		}
		for _, a := range flights {
			// Chromium skips an animation it finds changes nothing that
			// shows (a token clipped away at once), which is no cost.
			if len(a.Failed) > 0 && !slices.Equal(a.Failed, []string{"AnimationHasNoVisibleChange"}) {
				t.Errorf("a token's flight (%s on %s) ran on the main thread: %s", a.Name, a.Node, strings.Join(a.Failed, ", "))
			}
		}
		checkErrors()
	}
}

// TestBrowserRingIsPaint: the ring on what changed (kf-new) is drawn by
// properties Chromium only repaints, so a step that moves rings lays
// nothing out again. For every mark of every guide figure, the properties
// that lay an SVG mark out (its text's font, a shape's stroke, its
// geometry) compute the same with the ring as without it; a ring in heavier
// type or a wider stroke (as rings once were) fails here.
func TestBrowserRingIsPaint(t *testing.T) {
	srv, ids := guidePage(t)
	ctx, checkErrors := browser(t, 1280, 900)
	defer checkErrors()
	run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`.kf-controls`))
	for _, id := range ids {
		got := eval[[]string](t, ctx, `(function(f){
			var props=['font-weight','font-size','font-family','letter-spacing','stroke','stroke-width','stroke-dasharray',
				'display','transform','x','y','width','height','text-anchor','dominant-baseline'], out=[];
			function look(g){return [g].concat(Array.from(g.querySelectorAll('*'))).map(function(e){
				var cs=getComputedStyle(e); return props.map(function(p){return cs.getPropertyValue(p)}).join(';')})}
			Array.from(f.querySelectorAll('.kf-svg > g')).forEach(function(g){
				var had=g.classList.contains('kf-new');
				g.classList.remove('kf-new'); var plain=look(g);
				g.classList.add('kf-new'); var ringed=look(g);
				g.classList.toggle('kf-new', had);
				for(var i=0;i<plain.length;i++) if(plain[i]!==ringed[i]) {
					var a=plain[i].split(';'), b=ringed[i].split(';');
					for(var k=0;k<props.length;k++) if(a[k]!==b[k]) out.push(g.getAttribute('class')+': '+props[k]+' '+a[k]+' → '+b[k]);
					break;
				}
			});
			return out;})(document.getElementById('`+id+`'))`)
		for _, g := range got {
			t.Errorf("%s: the ring changes what lays the mark out: %s", id, g)
		}
	}
}

// TestBrowserSteadyHeight: stepping never moves the page under the
// reader. At a desktop and a phone width, every guide figure is stepped
// through every beat, and its box keeps one height (the caption area is as
// tall as the tallest beat's caption, with its "n more" closed).
func TestBrowserSteadyHeight(t *testing.T) {
	srv, ids := guidePage(t)
	for _, width := range []int{1280, 390} {
		ctx, checkErrors := browser(t, width, 900)
		run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`.kf-controls`))
		// Each figure's height at every beat, stepped with → (one
		// evaluation per figure, so that a busy machine does not run
		// one past its timeout).
		for _, id := range ids {
			hs := eval[[]float64](t, ctx, `(function(f){var hs=[], last=+f.dataset.last;
				f.dispatchEvent(new KeyboardEvent('keydown',{key:'Home',bubbles:true}));
				for(var b=0;b<=last;b++){
					hs.push(f.getBoundingClientRect().height);
					f.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight',bubbles:true}));
				}
				return hs;})(document.getElementById('`+id+`'))`)
			if len(hs) == 0 {
				t.Fatalf("%d px: %s: no heights", width, id)
			}
			for b, h := range hs {
				if h != hs[0] {
					t.Errorf("%d px: %s is %.1f px tall at beat %d, %.1f px at beat 0", width, id, h, b, hs[0])
					break
				}
			}
		}
		checkErrors()
	}
}

// TestBrowserOpensAtStart: with scripts on, a figure opens at beat 0 (its
// no-JS poster stays the most telling beat), or at the beat the author
// chose (Options.Open), and play runs on from there.
func TestBrowserOpensAtStart(t *testing.T) {
	tr := acksOneLoss()
	plain := mustFigure(t, tr, "plain")
	chosen, err := Figure(tr, Options{ID: "chosen", Poster: 4, PosterChosen: true, Open: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(plain), `data-poster="`+itoa(PosterBeat(tr))+`" data-open="0"`) {
		t.Errorf("plain figure: want the most telling poster and data-open 0")
	}
	srv := testPage(t, plain, chosen)
	ctx, checkErrors := browser(t, 900, 800)
	defer checkErrors()
	run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#chosen .kf-controls`))
	if s := readFig(t, ctx, "plain"); s.Scrub != "0" || !strings.HasPrefix(s.Caption, "beat 0 — ") {
		t.Errorf("plain figure opened at beat %s (%q), want 0", s.Scrub, s.Caption)
	}
	if s := readFig(t, ctx, "chosen"); s.Scrub != "4" || !strings.HasPrefix(s.Caption, "beat 4 — ") {
		t.Errorf("figure with poster 4 opened at beat %s (%q), want 4", s.Scrub, s.Caption)
	}
	// Play, and wait (no fixed time) until it has moved on.
	run(t, ctx, chromedp.Click(`#chosen [data-a=play]`))
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelector('#chosen .kf-scrub').value !== '4'`)); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.Click(`#chosen [data-a=play]`))
	if s := readFig(t, ctx, "chosen"); s.Scrub == "0" || s.Scrub == "4" {
		t.Errorf("play from beat 4 shows beat %s; want it to run on from 4", s.Scrub)
	}
}
