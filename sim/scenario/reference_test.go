package scenario

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// referenceRows returns the Markdown table rows of the reference page whose
// first cell is a `code` span, keyed by that span, per section heading.
func referenceRows(t *testing.T) (page string, rows map[string]map[string][]string) {
	b, err := os.ReadFile("../../content/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	rows = map[string]map[string][]string{}
	heading := ""
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			heading = strings.TrimPrefix(line, "## ")
			continue
		}
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		key := strings.Trim(cells[0], "`")
		if rows[heading] == nil {
			rows[heading] = map[string][]string{}
		}
		rows[heading][key] = cells
	}
	return string(b), rows
}

// TestReferenceListsEveryKey keeps content/reference.md in step with the
// parser: every key of every section has a row under its heading, and
// every numeric default in those rows is sim's.
func TestReferenceListsEveryKey(t *testing.T) {
	page, rows := referenceRows(t)
	headings := map[section]string{
		sectionTop: "The top level", sectionTopic: "topic", sectionProducer: "producer",
		sectionConsumer: "consumer.groups", sectionShare: "share.groups",
	}
	for sec, h := range headings {
		for _, k := range sections[sec].keys {
			if rows[h][k] == nil {
				t.Errorf("reference.md has no row for %q under %q", k, h)
			}
		}
	}
	for _, k := range sections[sectionTimeline].keys[1:] {
		if !strings.Contains(page, "| `{at: ") || !strings.Contains(page, ", "+k+": ") {
			t.Errorf("reference.md shows no timeline entry with %q", k)
		}
	}
	for _, k := range noteKeys {
		if row := rows["The top level"]["notes"]; row == nil || !strings.Contains(row[3], k+": ") {
			t.Errorf("reference.md's notes row does not show the note field %q", k)
		}
	}
	for _, k := range expectKeys {
		if !strings.Contains(page, "`"+k+"`") {
			t.Errorf("reference.md does not mention expect key %q", k)
		}
	}
	defaults := map[string]map[string]int{
		"The top level": {"seed": sim.DefaultSeed, "brokers": sim.DefaultBrokers, "beats": sim.DefaultBeats},
		"topic": {"partitions": sim.DefaultPartitions, "min.insync.replicas": sim.DefaultMinInsyncReplicas,
			"replica.lag.time.max": sim.DefaultReplicaLagTimeMax},
		"producer": {"max.in.flight.requests.per.connection": sim.DefaultMaxInFlight, "records": sim.DefaultRecords,
			"interval": sim.DefaultInterval, "start": sim.DefaultStart, "delivery.timeout": sim.DefaultDeliveryTimeout,
			"request.timeout": sim.DefaultRequestTimeout, "retry.backoff": sim.DefaultRetryBackoff},
		"consumer.groups": {"members": sim.DefaultMembers, "auto.commit.interval": sim.DefaultAutoCommitInterval,
			"session.timeout": sim.DefaultSessionTimeout, "processing": sim.DefaultProcessing,
			"max.poll.interval": sim.DefaultMaxPollInterval, "max.poll.records": sim.DefaultMaxPollRecords},
		"share.groups": {"members": sim.DefaultMembers, "group.share.record.lock.duration": sim.DefaultRecordLockDuration,
			"group.share.delivery.count.limit": sim.DefaultDeliveryCountLimit, "processing": sim.DefaultProcessing},
	}
	// The default sits in the third cell on the top-level table (after the
	// type) and in the second elsewhere.
	for h, keys := range defaults {
		col := 1
		if h == "The top level" {
			col = 2
		}
		for k, want := range keys {
			row := rows[h][k]
			if row == nil {
				continue // reported above
			}
			got := strings.TrimPrefix(row[col], "beat ")
			if f := strings.Fields(got); len(f) == 0 || f[0] != strconv.Itoa(want) {
				t.Errorf("reference.md gives %q the default %q; sim's is %d", k, row[col], want)
			}
		}
	}
	for name, limit := range map[string]int{
		"beats": sim.MaxBeats, "brokers": sim.MaxBrokers, "partitions": sim.MaxPartitions,
		"replication.factor": sim.MaxReplicationFactor, "records": sim.MaxRecords, "keys": sim.MaxKeys,
		"groups": sim.MaxGroups, "members": sim.MaxMembers, "timeline": sim.MaxTimeline,
		"expect": sim.MaxExpect, "scenario text": sim.MaxFenceBytes,
		"`knobs`": sim.MaxKnobs, "knob combinations": sim.MaxKnobCombinations,
	} {
		found := false
		for _, line := range strings.Split(page, "\n") {
			if strings.HasPrefix(line, "| ") && strings.Contains(line, name) && strings.Contains(line, "| "+strconv.Itoa(limit)) {
				found = true
			}
		}
		if !found {
			t.Errorf("reference.md's limits table does not give %s its limit %d", name, limit)
		}
	}
}
