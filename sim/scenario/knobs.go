package scenario

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// Knobs. A fence may offer the reader a few settings to change, each with
// the values they may pick:
//
//	knobs:
//	  producer.acks: [0, 1, all]
//	  topic.min.insync.replicas: [1, 2]
//
// A knob is named by its setting's path in the fence: a top-level key
// (brokers), a key of topic or producer (topic.partitions,
// producer.acks), or a key of one group, named by its id
// (consumer.groups.readers.members,
// share.groups.workers.group.share.record.lock.duration). Every
// combination of the values is a scenario of its own, the fence with those
// settings laid over it, parsed and checked as fully as a fence on its
// own. A compare run is the combination with compare laid over it: the
// knobs apply to both runs, but a setting compare gives keeps compare's
// value in the second run (a knob on acks beside compare: {producer:
// {acks: all}} changes the first run against a fixed second one), and a
// combination may make both runs alike. One of each knob's values
// must be the fence's own setting: the combination of those is the
// default, the figure a reader sees first and without scripts.
//
// An expect entry without "when" is a claim about the default combination;
// one with "when: {producer.acks: 0}" is about the combination with those
// values, the knobs it does not name keeping their defaults.

// Knob is one setting a reader may change.
type Knob struct {
	// Path is the setting's path in the fence, as written under knobs
	// ("producer.acks"); Name is Kafka's name for the setting, the
	// path's last key ("acks"); Group the group it belongs to ("" for
	// one that is not a group's).
	Path, Name, Group string
	// Values are the values a reader may pick, as written (also their
	// spelling in deep links); Default is the index of the fence's own.
	Values  []string
	Default int
	// Pos is where the path is written, relative to the fence body.
	Pos sim.Pos
	// LeftOnly says the fence's compare gives this setting a value of
	// its own: the knob changes the first run only, and the compare run
	// keeps compare's value in every combination.
	LeftOnly bool

	target target
	key    *yaml.Node
	vals   []*yaml.Node
}

// Fence is a fence read by ParseFence: its knobs and every combination of
// their values.
type Fence struct {
	// Knobs are the fence's knobs, in the order written (none without
	// knobs:).
	Knobs []Knob
	// Variants holds one run (and its compare run) per combination of
	// the knobs' values: the first knob's value changes slowest, so
	// variant i picks value (i / product of the later knobs' counts) mod
	// count of each knob. A fence without knobs has one variant.
	Variants []Variant
	// Default is the index of the combination of the fence's own values.
	Default int
}

// Variant is the fence under one combination of knob values.
type Variant struct {
	// Choice holds the index of the value picked for each knob.
	Choice []int
	// Scenario is the run; Compare its compare run (nil without one).
	Scenario, Compare *sim.Scenario
}

// Label names a combination the way errors and deep links write it:
// "producer.acks=0, topic.partitions=3" ("" without knobs).
func (f *Fence) Label(choice []int) string {
	parts := make([]string, len(f.Knobs))
	for i, k := range f.Knobs {
		parts[i] = k.Path + "=" + k.Values[choice[i]]
	}
	return strings.Join(parts, ", ")
}

// combo is the combination a parser builds: which expect entries apply.
type combo struct {
	knobs []Knob
	// choice is nil while the fence as written is built (it keeps only
	// the entries without "when").
	choice []int
	// noExpect skips the expect list (the builds that find defaults).
	noExpect bool
}

// target is where a knob's setting sits in the fence.
type target struct {
	section string // "", "topic", "producer", "consumer.groups", "share.groups"
	group   string // the group's id, for a group setting
	key     string
}

// knobTop, knobTopic… are the settings a knob may change: every setting
// that takes a single value, but ids, titles and the producer's keys.
var (
	knobTop      = []string{"seed", "brokers", "beats", "broker.session.timeout"}
	knobSections = []string{"topic", "producer", "consumer.groups", "share.groups"}
)

// knobKeys returns the keys of a section a knob may name.
func knobKeys(name string) []string {
	var sec section
	switch name {
	case "":
		return knobTop
	case "topic":
		sec = sectionTopic
	case "producer":
		sec = sectionProducer
	case "consumer.groups":
		sec = sectionConsumer
	case "share.groups":
		sec = sectionShare
	}
	var out []string
	for _, k := range sections[sec].keys {
		if k != "id" && k != "keys" {
			out = append(out, k)
		}
	}
	return out
}

// isKnobValue reports whether v looks as a knob value must: a number or a
// word (an optional "-", an ASCII letter or digit, then letters, digits,
// "." and "-"), so that it reads the same in a button, an error and a
// link. It is written out rather than a regexp so the playground's
// WebAssembly module does not link package regexp.
func isKnobValue(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		word := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !word && (i == 0 || c != '.' && c != '-') {
			return false
		}
	}
	return true
}

// ParseFence reads a fence that may have knobs and a compare mapping. It
// parses the fence as written, then every combination of its knobs'
// values, and returns them all; an error that only some combination has,
// outside the knobs mapping, starts with that combination ("with
// producer.acks=0, topic.partitions=3: "). On any error the Fence is nil
// and errs is sorted by position.
func ParseFence(src []byte) (*Fence, sim.ErrorList) {
	pre := &parser{src: src, bad: map[string]bool{}}
	root := pre.root()
	if root == nil {
		return nil, finish(pre.errs)
	}
	root, knobsKey, knobsVal := pre.splitKnobs(root)
	baseRoot := pre.splitCompare(root)
	// Without knobs, the build checks that no entry has "when"; with
	// them, the entries with "when" wait until the knobs are read.
	var asWritten *combo
	if knobsKey == nil {
		asWritten = &combo{}
	}
	base, variant, errs := runs(src, baseRoot, pre.compare, asWritten, pre.errs)
	if len(errs) > 0 {
		return nil, finish(errs)
	}
	if knobsKey == nil {
		return &Fence{Variants: []Variant{{Scenario: base, Compare: variant}}}, nil
	}
	kp := &parser{src: src, bad: map[string]bool{}, sc: base}
	knobs := kp.knobs(knobsKey, knobsVal, baseRoot, base)
	if len(kp.errs) > 0 {
		// The knobs that did read are still checked value by value
		// below, so that one knob's mistake (a value listed twice) does
		// not hide another's (a value the setting cannot take) until the
		// next build; "when" and the combinations wait for every knob.
		errs = kp.errs
	} else if _, _, werrs := runs(src, baseRoot, pre.compare, &combo{knobs: knobs}, nil); len(werrs) > 0 {
		// Every "when" is checked once, against the knobs.
		return nil, finish(werrs)
	}
	seen := map[sim.Error]bool{}
	for _, e := range errs {
		seen[e] = true
	}
	inside := map[sim.Pos]bool{}
	walk(knobsVal, func(n *yaml.Node) { inside[posOf(n)] = true })

	// Each knob's default: the value whose run is the fence's own.
	for i := range knobs {
		k := &knobs[i]
		k.Default = -1
		k.LeftOnly = setsTarget(pre.compare, k.target)
		var runsOf []*sim.Scenario
		for j, v := range k.vals {
			r := k.target.set(baseRoot, k.key, v)
			sc, _, verrs := runs(src, r, pre.compare, &combo{noExpect: true}, nil)
			for _, e := range verrs {
				if seen[e] {
					continue
				}
				seen[e] = true
				if !inside[e.Pos] {
					e.Msg = fmt.Sprintf("with %s=%s: %s", k.Path, k.Values[j], e.Msg)
				}
				errs = append(errs, e)
			}
			if len(verrs) > 0 {
				runsOf = append(runsOf, nil)
				continue
			}
			for jj, other := range runsOf {
				if other != nil && sameRun(other, sc) {
					errs = append(errs, sim.Error{Pos: posOf(v), Msg: fmt.Sprintf(
						"knob %s: the values %s and %s give the same run; list each value once", k.Path, k.Values[jj], k.Values[j])})
				}
			}
			runsOf = append(runsOf, sc)
			if sameRun(base, sc) && k.Default < 0 {
				k.Default = j
			}
		}
		if k.Default < 0 && len(errs) == 0 {
			errs = append(errs, sim.Error{Pos: k.Pos, Msg: fmt.Sprintf(
				"knob %s: none of its values is the fence's own %s (%s); add it to the list, since the figure opens, and shows readers without scripts, the fence as written",
				k.Path, k.Name, ownValue(baseRoot, k.target))})
		}
	}
	if len(errs) > 0 {
		return nil, finish(errs)
	}

	f := &Fence{Knobs: knobs}
	n := 1
	for _, k := range knobs {
		n *= len(k.Values)
	}
	for i := range n {
		choice := make([]int, len(knobs))
		rest, isDefault := i, true
		for ki := len(knobs) - 1; ki >= 0; ki-- {
			choice[ki] = rest % len(knobs[ki].Values)
			rest /= len(knobs[ki].Values)
			isDefault = isDefault && choice[ki] == knobs[ki].Default
		}
		r := baseRoot
		for ki, k := range knobs {
			r = k.target.set(r, k.key, k.vals[choice[ki]])
		}
		sc, cmp, verrs := runs(src, r, pre.compare, &combo{knobs: knobs, choice: choice}, nil)
		label := f.Label(choice)
		for _, e := range verrs {
			if !seen[e] {
				e.Msg = "with " + label + ": " + e.Msg
				errs = append(errs, e)
			}
		}
		if isDefault {
			f.Default = i
		} else if sc != nil {
			// The author's notes and titles tell the fence as written:
			// another combination shows the engine's own headlines, and
			// its titles name the values picked.
			sc.Notes = nil
			sc.Title = retitle(sc.Title, knobs, choice)
			if cmp != nil {
				cmp.Notes = nil
				var own []Knob // the knobs compare leaves to the fence
				var picked []int
				for ki, k := range knobs {
					if !k.LeftOnly {
						own, picked = append(own, k), append(picked, choice[ki])
					}
				}
				cmp.Title = retitle(cmp.Title, own, picked)
			}
		}
		f.Variants = append(f.Variants, Variant{Choice: choice, Scenario: sc, Compare: cmp})
	}
	if len(errs) > 0 {
		return nil, finish(errs)
	}
	return f, nil
}

// retitle rewrites, in a run's title, each knob written as NAME=DEFAULT
// ("acks=1", or under a short name the parser knows, "max.in.flight=1")
// to the value picked: "acks=0".
func retitle(title string, knobs []Knob, choice []int) string {
	for ki, k := range knobs {
		names := []string{k.Name}
		for short, full := range aliases {
			if full == k.Name {
				names = append(names, short)
			}
		}
		sort.Strings(names[1:]) // map order must not reach the output
		for _, n := range names {
			title = replaceWord(title, n+"="+k.Values[k.Default], n+"="+k.Values[choice[ki]])
		}
	}
	return title
}

// replaceWord replaces old in s where it stands as a word of its own: not
// inside a longer name or value ("acks=1" is not in "acks=10").
func replaceWord(s, old, repl string) string {
	word := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_'
	}
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(old)
		if (i == 0 || !word(s[i-1])) && (end == len(s) || !word(s[end])) {
			b.WriteString(s[:i] + repl)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

// setsTarget reports whether a compare mapping (nil: none) gives t's
// setting a value of its own.
func setsTarget(compare *yaml.Node, t target) bool {
	if compare == nil {
		return false
	}
	if t.section == "" {
		return keyIndex(compare, &yaml.Node{Kind: yaml.ScalarNode, Value: t.key}) >= 0
	}
	j := keyIndex(compare, &yaml.Node{Kind: yaml.ScalarNode, Value: t.section})
	if j < 0 {
		return false
	}
	// compare replaces a group list as a whole.
	sec := compare.Content[j+1]
	return t.group != "" || sec.Kind != yaml.MappingNode ||
		keyIndex(sec, &yaml.Node{Kind: yaml.ScalarNode, Value: t.key}) >= 0
}

// ownValue words the fence's own value of a setting: as written, or "its
// default" when the fence leaves it out.
func ownValue(root *yaml.Node, t target) string {
	var found *yaml.Node
	get := func(m *yaml.Node, key string) *yaml.Node {
		if m == nil || m.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return m.Content[i+1]
			}
		}
		return nil
	}
	switch {
	case t.section == "":
		found = get(root, t.key)
	case t.group == "":
		found = get(get(root, t.section), t.key)
	default:
		if seq := get(root, t.section); seq != nil && seq.Kind == yaml.SequenceNode {
			for _, e := range seq.Content {
				if id := get(e, "id"); id != nil && id.Value == t.group {
					found = get(e, t.key)
				}
			}
		}
	}
	if found == nil || found.Kind != yaml.ScalarNode {
		return "its default"
	}
	return found.Value
}

// splitKnobs returns root without its knobs key, and that key and its
// value (nil, nil without one).
func (p *parser) splitKnobs(root *yaml.Node) (out, key, val *yaml.Node) {
	at := -1
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "knobs" {
			if at >= 0 {
				p.errorf(k, "duplicate setting \"knobs\" (first set %s)", where(root.Content[at], k))
				continue
			}
			at = i
		}
	}
	if at < 0 {
		return root, nil, nil
	}
	o := *root
	o.Content = nil
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "knobs" {
			continue
		}
		o.Content = append(o.Content, root.Content[i], root.Content[i+1])
	}
	return &o, root.Content[at], root.Content[at+1]
}

// knobs reads the knobs mapping against the fence as written (base, and
// its root mapping), checking each path, each value list and the limits.
func (p *parser) knobs(key, val, root *yaml.Node, base *sim.Scenario) []Knob {
	const example = "{producer.acks: [0, 1, all]}"
	if isNull(val) || val.Kind == yaml.MappingNode && len(val.Content) == 0 {
		p.errorf(key, "knobs is empty: give it the settings a reader may change and their values, such as %s", example)
		return nil
	}
	if !p.mapping(val, "knobs", example) {
		return nil
	}
	var out []Knob
	combos := 1
	for i := 0; i+1 < len(val.Content); i += 2 {
		k, v := val.Content[i], val.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "a knob is named by a setting's path such as producer.acks, not %s", kindName(k))
			continue
		}
		t, ok := p.knobTarget(k, base)
		if !ok {
			continue
		}
		dup := false
		for _, o := range out {
			if o.Path == k.Value {
				p.errorf(k, "duplicate knob %q (first set %s)", k.Value, where(o.key, k))
				dup = true
			}
		}
		if dup {
			continue
		}
		if v.Kind != yaml.SequenceNode {
			p.errorf(v, "the values of knob %s must be a list such as [0, 1, all], not %s", k.Value, kindName(v))
			continue
		}
		if len(v.Content) < 2 {
			p.errorf(v, "knob %s needs at least two values to choose from", k.Value)
			continue
		}
		kn := Knob{Path: k.Value, Name: t.key, Group: t.group, Pos: posOf(k), target: t, key: k}
		good := true
		for _, it := range v.Content {
			if it.Kind != yaml.ScalarNode || isNull(it) {
				p.errorf(it, "a knob value is one setting's value such as 0 or all, not %s", kindName(it))
				good = false
				continue
			}
			if !isKnobValue(it.Value) {
				p.errorf(it, "knob value %q must be a number or a word (letters, digits, \".\" and \"-\"), so that a link can name it", it.Value)
				good = false
				continue
			}
			if contains(kn.Values, it.Value) {
				p.errorf(it, "knob %s lists the value %s twice", k.Value, it.Value)
				good = false
				continue
			}
			kn.Values = append(kn.Values, it.Value)
			kn.vals = append(kn.vals, it)
		}
		if !good {
			continue
		}
		out = append(out, kn)
		combos *= len(kn.Values)
	}
	if len(out) > sim.MaxKnobs {
		p.errorf(out[sim.MaxKnobs].key, "too many knobs: Kafka Flow allows at most %d on one figure", sim.MaxKnobs)
	} else if combos > sim.MaxKnobCombinations {
		p.errorf(key, "these knobs make %d combinations of values: Kafka Flow allows at most %d on one figure (each is simulated and drawn); offer fewer values", combos, sim.MaxKnobCombinations)
	}
	return out
}

// knobTarget reads a knob's path, reporting one that names no setting a
// knob may change.
func (p *parser) knobTarget(k *yaml.Node, base *sim.Scenario) (target, bool) {
	path := k.Value
	for _, top := range knobTop {
		if path == top {
			return target{key: top}, true
		}
	}
	for _, sec := range knobSections {
		rest, ok := strings.CutPrefix(path, sec+".")
		if !ok {
			continue
		}
		t := target{section: sec}
		if sec == "consumer.groups" || sec == "share.groups" {
			id, key, found := strings.Cut(rest, ".")
			var ids []string
			if sec == "consumer.groups" {
				for _, g := range base.ConsumerGroups {
					ids = append(ids, g.ID)
				}
			} else {
				for _, g := range base.ShareGroups {
					ids = append(ids, g.ID)
				}
			}
			if !found || !contains(ids, id) {
				have := "it has none"
				if len(ids) > 0 {
					have = "its groups: " + strings.Join(ids, ", ")
				}
				p.errorf(k, "unknown knob %q: a group's setting is named %s.GROUP.SETTING, with GROUP one of the fence's %s (%s)", path, sec, sec, have)
				return t, false
			}
			t.group, rest = id, key
		}
		keys := knobKeys(sec)
		if !contains(keys, rest) {
			hint := ""
			if best := nearest(rest, keys); best != "" {
				hint = fmt.Sprintf("; did you mean %q?", strings.TrimSuffix(path, rest)+best)
			}
			p.errorf(k, "unknown knob %q: %q is not a %s setting a knob can change (expected one of: %s)%s", path, rest, sec, strings.Join(keys, ", "), hint)
			return t, false
		}
		t.key = rest
		return t, true
	}
	var all []string
	all = append(all, knobTop...)
	for _, sec := range knobSections[:2] {
		for _, key := range knobKeys(sec) {
			all = append(all, sec+"."+key)
		}
	}
	hint := ""
	if best := nearest(path, all); best != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", best)
	} else {
		hint = " (expected a setting's path such as producer.acks, topic.partitions, brokers or consumer.groups.GROUP.members)"
	}
	p.errorf(k, "unknown knob %q%s", path, hint)
	return target{}, false
}

// set returns root with t's setting replaced by (or, where the fence
// leaves it out, given) val. Nothing is changed in place; the new key
// nodes sit where the knob's path is written.
func (t target) set(root, at, val *yaml.Node) *yaml.Node {
	if t.section == "" {
		return setKey(root, t.key, at, val)
	}
	var sec *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == t.section {
			sec = root.Content[i+1]
		}
	}
	if t.group == "" {
		if sec == nil || sec.Kind != yaml.MappingNode {
			sec = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: at.Line, Column: at.Column}
		}
		return setKey(root, t.section, at, setKey(sec, t.key, at, val))
	}
	list := *sec
	list.Content = append([]*yaml.Node(nil), sec.Content...)
	for i, e := range list.Content {
		if e.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(e.Content); j += 2 {
			if e.Content[j].Value == "id" && e.Content[j+1].Value == t.group {
				list.Content[i] = setKey(e, t.key, at, val)
			}
		}
	}
	return setKey(root, t.section, at, &list)
}

// setKey returns mapping m with key set to val.
func setKey(m *yaml.Node, key string, at, val *yaml.Node) *yaml.Node {
	out := *m
	out.Content = append([]*yaml.Node(nil), m.Content...)
	for i := 0; i+1 < len(out.Content); i += 2 {
		if k := out.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			out.Content[i+1] = val
			return &out
		}
	}
	out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: at.Line, Column: at.Column}, val)
	return &out
}

// forThisCombo reports whether an expect entry belongs to the combination
// being built: an entry without "when" to the default (and to the fence
// as written), one with "when" to the combination it names. The build of
// the fence as written checks the when mapping.
func (p *parser) forThisCombo(it *yaml.Node) bool {
	var key, val *yaml.Node
	for i := 0; i+1 < len(it.Content); i += 2 {
		if k := it.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "when" {
			key, val = k, it.Content[i+1]
			break
		}
	}
	c := p.combo
	if key == nil {
		if c == nil || c.choice == nil {
			return true
		}
		for i, k := range c.knobs {
			if c.choice[i] != k.Default {
				return false
			}
		}
		return true
	}
	if c == nil {
		return false // the fence as written; checked once its knobs are known
	}
	if c.knobs == nil {
		p.errorf(key, "\"when\" picks a combination of knob values, and this fence has no knobs: add knobs: {producer.acks: [0, 1, all]} or drop when")
		return false
	}
	const example = "{producer.acks: 0}"
	if isNull(val) || val.Kind != yaml.MappingNode || len(val.Content) == 0 {
		p.errorf(val, "when must be a mapping of knobs to one of their values, such as %s, not %s", example, kindName(val))
		return false
	}
	named := make([]bool, len(c.knobs))
	match := true
	for i := 0; i+1 < len(val.Content); i += 2 {
		k, v := val.Content[i], val.Content[i+1]
		ki := -1
		var paths []string
		for j, kn := range c.knobs {
			paths = append(paths, kn.Path)
			if k.Kind == yaml.ScalarNode && kn.Path == k.Value {
				ki = j
			}
		}
		if ki < 0 {
			p.errorf(k, "when names %s, which is not one of this fence's knobs (%s)", quote(k), strings.Join(paths, ", "))
			match = false
			continue
		}
		if named[ki] {
			p.errorf(k, "when names knob %s twice", k.Value)
			match = false
			continue
		}
		named[ki] = true
		kn := c.knobs[ki]
		vi := -1
		if v.Kind == yaml.ScalarNode {
			vi = indexOf(kn.Values, v.Value)
		}
		if vi < 0 {
			p.errorf(v, "%s is not one of the values of knob %s (%s)", quote(v), kn.Path, strings.Join(kn.Values, ", "))
			match = false
			continue
		}
		if c.choice != nil && c.choice[ki] != vi {
			match = false
		}
	}
	if c.choice == nil {
		return false
	}
	for i, k := range c.knobs {
		if !named[i] && c.choice[i] != k.Default {
			match = false
		}
	}
	return match
}
