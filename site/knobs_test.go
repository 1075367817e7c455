package site

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
)

// knobFence is a figure whose reader picks acks: 0, 1 or all (1, the
// fence's own, is the default), with a claim pinned under each.
var knobFence = []string{
	"Try [acks=0](#acks-crash@8?producer.acks=0) or [all](acks.md#acks-crash?producer.acks=all).",
	"",
	"```kflow",
	"id: acks-crash",
	"title: acks and a crash",
	"topic: {min.insync.replicas: 1}",
	"producer: {acks: 1, records: 6, keys: [blue, green]}",
	"knobs:",
	"  producer.acks: [0, 1, all]",
	"timeline:",
	"  - {at: 5, crash: 1}",
	"  - {at: 10, restart: 1}",
	"beats: 16",
	"expect:",
	"  - {record: 2, outcome: L}",
	"  - {record: 2, outcome: sent, when: {producer.acks: 0}}",
	"  - {record: 2, outcome: U, when: {producer.acks: all}}",
	"```",
}

// TestBuildKnobFigure: a fence with knobs builds one figure holding the
// default combination, its controls and the table of every combination's
// outcome, and writes each other combination to its own script; links that
// name knob values are rewritten to the figure's DOM id and kept.
func TestBuildKnobFigure(t *testing.T) {
	s, err := Generate(Options{Content: fstest.MapFS{"acks.md": page("title: Acks", knobFence...)}, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	html := string(s.File("acks.html"))
	for _, want := range []string{
		`<figure class="kflow" id="acks--acks-crash" data-kn="3" data-kv="1"`,
		`<div class="kf-knob" role="group" aria-label="acks" data-path="producer.acks">`,
		`data-kval="1" aria-pressed="true">1</button>`,
		`<div class="kf-var" data-v="1"`,
		`href="#acks--acks-crash@8?producer.acks=0"`,
		`href="acks.html#acks--acks-crash?producer.acks=all"`,
		// acks=0: six sent; acks=1: 3 acked, 1 U, 2 L; acks=all: 3 acked, 3 U;
		// each cell names its column (data-h), which a phone's card shows.
		`<tr><td data-h="acks">0</td><td data-h="acked">0</td><td data-h="sent">6</td><td data-h="F">0</td><td data-h="U">0</td><td data-h="L">0</td>`,
		`<tr class="kf-on"><td data-h="acks">1</td><td data-h="acked">3</td><td data-h="sent">0</td><td data-h="F">0</td><td data-h="U">1</td><td data-h="L">2</td>`,
		`<tr><td data-h="acks">all</td><td data-h="acked">3</td><td data-h="sent">0</td><td data-h="F">0</td><td data-h="U">3</td><td data-h="L">0</td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("acks.html lacks %q", want)
		}
	}
	if n := strings.Count(html, `class="kf-var"`); n != 1 {
		t.Errorf("acks.html holds %d combinations, want only the default", n)
	}
	for i, want := range []bool{true, false, true} {
		f := s.File(AssetDir + "/" + fence.VariantFile("acks--acks-crash", i))
		if (f != nil) != want {
			t.Errorf("variant %d's script written: %t, want %t", i, f != nil, want)
		}
		if f != nil && !strings.HasPrefix(string(f), `(self.kfV=self.kfV||{})["acks--acks-crash.`) {
			t.Errorf("variant %d's script starts %.60q", i, f)
		}
	}
	if len(s.Figures) != 1 || s.Figures[0].Frames != 3*17 {
		t.Errorf("figure stats %+v, want one figure of 3 × 17 frames", s.Figures)
	}
}

// TestKnobErrors: a claim that fails under one combination, and links
// naming an unknown knob or value, fail the build at their place in the
// file, naming the combination.
func TestKnobErrors(t *testing.T) {
	lines := append([]string(nil), knobFence...)
	lines[0] = "See [this](#acks-crash@8?producer.ack=0), [that](#acks-crash?producer.acks=2) and [none](#other?producer.acks=0)."
	lines[16] = "  - {record: 2, outcome: L, when: {producer.acks: all}}" // file line 20
	lines = append(lines, "", "```kflow", "id: other", "beats: 5", "```")
	_, err := Generate(Options{Content: fstest.MapFS{"acks.md": page("title: Acks", lines...)}, ContentName: "content"})
	if err == nil {
		t.Fatal("the build passed")
	}
	for _, want := range []string{
		`acks.md:20:26: with producer.acks=all: expected outcome L for record 2, got U`,
		`acks.md:4:5: link to "#acks-crash@8?producer.ack=0": figure "acks-crash" has no knob "producer.ack" (its knobs: producer.acks)`,
		`link to "#acks-crash?producer.acks=2": knob producer.acks of figure "acks-crash" has no value "2" (its values: 0, 1, all)`,
		`link to "#other?producer.acks=0": figure "other" has no knobs`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
}

// TestGuideOutcomeTablesShowTheKnob: in every knob figure of the guide,
// the no-JS table of every combination's outcome shows something the knob
// changes — two combinations' rows differ once the knob cells are left
// out — so a reader without scripts sees what turning it does (groups
// included: a share group's acknowledged, archived and delivery counts, a
// consumer group's idle members).
func TestGuideOutcomeTablesShowTheKnob(t *testing.T) {
	s, err := Generate(Options{Content: content.FS, ContentName: "content"})
	if err != nil {
		t.Fatal(err)
	}
	table := regexp.MustCompile(`(?s)<table class="kf-outcomes">.*?</table>`)
	row := regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cell := regexp.MustCompile(`<td( rowspan="\d+")? data-h="[^"]*">([^<]*)</td>`)
	tables := 0
	for _, f := range s.Files {
		name := f.Path
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, tb := range table.FindAllString(string(f.Data), -1) {
			tables++
			head, body, _ := strings.Cut(tb, "<tbody>")
			// The knob columns come first. In a table of pairs a knob
			// cell spans its combination's two rows (rowspan); otherwise
			// each row starts with the knobs' cells.
			knobs := strings.Count(strings.SplitN(head, ">acked<", 2)[0], `<th scope="col">`)
			pairs := strings.Contains(head, `<th scope="col">run</th>`)
			if pairs {
				knobs--
			}
			seen := map[string]bool{}
			for _, r := range row.FindAllStringSubmatch(body, -1) {
				var out []string
				for i, c := range cell.FindAllStringSubmatch(r[1], -1) {
					if c[1] != "" || !pairs && i < knobs {
						continue
					}
					out = append(out, c[2])
				}
				seen[strings.Join(out, "|")] = true
			}
			if len(seen) < 2 {
				t.Errorf("%s: every row of the outcome table reads the same once the knob cells are left out:\n%s", name, tb)
			}
		}
	}
	if tables < 9 {
		t.Errorf("found %d outcome tables in the guide, want at least 9 (every concept page with knobs)", tables)
	}
}
