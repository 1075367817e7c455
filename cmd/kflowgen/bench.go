package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/bench"
	"github.com/spf13/cobra"
)

// benchOptions are the flags of `kflowgen bench`.
type benchOptions struct {
	// contentDir is the folder of pages, as for build.
	contentDir string
	// runs is how many timed builds make each build figure.
	runs int
	// cpuProfile, when set, receives a pprof CPU profile of the whole
	// benchmark (go tool pprof FILE).
	cpuProfile string
	// chromium is the browser the playground is timed in: "auto" finds
	// one (bench.FindChromium), "none" skips the measure.
	chromium string
	// againstHugo runs the side-by-side comparison with Hugo instead
	// (bench.AgainstHugo) on sites of pages and savePages pages.
	againstHugo      bool
	pages, savePages []int
	// variedPages are the page counts of the sites whose copies' fences
	// all differ (bench.VariedGuideSite), built cold after pages'.
	variedPages []int
}

func newBenchCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure build time, page weight and engine speed against the budgets",
		Long: "bench builds the guide as build and serve do and prints: the build's wall time (first,\n" +
			"cold, and warm as serve rebuilds; budget 0.5 s), the pages, figures and beats, the site's\n" +
			"bytes raw and gzip, each page's gzip bytes at first paint (its HTML and the stylesheets and\n" +
			"scripts it loads; budget 40 KB), what each figure's knobs add to its page's first paint\n" +
			"(budget 10% of the page without them; the other combinations load on demand), the figure\n" +
			"scripts' gzip bytes (stepper.js and kf-words.js; budget 8 KB), each figure's gzip bytes\n" +
			"against its information bound (for information), the engine's beats/s and record-beats/s\n" +
			"(budget 1,000,000), a build of a scenario at every size limit, and the time the engine's\n" +
			"invariant check (run by every build on every beat) takes of those builds, the playground's\n" +
			"WebAssembly module, raw and gzip (budget 1.5 MB gzip), and, in Chromium, the time from the\n" +
			"playground's Run to the figure's first frame for every fence of the guide, median and p99\n" +
			"(budget 250 ms). It exits with status 1 when a page, knob or figure-script byte budget is\n" +
			"missed (the module's is reported only); sizes do not depend on the machine, timings do,\n" +
			"so timings never fail it. It reads the content like build (./content, else the built-in\n" +
			"guide) and writes only to a temporary folder.\n\n" +
			"With --against-hugo it measures kflowgen beside Hugo instead, on sites made of the\n" +
			"guide's pages repeated to --pages counts (0: the guide itself) and a Hugo site of the\n" +
			"same Markdown: cold builds in paired runs (kflowgen, then hugo, --runs times; budget\n" +
			"1.0x Hugo's wall time) with each build's peak memory (budget 1 GB at 1,000 pages); then\n" +
			"the same on sites of --varied-pages counts whose copies' fences are their own (each\n" +
			"copy's figure titles start \"copy N, \"), so that kflowgen draws every figure instead of\n" +
			"once per distinct fence as on the repeated guide; then\n" +
			"save-to-reload under kflowgen serve and hugo server at --save-pages counts (budget\n" +
			"100 ms), each figure with the load average of its runs. Without hugo on PATH it says so\n" +
			"and times kflowgen alone.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(o, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.contentDir, "content", "", "folder of Markdown pages (default ./content if it exists, else the built-in guide)")
	f.IntVar(&o.runs, "runs", 5, "timed builds behind each build figure")
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the benchmark to this file")
	f.StringVar(&o.chromium, "chromium", "auto", `Chromium to time the playground in: a path, "auto" ($CHROMIUM, else chromium on PATH; skipped when none), or "none"`)
	f.BoolVar(&o.againstHugo, "against-hugo", false, "instead, time cold builds and saves side by side with Hugo on sites of the same pages")
	o.pages, o.savePages, o.variedPages = []int{0, 288, 1000}, []int{0, 500}, []int{288}
	f.Var((*pageCounts)(&o.pages), "pages", "with --against-hugo: the sites' page counts for cold builds (0 or less than the guide's: the guide itself; '' for none)")
	f.Var((*pageCounts)(&o.savePages), "save-pages", "with --against-hugo: the sites' page counts for save-to-reload ('' for none)")
	f.Var((*pageCounts)(&o.variedPages), "varied-pages", "with --against-hugo: the page counts for cold builds of sites whose copies' fences all differ ('' for none)")
	return cmd
}

// runBench runs the benchmark and prints its report.
func runBench(o *benchOptions, stdout, stderr io.Writer) (err error) {
	if o.runs < 1 {
		return fmt.Errorf("--runs %d: give at least 1", o.runs)
	}
	src, _, err := contentSource(o.contentDir)
	if err != nil {
		return err
	}
	stop, err := startCPUProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); err == nil {
			err = serr
		}
	}()
	if o.againstHugo {
		return runAgainstHugo(o, src, stdout, stderr)
	}
	chromium := o.chromium
	switch chromium {
	case "auto":
		chromium = bench.FindChromium()
		if chromium == "" {
			fmt.Fprintln(stdout, "no Chromium found ($CHROMIUM, chromium on PATH): the playground's Run is not timed")
		}
	case "none":
		chromium = ""
	}
	r, err := bench.Run(bench.Options{Content: src, ContentName: contentName(o.contentDir), Runs: o.runs, Chromium: chromium})
	if err != nil {
		return wrapSiteErr(err)
	}
	if err := r.Write(stdout); err != nil {
		return err
	}
	// One error a missed byte budget, each printed on its own line.
	var missed []error
	for _, m := range r.Missed() {
		missed = append(missed, errors.New("byte budget missed: "+m))
	}
	return errors.Join(missed...)
}

// runAgainstHugo runs this very program as kflowgen beside hugo (found on
// PATH) and prints bench.AgainstHugo's report; progress goes to stderr.
func runAgainstHugo(o *benchOptions, guide fs.FS, stdout, stderr io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding kflowgen itself: %w", err)
	}
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		fmt.Fprintln(stderr, "kflowgen: hugo is not installed (no hugo on PATH; apt-get install hugo): timing kflowgen alone")
		hugo = ""
	}
	r, err := bench.AgainstHugo(bench.HugoOptions{Kflowgen: []string{self}, Env: selfEnv, Hugo: hugo, Guide: guide,
		Pages: o.pages, SavePages: o.savePages, VariedPages: o.variedPages, Runs: o.runs}, stderr)
	if err != nil {
		return err
	}
	return r.Write(stdout)
}

// selfEnv is added to the environment of the kflowgen that --against-hugo
// runs (tests set it so that their binary acts as kflowgen).
var selfEnv []string

// pageCounts is the value of bench's --pages, --save-pages and
// --varied-pages: page counts separated by commas, where an empty value
// ("--save-pages ”") asks for no such rows. pflag's own int slice reads
// "" as one empty number and fails.
type pageCounts []int

func (p *pageCounts) String() string {
	s := make([]string, len(*p))
	for i, n := range *p {
		s[i] = strconv.Itoa(n)
	}
	return "[" + strings.Join(s, ",") + "]"
}

func (p *pageCounts) Set(v string) error {
	*p = nil
	if strings.TrimSpace(v) == "" {
		return nil
	}
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a page count: give whole numbers ≥ 0 separated by commas, or '' for none", f)
		}
		*p = append(*p, n)
	}
	return nil
}

func (p *pageCounts) Type() string { return "ints" }
