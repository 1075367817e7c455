package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/site"
)

// RunBudget is issue 15's bound on the playground's Run: from pressing it
// to the first frame of the figure drawn, for every fence of the guide, in
// Chromium. A timing: printed beside the figure, never gating.
const RunBudget = 250 * time.Millisecond

// PlaygroundTimes is how fast the playground answers Run, measured in
// Chromium on the built site opened as files (as a reader without a server
// opens it). Start is the time from opening the page to the engine being
// ready (the module inflated, compiled, started and warmed on one small
// fence, which playground.js does before it enables Run). Then every fence
// of the guide is put in the editor and run, Passes times over; each run
// is timed from the call of kfRun (what the Run button calls) until the
// figure's first frame has been drawn (kfRun resolves after the next
// animation frame). First is the first of those runs, the one the engine
// was least warm for; Median, P99 and Max are over all Fences × Passes
// runs (P99 is the run at rank ⌈0.99 n⌉, the slowest when n < 100).
// ModuleMedian and ModuleP99 are the same over the part of each run spent
// in the module (kflowFigure: parse, simulate, check, draw, in the
// playground's Worker, with the messages there and back); the rest of a
// run is the page's (the markup shown, the stepper wired, the frame
// painted).
type PlaygroundTimes struct {
	Chromium                string
	Fences, Passes          int
	Start, First            time.Duration
	Median, P99, Max        time.Duration
	ModuleMedian, ModuleP99 time.Duration
	Slowest                 string // the scenario id of the slowest run
	runs                    []time.Duration
}

// FindChromium returns the Chromium to measure the playground with:
// $CHROMIUM, else chromium (or chromium-browser, google-chrome) on PATH,
// else "".
func FindChromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// guideFences returns the body of every kflow fence of the content, in
// path order.
func guideFences(content fs.FS) ([]string, error) {
	var out []string
	err := fs.WalkDir(content, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := fs.ReadFile(content, p)
		for _, f := range site.FindFences(src) {
			out = append(out, string(f.Body))
		}
		return err
	})
	return out, err
}

// timePlayground opens dir's playground page in a headless Chromium (the
// flags this project runs it with everywhere: no sandbox, GPU, QUIC,
// background networking, component updates or sync) and times Run on
// every fence, passes times over.
func timePlayground(chromium, dir string, fences []string, passes int) (*PlaygroundTimes, error) {
	if len(fences) == 0 {
		return nil, errors.New("playground: the guide has no fence to run")
	}
	profile, err := os.MkdirTemp("", "kflowgen-bench-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	if err := chromedp.Do(ctx); err != nil { // starts the browser: no timeout on this one
		return nil, fmt.Errorf("playground: starting %s: %w", chromium, err)
	}
	// Timeouts that only a hang reaches.
	hang := func(d time.Duration) (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, d) }
	url := "file://" + filepath.ToSlash(filepath.Join(dir, playground.PageFile))
	tctx, cancel := hang(2 * time.Minute)
	err = chromedp.Do(tctx, chromedp.Navigate(url))
	var startMS float64
	if err == nil {
		startMS, err = chromedp.Run(tctx, chromedp.Evaluate[float64](`kfReady.then(() => performance.now())`, chromedp.EvalAwaitPromise))
	}
	cancel()
	if err != nil {
		return nil, fmt.Errorf("playground: opening %s: %w", url, err)
	}
	list, _ := json.Marshal(fences)
	t := &PlaygroundTimes{Chromium: chromium, Fences: len(fences), Passes: passes, Start: time.Duration(startMS * float64(time.Millisecond))}
	var module []time.Duration
	for range passes {
		tctx, cancel := hang(5 * time.Minute)
		// Each run gives two numbers: its time, and the time until the
		// engine answered (kfEngine.figure, which playground.js looks up
		// on each call, so a wrapper here sees it).
		ms, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](`(async fences => {
			const text = document.getElementById('pg-text'), out = [], figure = kfEngine.figure;
			let inModule = 0;
			kfEngine.figure = async (...a) => { const t = performance.now(); try { return await figure(...a); } finally { inModule += performance.now() - t; } };
			try {
				for (const f of fences) {
					text.value = f;
					inModule = 0;
					const t0 = performance.now();
					await kfRun();
					out.push(performance.now() - t0, inModule);
				}
			} finally { kfEngine.figure = figure; }
			return out;
		})(`+string(list)+`)`, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			return nil, fmt.Errorf("playground: running the guide's fences: %w", err)
		}
		if len(ms) != 2*len(fences) {
			return nil, fmt.Errorf("playground: %d timings for %d fences", len(ms), len(fences))
		}
		for i := 0; i < len(ms); i += 2 {
			t.runs = append(t.runs, time.Duration(ms[i]*float64(time.Millisecond)))
			module = append(module, time.Duration(ms[i+1]*float64(time.Millisecond)))
		}
	}
	t.First = t.runs[0]
	slowest := 0
	for i, d := range t.runs {
		if d > t.runs[slowest] {
			slowest = i
		}
	}
	t.Slowest = fenceID(fences[slowest%len(fences)])
	sorted := slices.Clone(t.runs)
	slices.Sort(sorted)
	n := len(sorted)
	t.Median, t.P99, t.Max = sorted[n/2], sorted[(n*99+99)/100-1], sorted[n-1]
	slices.Sort(module)
	t.ModuleMedian, t.ModuleP99 = module[n/2], module[(n*99+99)/100-1]
	return t, nil
}

// fenceID is the value of a fence's id: line, for naming the slowest run.
func fenceID(body string) string {
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, "id:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
