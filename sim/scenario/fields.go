package scenario

import (
	"fmt"
	"strings"
	"sync"

	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// section is one mapping of the fence with its own set of keys.
type section int

const (
	sectionTop section = iota
	sectionTopic
	sectionProducer
	sectionConsumer
	sectionShare
	sectionTimeline
	sectionExpect
)

// sectionInfo names a section's keys (in the reference page's order), how
// an unknown key is called there, and where the section is written.
type sectionInfo struct {
	keys  []string
	noun  string // "setting", "timeline action", …
	where string // "at the top level", "under topic", …
}

var sections = map[section]sectionInfo{
	sectionTop: {topKeys, "setting", "at the top level"},
	sectionTopic: {[]string{
		"partitions", "replication.factor", "min.insync.replicas", "replica.lag.time.max",
	}, "topic setting", "under topic"},
	sectionProducer: {[]string{
		"acks", "max.in.flight.requests.per.connection", "records", "keys", "interval",
		"start", "delivery.timeout", "request.timeout", "retry.backoff", "retries", "enable.idempotence", "metadata.max.age",
	}, "producer setting", "under producer"},
	sectionConsumer: {[]string{
		"id", "members", "auto.offset.reset", "assignor", "auto.commit.interval",
		"session.timeout", "processing", "max.poll.interval", "max.poll.records", "metadata.max.age",
	}, "consumer group setting", "in a consumer.groups entry"},
	sectionShare: {[]string{
		"id", "members", "share.auto.offset.reset", "group.share.record.lock.duration",
		"group.share.delivery.count.limit", "processing", "slow.key",
	}, "share group setting", "in a share.groups entry"},
	sectionTimeline: {[]string{
		"at", "crash", "restart", "pause", "resume", "isolate", "heal", "add.broker", "add.partitions",
		"join", "leave", "stop",
	}, "timeline action", "in a timeline entry"},
	sectionExpect: {expectKeys, "expect field", "in an expect entry"},
}

// sectionOrder fixes the order in which other sections are searched for a
// misplaced key.
var sectionOrder = []section{
	sectionTop, sectionTopic, sectionProducer, sectionConsumer, sectionShare,
	sectionTimeline, sectionExpect,
}

// aliases maps names people often write to the fence's spelling.
var aliases = map[string]string{
	"hw":                   "highWatermark",
	"high.watermark":       "highWatermark",
	"leo":                  "logEndOffset",
	"log.end.offset":       "logEndOffset",
	"lag":                  "lagTime",
	"lag.time":             "lagTime",
	"epoch":                "leaderEpoch",
	"leader.epoch":         "leaderEpoch",
	"rf":                   "replication.factor",
	"min.isr":              "min.insync.replicas",
	"minisr":               "min.insync.replicas",
	"max.in.flight":        "max.in.flight.requests.per.connection",
	"spso":                 "startOffset",
	"start.offset":         "startOffset",
	"delivery.count":       "deliveryCount",
	"delivery.count.limit": "group.share.delivery.count.limit",
	"lock.duration":        "group.share.record.lock.duration",
	"record.lock.duration": "group.share.record.lock.duration",
	"partition.count":      "partitions",
	"consumers":            "consumer.groups",
	"groups":               "consumer.groups",
	"shares":               "share.groups",
	"events":               "timeline",
	"expectations":         "expect",
	"name":                 "id",
	"num.partitions":       "partitions",
	"replicas":             "replication.factor",
}

// knownKeys holds each section's keys as a set. It is made once, on the
// first read (after the init functions that add the compare and notes
// sections), instead of for every mapping of every run a fence is built
// in: an expect entry's 22 keys made into a map for each entry of each
// knob combination were a tenth of parsing the guide's fences.
var knownKeys = sync.OnceValue(func() map[section]map[string]bool {
	m := make(map[section]map[string]bool, len(sections))
	for sec, info := range sections {
		known := make(map[string]bool, len(info.keys))
		for _, k := range info.keys {
			known[k] = true
		}
		m[sec] = known
	}
	return m
})

// field is one key and its value inside a mapping.
type field struct{ key, val *yaml.Node }

// fields checks that n (which may be nil: the section was left out) is a
// mapping of known keys for sec, reports unknown, duplicate and non-text
// keys, and returns the known fields by name. what names the mapping in
// messages ("topic", "a timeline entry").
func (p *parser) fields(n *yaml.Node, sec section) map[string]field {
	if n == nil {
		return map[string]field{}
	}
	out := make(map[string]field, len(n.Content)/2)
	info := sections[sec]
	known := knownKeys()[sec]
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "a %s name must be plain text, not %s", info.noun, kindName(k))
			continue
		}
		name := k.Value
		if !known[name] {
			p.errorf(k, "unknown %s %q%s", info.noun, name, p.hint(name, sec))
			continue
		}
		if prev, dup := out[name]; dup {
			p.errorf(k, "duplicate %s %q (first set %s)", info.noun, name, where(prev.key, k))
			continue
		}
		out[name] = field{k, v}
	}
	return out
}

// hint returns a parenthesised suggestion for the unknown key name in sec,
// or "".
func (p *parser) hint(name string, sec section) string {
	info := sections[sec]
	lower := strings.ToLower(name)
	if base, ok := strings.CutSuffix(lower, ".ms"); ok {
		for _, k := range info.keys {
			if strings.ToLower(k) == base {
				return fmt.Sprintf(" (time settings count beats and drop \".ms\": write %q)", k)
			}
		}
	}
	if a, ok := aliases[lower]; ok {
		if contains(info.keys, a) {
			return fmt.Sprintf(" (did you mean %q?)", a)
		}
		name, lower = a, strings.ToLower(a)
	}
	// A one-letter slip beats a key of another section.
	if best := nearest(lower, info.keys); best != "" && distance(lower, strings.ToLower(best)) <= 1 {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	// A key that is valid in another section is probably misplaced.
	for _, other := range sectionOrder {
		if other == sec {
			continue
		}
		if contains(lowerKeys(sections[other].keys), lower) {
			k := sections[other].keys[indexOf(lowerKeys(sections[other].keys), lower)]
			return fmt.Sprintf(" (%q belongs %s)", k, sections[other].where)
		}
	}
	if best := nearest(lower, info.keys); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	for _, other := range sectionOrder {
		if other == sec {
			continue
		}
		if best := nearest(lower, sections[other].keys); best != "" {
			return fmt.Sprintf(" (did you mean %q, which belongs %s?)", best, sections[other].where)
		}
	}
	if sec == sectionTimeline {
		// A timeline entry is at: and one action; at is not an action.
		return fmt.Sprintf(" (expected at: and one of the actions: %s)", strings.Join(info.keys[1:], ", "))
	}
	return fmt.Sprintf(" (expected one of: %s)", strings.Join(info.keys, ", "))
}

func lowerKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.ToLower(k)
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nearest returns the candidate closest to s by edit distance (ignoring
// case, "_" and "-" counted as "."), if it is close enough to be a typo, or
// "". Ties go to the earlier candidate.
func nearest(s string, candidates []string) string {
	norm := func(x string) string {
		x = strings.ToLower(x)
		return strings.NewReplacer("_", ".", "-", ".").Replace(x)
	}
	s = norm(s)
	best, bestD := "", -1
	for _, c := range candidates {
		d := distance(s, norm(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if l := len([]rune(best)) / 3; l > limit {
		limit = l
	}
	if bestD < 0 || bestD > limit || bestD >= len([]rune(s)) {
		return ""
	}
	return best
}

// distance is the Levenshtein edit distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		// Long names are never typos of a setting; skip the quadratic work.
		return 1 << 20
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// where says where first is, seen from later: "earlier on this line" or
// "3 lines above". It counts lines between the two, not from the top, so
// the message stays true when the scenario is a fence inside a page (whose
// errors are positioned in the page, not in the fence).
func where(first, later *yaml.Node) string {
	switch n := later.Line - first.Line; {
	case n <= 0:
		return "earlier on this line"
	case n == 1:
		return "on the line above"
	default:
		return fmt.Sprintf("%d lines above", n)
	}
}
