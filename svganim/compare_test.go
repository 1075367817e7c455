package svganim

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
)

// comparePair runs testdata/compare/NAME.yaml: the fence and its compare
// run.
func comparePair(t testing.TB, name string) (a, b *sim.Trace) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "compare", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	base, variant, errs := scenario.ParseCompare(src)
	if errs != nil || variant == nil {
		t.Fatalf("%s: %v (variant %v)", name, errs, variant != nil)
	}
	return sim.Run(base), sim.Run(variant)
}

// TestComparePanelsAligned: the two panels of a side-by-side figure are
// one layout, whatever each run holds: the same viewBox and flex share, so
// equally wide, and every broker lane at the same height in both (the
// "uneven" pair's runs differ in groups and length; "acks-crash" in what
// the producer and logs hold), and the merged layout is a sound one.
func TestComparePanelsAligned(t *testing.T) {
	for _, name := range []string{"acks-crash", "uneven"} {
		a, b := comparePair(t, name)
		fig, err := FigureCompare(a, b, Options{ID: name})
		if err != nil {
			t.Fatal(err)
		}
		views := regexp.MustCompile(`viewBox="[^"]*"`).FindAllString(string(fig), -1)
		grows := regexp.MustCompile(`flex-grow:\d+;--kf-pw:\d+%`).FindAllString(string(fig), -1)
		if len(views) != 2 || views[0] != views[1] || len(grows) != 2 || grows[0] != grows[1] {
			t.Errorf("%s: panels %q, %q; want one viewBox and one share for both", name, views, grows)
		}
		ta, tb := TopologyOf(a), TopologyOf(b)
		m := MergeTopology(ta, tb)
		checkLayout(t, name+" merged", m, NewLayout(m))
		for _, tp := range []Topology{ta, tb} {
			for _, br := range tp.Brokers {
				var got *BrokerShape
				for i := range m.Brokers {
					if m.Brokers[i].ID == br.ID {
						got = &m.Brokers[i]
					}
				}
				if got == nil {
					t.Errorf("%s: merged topology lost broker %d", name, br.ID)
					continue
				}
				for _, p := range br.Partitions {
					if !slices.Contains(got.Partitions, p) {
						t.Errorf("%s: merged topology lost p%d on broker %d", name, p, br.ID)
					}
				}
			}
			if m.MaxLog < tp.MaxLog {
				t.Errorf("%s: merged log %d shorter than a run's %d", name, m.MaxLog, tp.MaxLog)
			}
		}
	}
}

// TestCompareGolden pins a side-by-side figure's markup.
func TestCompareGolden(t *testing.T) {
	for _, name := range []string{"acks-crash", "uneven"} {
		t.Run(name, func(t *testing.T) {
			a, b := comparePair(t, name)
			fig, err := FigureCompare(a, b, Options{ID: name})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "compare-"+name+".figure.html", fig)
		})
	}
}

var (
	panelRE = regexp.MustCompile(`<div class="kf-panel" style="flex-grow:(\d+);--kf-pw:(\d+)%"><p class="kf-ptitle">([^<]*)</p>`)
	svgRE   = regexp.MustCompile(`(?s)<svg [^>]*class="kf-svg".*?</svg>`)
	markRE  = regexp.MustCompile(`<g class="m `)
)

// TestCompareMarkup checks what the stepper and the reader rely on: two
// panels titled by their runs, one beat counter, a storyboard as long as
// the longer run telling both runs at every beat, and tracks that address
// only marks that exist, the second panel's after the first's.
func TestCompareMarkup(t *testing.T) {
	a, b := comparePair(t, "uneven")
	if len(a.Beats) >= len(b.Beats) {
		t.Fatalf("testdata: the first run (%d beats) must be the shorter", len(a.Beats))
	}
	fig, err := FigureCompare(a, b, Options{ID: "uneven"})
	if err != nil {
		t.Fatal(err)
	}
	html := string(fig)
	if !strings.HasPrefix(html, `<figure class="kflow kf-cmp" id="uneven"`) {
		t.Errorf("figure does not open as a compare figure: %.60s", html)
	}
	panels := panelRE.FindAllStringSubmatch(html, -1)
	if len(panels) != 2 || panels[0][3] != "group" || panels[1][3] != "share" {
		t.Fatalf("panels %q, want two titled group and share", panels)
	}
	// Stacked, each panel takes its picture's share of the wider one's
	// width (flex-grow is the picture's width), so both draw at one scale.
	w0, _ := strconv.Atoi(panels[0][1])
	w1, _ := strconv.Atoi(panels[1][1])
	for i, w := range []int{w0, w1} {
		if want := strconv.Itoa(w * 100 / max(w0, w1)); panels[i][2] != want {
			t.Errorf("panel %d: --kf-pw %s%%, want %s%% (width %d of %d)", i, panels[i][2], want, w, max(w0, w1))
		}
	}
	// (These two are equally wide; the golden compare-acks-crash pins an
	// unequal pair, 82% and 100%.)
	if got := strings.Count(html, `kf-counter`); got != 1 {
		t.Errorf("%d beat counters, want 1 (the first panel's)", got)
	}
	last := len(b.Beats) - 1
	if !strings.Contains(html, `data-last="`+itoa(last)+`"`) {
		t.Errorf("figure does not run to the longer run's last beat %d", last)
	}
	// Each storyboard item leads with the first run's headline and has
	// the second run's beneath it, or, when the two say the same, one
	// line for both runs.
	items := regexp.MustCompile(`<li><span class="kf-head">([^<]*)</span>(?:<span class="kf-under">([^<]*)</span>)?`).FindAllStringSubmatch(html, -1)
	if len(items) != last+1 {
		t.Fatalf("storyboard has %d beats, want %d", len(items), last+1)
	}
	for bi, it := range items {
		if rest, ok := strings.CutPrefix(it[1], "both runs: "); ok && it[2] == "" {
			if bi >= len(a.Beats) || beatCaption(&a.Beats[bi], "", "", sim.Shown{}).Head != rest || beatCaption(&b.Beats[bi], "", "", sim.Shown{}).Head != rest {
				t.Errorf("beat %d caption %q, but the runs' headlines differ", bi, it[1])
			}
			continue
		}
		if !strings.HasPrefix(it[1], "group: ") || !strings.HasPrefix(it[2], "share: ") {
			t.Errorf("beat %d caption %q / %q does not tell both runs", bi, it[1], it[2])
		}
		if bi >= len(a.Beats) && it[1] != "group: ended at beat "+itoa(len(a.Beats)-1) {
			t.Errorf("beat %d caption %q does not say the first run ended", bi, it[1])
		}
	}
	svgs := svgRE.FindAllString(html, -1)
	if len(svgs) != 2 {
		t.Fatalf("%d inline SVGs, want 2", len(svgs))
	}
	marks := len(markRE.FindAllString(svgs[0], -1)) + len(markRE.FindAllString(svgs[1], -1))
	tj := html[strings.Index(html, `class="kf-tracks">`)+len(`class="kf-tracks">`):]
	tj = tj[:strings.Index(tj, "</script>")]
	var data struct {
		T []string `json:"t"`
		K [][]any  `json:"k"`
	}
	if err := json.Unmarshal([]byte(tj), &data); err != nil {
		t.Fatal(err)
	}
	if len(data.T) != marks {
		t.Errorf("%d titles for %d marks", len(data.T), marks)
	}
	first := len(markRE.FindAllString(svgs[0], -1))
	inSecond := false
	for _, tr := range data.K {
		m := int(tr[0].(float64))
		if m < 0 || m >= marks {
			t.Fatalf("track addresses mark %d of %d", m, marks)
		}
		inSecond = inSecond || m >= first
		b := 0
		for i := 3; i < len(tr); i += 2 {
			b += int(tr[i].(float64))
		}
		if b > last {
			t.Errorf("track %v changes at beat %d, past the last %d", tr[:2], b, last)
		}
	}
	if !inSecond {
		t.Error("no track addresses the second panel")
	}
}

// TestFigureCompareErrors checks the refusals: a bad id and an empty trace
// on either side.
func TestFigureCompareErrors(t *testing.T) {
	a, b := comparePair(t, "acks-crash")
	if _, err := FigureCompare(a, b, Options{ID: "Bad Id"}); err == nil {
		t.Error("an id with spaces was accepted")
	}
	if _, err := FigureCompare(a, &sim.Trace{}, Options{ID: "x"}); err == nil {
		t.Error("an empty second trace was accepted")
	}
	if _, err := FigureCompare(a, b, Options{ID: "x", Poster: 99}); err == nil {
		t.Error("a poster past the last beat was accepted")
	}
}

// TestBrowserCompare steps a side-by-side figure in Chromium and checks,
// at every beat forward and back, that both panels show exactly what their
// own run draws at that beat in the pair's shared layout (the shorter run holding its last),
// driven by the one set of controls.
func TestBrowserCompare(t *testing.T) {
	a, b := comparePair(t, "uneven")
	fig, err := FigureCompare(a, b, Options{ID: "pair"})
	if err != nil {
		t.Fatal(err)
	}
	srv := testPage(t, fig)
	ctx, checkErrors := browser(t, 1000, 900)
	defer checkErrors()
	run(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#pair .kf-controls`))
	l := NewLayout(MergeTopology(TopologyOf(a), TopologyOf(b)))
	ua, ub := unite(newSceneIn(a, l)), unite(newSceneIn(b, l))
	ub.drop("beat")
	last := len(b.Beats) - 1
	check := func(beat int) {
		t.Helper()
		s := readFig(t, ctx, "pair")
		if want := itoa(beat) + " / " + itoa(last); s.At != want {
			t.Fatalf("counter %q, want %q", s.At, want)
		}
		if want := compareCaptionParts(beat, [2]string{"group", "share"}, a, b, "").textContent("beat " + itoa(beat) + " — "); s.Caption != want {
			t.Errorf("beat %d: caption %q, want %q", beat, s.Caption, want)
		}
		wa := wantMarks(ua, beat)
		if beat >= len(a.Beats) { // the shorter run holds its last beat, unringed
			wa = wantMarksRinged(ua, len(a.Beats)-1, make([]bool, len(ua.marks)))
		}
		want := append(wa, wantMarks(ub, beat)...)
		if len(s.Marks) != len(want) {
			t.Fatalf("beat %d: %d marks, want %d", beat, len(s.Marks), len(want))
		}
		for i := range want {
			if i < len(ua.marks) && ua.marks[i].id == "beat" {
				continue // kept by the stepper, not by tracks
			}
			if !sameMark(s.Marks[i], want[i]) {
				t.Errorf("beat %d: mark %d\n got %s\nwant %s", beat, i, s.Marks[i], want[i])
			}
		}
	}
	run(t, ctx, chromedp.Click(`#pair [data-a=first]`))
	check(0)
	for beat := 1; beat <= last; beat++ {
		run(t, ctx, chromedp.Click(`#pair [data-a=fwd]`))
		check(beat)
	}
	for beat := last - 1; beat >= last-3; beat-- {
		run(t, ctx, chromedp.Click(`#pair [data-a=back]`))
		check(beat)
	}
}

// TestGuidePairsSideBySide: every side-by-side figure of the guide is laid
// out narrow enough to sit side by side on a 1280 px desktop (no kf-stack),
// where a reader compares the two runs across, row against row. (The
// prose names a run by its setting, not "left" or "right", since a phone
// stacks them: site's TestGuideNamesRunsBySetting.) The split-brain pair on
// the Brokers page stacked (456 units a panel: the NOT_LEADER_OR_FOLLOWER
// token in bold, and a producer rail allowed past its gutter); a
// consumer's answer token that named its member and kept "· HW 3" made the
// share-group and slow-consumer pairs 444 units a panel.
func TestGuidePairsSideBySide(t *testing.T) {
	pages, err := fs.Glob(content.FS, "*.md")
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for _, p := range pages {
		b, err := fs.ReadFile(content.FS, p)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fences(string(b)) {
			base, variant, errs := scenario.ParseCompare([]byte(f))
			if errs != nil {
				t.Fatalf("%s fence %d: %v", p, i+1, errs)
			}
			if variant == nil {
				continue
			}
			pairs++
			id := safeID(strings.TrimSuffix(p, ".md") + "#" + itoa(i+1))
			fig, err := FigureCompare(sim.Run(base), sim.Run(variant), Options{ID: id})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(fig), "kf-stack") {
				w := regexp.MustCompile(`viewBox="0 0 (\d+) `).FindSubmatch(fig)
				t.Errorf("%s fence %d: its panels stack at every width (%s units each, %d together at most side by side)", p, i+1, w[1], sideBySideMax)
			}
		}
	}
	if pairs < 5 {
		t.Fatalf("found %d side-by-side figures in the guide", pairs)
	}
}

// TestRunLabels: a side-by-side figure's captions name each run by the
// shortest part of its panel's title that tells the two apart (runLabels)
// — on a 390 px phone the whole titles, repeated before each run's
// sentence, made the tallest caption two to three lines taller, and every
// beat keeps the tallest one's height. The guide's pairs, and the acks
// pair's caption at the crash.
func TestRunLabels(t *testing.T) {
	for _, c := range []struct{ a, b, la, lb string }{
		{"acks=1, min.insync.replicas=1", "acks=all, min.insync.replicas=2", "acks=1", "acks=all"},
		{"acks=1 — broker 1, cut off, acknowledges five records that are lost", "acks=all — broker 1 cannot acknowledge; nothing is lost", "acks=1", "acks=all"},
		{"acks=0, min.insync.replicas=2", "acks=0, min.insync.replicas=1", "min.insync.replicas=2", "min.insync.replicas=1"},
		{"retries=1 — record 1 is resent and stored twice", "retries=1, enable.idempotence=true — stored once", "retries=1", "retries=1, enable.idempotence=true"},
		{"max.poll.records 3", "max.poll.records 2", "max.poll.records 3", "max.poll.records 2"},
		{"same — one", "same — two", "same — one", "same — two"},
		{"run", "run", "run", "run"},
	} {
		if got := runLabels([2]string{c.a, c.b}); got != [2]string{c.la, c.lb} {
			t.Errorf("runLabels(%q, %q) = %q, want %q, %q", c.a, c.b, got, c.la, c.lb)
		}
	}
	src, err := fs.ReadFile(content.FS, "acks.md")
	if err != nil {
		t.Fatal(err)
	}
	base, variant, errs := scenario.ParseCompare([]byte(fences(string(src))[0]))
	if errs != nil || variant == nil {
		t.Fatalf("acks.md fence 1: %v (variant %v)", errs, variant != nil)
	}
	d, err := DrawCompare(sim.Run(base), sim.Run(variant), Options{})
	if err != nil {
		t.Fatal(err)
	}
	beat5 := d.d.Story[5]
	if !strings.Contains(beat5, `">acks=1: record 2 L:`) || !strings.Contains(beat5, `">acks=all: `) || strings.Contains(beat5, "min.insync.replicas=1:") {
		t.Errorf("acks.md fence 1, beat 5: the runs are not named acks=1 and acks=all before their sentences:\n%s", beat5)
	}
}
