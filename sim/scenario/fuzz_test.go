package scenario

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// seeds returns every scenario the repository holds: the good and bad
// fences in testdata and each ```kflow fence of the guide's pages.
func seeds(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	files, _ := filepath.Glob("testdata/good/*.yaml")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	files, _ = filepath.Glob("testdata/errors/*.txt")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src, _, _ := bytes.Cut(b, []byte(errorsMarker))
		out[f] = src
	}
	pages, _ := filepath.Glob("../../content/*.md")
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, fence := range kflowFences(b) {
			out[fmt.Sprintf("%s#%d", page, i+1)] = fence
		}
	}
	return out
}

// kflowFences extracts the bodies of the ```kflow fences of a Markdown page.
// It is deliberately simple (the site's goldmark pass is the real reader):
// a line starting with ```kflow opens a fence, the next line starting with
// ``` closes it.
func kflowFences(page []byte) [][]byte {
	var out [][]byte
	var body []byte
	in := false
	for _, line := range bytes.SplitAfter(page, []byte("\n")) {
		trimmed := bytes.TrimSpace(line)
		switch {
		case !in && bytes.HasPrefix(trimmed, []byte("```kflow")):
			in, body = true, []byte{}
		case in && bytes.HasPrefix(trimmed, []byte("```")):
			in = false
			out = append(out, body)
		case in:
			body = append(body, line...)
		}
	}
	return out
}

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, must
// position every error inside the input, must return a scenario exactly when
// it returns no errors, and that scenario must satisfy every rule the
// engine relies on and survive a round trip through its canonical YAML.
func FuzzParse(f *testing.F) {
	for _, src := range seeds(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sc, errs := Parse(src)
		if (sc == nil) == (errs == nil) {
			t.Fatalf("Parse returned scenario %v with errors %v", sc != nil, errs)
		}
		if errs != nil {
			checkErrors(t, src, errs)
			return
		}
		checkPositions(t, src, sc)
		checkValid(t, sc)
		checkRoundTrip(t, sc)
	})
}

// TestSeeds runs the fuzz properties over every seed, so that `go test`
// checks the guide's own fences even without -fuzz, and requires the
// guide's fences to parse.
func TestSeeds(t *testing.T) {
	all := seeds(t)
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	for _, name := range names {
		src := all[name]
		sc, errs := Parse(src)
		if errs != nil {
			if strings.HasPrefix(name, "../../content/") {
				t.Errorf("%s: the guide's fence does not parse:\n%s", name, joinErrors(errs))
			}
			checkErrors(t, src, errs)
			continue
		}
		checkPositions(t, src, sc)
		checkValid(t, sc)
		checkRoundTrip(t, sc)
	}
}

// checkValid asserts, independently of the parser's code paths, the rules
// sim.Run relies on.
func checkValid(t *testing.T, sc *sim.Scenario) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("accepted an invalid scenario: "+format, args...)
	}
	idOK := regexp.MustCompile(`^[a-z0-9-]{1,64}$`)
	if !idOK.MatchString(sc.ID) {
		fail("id %q", sc.ID)
	}
	if sc.Brokers < 1 || sc.Brokers > sim.MaxBrokers || sc.Beats < 1 || sc.Beats > sim.MaxBeats {
		fail("brokers %d beats %d", sc.Brokers, sc.Beats)
	}
	tp := sc.Topic
	if tp.Partitions < 1 || tp.Partitions > sim.MaxPartitions || tp.ReplicationFactor < 1 ||
		tp.ReplicationFactor > min(sc.Brokers, sim.MaxReplicationFactor) || tp.MinInsyncReplicas < 1 || tp.ReplicaLagTimeMax < 1 {
		fail("topic %+v with %d brokers", tp, sc.Brokers)
	}
	pr := sc.Producer
	if pr.Records < 1 || pr.Records > sim.MaxRecords || len(pr.Keys) < 1 || len(pr.Keys) > sim.MaxKeys ||
		pr.MaxInFlight < 1 || pr.Interval < 1 || pr.Start < 1 || pr.Start > sc.Beats ||
		pr.DeliveryTimeout < pr.RequestTimeout || pr.RequestTimeout < 1 || pr.RetryBackoff < 1 {
		fail("producer %+v", pr)
	}
	if pr.Acks != sim.AcksNone && pr.Acks != sim.AcksLeader && pr.Acks != sim.AcksAll {
		fail("acks %d", pr.Acks)
	}
	for _, k := range pr.Keys {
		if k == "" {
			fail("empty key")
		}
	}
	ids := map[string]bool{}
	members := map[string]int{}
	for _, g := range sc.ConsumerGroups {
		if !idOK.MatchString(g.ID) || ids[g.ID] || g.Members < 0 || g.Members > sim.MaxMembers || g.Processing < 1 ||
			g.SessionTimeout < 1 || g.AutoCommitInterval < 1 ||
			(g.AutoOffsetReset != "earliest" && g.AutoOffsetReset != "latest") || (g.Assignor != "uniform" && g.Assignor != "range") {
			fail("consumer group %+v", g)
		}
		ids[g.ID] = true
		members[g.ID] = g.Members
	}
	for _, g := range sc.ShareGroups {
		if !idOK.MatchString(g.ID) || ids[g.ID] || g.Members < 0 || g.Members > sim.MaxMembers || g.Processing < 1 ||
			g.RecordLockDuration < 1 || g.DeliveryCountLimit < 2 || g.DeliveryCountLimit > 10 ||
			(g.ShareAutoOffsetReset != "earliest" && g.ShareAutoOffsetReset != "latest") {
			fail("share group %+v", g)
		}
		if g.SlowKey != "" && !contains(pr.Keys, g.SlowKey) {
			fail("slow.key %q not a key", g.SlowKey)
		}
		ids[g.ID] = true
		members[g.ID] = g.Members
	}
	if len(ids) > sim.MaxGroups {
		fail("%d groups", len(ids))
	}
	if len(sc.Timeline) > sim.MaxTimeline || len(sc.Expect) > sim.MaxExpect {
		fail("%d timeline entries, %d expectations", len(sc.Timeline), len(sc.Expect))
	}
	// Replay the timeline in beat order with a model of its own.
	order := append([]sim.TimelineEvent(nil), sc.Timeline...)
	for i := 1; i < len(order); i++ { // insertion sort: stable by At
		for j := i; j > 0 && order[j].At < order[j-1].At; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	brokers, partitions := sc.Brokers, tp.Partitions
	down, paused, isolated := map[int]bool{}, map[int]bool{}, map[int]bool{}
	gone := map[string]bool{}
	for _, e := range order {
		if e.At < 1 || e.At > sc.Beats {
			fail("timeline at %d", e.At)
		}
		switch e.Kind {
		case sim.EventCrash, sim.EventRestart, sim.EventPause, sim.EventResume, sim.EventIsolate, sim.EventHeal:
			if e.Broker < 1 || e.Broker > brokers {
				fail("%s of broker %d of %d", e.Kind, e.Broker, brokers)
			}
			switch e.Kind {
			case sim.EventCrash:
				if down[e.Broker] {
					fail("crash of a down broker")
				}
				down[e.Broker] = true
				isolated[e.Broker] = false
			case sim.EventIsolate:
				if down[e.Broker] || isolated[e.Broker] {
					fail("isolate of broker %d", e.Broker)
				}
				isolated[e.Broker] = true
			case sim.EventHeal:
				if !isolated[e.Broker] {
					fail("heal of a broker that is not isolated")
				}
				isolated[e.Broker] = false
			case sim.EventRestart:
				if !down[e.Broker] {
					fail("restart of a running broker")
				}
				down[e.Broker] = false
			case sim.EventPause:
				if down[e.Broker] || paused[e.Broker] {
					fail("pause of broker %d", e.Broker)
				}
				paused[e.Broker] = true
			case sim.EventResume:
				if !paused[e.Broker] {
					fail("resume of an unpaused broker")
				}
				paused[e.Broker] = false
			}
		case sim.EventAddBroker:
			brokers++
			if e.Broker != brokers || brokers > sim.MaxBrokers {
				fail("add.broker %d", e.Broker)
			}
		case sim.EventAddPartitions:
			partitions += e.Count
			if e.Count < 1 || partitions > sim.MaxPartitions {
				fail("add.partitions %d", e.Count)
			}
		case sim.EventJoin:
			if _, ok := members[e.Group]; !ok {
				fail("join of unknown group %q", e.Group)
			}
			members[e.Group]++
			if members[e.Group] > sim.MaxMembers {
				fail("group %q grows to %d", e.Group, members[e.Group])
			}
		case sim.EventLeave, sim.EventStop:
			n, ok := members[e.Group]
			num, err := strconv.Atoi(strings.TrimPrefix(e.Member, e.Group+"-"))
			if !ok || err != nil || num < 1 || num > n || gone[e.Member] || e.Member != e.Group+"-"+strconv.Itoa(num) {
				fail("%s of %q", e.Kind, e.Member)
			}
			gone[e.Member] = true
		default:
			fail("timeline kind %q", e.Kind)
		}
	}
	for _, x := range sc.Expect {
		if x.Field == "" || x.Want == "" && x.Field != "owner" {
			fail("expectation %+v", x)
		}
		if x.Field == "outcome" {
			if x.Record < 1 || x.Record > pr.Records || x.Partition != -1 {
				fail("outcome expectation %+v", x)
			}
			continue
		}
		if x.At < 0 || x.At > sc.Beats || x.Partition < 0 || x.Partition >= sim.MaxPartitions {
			fail("expectation %+v", x)
		}
	}
}

// checkRoundTrip writes sc back as YAML with every setting spelled out and
// asserts that parsing that gives the same scenario (positions aside).
func checkRoundTrip(t *testing.T, sc *sim.Scenario) {
	t.Helper()
	text := canonical(sc)
	again, errs := Parse([]byte(text))
	if errs != nil {
		t.Fatalf("canonical form does not parse:\n%s\nerrors:\n%s", text, joinErrors(errs))
	}
	strip := regexp.MustCompile(`@\d+:\d+ `)
	a, b := strip.ReplaceAllString(dump(sc), ""), strip.ReplaceAllString(dump(again), "")
	if a != b {
		t.Errorf("round trip changed the scenario:\nfirst:\n%s\nagain:\n%s\nvia:\n%s", a, b, text)
	}
}

// canonical writes sc as a fence with every setting explicit.
func canonical(sc *sim.Scenario) string {
	var b strings.Builder
	q := strconv.Quote
	fmt.Fprintf(&b, "id: %s\ntitle: %s\nseed: %d\nbrokers: %d\nbeats: %d\n", sc.ID, q(sc.Title), sc.Seed, sc.Brokers, sc.Beats)
	t := sc.Topic
	fmt.Fprintf(&b, "topic: {partitions: %d, replication.factor: %d, min.insync.replicas: %d, replica.lag.time.max: %d}\n",
		t.Partitions, t.ReplicationFactor, t.MinInsyncReplicas, t.ReplicaLagTimeMax)
	pr := sc.Producer
	keys := make([]string, len(pr.Keys))
	for i, k := range pr.Keys {
		keys[i] = q(k)
	}
	fmt.Fprintf(&b, "producer: {acks: %s, max.in.flight.requests.per.connection: %d, records: %d, keys: [%s], interval: %d, start: %d, delivery.timeout: %d, request.timeout: %d, retry.backoff: %d}\n",
		pr.Acks, pr.MaxInFlight, pr.Records, strings.Join(keys, ", "), pr.Interval, pr.Start, pr.DeliveryTimeout, pr.RequestTimeout, pr.RetryBackoff)
	b.WriteString("consumer.groups:\n")
	for _, g := range sc.ConsumerGroups {
		fmt.Fprintf(&b, "  - {id: %s, members: %d, auto.offset.reset: %s, assignor: %s, auto.commit.interval: %d, session.timeout: %d, processing: %d, max.poll.interval: %d, max.poll.records: %d}\n",
			g.ID, g.Members, g.AutoOffsetReset, g.Assignor, g.AutoCommitInterval, g.SessionTimeout, g.Processing,
			g.MaxPollInterval, g.MaxPollRecords)
	}
	b.WriteString("share.groups:\n")
	for _, g := range sc.ShareGroups {
		fmt.Fprintf(&b, "  - {id: %s, members: %d, share.auto.offset.reset: %s, group.share.record.lock.duration: %d, group.share.delivery.count.limit: %d, processing: %d",
			g.ID, g.Members, g.ShareAutoOffsetReset, g.RecordLockDuration, g.DeliveryCountLimit, g.Processing)
		if g.SlowKey != "" {
			fmt.Fprintf(&b, ", slow.key: %s", q(g.SlowKey))
		}
		b.WriteString("}\n")
	}
	b.WriteString("timeline:\n")
	for _, e := range sc.Timeline {
		var arg string
		switch e.Kind {
		case sim.EventAddPartitions:
			arg = strconv.Itoa(e.Count)
		case sim.EventJoin:
			arg = e.Group
		case sim.EventLeave, sim.EventStop:
			arg = e.Member
		default:
			arg = strconv.Itoa(e.Broker)
		}
		fmt.Fprintf(&b, "  - {at: %d, %s: %s}\n", e.At, e.Kind, arg)
	}
	b.WriteString("expect:\n")
	for _, x := range sc.Expect {
		want := x.Want
		switch {
		case x.Field == "isr":
			want = strings.ReplaceAll(want, " ", ", ")
		case x.Field == "owner" || x.Field == "outcome" || x.Field == "state":
			want = q(want)
		}
		switch {
		case x.Field == "outcome":
			fmt.Fprintf(&b, "  - {record: %d, outcome: %s}\n", x.Record, want)
		case x.Field == "state" || x.Field == "deliveryCount":
			fmt.Fprintf(&b, "  - {at: %d, group: %s, partition: %d, offset: %d, %s: %s}\n", x.At, x.Group, x.Partition, x.Offset, x.Field, want)
		case x.Group != "":
			fmt.Fprintf(&b, "  - {at: %d, group: %s, partition: %d, %s: %s}\n", x.At, x.Group, x.Partition, x.Field, want)
		case x.Broker != 0:
			fmt.Fprintf(&b, "  - {at: %d, partition: %d, broker: %d, %s: %s}\n", x.At, x.Partition, x.Broker, x.Field, want)
		default:
			fmt.Fprintf(&b, "  - {at: %d, partition: %d, %s: %s}\n", x.At, x.Partition, x.Field, want)
		}
	}
	b.WriteString("notes:\n")
	for _, n := range sc.Notes {
		fmt.Fprintf(&b, "  - {at: %d, text: %s}\n", n.At, q(n.Text))
	}
	if sc.HasPoster {
		fmt.Fprintf(&b, "poster: %d\n", sc.Poster)
	}
	return b.String()
}
