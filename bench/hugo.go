package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing/fstest"
	"text/tabwriter"
	"time"
)

// Budgets against Hugo (issue 17), printed beside each figure. Like the
// other time budgets they never fail a run: they depend on the machine and
// its load.
const (
	// HugoRatioBudget is the most kflowgen's cold build may take, in wall
	// time, as a multiple of Hugo's on a site of the same pages.
	HugoRatioBudget = 1.0
	// ReloadBudget is the most a save may take to reach the served page.
	ReloadBudget = 100 * time.Millisecond
	// RSSBudget is the most memory (peak resident set) a cold build of
	// RSSPages pages may use: 1 GB (decimal).
	RSSBudget = 1_000_000_000
	// RSSPages is the page count RSSBudget speaks of.
	RSSPages = 1000
)

// HugoOptions configure AgainstHugo.
type HugoOptions struct {
	// Kflowgen runs kflowgen: the program and any arguments that come
	// before the subcommand. Required.
	Kflowgen []string
	// Env is added to the environment kflowgen runs in.
	Env []string
	// Hugo is the hugo program; "" times kflowgen alone and says so.
	Hugo string
	// Guide holds the guide the sites are made of (GuideSite). Required.
	Guide fs.FS
	// Pages lists the sites' page counts for the cold builds; SavePages
	// those for save-to-reload. A count below the guide's own is the
	// guide itself. VariedPages lists page counts for cold builds of
	// VariedGuideSites (every fence its own), timed after Pages' the same
	// way.
	Pages, SavePages, VariedPages []int
	// Runs is how many paired cold builds, and how many paired saves, make
	// each median. Zero means 5.
	Runs int
}

// HugoReport holds what AgainstHugo measured.
type HugoReport struct {
	// Hugo is the hugo program's version line, "" when it was not run.
	Hugo string
	Runs int
	// Builds holds one row per page count, Saves one per save page count.
	Builds, Saves []PairedRow
}

// PairedRow is a measure of kflowgen and Hugo on one site, taken in runs
// that alternate between the two (kflowgen first).
type PairedRow struct {
	// Pages counts the site's Markdown files (index.md included).
	Pages int
	// Varied says the site is a VariedGuideSite: no fence repeats
	// another, so kflowgen draws every figure.
	Varied bool
	// Kflowgen and Hugo are each run's wall time, in run order (Hugo's
	// empty when it was not run); Load the 1-minute load average read
	// before each pair.
	Kflowgen, Hugo []time.Duration
	Load           []string
	// KflowgenRSS and HugoRSS are the largest peak resident set, in bytes,
	// of any run (cold builds only).
	KflowgenRSS, HugoRSS int64
	// KflowgenCPU and HugoCPU are each cold build's processor time (user
	// and system), in run order: on a busy machine wall time stretches
	// with the load, processor time much less.
	KflowgenCPU, HugoCPU []time.Duration
}

// Ratio is the median of kflowgen's wall times over the median of Hugo's,
// in thousandths (1000 is 1.0×), or 0 without Hugo.
func (r PairedRow) Ratio() int {
	k, h := median(r.Kflowgen), median(r.Hugo)
	if h <= 0 {
		return 0
	}
	return int(int64(k) * 1000 / int64(h))
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// AgainstHugo builds, for each page count, a GuideSite (for each of
// VariedPages, a VariedGuideSite) and the HugoSite of the same Markdown in
// a temporary folder, then times Runs cold builds
// of each, kflowgen's and Hugo's in turn (`kflowgen build`, `hugo`; the
// output folder removed before each, untimed). For each save page count
// it starts `kflowgen serve` and `hugo server` on the two sites and times,
// Runs times in turn, from writing acks.md with its first figure's title
// changed to the served acks page showing the new title, polling it every
// 2 ms (so both are measured the same way, through HTTP, the way a reload
// fetches it); one save of each is made first and not counted. Progress
// goes to log, one line a run.
func AgainstHugo(o HugoOptions, log io.Writer) (*HugoReport, error) {
	if len(o.Kflowgen) == 0 || o.Guide == nil {
		return nil, errors.New("AgainstHugo: Kflowgen and Guide are required")
	}
	if o.Runs <= 0 {
		o.Runs = 5
	}
	r := &HugoReport{Runs: o.Runs}
	if o.Hugo != "" {
		v, err := exec.Command(o.Hugo, "version").Output()
		if err != nil {
			return nil, fmt.Errorf("%s version: %w", o.Hugo, err)
		}
		r.Hugo = strings.TrimSpace(string(v))
	}
	tmp, err := os.MkdirTemp("", "kflowgen-hugo-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	type build struct {
		n      int
		varied bool
	}
	var builds []build
	for _, n := range o.Pages {
		builds = append(builds, build{n, false})
	}
	for _, n := range o.VariedPages {
		builds = append(builds, build{n, true})
	}
	for _, b := range builds {
		n := b.n
		dir := filepath.Join(tmp, "build-"+strconv.Itoa(n))
		if b.varied {
			dir += "-varied"
		}
		k, h, pages, err := writeSites(o.Guide, n, b.varied, dir)
		if err != nil {
			return nil, err
		}
		row := PairedRow{Pages: pages, Varied: b.varied}
		kout, hout := filepath.Join(dir, "kpublic"), filepath.Join(h, "public")
		for run := range o.Runs {
			row.Load = append(row.Load, loadAverage())
			if err := os.RemoveAll(kout); err != nil {
				return nil, err
			}
			d, cpu, rss, err := timed(o.kflowgen("build", "--content", k, "--out", kout))
			if err != nil {
				return nil, fmt.Errorf("kflowgen build of %d pages: %w", pages, err)
			}
			row.Kflowgen, row.KflowgenRSS = append(row.Kflowgen, d), max(row.KflowgenRSS, rss)
			row.KflowgenCPU = append(row.KflowgenCPU, cpu)
			line := fmt.Sprintf("%s, run %d (load %s): kflowgen %s", row.site(), run+1, row.Load[run], ms(d))
			if o.Hugo != "" {
				for _, p := range []string{hout, filepath.Join(h, "resources")} {
					if err := os.RemoveAll(p); err != nil {
						return nil, err
					}
				}
				d, cpu, rss, err := timed(exec.Command(o.Hugo, "--source", h, "--quiet"))
				if err != nil {
					return nil, fmt.Errorf("hugo build of %d pages: %w", pages, err)
				}
				row.Hugo, row.HugoRSS = append(row.Hugo, d), max(row.HugoRSS, rss)
				row.HugoCPU = append(row.HugoCPU, cpu)
				line += ", hugo " + ms(d)
			}
			fmt.Fprintln(log, line)
		}
		r.Builds = append(r.Builds, row)
	}

	for _, n := range o.SavePages {
		dir := filepath.Join(tmp, "save-"+strconv.Itoa(n))
		k, h, pages, err := writeSites(o.Guide, n, false, dir)
		if err != nil {
			return nil, err
		}
		row, err := o.saves(k, h, pages, log)
		if err != nil {
			return nil, err
		}
		r.Saves = append(r.Saves, row)
	}
	return r, nil
}

func (o *HugoOptions) kflowgen(args ...string) *exec.Cmd {
	cmd := exec.Command(o.Kflowgen[0], append(slices.Clone(o.Kflowgen[1:]), args...)...)
	cmd.Env = append(os.Environ(), o.Env...)
	return cmd
}

// site names the row's site in the report: "288 pages", "288 pages,
// fences varied".
func (r PairedRow) site() string {
	s := strconv.Itoa(r.Pages) + " pages"
	if r.Varied {
		s += ", fences varied"
	}
	return s
}

// writeSites writes the GuideSite of n pages (at least the guide's own
// count; a VariedGuideSite when varied) into dir/content and its HugoSite
// into dir/hugo.
func writeSites(guide fs.FS, n int, varied bool, dir string) (k, h string, pages int, err error) {
	names, err := fs.Glob(guide, "*.md")
	if err != nil {
		return "", "", 0, err
	}
	gs, err := guideSite(guide, max(n, len(names)), varied)
	if err != nil {
		return "", "", 0, err
	}
	k, h = filepath.Join(dir, "content"), filepath.Join(dir, "hugo")
	for root, fsys := range map[string]fstest.MapFS{k: gs, h: HugoSite(gs)} {
		for name, f := range fsys {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return "", "", 0, err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return "", "", 0, err
			}
		}
	}
	return k, h, len(gs), nil
}

// timed runs cmd and returns its wall time, its processor time (user and
// system) and its peak resident set in bytes.
func timed(cmd *exec.Cmd) (wall, cpu time.Duration, rss int64, err error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%w: %s", err, firstLines(out.String(), 5))
	}
	ps := cmd.ProcessState
	return wall, ps.UserTime() + ps.SystemTime(), maxRSS(ps), nil
}

// maxRSS is a finished process's peak resident set in bytes (Linux counts
// ru_maxrss in kilobytes), or 0 where the system does not say.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) * 1024
	}
	return 0
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// loadAverage is the 1-minute load average (/proc/loadavg), or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// servingAt finds the address `kflowgen serve` prints.
var servingAt = regexp.MustCompile(`at (http://[^ ]+/)`)

// saves starts both servers on the sites k and h and times their saves.
func (o *HugoOptions) saves(k, h string, pages int, log io.Writer) (PairedRow, error) {
	row := PairedRow{Pages: pages}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	ks := o.kflowgen("serve", "--content", k, "--port", "0")
	stdout, err := ks.StdoutPipe()
	if err != nil {
		return row, err
	}
	if err := ks.Start(); err != nil {
		return row, fmt.Errorf("kflowgen serve: %w", err)
	}
	defer func() { _ = ks.Process.Signal(os.Interrupt); _ = ks.Wait() }()
	kbase := ""
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if m := servingAt.FindStringSubmatch(sc.Text()); m != nil {
			kbase = m[1]
			break
		}
	}
	if kbase == "" {
		return row, errors.New("kflowgen serve did not say where it serves")
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	targets := []saveTarget{{file: filepath.Join(k, "acks.md"), url: kbase + "acks.html"}}

	if o.Hugo != "" {
		port, err := freePort()
		if err != nil {
			return row, err
		}
		hs := exec.CommandContext(ctx, o.Hugo, "server", "--source", h, "--bind", "127.0.0.1", "--port", strconv.Itoa(port))
		hs.Stdout, hs.Stderr = io.Discard, io.Discard
		hs.Cancel = func() error { return hs.Process.Signal(os.Interrupt) }
		hs.WaitDelay = 5 * time.Second
		if err := hs.Start(); err != nil {
			return row, fmt.Errorf("hugo server: %w", err)
		}
		defer func() { cancel(); _ = hs.Wait() }()
		targets = append(targets, saveTarget{file: filepath.Join(h, "content", "acks.md"), url: "http://127.0.0.1:" + strconv.Itoa(port) + "/acks/"})
	}
	for i := range targets {
		if err := targets[i].ready(); err != nil {
			return row, err
		}
	}
	for run := -1; run < o.Runs; run++ {
		load := loadAverage()
		var ds []time.Duration
		for i := range targets {
			d, err := targets[i].save(run + 1)
			if err != nil {
				return row, err
			}
			ds = append(ds, d)
		}
		if run < 0 {
			continue // the warm-up save of each
		}
		row.Load = append(row.Load, load)
		row.Kflowgen = append(row.Kflowgen, ds[0])
		line := fmt.Sprintf("%d pages, save %d (load %s): kflowgen %s", pages, run+1, load, ms(ds[0]))
		if len(ds) > 1 {
			row.Hugo = append(row.Hugo, ds[1])
			line += ", hugo " + ms(ds[1])
		}
		fmt.Fprintln(log, line)
	}
	return row, nil
}

// saveTarget is one server's page and the content file it shows.
type saveTarget struct {
	file, url string
	src       []byte
}

var client = &http.Client{Timeout: 10 * time.Second}

// ready waits, up to two minutes, for the page to be served, and reads
// the content file.
func (t *saveTarget) ready() error {
	var err error
	if t.src, err = os.ReadFile(t.file); err != nil {
		return err
	}
	if !bytes.Contains(t.src, []byte("```kflow\n")) || !bytes.Contains(t.src, []byte("\ntitle: ")) {
		return fmt.Errorf("%s has no kflow fence with a title to edit", t.file)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := client.Get(t.url)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s was not served within two minutes (%v)", t.url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// save writes the content file with its first figure's title starting
// "edit N, " and returns how long the page took to show it.
func (t *saveTarget) save(n int) (time.Duration, error) {
	fence := bytes.Index(t.src, []byte("```kflow\n"))
	at := fence + bytes.Index(t.src[fence:], []byte("\ntitle: ")) + len("\ntitle: ")
	mark := fmt.Appendf(nil, "edit %d, ", n)
	edited := slices.Concat(t.src[:at], mark, t.src[at:])
	start := time.Now()
	if err := os.WriteFile(t.file, edited, 0o644); err != nil {
		return 0, err
	}
	deadline := start.Add(2 * time.Minute)
	for {
		resp, err := client.Get(t.url)
		if err == nil {
			body, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil && bytes.Contains(body, mark) {
				return time.Since(start), nil
			}
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%s did not show the save to %s within two minutes", t.url, t.file)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// freePort asks the system for a free TCP port on the loopback address.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Write prints the report: the paired cold builds with their ratio, peak
// memory and the load before each pair, then the saves, each figure
// beside its budget.
func (r *HugoReport) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format+"\n", args...) }
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "MISSED"
	}
	if r.Hugo == "" {
		p("hugo is not installed (no hugo on PATH; apt-get install hugo): kflowgen timed alone, no ratios")
	} else {
		p("against %s", r.Hugo)
	}
	p("paired runs, kflowgen then hugo, %d of each; medians of wall time; load = 1-minute load average before each pair", r.Runs)
	p("")
	p("cold build\tkflowgen\thugo\tratio\tbudget\t\tCPU kflowgen\tCPU hugo\tCPU ratio\tkflowgen peak RSS\thugo peak RSS\tload at each run")
	for _, b := range r.Builds {
		ratio, ok := "-", "-"
		if x := b.Ratio(); x > 0 {
			ratio, ok = thousandths(x)+"×", verdict(x <= int(HugoRatioBudget*1000))
		}
		rss := mb(b.KflowgenRSS)
		if b.Pages == RSSPages {
			rss += fmt.Sprintf(" (budget ≤ %s: %s)", mb(RSSBudget), verdict(b.KflowgenRSS <= RSSBudget))
		}
		cpuRatio := "-"
		if k, h := median(b.KflowgenCPU), median(b.HugoCPU); h > 0 {
			cpuRatio = thousandths(int(int64(k)*1000/int64(h))) + "×"
		}
		p("  %s\t%s\t%s\t%s\t≤ %s×\t%s\t%s\t%s\t%s\t%s\t%s\t%s", b.site(), ms(median(b.Kflowgen)), msOrDash(b.Hugo), ratio,
			thousandths(int(HugoRatioBudget*1000)), ok, ms(median(b.KflowgenCPU)), msOrDash(b.HugoCPU), cpuRatio,
			rss, mbOrDash(b.HugoRSS), strings.Join(b.Load, " "))
	}
	if len(r.Saves) > 0 {
		p("")
		p("save to reload\tkflowgen\thugo\tbudget\t\tload at each save")
		for _, s := range r.Saves {
			k := median(s.Kflowgen)
			p("  %d pages\t%s\t%s\t≤ %s\t%s\t%s", s.Pages, ms(k), msOrDash(s.Hugo), ms(ReloadBudget), verdict(k <= ReloadBudget), strings.Join(s.Load, " "))
		}
	}
	return tw.Flush()
}

func msOrDash(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	return ms(median(ds))
}

// mb prints bytes in decimal megabytes ("689 MB").
func mb(n int64) string { return strconv.FormatInt(n/1_000_000, 10) + " MB" }

func mbOrDash(n int64) string {
	if n == 0 {
		return "-"
	}
	return mb(n)
}
