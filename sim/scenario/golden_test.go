package scenario

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/sim"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the parser's output")

// dump prints a parsed scenario compactly, one line per part, every field
// shown, so that a golden file records exactly what Parse filled in.
func dump(sc *sim.Scenario) string {
	var b strings.Builder
	pos := func(p sim.Pos) string { return fmt.Sprintf("@%d:%d", p.Line, p.Col) }
	fmt.Fprintf(&b, "scenario %s id=%q title=%q seed=%d brokers=%d beats=%d\n",
		pos(sc.Pos), sc.ID, sc.Title, sc.Seed, sc.Brokers, sc.Beats)
	t := sc.Topic
	fmt.Fprintf(&b, "topic partitions=%d replication.factor=%d min.insync.replicas=%d replica.lag.time.max=%d\n",
		t.Partitions, t.ReplicationFactor, t.MinInsyncReplicas, t.ReplicaLagTimeMax)
	pr := sc.Producer
	fmt.Fprintf(&b, "producer acks=%s max.in.flight=%d records=%d keys=%s interval=%d start=%d delivery.timeout=%d request.timeout=%d retry.backoff=%d\n",
		pr.Acks, pr.MaxInFlight, pr.Records, keyList(pr.Keys), pr.Interval, pr.Start,
		pr.DeliveryTimeout, pr.RequestTimeout, pr.RetryBackoff)
	for _, g := range sc.ConsumerGroups {
		fmt.Fprintf(&b, "consumer.group %s id=%q members=%d auto.offset.reset=%s assignor=%s auto.commit.interval=%d session.timeout=%d processing=%d max.poll.interval=%d max.poll.records=%d\n",
			pos(g.Pos), g.ID, g.Members, g.AutoOffsetReset, g.Assignor, g.AutoCommitInterval, g.SessionTimeout, g.Processing,
			g.MaxPollInterval, g.MaxPollRecords)
	}
	for _, g := range sc.ShareGroups {
		fmt.Fprintf(&b, "share.group %s id=%q members=%d share.auto.offset.reset=%s lock.duration=%d delivery.count.limit=%d processing=%d slow.key=%q\n",
			pos(g.Pos), g.ID, g.Members, g.ShareAutoOffsetReset, g.RecordLockDuration, g.DeliveryCountLimit, g.Processing, g.SlowKey)
	}
	for _, e := range sc.Timeline {
		fmt.Fprintf(&b, "timeline %s at=%d %s broker=%d count=%d group=%q member=%q\n",
			pos(e.Pos), e.At, e.Kind, e.Broker, e.Count, e.Group, e.Member)
	}
	for _, e := range sc.Expect {
		fmt.Fprintf(&b, "expect %s at=%d record=%d partition=%d broker=%d group=%q offset=%d %s=%q\n",
			pos(e.Pos), e.At, e.Record, e.Partition, e.Broker, e.Group, e.Offset, e.Field, e.Want)
	}
	for _, n := range sc.Notes {
		fmt.Fprintf(&b, "note %s at=%d text=%q\n", pos(n.Pos), n.At, n.Text)
	}
	if sc.HasPoster {
		fmt.Fprintf(&b, "poster %d\n", sc.Poster)
	}
	return b.String()
}

// errorsMarker separates a bad fence from its expected errors in
// testdata/errors/*.txt. It is a YAML comment, so the file as a whole is
// still the fence (plus comments) and positions are unchanged.
const errorsMarker = "#### errors\n"

// TestGood parses every testdata/good/*.yaml and compares the dump with the
// .golden file beside it.
func TestGood(t *testing.T) {
	files, _ := filepath.Glob("testdata/good/*.yaml")
	if len(files) == 0 {
		t.Fatal("no testdata/good/*.yaml")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sc, errs := Parse(src)
			if errs != nil {
				t.Fatalf("unexpected errors:\n%s", joinErrors(errs))
			}
			checkPositions(t, src, sc)
			got := dump(sc)
			golden := strings.TrimSuffix(file, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("parse of %s differs from %s:\n got:\n%s\nwant:\n%s", file, golden, got, want)
			}
		})
	}
}

// TestErrors parses the fence part of every testdata/errors/*.txt and
// compares the errors with the part after errorsMarker (each line "# L:C:
// msg"). Every error must point inside the input.
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.txt")
	if len(files) == 0 {
		t.Fatal("no testdata/errors/*.txt")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src, wantPart, found := bytes.Cut(raw, []byte(errorsMarker))
			if !found && !*update {
				t.Fatalf("%s has no %q line", file, strings.TrimSpace(errorsMarker))
			}
			sc, errs := Parse(src)
			if errs == nil {
				t.Fatalf("no errors; parsed as:\n%s", dump(sc))
			}
			if sc != nil {
				t.Errorf("Parse returned a scenario along with errors")
			}
			checkErrors(t, src, errs)
			var got strings.Builder
			for _, e := range errs {
				fmt.Fprintf(&got, "# %s\n", e)
			}
			if *update {
				out := append(append(append([]byte{}, src...), errorsMarker...), got.String()...)
				if err := os.WriteFile(file, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got.String() != string(wantPart) {
				t.Errorf("errors differ:\n got:\n%s\nwant:\n%s", got.String(), wantPart)
			}
		})
	}
}

func joinErrors(errs sim.ErrorList) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

// inside reports whether pos names a character of src or the end of one
// of its lines (where a missing value is reported).
func inside(src []byte, pos sim.Pos) bool {
	lines := strings.Split(string(src), "\n")
	if pos.Line < 1 || pos.Line > len(lines) || pos.Col < 1 {
		return false
	}
	return pos.Col <= utf8.RuneCountInString(lines[pos.Line-1])+1
}

// checkErrors asserts the properties every error list has: non-empty
// lowercase messages, positions inside src, sorted, no duplicates.
func checkErrors(t *testing.T, src []byte, errs sim.ErrorList) {
	t.Helper()
	for i, e := range errs {
		if !inside(src, e.Pos) {
			t.Errorf("error %q is positioned outside the input (%d lines)", e, strings.Count(string(src), "\n")+1)
		}
		if e.Msg == "" {
			t.Errorf("error at %d:%d has no message", e.Pos.Line, e.Pos.Col)
		}
		if r, _ := utf8.DecodeRuneInString(e.Msg); r >= 'A' && r <= 'Z' {
			t.Errorf("error %q does not start in lowercase", e)
		}
		if i > 0 {
			a := errs[i-1]
			if a.Pos.Line > e.Pos.Line || a.Pos.Line == e.Pos.Line && a.Pos.Col > e.Pos.Col {
				t.Errorf("errors not sorted: %q before %q", a, e)
			}
			if a == e {
				t.Errorf("duplicate error %q", e)
			}
		}
	}
}

// checkPositions asserts that every position Parse recorded in a valid
// scenario points inside src.
func checkPositions(t *testing.T, src []byte, sc *sim.Scenario) {
	t.Helper()
	check := func(what string, p sim.Pos) {
		if !inside(src, p) {
			t.Errorf("%s position %d:%d is outside the input", what, p.Line, p.Col)
		}
	}
	check("scenario", sc.Pos)
	for _, g := range sc.ConsumerGroups {
		check("consumer group "+g.ID, g.Pos)
	}
	for _, g := range sc.ShareGroups {
		check("share group "+g.ID, g.Pos)
	}
	for i, e := range sc.Timeline {
		check("timeline entry "+strconv.Itoa(i), e.Pos)
	}
	for i, e := range sc.Expect {
		check("expectation "+strconv.Itoa(i), e.Pos)
	}
}
