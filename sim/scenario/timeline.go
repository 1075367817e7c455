package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// timelineEntry is a parsed timeline entry with the nodes its later checks
// point at.
type timelineEntry struct {
	ev       sim.TimelineEvent
	atNode   *yaml.Node
	argNode  *yaml.Node
	ok       bool // the entry parsed; its state checks may run
	atOK     bool // ev.At holds the entry's beat
	argOK    bool // the action's argument parsed (a broker id, a count…)
	mixed    bool // the entry names more than one action
	memberNo int  // leave and stop: N of GROUP-N
	group    *group
}

// timeline reads the timeline list: each entry is {at: BEAT, ACTION: ARG}.
// Entries may be written in any order; the state checks (a broker must be
// up to crash, a member must exist to leave…) replay them by beat, entries
// of the same beat in written order, as the engine applies them.
func (p *parser) timeline(n *yaml.Node) {
	items := p.entries(n, "timeline", "entries such as {at: 5, crash: 1}")
	if len(items) > sim.MaxTimeline {
		p.errorf(items[sim.MaxTimeline], "too many timeline entries: Kafka Flow allows at most %d", sim.MaxTimeline)
		items = items[:sim.MaxTimeline]
	}
	var entries []*timelineEntry
	for _, it := range items {
		e := p.timelineEntry(it)
		entries = append(entries, e)
		if e.ev.Kind != "" {
			p.sc.Timeline = append(p.sc.Timeline, e.ev)
		}
	}
	// Adds are known up front so expect can ask how many brokers and
	// partitions exist at a beat.
	for _, e := range entries {
		switch {
		case !e.ok:
		case e.ev.Kind == sim.EventAddBroker:
			p.brokerAdds = append(p.brokerAdds, e.ev.At)
		case e.ev.Kind == sim.EventAddPartitions:
			p.partAdds = append(p.partAdds, partAdd{e.ev.At, e.ev.Count})
		case e.ev.Kind == sim.EventJoin:
			e.group.joins = append(e.group.joins, e.ev.At)
		}
	}
	p.replay(entries)
}

// timelineEntry parses one entry's shape and argument types. An entry
// that is not one returns with ok false and, when its action is unknown
// too, an empty Kind.
func (p *parser) timelineEntry(it *yaml.Node) *timelineEntry {
	e := &timelineEntry{ev: sim.TimelineEvent{Pos: posOf(it)}}
	if !p.mapping(it, "a timeline entry", "{at: 5, crash: 1}") {
		return e
	}
	f := p.fields(it, sectionTimeline)
	ok := true
	if a, has := f["at"]; has {
		e.atNode = a.val
		e.ev.At, ok = p.beat(a.val, "at", 1)
		e.atOK = ok
	} else {
		p.errorf(it, "this timeline entry has no beat: add one, such as \"at: 5\"")
		ok = false
	}
	// The action is the one key besides at, found in written order.
	var action *yaml.Node
	for i := 0; i+1 < len(it.Content); i += 2 {
		k := it.Content[i]
		if k.Kind != yaml.ScalarNode || k.Value == "at" {
			continue
		}
		if _, known := f[k.Value]; !known || f[k.Value].key != k {
			continue
		}
		if action != nil {
			p.errorf(k, "one action per timeline entry: put %q and %q in separate entries", action.Value, k.Value)
			ok, e.mixed = false, true
			continue
		}
		action = k
	}
	if action == nil {
		if len(f) == len(it.Content)/2 { // no unknown key already explains it
			p.errorf(it, "this timeline entry has no action: add one of crash, restart, pause, resume, isolate, heal, add.broker, add.partitions, join, leave, stop")
		}
		return e
	}
	e.ev.Kind = sim.EventKind(action.Value)
	arg := f[action.Value].val
	e.argNode = arg
	e.ev.Pos = posOf(action)
	switch e.ev.Kind {
	case sim.EventCrash, sim.EventRestart, sim.EventPause, sim.EventResume, sim.EventIsolate, sim.EventHeal:
		v, good := p.integer(arg, action.Value+" (a broker id)", 1, sim.MaxBrokers, true)
		e.ev.Broker, e.argOK = int(v), good
	case sim.EventAddBroker:
		v, good := p.integer(arg, "add.broker (the new broker's id)", 2, sim.MaxBrokers, true)
		e.ev.Broker, e.argOK = int(v), good
	case sim.EventAddPartitions:
		v, good := p.integer(arg, "add.partitions (how many partitions to add)", 1, sim.MaxPartitions, true)
		e.ev.Count, e.argOK = int(v), good
	case sim.EventJoin:
		id, good := p.scalar(arg, "join", "a group id")
		if good {
			e.group = p.findGroup(id)
			if e.group == nil {
				if !p.bad["groups"] {
					p.errorf(arg, "join names %q, which is not a group (%s)", id, p.groupNames())
				}
				good = false
			}
			e.ev.Group = id
		}
		e.argOK = good
	case sim.EventLeave, sim.EventStop:
		name, good := p.scalar(arg, action.Value, "a member name such as readers-1")
		if good {
			e.ev.Member = name
			e.group, e.memberNo = p.splitMember(name)
			if e.group == nil {
				if !p.bad["groups"] {
					p.errorf(arg, "%q is not a member name: members are named GROUP-N, N from 1 in joining order (%s)", name, p.groupNames())
				}
				good = false
			} else {
				e.ev.Group = e.group.id
			}
		}
		e.argOK = good
	}
	e.ok = ok && e.argOK
	return e
}

// beat reads a beat number in lo..beats for the setting name.
func (p *parser) beat(n *yaml.Node, name string, lo int) (int, bool) {
	last := p.sc.Beats
	if p.bad["beats"] {
		last = sim.MaxBeats
	}
	v, ok := p.integer(n, name, int64(lo), sim.MaxBeats, true)
	if !ok {
		return 0, false
	}
	if int(v) > last {
		p.errorf(n, "%s %d is after the last beat (beats: %d)", name, v, last)
		return 0, false
	}
	return int(v), true
}

// splitMember finds the group and number of a member name GROUP-N; it
// returns nil when no group has that prefix or N is not a number from 1.
func (p *parser) splitMember(name string) (*group, int) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return nil, 0
	}
	g := p.findGroup(name[:i])
	num := name[i+1:]
	n, err := strconv.Atoi(num)
	if g == nil || err != nil || n < 1 || strconv.Itoa(n) != num {
		return nil, 0
	}
	return g, n
}

// memberState is what the replay knows of a member.
type memberState int

const (
	memberActive memberState = iota
	memberLeft
	memberStopped
)

// replay walks the timeline in beat order and checks that each entry makes
// sense in the state the earlier ones left: brokers exist and are in the
// right state, new broker ids come in order, limits hold, members exist.
//
// An entry that failed to parse is not replayed, but what it would have
// changed is unknown from its beat on (from beat 1 when its beat is the
// problem), and the checks that depend on that stay quiet: see doubt.
func (p *parser) replay(entries []*timelineEntry) {
	order := make([]*timelineEntry, 0, len(entries))
	for _, e := range entries {
		if e.ok || e.atOK {
			order = append(order, e)
		} else {
			p.doubt.failed(e, 1)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].ev.At < order[j].ev.At })

	brokers := p.sc.Brokers
	online := make([]bool, sim.MaxBrokers+1)
	paused := make([]bool, sim.MaxBrokers+1)
	isolated := make([]bool, sim.MaxBrokers+1)
	since := make([]int, sim.MaxBrokers+1) // beat of the last state change
	last := make([]sim.EventKind, sim.MaxBrokers+1)
	changed := make([]bool, sim.MaxBrokers+1) // since[b] holds a change
	for b := 1; b <= brokers; b++ {
		online[b] = true
	}
	partitions := p.sc.Topic.Partitions
	members := map[*group][]memberState{}
	for _, g := range p.groups {
		members[g] = make([]memberState, g.initial)
	}
	for _, e := range order {
		if !e.ok {
			p.doubt.failed(e, e.ev.At)
			continue
		}
		ev := e.ev
		b := ev.Broker
		switch ev.Kind {
		case sim.EventCrash, sim.EventRestart, sim.EventPause, sim.EventResume, sim.EventIsolate, sim.EventHeal:
			if p.bad["brokers"] {
				continue
			}
			if b > brokers {
				if p.sureOfBrokers(ev.At) {
					p.errorf(e.argNode, "broker %d does not exist at beat %d (%s)", b, ev.At, brokerRange(brokers))
				}
				continue
			}
			if p.doubt.broker[b].at(ev.At) || p.doubt.broker[0].at(ev.At) {
				continue // what state it is in is unknown
			}
			var problem string
			switch {
			case changed[b] && since[b] == ev.At:
				// A beat is the smallest step: two state changes of one
				// broker in it have no order a figure could show.
				problem = fmt.Sprintf("broker %d already has a %s at beat %d: give each broker at most one crash, restart, pause, resume, isolate or heal per beat", b, last[b], ev.At)
			case ev.Kind == sim.EventCrash && !online[b]:
				problem = fmt.Sprintf("broker %d is already down at beat %d (crashed at beat %d)", b, ev.At, since[b])
			case ev.Kind == sim.EventRestart && online[b]:
				problem = fmt.Sprintf("broker %d is running at beat %d: restart needs a crashed broker", b, ev.At)
			case ev.Kind == sim.EventPause && !online[b]:
				problem = fmt.Sprintf("broker %d is down at beat %d: only a running broker can be paused", b, ev.At)
			case ev.Kind == sim.EventPause && paused[b]:
				problem = fmt.Sprintf("broker %d is already paused at beat %d (paused at beat %d)", b, ev.At, since[b])
			case ev.Kind == sim.EventResume && !online[b]:
				problem = fmt.Sprintf("broker %d is down at beat %d (crashed at beat %d): a crash ends a pause, so there is nothing to resume", b, ev.At, since[b])
			case ev.Kind == sim.EventResume && !paused[b]:
				problem = fmt.Sprintf("broker %d is not paused at beat %d: resume needs a paused broker", b, ev.At)
			case ev.Kind == sim.EventIsolate && !online[b]:
				problem = fmt.Sprintf("broker %d is down at beat %d: only a running broker can be cut off (isolate)", b, ev.At)
			case ev.Kind == sim.EventIsolate && isolated[b]:
				problem = fmt.Sprintf("broker %d is already cut off at beat %d (isolated at beat %d)", b, ev.At, since[b])
			case ev.Kind == sim.EventHeal && !isolated[b]:
				problem = fmt.Sprintf("broker %d is not cut off at beat %d: heal needs an isolated broker (a crash ends an isolation)", b, ev.At)
			}
			if problem != "" {
				p.errorf(e.argNode, "%s", problem)
				continue
			}
			switch ev.Kind {
			case sim.EventCrash:
				online[b], paused[b], isolated[b] = false, false, false // the engine's crash clears the broker's state
			case sim.EventIsolate:
				isolated[b] = true
			case sim.EventHeal:
				isolated[b] = false
			case sim.EventRestart:
				online[b] = true
			case sim.EventPause:
				paused[b] = true
			case sim.EventResume:
				paused[b] = false
			}
			since[b], last[b], changed[b] = ev.At, ev.Kind, true
		case sim.EventAddBroker:
			if p.bad["brokers"] {
				continue
			}
			if b != brokers+1 {
				if !p.sureOfBrokers(ev.At) {
					continue // the next id is unknown; later entries naming b are not checked
				}
				p.errorf(e.argNode, "add.broker names broker %d, but the next new broker at beat %d is %d (ids go up by one from the last)", b, ev.At, brokers+1)
				continue
			}
			brokers++
			online[b] = true
			since[b] = ev.At
		case sim.EventAddPartitions:
			if p.bad["partitions"] {
				continue
			}
			if partitions+ev.Count > sim.MaxPartitions {
				p.errorf(e.argNode, "adding %s to %d makes %d: Kafka Flow allows at most %d partitions", plural(ev.Count, "partition"), partitions, partitions+ev.Count, sim.MaxPartitions)
				continue
			}
			partitions += ev.Count
		case sim.EventJoin:
			g := e.group
			if len(members[g]) == sim.MaxMembers {
				p.errorf(e.argNode, "group %q already has %d members at beat %d: Kafka Flow allows at most %d per group", g.id, sim.MaxMembers, ev.At, sim.MaxMembers)
				continue
			}
			members[g] = append(members[g], memberActive)
		case sim.EventLeave, sim.EventStop:
			g, n := e.group, e.memberNo
			have := members[g]
			switch {
			case n > len(have):
				if p.sureOfMembers(g, ev.At) {
					p.errorf(e.argNode, "member %q has not joined by beat %d (%s)", ev.Member, ev.At, memberRange(g.id, len(have)))
				}
			case have[n-1] == memberLeft:
				p.errorf(e.argNode, "member %q has already left by beat %d", ev.Member, ev.At)
			case have[n-1] == memberStopped:
				p.errorf(e.argNode, "member %q has already stopped by beat %d", ev.Member, ev.At)
			case ev.Kind == sim.EventLeave:
				have[n-1] = memberLeft
			default:
				have[n-1] = memberStopped
			}
		}
	}
}

// doubt is what the timeline's failed entries leave unknown. An entry that
// failed to parse (a beat of 5.5, a broker id that is no number, a join of
// a group that does not exist) was still meant to change something from
// its beat on; the checks that depend on that stay quiet, so that one
// mistake gives one error and not a second, false one for a later entry
// that is right ("broker 1 is running: restart needs a crashed broker"
// after the crash of broker 1 failed to parse).
type doubt struct {
	brokers    unsure // how many brokers exist: a failed add.broker
	partitions unsure // how many partitions exist: a failed add.partitions
	groups     unsure // members of every group: a failed join of no known group
	// broker is each broker's state (up, paused, cut off), by id; broker[0]
	// stands for every broker, after a failed action whose id is unknown.
	broker [sim.MaxBrokers + 1]unsure
}

// failed records what e, an entry that failed to parse, leaves unknown
// from beat from on. A failed leave or stop records nothing: it can only
// hide a later error (a second leave of the same member), never make one.
func (d *doubt) failed(e *timelineEntry, from int) {
	if !e.mixed {
		switch e.ev.Kind {
		case sim.EventCrash, sim.EventRestart, sim.EventPause, sim.EventResume, sim.EventIsolate, sim.EventHeal:
			if e.argOK {
				d.broker[e.ev.Broker].since(from)
			} else {
				d.broker[0].since(from)
			}
			return
		case sim.EventAddBroker:
			d.brokers.since(from)
			return
		case sim.EventAddPartitions:
			d.partitions.since(from)
			return
		case sim.EventJoin:
			if e.argOK {
				e.group.unsure.since(from)
			} else {
				d.groups.since(from)
			}
			return
		case sim.EventLeave, sim.EventStop:
			return
		}
	}
	// The action is unknown (none, a misspelt one, or two in one entry):
	// so is everything it could have changed.
	d.brokers.since(from)
	d.partitions.since(from)
	d.groups.since(from)
	d.broker[0].since(from)
}

// unsure marks something the timeline changes as unknown from a beat on;
// the zero value is known at every beat.
type unsure struct {
	set  bool
	from int
}

// since makes u unknown from beat from on (and keeps an earlier beat).
func (u *unsure) since(from int) {
	if !u.set || from < u.from {
		u.set, u.from = true, from
	}
}

// at reports whether u is unknown at the end of beat at.
func (u unsure) at(beat int) bool { return u.set && beat >= u.from }

func brokerRange(n int) string {
	if n == 1 {
		return "the only broker is 1"
	}
	return fmt.Sprintf("brokers are 1 to %d", n)
}

func memberRange(group string, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("group %q has no members then", group)
	case 1:
		return fmt.Sprintf("its only member then is %s-1", group)
	}
	return fmt.Sprintf("its members then are %s-1 to %s-%d", group, group, n)
}

// plural writes "1 partition", "2 partitions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
