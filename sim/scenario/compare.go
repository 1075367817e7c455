package scenario

import (
	"reflect"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// Side-by-side figures. A fence may hold a compare mapping: the settings
// that differ in a second run of the same story, plus that run's own title.
//
//	id: acks-crash
//	title: acks=1
//	producer: {acks: 1, records: 6}
//	timeline: [{at: 5, crash: 1}]
//	compare:
//	  title: acks=all
//	  producer: {acks: all}
//	expect:
//	  - {record: 2, outcome: L}
//	  - {record: 2, outcome: U, variant: compare}
//
// The variant is the fence with compare merged over it: mappings merge key
// by key (producer: {acks: all} changes acks and keeps records), lists and
// single values replace what the fence wrote (a timeline under compare is
// the variant's whole timeline). The variant keeps the fence's id. Its
// claims are the expect entries marked "variant: compare"; the others are
// the base's. Both runs are checked as fully as a fence on its own.

// compareKeys are the keys a compare mapping may set: every top-level key
// but id (the variant shares the fence's), expect (its claims stay in the
// fence's list) and compare itself.
var compareKeys = []string{
	"title", "seed", "brokers", "beats", "topic", "producer",
	"consumer.groups", "share.groups", "timeline",
}

func init() {
	sections[sectionCompare] = sectionInfo{compareKeys, "compare setting", "under compare"}
}

// sectionCompare is the compare mapping's own section; it is not searched
// for misplaced keys (every key it takes is a top-level key too).
const sectionCompare section = 100

// compareNote starts a message about the variant whose position lies
// outside the compare mapping, where the reader would otherwise see a base
// setting that is fine on its own.
const compareNote = "in the compare run: "

// ParseCompare reads a scenario that may compare two settings side by side.
// base is the scenario without its compare mapping, with every expect entry
// not marked "variant: compare"; variant is nil when src has no compare
// mapping, and otherwise the scenario with the compare overrides merged in
// and the entries marked "variant: compare". Both are parsed and checked as
// Parse does; an error that only the variant has, placed outside the compare
// mapping, starts with "in the compare run: ". On any error both scenarios
// are nil and errs is sorted by position. Parse is ParseCompare without the
// variant.
func ParseCompare(src []byte) (base, variant *sim.Scenario, errs sim.ErrorList) {
	f, errs := ParseFence(src)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	v := f.Variants[f.Default]
	return v.Scenario, v.Compare, nil
}

// runs builds a scenario's root mapping (without its compare key) and,
// when compare is not nil, its compare run, each with a parser of its own
// that keeps the expect entries of combination k (nil: a fence without
// knobs, or the fence as written). pre holds the errors found before the
// build (the root's and the compare mapping's own), which the result
// includes.
func runs(src []byte, root, compare *yaml.Node, k *combo, pre sim.ErrorList) (base, variant *sim.Scenario, errs sim.ErrorList) {
	p := &parser{src: src, bad: map[string]bool{}, compare: compare, combo: k}
	p.errs = append(p.errs, pre...)
	base = p.build(root)
	if compare != nil {
		v := &parser{src: src, bad: map[string]bool{}, compare: compare, variant: true, combo: k}
		variant = v.build(merge(root, compare))
		seen := map[sim.Error]bool{}
		for _, e := range p.errs {
			seen[e] = true
		}
		inside := map[sim.Pos]bool{}
		walk(compare, func(n *yaml.Node) { inside[posOf(n)] = true })
		for _, e := range v.errs {
			if seen[e] {
				continue
			}
			if !inside[e.Pos] {
				e.Msg = compareNote + e.Msg
			}
			p.errs = append(p.errs, e)
		}
	}
	// A knob may make both runs alike (the second run's setting picked
	// for the first); the fence as written may not.
	if len(p.errs) == 0 && variant != nil && (k == nil || k.choice == nil && !k.noExpect) && sameRun(base, variant) {
		p.errorf(compare, "compare changes nothing but the title: every setting it gives has the fence's own value (or its default); give one a value of its own")
	}
	return base, variant, p.errs
}

// sameRun reports whether two scenarios run the same story: equal in
// everything but their titles, their expectations and where in the text
// each part is written.
func sameRun(a, b *sim.Scenario) bool {
	strip := func(s *sim.Scenario) sim.Scenario {
		c := *s
		c.Title, c.Expect, c.Pos, c.IDPos = "", nil, sim.Pos{}, sim.Pos{}
		c.ConsumerGroups = append([]sim.ConsumerGroupConfig(nil), s.ConsumerGroups...)
		for i := range c.ConsumerGroups {
			c.ConsumerGroups[i].Pos = sim.Pos{}
		}
		c.ShareGroups = append([]sim.ShareGroupConfig(nil), s.ShareGroups...)
		for i := range c.ShareGroups {
			c.ShareGroups[i].Pos = sim.Pos{}
		}
		c.Timeline = append([]sim.TimelineEvent(nil), s.Timeline...)
		for i := range c.Timeline {
			c.Timeline[i].Pos = sim.Pos{}
		}
		return c
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

// splitCompare returns root without its compare key and keeps the compare
// mapping in p.compare after checking its own keys. A compare that is not
// a usable mapping is reported and dropped.
func (p *parser) splitCompare(root *yaml.Node) *yaml.Node {
	at := -1
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "compare" {
			at = i
			break // a second compare key is reported by fields as a duplicate
		}
	}
	if at < 0 {
		return root
	}
	out := *root
	out.Content = append(append([]*yaml.Node{}, root.Content[:at]...), root.Content[at+2:]...)
	for i := 0; i+1 < len(out.Content); i += 2 {
		if k := out.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "compare" {
			p.errorf(k, "duplicate setting \"compare\" (first set %s)", where(root.Content[at], k))
		}
	}
	key, cmp := root.Content[at], root.Content[at+1]
	const example = "{title: acks=all, producer: {acks: all}}"
	if isNull(cmp) || cmp.Kind == yaml.MappingNode && len(cmp.Content) == 0 {
		p.errorf(key, "compare is empty: give it the settings the second run changes and its title, such as %s", example)
		return &out
	}
	if !p.mapping(cmp, "compare", example) {
		return &out
	}
	// Keys compare may not take get a message of their own; fields reports
	// the rest (unknown keys, duplicates) as in any other section.
	kept := *cmp
	kept.Content = nil
	refused := false
	for i := 0; i+1 < len(cmp.Content); i += 2 {
		k := cmp.Content[i]
		switch {
		case k.Kind == yaml.ScalarNode && k.Value == "id":
			p.errorf(k, "compare cannot set id: the second run shares the fence's id")
			refused = true
			continue
		case k.Kind == yaml.ScalarNode && k.Value == "expect":
			p.errorf(k, "compare cannot hold expect entries: write them in the fence's expect list with \"variant: compare\"")
			refused = true
			continue
		case k.Kind == yaml.ScalarNode && k.Value == "compare":
			p.errorf(k, "compare cannot hold another compare")
			refused = true
			continue
		case k.Kind == yaml.ScalarNode && k.Value == "knobs":
			p.errorf(k, "compare cannot hold knobs: the fence's own knobs apply to both runs")
			refused = true
			continue
		}
		kept.Content = append(kept.Content, k, cmp.Content[i+1])
	}
	f := p.fields(&kept, sectionCompare)
	if _, ok := f["title"]; !ok {
		p.errorf(key, "compare needs its own title: it labels the second run beside the first, such as \"title: acks=all\"")
	}
	// (A refused key already has its message; "changes nothing" would
	// only add noise.)
	if len(f) == 1 && f["title"].val != nil && !refused {
		p.errorf(key, "compare changes nothing but the title: add the settings the second run changes, such as producer: {acks: all}")
	}
	// Only known keys reach the merge; an unknown one was reported above.
	known := kept
	known.Content = nil
	for i := 0; i+1 < len(kept.Content); i += 2 {
		k := kept.Content[i]
		if fl, ok := f[k.Value]; ok && k.Kind == yaml.ScalarNode && fl.key == k {
			known.Content = append(known.Content, k, kept.Content[i+1])
		}
	}
	p.compare = &known
	return &out
}

// forThisRun reports whether the expect entry it belongs to the scenario
// being built: the base takes entries without a variant key, the variant
// those marked "variant: compare". The base parser checks the key's value.
func (p *parser) forThisRun(it *yaml.Node) bool {
	var key, val *yaml.Node
	for i := 0; i+1 < len(it.Content); i += 2 {
		if k := it.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "variant" {
			key, val = k, it.Content[i+1]
			break
		}
	}
	if key == nil {
		return !p.variant
	}
	isCompare := val.Kind == yaml.ScalarNode && val.Value == "compare" && !isQuoted(val)
	if p.variant {
		return isCompare
	}
	switch {
	case !isCompare && val.Kind != yaml.ScalarNode:
		p.errorf(val, "variant must be the word compare, not %s", kindName(val))
	case !isCompare:
		p.errorf(val, "variant %s is not one this fence has: the only variant is \"compare\"", quote(val))
	case p.compare == nil:
		p.errorf(val, "\"variant: compare\" needs a compare mapping in this fence (compare: {title: …, and the settings that differ})")
	}
	return false
}

// merge returns base with over laid on it: where both are mappings, each
// key of over replaces or (for two mappings) merges into base's value of
// that key, and keys only over has are added after base's; otherwise over
// replaces base. Neither input is changed; nodes keep their positions, so
// every error in the merged scenario points at the text that wrote it.
func merge(base, over *yaml.Node) *yaml.Node {
	if base == nil || base.Kind != yaml.MappingNode || over.Kind != yaml.MappingNode {
		return over
	}
	out := *base
	out.Content = nil
	used := make([]bool, len(over.Content))
	for i := 0; i+1 < len(base.Content); i += 2 {
		k, v := base.Content[i], base.Content[i+1]
		if j := keyIndex(over, k); j >= 0 {
			used[j] = true
			k, v = over.Content[j], merge(v, over.Content[j+1])
		}
		out.Content = append(out.Content, k, v)
	}
	for j := 0; j+1 < len(over.Content); j += 2 {
		if !used[j] {
			out.Content = append(out.Content, over.Content[j], over.Content[j+1])
		}
	}
	return &out
}

// keyIndex returns the index in mapping m of the first key spelled like k,
// or -1.
func keyIndex(m, k *yaml.Node) int {
	if k.Kind != yaml.ScalarNode {
		return -1
	}
	for j := 0; j+1 < len(m.Content); j += 2 {
		if c := m.Content[j]; c.Kind == yaml.ScalarNode && c.Value == k.Value {
			return j
		}
	}
	return -1
}

// walk calls fn on n and every node below it.
func walk(n *yaml.Node, fn func(*yaml.Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Content {
		walk(c, fn)
	}
}
