package bench

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/sim/scenario"
	"github.com/kafkaflow/kflowgen/site"
)

// TestLimitsFenceAtEveryLimit checks that the limits scenario really sits
// at each of sim's Max* limits, so that building it proves something.
func TestLimitsFenceAtEveryLimit(t *testing.T) {
	body := LimitsFence()
	if len(body) != sim.MaxFenceBytes {
		t.Errorf("fence body is %d bytes, want exactly MaxFenceBytes = %d", len(body), sim.MaxFenceBytes)
	}
	sc, errs := scenario.Parse(body)
	if errs != nil {
		t.Fatalf("the limits scenario does not parse:\n%v", errs)
	}
	members := 0
	for _, g := range sc.ConsumerGroups {
		members = max(members, g.Members)
	}
	for _, g := range sc.ShareGroups {
		members = max(members, g.Members)
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"beats", sc.Beats, sim.MaxBeats},
		{"brokers", sc.Brokers, sim.MaxBrokers},
		{"partitions", sc.Topic.Partitions, sim.MaxPartitions},
		{"replication.factor", sc.Topic.ReplicationFactor, sim.MaxReplicationFactor},
		{"records", sc.Producer.Records, sim.MaxRecords},
		{"keys", len(sc.Producer.Keys), sim.MaxKeys},
		{"groups", len(sc.ConsumerGroups) + len(sc.ShareGroups), sim.MaxGroups},
		{"members of the largest group", members, sim.MaxMembers},
		{"timeline entries", len(sc.Timeline), sim.MaxTimeline},
		{"expectations", len(sc.Expect), sim.MaxExpect},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want the limit %d", c.what, c.got, c.want)
		}
	}
}

// TestLimitsPageBuilds builds the limits page (not timed: the benchmark
// times it): every expectation holds and the figure has every beat.
func TestLimitsPageBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 400-beat figure")
	}
	s, err := site.Generate(site.Options{Content: fstest.MapFS{LimitsPath: {Data: LimitsPage()}}, ContentName: "limits"})
	if err != nil {
		t.Fatalf("the page at the limits does not build:\n%v", err)
	}
	if len(s.Figures) != 1 {
		t.Fatalf("%d figures, want 1", len(s.Figures))
	}
	f := s.Figures[0]
	if f.Beats != sim.MaxBeats+1 || f.Page != "limits.html" || f.ID != "limits--at-the-limits" {
		t.Errorf("figure %+v, want %d beats of limits--at-the-limits on limits.html", f, sim.MaxBeats+1)
	}
	if !strings.Contains(string(s.File("limits.html")), `id="limits--at-the-limits"`) {
		t.Error("limits.html does not hold the figure")
	}
}

// TestOneOverEachLimit pushes the limits page one step past each limit and
// wants the build to fail with one positioned error on the line that went
// too far, naming the limit.
func TestOneOverEachLimit(t *testing.T) {
	base := string(limitsFence(false))
	n := strconv.Itoa
	for _, c := range []struct {
		limit string
		// old is replaced by new (the first time it occurs); the error
		// must contain want and be on new's last line or, for a list
		// that grew past its limit, on the line of the last occurrence
		// of over (the first entry too many).
		old, new, want, over string
	}{
		{"beats", "beats: " + n(sim.MaxBeats), "beats: " + n(sim.MaxBeats+1),
			`"` + n(sim.MaxBeats+1) + `" is out of range for beats: Kafka Flow allows at most ` + n(sim.MaxBeats), ""},
		{"brokers", "brokers: " + n(sim.MaxBrokers), "brokers: " + n(sim.MaxBrokers+1),
			`"` + n(sim.MaxBrokers+1) + `" is out of range for brokers: Kafka Flow allows at most ` + n(sim.MaxBrokers), ""},
		{"partitions", "partitions: " + n(sim.MaxPartitions), "partitions: " + n(sim.MaxPartitions+1),
			"Kafka Flow allows at most " + n(sim.MaxPartitions), ""},
		{"replication factor", "replication.factor: " + n(sim.MaxReplicationFactor), "replication.factor: " + n(sim.MaxReplicationFactor+1),
			"Kafka Flow allows at most " + n(sim.MaxReplicationFactor), ""},
		{"records", "records: " + n(sim.MaxRecords), "records: " + n(sim.MaxRecords+1),
			"Kafka Flow allows at most " + n(sim.MaxRecords), ""},
		{"keys", "k" + n(sim.MaxKeys) + "]", "k" + n(sim.MaxKeys) + ", k99]",
			"too many keys: Kafka Flow allows at most " + n(sim.MaxKeys), ""},
		{"members", "members: " + n(sim.MaxMembers), "members: " + n(sim.MaxMembers+1),
			"Kafka Flow allows at most " + n(sim.MaxMembers), ""},
		{"groups", "consumer.groups:\n", "consumer.groups:\n  - {id: one-more}\n",
			"too many groups: Kafka Flow allows at most " + n(sim.MaxGroups), "  - {id: s"},
		{"timeline", "timeline:\n", "timeline:\n  - {at: 1, crash: 9}\n",
			"too many timeline entries: Kafka Flow allows at most " + n(sim.MaxTimeline), "stop: s"},
		{"expectations", "expect:\n", "expect:\n  - {record: 1, outcome: acked}\n",
			"too many expectations: Kafka Flow allows at most " + n(sim.MaxExpect), "  - {at: "},
	} {
		t.Run(c.limit, func(t *testing.T) {
			if !strings.Contains(base, c.old) {
				t.Fatalf("the limits scenario has no %q", c.old)
			}
			body := strings.Replace(base, c.old, c.new, 1)
			errs := buildErrors(t, body)
			at := strings.Index(body, c.new) + len(strings.TrimRight(c.new, "\n"))
			if c.over != "" {
				at = strings.LastIndex(body, c.over)
			}
			wantLine := strings.Count(body[:at], "\n") + 1
			for _, e := range errs {
				if strings.Contains(e.Msg, c.want) {
					if e.Line != fenceLine+wantLine-1 {
						t.Errorf("the error is on page line %d, want %d: %v", e.Line, fenceLine+wantLine-1, e)
					}
					return
				}
			}
			t.Errorf("no error contains %q; got:\n%v", c.want, sim.ErrorList(errs))
		})
	}
	t.Run("fence size", func(t *testing.T) {
		errs := buildErrors(t, string(LimitsFence())+"#\n")
		want := "scenario is " + n(sim.MaxFenceBytes+2) + " bytes, over the limit of " + n(sim.MaxFenceBytes) + " bytes"
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, want) || errs[0].Line != fenceLine || errs[0].Col != 1 {
			t.Errorf("want one error %q at the fence's first line; got:\n%v", want, sim.ErrorList(errs))
		}
	})
}

// fenceLine is the page line of the first line of a fence body that
// pageWith wraps.
const fenceLine = 6

// pageWith wraps a fence body into a page.
func pageWith(body string) []byte {
	return []byte("---\ntitle: Over\n---\n\n```kflow\n" + body + "```\n")
}

// buildErrors builds a page holding body and returns its errors, failing
// the test when the build succeeds or fails without positions.
func buildErrors(t *testing.T, body string) []sim.Error {
	t.Helper()
	_, err := site.Generate(site.Options{Content: fstest.MapFS{"over.md": {Data: pageWith(body)}}})
	var l sim.ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("want positioned errors, got %v", err)
	}
	return l
}

// TestReferenceListsTheLimits keeps the reference page's Limits table
// true to package sim's Max* constants and package site's.
func TestReferenceListsTheLimits(t *testing.T) {
	b, err := fs.ReadFile(content.FS, "reference.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Limits\n")
	if !ok {
		t.Fatal("reference.md has no ## Limits section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{}
	for _, l := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if strings.HasPrefix(l, "|") && len(cells) == 2 {
			rows[cells[0]] = cells[1]
		}
	}
	for _, c := range []struct {
		row  string
		want int
	}{
		{"scenario text", sim.MaxFenceBytes},
		{"`beats`", sim.MaxBeats},
		{"`brokers`, including added ones", sim.MaxBrokers},
		{"partitions, including added ones", sim.MaxPartitions},
		{"`replication.factor`", sim.MaxReplicationFactor},
		{"`records`", sim.MaxRecords},
		{"`keys`", sim.MaxKeys},
		{"groups, consumer and share together", sim.MaxGroups},
		{"members per group, including joins", sim.MaxMembers},
		{"`timeline` entries", sim.MaxTimeline},
		{"`expect` claims", sim.MaxExpect},
		{"a page's `title` (front matter)", site.MaxPageTitle},
		{"a page's `summary` (front matter)", site.MaxPageSummary},
		{"a page", site.MaxPageBytes},
		{"lists and quotes inside each other", site.MaxNesting},
		{"pages in a site", site.MaxPages},
		{"figures per page", site.MaxFiguresPerPage},
		{"record-beats in a site", site.MaxRecordBeats},
		{"frames in a site", site.MaxFrames},
	} {
		v, ok := rows[c.row]
		if !ok {
			t.Errorf("the Limits table has no row %q", c.row)
			continue
		}
		if first, _, _ := strings.Cut(v, " "); first != strconv.Itoa(c.want) {
			t.Errorf("row %q says %q, but the limit is %d", c.row, v, c.want)
		}
	}
}
