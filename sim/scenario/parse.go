package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// Parse reads one scenario: the YAML body of a ```kflow fence or a bare
// scenario file. It fills every omitted setting with its default from
// package sim (defaults.go), checks types, ranges, the size limits (sim.Max*)
// and every cross-reference (brokers, partitions, records, groups and
// members named by the timeline and by expect), and returns a scenario that
// sim.Run can simulate.
//
// On any problem Parse returns a nil scenario and every error it found,
// sorted by position; positions are 1-based lines and columns (columns count
// characters) relative to src. Parse never panics, whatever src holds.
func Parse(src []byte) (*sim.Scenario, sim.ErrorList) {
	sc, _, errs := ParseCompare(src)
	return sc, errs
}

// finish sorts errs, drops repeats and caps them at maxErrors.
func finish(errs sim.ErrorList) sim.ErrorList {
	errs = errs.SortDedup()
	if len(errs) > maxErrors {
		rest := len(errs) - maxErrors
		errs = append(errs[:maxErrors], sim.Error{Pos: errs[maxErrors].Pos,
			Msg: fmt.Sprintf("too many errors: %d more from here on are not shown; fix the ones above first", rest)})
	}
	return errs
}

// maxErrors caps the errors Parse reports for one scenario; text that is
// not a scenario at all would otherwise bury the first, useful ones.
const maxErrors = 50

// parser holds the state of one Parse call.
type parser struct {
	src  []byte
	errs sim.ErrorList
	sc   *sim.Scenario
	// bad records settings whose value was rejected, so that checks which
	// depend on them stay quiet instead of repeating the problem.
	bad map[string]bool
	// groups are the consumer then share groups, in fence order.
	groups []*group
	// brokerAdds holds the beat of each add.broker entry, in order;
	// partAdds each add.partitions entry.
	brokerAdds []int
	partAdds   []partAdd
	// doubt is what the timeline's failed entries leave unknown, so that
	// the checks depending on it stay quiet (see timeline.go).
	doubt doubt
	// compare is the fence's compare mapping (nil without one); variant is
	// set while the parser reads the scenario with compare merged in, so
	// that expect keeps only the entries marked "variant: compare".
	compare *yaml.Node
	variant bool
	// combo is the combination of knob values being built (nil for a
	// fence without knobs); it decides which expect entries apply.
	combo *combo
}

// partAdd is one add.partitions entry of the timeline.
type partAdd struct{ at, count int }

// group is what the timeline and expect checks need to know of a group.
type group struct {
	share   bool
	id      string
	initial int   // members at beat 0
	joins   []int // beat of each join, in timeline order
	limit   int   // share groups: group.share.delivery.count.limit
	// unknown says its members setting is an error of its own: how many
	// members it has is unknown, so a member name past the default is
	// not reported as one that has not joined (the error would only
	// follow from the first).
	unknown bool
	// unsure is set from the beat of a join of this group that failed to
	// parse: how many members it has from then on is unknown.
	unsure unsure
}

// members returns how many members group g has had by the end of beat at.
func (g *group) members(at int) int {
	n := g.initial
	for _, b := range g.joins {
		if b <= at {
			n++
		}
	}
	return n
}

// sureOfBrokers reports whether brokersAt(at) is a count a "does not
// exist" error may be based on: the brokers setting was valid and no
// add.broker entry up to beat at failed to parse.
func (p *parser) sureOfBrokers(at int) bool {
	return !p.bad["brokers"] && !p.doubt.brokers.at(at)
}

// sureOfPartitions is sureOfBrokers for partitionsAt.
func (p *parser) sureOfPartitions(at int) bool {
	return !p.bad["partitions"] && !p.doubt.partitions.at(at)
}

// sureOfMembers reports whether g.members(at) is a count a "has not
// joined" error may be based on.
func (p *parser) sureOfMembers(g *group, at int) bool {
	return !g.unknown && !g.unsure.at(at) && !p.doubt.groups.at(at)
}

// brokersAt returns how many brokers exist at the end of beat at.
func (p *parser) brokersAt(at int) int {
	n := p.sc.Brokers
	for _, b := range p.brokerAdds {
		if b <= at {
			n++
		}
	}
	return n
}

// partitionsAt returns how many partitions the topic has at the end of beat
// at.
func (p *parser) partitionsAt(at int) int {
	n := p.sc.Topic.Partitions
	for _, a := range p.partAdds {
		if a.at <= at {
			n += a.count
		}
	}
	return n
}

func posOf(n *yaml.Node) sim.Pos {
	if n == nil {
		return sim.Pos{Line: 1, Col: 1}
	}
	line, col := n.Line, n.Column
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	return sim.Pos{Line: line, Col: col}
}

func (p *parser) errAt(pos sim.Pos, format string, args ...any) {
	p.errs = append(p.errs, sim.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	pos := posOf(n)
	if n != nil && n.Kind == yaml.ScalarNode && n.Value == "" {
		// YAML places an empty value at the token after it, which can be
		// past the last line; keep the position inside the text.
		pos = p.clamp(pos)
	}
	p.errAt(pos, format, args...)
}

// clamp moves pos to the nearest place inside src: a character or the end
// of a line.
func (p *parser) clamp(pos sim.Pos) sim.Pos {
	lines := bytes.Split(p.src, []byte("\n"))
	if pos.Line > len(lines) {
		last := lines[len(lines)-1]
		return sim.Pos{Line: len(lines), Col: utf8.RuneCount(last) + 1}
	}
	if n := utf8.RuneCount(lines[pos.Line-1]) + 1; pos.Col > n {
		pos.Col = n
	}
	return pos
}

// Top-level keys, in the order the reference page lists them.
var topKeys = []string{
	"id", "title", "seed", "brokers", "beats", "broker.session.timeout", "topic", "producer",
	"consumer.groups", "share.groups", "timeline", "expect", "notes", "poster", "compare", "knobs",
}

// root reads src into its root mapping, or returns nil after reporting why
// src is not a scenario.
func (p *parser) root() *yaml.Node {
	// A line break counts one byte, so saving with CRLF line endings does
	// not push a scenario over the limit.
	if n := len(p.src) - bytes.Count(p.src, []byte("\r\n")); n > sim.MaxFenceBytes {
		p.errAt(sim.Pos{Line: 1, Col: 1}, "scenario is %d bytes, over the limit of %d bytes", n, sim.MaxFenceBytes)
		return nil
	}
	if !p.checkText() {
		return nil
	}
	root := p.decode()
	if root == nil {
		return nil
	}
	var refs yamlRefs
	p.checkNodes(root, 0, &refs)
	if refs.first != nil {
		p.errorf(refs.first, "%s", refs.message())
		return nil
	}
	if root.Kind != yaml.MappingNode {
		p.errorf(root, "a scenario is a mapping of settings such as \"id: my-figure\", not %s", kindName(root))
		return nil
	}
	if len(root.Content) == 0 {
		p.errorf(root, "empty scenario: expected keys such as id, brokers, topic")
		return nil
	}
	return root
}

// build reads the scenario's settings from its root mapping (without its
// compare key, or with the compare overrides merged in).
func (p *parser) build(root *yaml.Node) *sim.Scenario {
	sc := &sim.Scenario{
		Seed:                 sim.DefaultSeed,
		Brokers:              sim.DefaultBrokers,
		Beats:                sim.DefaultBeats,
		BrokerSessionTimeout: sim.DefaultBrokerSessionTimeout,
		Pos:                  posOf(root),
	}
	if len(root.Content) > 0 {
		// Without its compare key the mapping may hold nothing.
		sc.Pos = posOf(root.Content[0])
	}
	p.sc = sc
	f := p.fields(root, sectionTop)

	sc.IDPos = sc.Pos
	if n, ok := f["id"]; ok {
		sc.ID, _ = p.ident(n.val, "id")
		sc.IDPos = posOf(n.val)
	} else {
		p.errAt(sc.Pos, "missing id: every scenario needs one, such as \"id: acks-one-loss\" (it names the figure in links)")
	}
	if n, ok := f["title"]; ok {
		sc.Title, _ = p.text(n.val, "title", maxTitle)
	}
	if n, ok := f["seed"]; ok {
		sc.Seed, _ = p.unsigned(n.val, "seed")
	}
	if n, ok := f["brokers"]; ok {
		sc.Brokers = p.intSetting(n.val, "brokers", sc.Brokers, 1, sim.MaxBrokers, true)
	}
	if n, ok := f["beats"]; ok {
		sc.Beats = p.intSetting(n.val, "beats", sc.Beats, 1, sim.MaxBeats, true)
	}
	if n, ok := f["broker.session.timeout"]; ok {
		sc.BrokerSessionTimeout = p.intSetting(n.val, "broker.session.timeout", sc.BrokerSessionTimeout, 1, sim.MaxBeats, true)
	}
	p.topic(f["topic"].val)
	p.producer(f["producer"].val)
	p.consumerGroups(f["consumer.groups"].val)
	p.shareGroups(f["share.groups"].val)
	p.timeline(f["timeline"].val)
	if p.combo == nil || !p.combo.noExpect {
		p.expect(f["expect"].val)
	}
	p.notes(f["notes"].val)
	p.poster(f["poster"].val)
	return sc
}

// checkText rejects text YAML cannot read well: bytes that are not UTF-8
// and control characters, each reported where it is.
func (p *parser) checkText() bool {
	line, col := 1, 1
	for i := 0; i < len(p.src); {
		r, size := utf8.DecodeRune(p.src[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			p.errAt(sim.Pos{Line: line, Col: col}, "invalid UTF-8 byte 0x%02x: a scenario must be UTF-8 text", p.src[i])
			return false
		case r == '\n':
			line, col = line+1, 1
			i += size
			continue
		case r == '\r' && (i+1 == len(p.src) || p.src[i+1] != '\n'):
			// YAML would count a lone CR as a line break, the editor and
			// the error positions would not.
			p.errAt(sim.Pos{Line: line, Col: col}, "carriage return without a line feed: save the file with \\n or \\r\\n line endings")
			return false
		case r == '\u2028' || r == '\u2029':
			p.errAt(sim.Pos{Line: line, Col: col}, "unicode line separator %U is not allowed in a scenario", r)
			return false
		case r == '\uFEFF' && i == 0:
			// A byte order mark at the start is allowed.
		case r < 0x20 && r != '\t' && r != '\r' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\uFFFE' || r == '\uFFFF':
			p.errAt(sim.Pos{Line: line, Col: col}, "control character %U is not allowed in a scenario", r)
			return false
		}
		col++
		i += size
	}
	return true
}

// splitYAMLError splits a go.yaml.in/yaml syntax error, "yaml: line N:
// msg" or "yaml: msg", into N ("" when there is no line) and msg. ok is
// false when err is not of that shape or runs over more than one line.
// It is written out rather than a regexp so the playground's WebAssembly
// module does not link package regexp.
func splitYAMLError(err string) (line, msg string, ok bool) {
	rest, ok := strings.CutPrefix(err, "yaml: ")
	if !ok || strings.Contains(rest, "\n") {
		return "", "", false
	}
	if after, found := strings.CutPrefix(rest, "line "); found {
		n := 0
		for n < len(after) && '0' <= after[n] && after[n] <= '9' {
			n++
		}
		if m, found := strings.CutPrefix(after[n:], ": "); found && n > 0 {
			return after[:n], m, true
		}
	}
	return "", rest, true
}

// decode reads the single YAML document in src and returns its root node,
// or nil after reporting why it cannot.
func (p *parser) decode() (root *yaml.Node) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(p.src))
	err := safeDecode(dec, &doc)
	if errors.Is(err, io.EOF) {
		p.errAt(sim.Pos{Line: 1, Col: 1}, "empty scenario: expected keys such as id, brokers, topic")
		return nil
	}
	if err != nil {
		p.yamlError(err)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		p.errAt(sim.Pos{Line: 1, Col: 1}, "empty scenario: expected keys such as id, brokers, topic")
		return nil
	}
	root = doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" && root.Style&yaml.TaggedStyle == 0 {
		p.errAt(sim.Pos{Line: 1, Col: 1}, "empty scenario: expected keys such as id, brokers, topic")
		return nil
	}
	var next yaml.Node
	if err := safeDecode(dec, &next); err == nil {
		at := &next
		if len(next.Content) > 0 {
			at = next.Content[0]
		}
		p.errorf(at, "a scenario is one YAML document; remove the second one (and its \"---\")")
	} else if !errors.Is(err, io.EOF) {
		p.yamlError(err)
	}
	return root
}

// safeDecode runs dec.Decode, turning a panic inside the YAML library into
// an error so that Parse never panics.
func safeDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: the YAML reader failed on this input (%v)", r)
		}
	}()
	return dec.Decode(n)
}

// checkNodes reports explicit tags, which a scenario does not use, and
// collects into r its anchors, aliases and merge keys. depth bounds the
// walk.
func (p *parser) checkNodes(n *yaml.Node, depth int, r *yamlRefs) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Anchor != "" {
		r.add(n, &r.anchors)
	}
	if n.Kind == yaml.AliasNode {
		r.add(n, &r.aliases)
		return
	}
	if n.Style&yaml.TaggedStyle != 0 {
		p.errorf(n, "tags (%s) are not supported in a scenario", n.Tag)
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind == yaml.ScalarNode && c.Tag == "!!merge" {
			r.add(c, &r.merges)
		}
		p.checkNodes(c, depth+1, r)
	}
}

// yamlRefs counts a scenario's anchors, aliases and merge keys, which it
// does not use: one alias can stand for a whole tree (a "billion laughs"
// fence is a few lines of anchors of aliases), so the scenario's checks
// would say every problem once per copy. The nodes are never expanded;
// Parse reports one error at the first, with the counts, and reads no
// setting.
type yamlRefs struct {
	first                    *yaml.Node
	anchors, aliases, merges int
}

func (r *yamlRefs) add(n *yaml.Node, count *int) {
	if r.first == nil {
		r.first = n
	}
	*count++
}

// message is the one error for r (r.first != nil).
func (r *yamlRefs) message() string {
	n := r.first
	if r.anchors+r.aliases+r.merges == 1 {
		switch {
		case r.merges == 1:
			return "merge keys (<<) are not supported in a scenario; write the settings out"
		case n.Kind == yaml.AliasNode:
			return fmt.Sprintf("aliases (*%s) are not supported in a scenario; write the value out", n.Value)
		}
		return fmt.Sprintf("anchors (&%s) are not supported in a scenario; write the value out", n.Anchor)
	}
	var counts []string
	for _, c := range []struct {
		n    int
		name string
	}{{r.anchors, "anchor"}, {r.aliases, "alias"}, {r.merges, "merge key"}} {
		switch {
		case c.n == 1:
			counts = append(counts, "1 "+c.name)
		case c.n > 1 && c.name == "alias":
			counts = append(counts, fmt.Sprintf("%d aliases", c.n))
		case c.n > 1:
			counts = append(counts, fmt.Sprintf("%d %ss", c.n, c.name))
		}
	}
	first := "&" + n.Anchor
	switch {
	case n.Kind == yaml.AliasNode:
		first = "*" + n.Value
	case n.Tag == "!!merge" && n.Anchor == "":
		first = "<<"
	}
	return fmt.Sprintf("anchors, aliases and merge keys are not supported in a scenario; write each value out (this scenario has %s; the first, %s, is here)",
		strings.Join(counts, ", "), first)
}

// maxDepth bounds nesting; no scenario value nests deeper than 4.
const maxDepth = 64

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	if n.Tag == "!!null" {
		return "empty"
	}
	return fmt.Sprintf("%q", n.Value)
}

// findText returns the position of the first occurrence of needle in src.
func findText(src []byte, needle string) (sim.Pos, bool) {
	i := bytes.Index(src, []byte(needle))
	if i < 0 {
		return sim.Pos{}, false
	}
	before := src[:i]
	line := bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return sim.Pos{Line: line, Col: utf8.RuneCount(before[start:]) + 1}, true
}

// IDOf returns the id a scenario's source gives at its top level and where
// its value is written, or "" when src does not read as a mapping or its id
// is not a valid one. It reads the id alone, so that a fence with other
// errors still has a name: the build reports a second fence using the same
// id in the same run as those errors, rather than only once they are fixed.
func IDOf(src []byte) (string, sim.Pos) {
	p := &parser{src: src}
	root := p.root()
	if root == nil {
		return "", sim.Pos{}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "id" {
			if id, ok := p.ident(root.Content[i+1], "id"); ok {
				return id, posOf(root.Content[i+1])
			}
			return "", sim.Pos{}
		}
	}
	return "", sim.Pos{}
}
