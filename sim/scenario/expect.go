package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// expectKeys are the keys of an expect entry: selectors first, then the
// fields that can be asserted.
var expectKeys = []string{
	"at", "record", "partition", "broker", "group", "offset",
	"outcome",
	"leader", "leaderEpoch", "isr", "highWatermark",
	"logEndOffset", "online", "lagTime",
	"owner", "position", "committed", "startOffset",
	"state", "deliveryCount",
	"variant", "when",
}

// subject is what an expectation is about.
type subject struct {
	name      string   // in messages: "a record", "a partition", …
	selectors []string // keys that pick the subject, all required
	fields    []string // what may be asserted of it
}

var subjects = []subject{
	{"a record", []string{"record"}, []string{"outcome"}},
	{"a partition", []string{"at", "partition"}, []string{"leader", "leaderEpoch", "isr", "highWatermark"}},
	{"a replica", []string{"at", "partition", "broker"}, []string{"logEndOffset", "online", "lagTime"}},
	{"a group's partition", []string{"at", "group", "partition"}, []string{"owner", "position", "committed", "startOffset"}},
	{"a share group's record", []string{"at", "group", "partition", "offset"}, []string{"state", "deliveryCount"}},
}

// subjectOf returns the subject a field belongs to, or nil for a selector.
func subjectOf(field string) *subject {
	for i := range subjects {
		if contains(subjects[i].fields, field) {
			return &subjects[i]
		}
	}
	return nil
}

// Expected values the fence spells as words.
var (
	outcomes    = []string{sim.OutcomeAcked, sim.OutcomeSent, sim.OutcomeF, sim.OutcomeU, sim.OutcomeL, sim.OutcomePending}
	shareStates = []string{"available", "acquired", "acknowledged", "archived"}
)

// expect reads the expect list. Each entry names one subject and asserts
// one or more of its fields; each asserted field becomes one
// sim.Expectation positioned at its value.
func (p *parser) expect(n *yaml.Node) {
	for _, it := range p.entries(n, "expect", "entries such as {record: 1, outcome: acked}") {
		if len(p.sc.Expect) >= sim.MaxExpect {
			p.errorf(it, "too many expectations: Kafka Flow allows at most %d", sim.MaxExpect)
			return
		}
		if p.mapping(it, "an expect entry", "{at: 12, partition: 0, highWatermark: 3}") {
			// Both are asked, so that each reports a bad value once.
			combo := p.forThisCombo(it)
			if p.forThisRun(it) && combo {
				p.expectEntry(it)
			}
		}
		// An entry may assert several fields, each one claim.
		if n := len(p.sc.Expect); n > sim.MaxExpect {
			p.errorf(it, "too many expectations: this entry brings the claims to %d; Kafka Flow allows at most %d", n, sim.MaxExpect)
			return
		}
	}
}

// selection is the parsed selector part of an expect entry.
type selection struct {
	at, record, partition, broker int
	offset                        int64
	group                         *group
	groupID                       string
}

func (p *parser) expectEntry(it *yaml.Node) {
	f := p.fields(it, sectionExpect)
	// The asserted fields, in written order; the first decides the subject.
	var asserted []field
	var subj *subject
	for i := 0; i+1 < len(it.Content); i += 2 {
		k := it.Content[i]
		if k.Kind != yaml.ScalarNode || f[k.Value].key != k {
			continue
		}
		s := subjectOf(k.Value)
		if s == nil {
			continue
		}
		if subj != nil && s != subj {
			p.errorf(k, "%q is a field of %s and %q of %s: assert them in separate entries", asserted[0].key.Value, subj.name, k.Value, s.name)
			continue
		}
		subj = s
		asserted = append(asserted, f[k.Value])
	}
	if subj == nil {
		if len(f) == len(it.Content)/2 {
			p.errorf(it, "this expect entry asserts nothing: add a field such as \"outcome: acked\" or \"highWatermark: 3\"")
		}
		return
	}
	ok := true
	var missing []string
	for _, sel := range subj.selectors {
		if _, has := f[sel]; !has {
			missing = append(missing, strconv.Quote(sel))
		}
	}
	if len(missing) > 0 {
		p.errorf(it, "%s is a field of %s, which needs %s: add %s", asserted[0].key.Value, subj.name, strings.Join(subj.selectors, ", "), strings.Join(missing, " and "))
		ok = false
	}
	for _, sel := range []string{"at", "record", "partition", "broker", "group", "offset"} {
		if fl, has := f[sel]; has && !contains(subj.selectors, sel) {
			p.errorf(fl.key, "%q does not apply to %s (a field of %s, selected by %s)", sel, asserted[0].key.Value, subj.name, strings.Join(subj.selectors, ", "))
			ok = false
		}
	}
	if !ok {
		return
	}
	s, ok := p.selection(f, subj)
	if !ok {
		return
	}
	for _, a := range asserted {
		want, good := p.want(a, s)
		if !good {
			continue
		}
		e := sim.Expectation{
			At: s.at, Record: s.record, Partition: s.partition, Broker: s.broker,
			Group: s.groupID, Field: a.key.Value, Offset: s.offset, Want: want, Pos: posOf(a.val),
		}
		if subj.name == "a record" {
			e.At, e.Partition = 0, -1
		}
		p.sc.Expect = append(p.sc.Expect, e)
	}
}

// selection reads and checks the selectors subj needs.
func (p *parser) selection(f map[string]field, subj *subject) (selection, bool) {
	s := selection{partition: -1}
	ok := true
	if v, has := f["at"]; has {
		var good bool
		s.at, good = p.beat(v.val, "at", 0)
		ok = ok && good
	}
	if v, has := f["record"]; has {
		r, good := p.integer(v.val, "record", 1, sim.MaxRecords, true)
		s.record = int(r)
		if good && !p.bad["records"] && s.record > p.sc.Producer.Records {
			p.errorf(v.val, "record %d does not exist: the producer creates records 1 to %d", s.record, p.sc.Producer.Records)
			good = false
		}
		ok = ok && good
	}
	if !ok {
		return s, false // the checks below need a valid beat
	}
	if v, has := f["partition"]; has {
		// The fence's own partition count is the bound a reader needs, even
		// for a number past Kafka Flow's limit.
		if parts := p.partitionsAt(s.at); p.sureOfPartitions(s.at) && exceeds(v.val, int64(parts)-1) {
			p.errorf(v.val, "partition %s does not exist at beat %d (%s)", v.val.Value, s.at, partitionRange(parts))
			return s, false
		}
		r, good := p.integer(v.val, "partition", 0, sim.MaxPartitions-1, true)
		s.partition = int(r)
		if parts := p.partitionsAt(s.at); good && p.sureOfPartitions(s.at) && s.partition >= parts {
			p.errorf(v.val, "partition %d does not exist at beat %d (%s)", s.partition, s.at, partitionRange(parts))
			good = false
		}
		ok = ok && good
	}
	if v, has := f["broker"]; has {
		if n := p.brokersAt(s.at); p.sureOfBrokers(s.at) && exceeds(v.val, int64(n)) {
			p.errorf(v.val, "broker %s does not exist at beat %d (%s)", v.val.Value, s.at, brokerRange(n))
			return s, false
		}
		r, good := p.integer(v.val, "broker", 1, sim.MaxBrokers, true)
		s.broker = int(r)
		if n := p.brokersAt(s.at); good && p.sureOfBrokers(s.at) && s.broker > n {
			p.errorf(v.val, "broker %d does not exist at beat %d (%s)", s.broker, s.at, brokerRange(n))
			good = false
		}
		ok = ok && good
	}
	if v, has := f["group"]; has {
		id, good := p.scalar(v.val, "group", "a group id")
		if good {
			s.groupID = id
			s.group = p.findGroup(id)
			if s.group == nil {
				if !p.bad["groups"] {
					p.errorf(v.val, "%q is not a group (%s)", id, p.groupNames())
				}
				good = false
			}
		}
		ok = ok && good
	}
	if v, has := f["offset"]; has {
		var good bool
		s.offset, good = p.integer(v.val, "offset", 0, maxOffsets, false)
		ok = ok && good
	}
	return s, ok
}

// exceeds reports whether n is a plain decimal whole number above hi,
// including one too large for an int64; anything else is left to
// parser.integer to judge.
func exceeds(n *yaml.Node, hi int64) bool {
	if n.Kind != yaml.ScalarNode || isQuoted(n) || !isDecimal(n.Value) || leadingZero(n.Value) || strings.HasPrefix(n.Value, "+") {
		return false
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	return errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(n.Value, "-") || err == nil && v > hi
}

// want reads an asserted value and returns its canonical text.
func (p *parser) want(a field, s selection) (string, bool) {
	name, v := a.key.Value, a.val
	num := func(lo, hi int64) (string, bool) {
		x, ok := p.integer(v, name, lo, hi, false)
		return strconv.FormatInt(x, 10), ok
	}
	if g := s.group; g != nil {
		shareField := name == "startOffset" || name == "state" || name == "deliveryCount"
		if shareField && !g.share {
			p.errorf(a.key, "%s is a share group field, but %q is a consumer group", name, g.id)
			return "", false
		}
		if !shareField && g.share {
			p.errorf(a.key, "%s is a consumer group field, but %q is a share group", name, g.id)
			return "", false
		}
	}
	switch name {
	case "outcome":
		o, ok := p.choice(v, "outcome", outcomes...)
		if !ok || p.bad["acks"] {
			return o, ok
		}
		acks0 := p.sc.Producer.Acks == sim.AcksNone
		switch {
		case acks0 && (o == sim.OutcomeAcked || o == sim.OutcomeU || o == sim.OutcomeL):
			p.errorf(v, "outcome %q cannot happen with acks=0: the producer gets no answer, so a record settles as \"sent\"", o)
			return "", false
		case !acks0 && o == sim.OutcomeSent:
			p.errorf(v, "outcome \"sent\" is for acks=0 only; with acks=%s a record settles as acked, F, U or L", p.sc.Producer.Acks)
			return "", false
		}
		return o, true
	case "leader":
		n := p.brokersAt(s.at)
		x, ok := p.integer(v, "leader", 0, sim.MaxBrokers, true)
		if ok && int(x) > n && p.sureOfBrokers(s.at) {
			p.errorf(v, "leader %d is not a broker at beat %d (%s; 0 means no leader)", x, s.at, brokerRange(n))
			return "", false
		}
		return strconv.FormatInt(x, 10), ok
	case "leaderEpoch":
		return num(0, maxInt)
	case "lagTime":
		// Beats since the leader last counted the follower caught up;
		// it cannot exceed the run. sim.LagNever (−1) for never.
		return num(sim.LagNever, int64(sim.MaxBeats))
	case "isr":
		return p.isr(v, s.at)
	case "highWatermark", "logEndOffset", "startOffset":
		return num(0, maxOffsets)
	case "position", "committed":
		return num(-1, maxOffsets)
	case "online":
		b, ok := p.boolean(v, "online")
		return strconv.FormatBool(b), ok
	case "owner":
		return p.owner(v, s)
	case "state":
		return p.choice(v, "state", shareStates...)
	case "deliveryCount":
		return num(0, int64(s.group.limit))
	}
	panic("scenario: no value rule for expect field " + name)
}

// isr reads a list of broker ids and writes it "[1 2 3]" in the written
// order (the trace lists the ISR in assignment order).
func (p *parser) isr(v *yaml.Node, at int) (string, bool) {
	if v.Kind != yaml.SequenceNode {
		if v.Kind != yaml.AliasNode {
			p.errorf(v, "isr must be a list of broker ids such as [1, 2, 3], not %s", kindName(v))
		}
		return "", false
	}
	n := p.brokersAt(at)
	seen := map[int64]bool{}
	var ids []string
	ok := true
	for _, it := range v.Content {
		x, good := p.integer(it, "isr (a broker id)", 1, sim.MaxBrokers, true)
		switch {
		case !good:
			ok = false
		case int(x) > n && p.sureOfBrokers(at):
			p.errorf(it, "broker %d does not exist at beat %d (%s)", x, at, brokerRange(n))
			ok = false
		case seen[x]:
			p.errorf(it, "broker %d appears twice in isr", x)
			ok = false
		}
		seen[x] = true
		ids = append(ids, strconv.FormatInt(x, 10))
	}
	return "[" + strings.Join(ids, " ") + "]", ok
}

// owner reads a member name of the expectation's group, or "" for none.
func (p *parser) owner(v *yaml.Node, s selection) (string, bool) {
	name, ok := p.scalar(v, "owner", "a member name such as readers-1, or \"\" for none")
	if !ok {
		return "", false
	}
	if name == "" {
		return "", true
	}
	g, n := p.splitMember(name)
	if g != s.group {
		p.errorf(v, "%q is not a member of group %q: its members are named %s-1, %s-2, … (\"\" means no owner)", name, s.group.id, s.group.id, s.group.id)
		return "", false
	}
	if have := g.members(s.at); n > have && p.sureOfMembers(g, s.at) {
		p.errorf(v, "member %q has not joined by beat %d (%s)", name, s.at, memberRange(g.id, have))
		return "", false
	}
	return name, true
}

func partitionRange(n int) string {
	if n == 1 {
		return "the only partition is 0"
	}
	return fmt.Sprintf("partitions are 0 to %d", n-1)
}
