package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// Limits on text the parser enforces itself (sim.Max* covers the rest).
const (
	maxTitle   = 120 // characters in a title
	maxIDLen   = 64  // characters in an id or group id
	maxKeyLen  = 64  // characters in a record key: a 36-character UUID fits
	maxInt     = 1<<31 - 1
	maxOffsets = 1 << 30 // largest offset an expectation may name
)

// scalar returns n's text if n is a plain or quoted scalar with a value;
// otherwise it reports that name needs one (of the kind described by want)
// and returns false.
func (p *parser) scalar(n *yaml.Node, name, want string) (string, bool) {
	switch {
	case n == nil:
		return "", false
	case n.Kind == yaml.AliasNode:
		return "", false // reported by checkNodes
	case n.Kind != yaml.ScalarNode:
		p.errorf(n, "%s must be %s, not %s", name, want, kindName(n))
		return "", false
	case isNull(n):
		p.errorf(n, "%s has no value: write %s", name, want)
		return "", false
	}
	return n.Value, true
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0
}

func isQuoted(n *yaml.Node) bool {
	return n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
}

// integer reads n as a whole number written in decimal and checks that it
// lies in lo..hi. limit says hi is one of Kafka Flow's size limits, which
// the message then names as such.
func (p *parser) integer(n *yaml.Node, name string, lo, hi int64, limit bool) (int64, bool) {
	s, ok := p.scalar(n, name, "a whole number")
	if !ok {
		return 0, false
	}
	if isQuoted(n) {
		p.errorf(n, "%q is quoted text, but %s is a whole number (remove the quotes)", s, name)
		return 0, false
	}
	if !isDecimal(s) {
		if _, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64); err == nil {
			p.errorf(n, "%s: %q is not a whole number in decimal: write it in decimal digits", keyOf(name), s)
		} else {
			p.errorf(n, "%s: %q is not a whole number%s", keyOf(name), s, numberHint(s))
		}
		return 0, false
	}
	if leadingZero(s) {
		p.errorf(n, "%s: %q has a leading zero: write it without (some YAML readers take 010 for octal 8)", keyOf(name), s)
		return 0, false
	}
	if strings.HasPrefix(s, "+") {
		p.errorf(n, "%s: %q has a plus sign: write the number without it", keyOf(name), s)
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		p.errorf(n, "%s: %q is not a whole number", keyOf(name), s)
		return 0, false
	}
	switch {
	case err != nil && strings.HasPrefix(s, "-"), err == nil && v < lo:
		p.errorf(n, "%q is out of range for %s: it must be at least %d", s, name, lo)
		return 0, false
	case err != nil, v > hi:
		if limit {
			p.errorf(n, "%q is out of range for %s: Kafka Flow allows at most %d", s, name, hi)
		} else {
			p.errorf(n, "%q is out of range for %s: it must be at most %d", s, name, hi)
		}
		return 0, false
	}
	return v, true
}

// keyOf returns the key a value's description names, for the "KEY: "
// that starts a type error: the description without a trailing
// explanation in parentheses ("crash (a broker id)" → "crash").
func keyOf(name string) string {
	if i := strings.Index(name, " ("); i > 0 {
		return name[:i]
	}
	return name
}

// numberHint explains a few common ways of writing a number wrongly.
func numberHint(s string) string {
	lower := strings.ToLower(s)
	if f := strings.Fields(s); len(f) > 1 && isDecimal(f[0]) {
		return fmt.Sprintf(" (separate list items with commas: [%s])", strings.Join(f, ", "))
	}
	switch {
	case strings.HasSuffix(lower, "ms") || strings.HasSuffix(lower, "s"):
		if _, err := strconv.Atoi(strings.TrimRight(lower, "ms")); err == nil {
			return " (time settings count beats: write the number alone)"
		}
	case strings.ContainsAny(s, "eE"):
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return " (write it in plain digits)"
		}
	case strings.Contains(s, "."):
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return " (fractions are not allowed)"
		}
	}
	return ""
}

// isDecimal reports whether s is an optional sign followed by digits.
func isDecimal(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// leadingZero reports whether a decimal number (isDecimal) has a zero
// before its other digits: "010", "-07", "+00".
func leadingZero(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
	return len(s) > 1 && s[0] == '0'
}

// intSetting reads a whole-number setting in lo..hi; on error it marks the
// setting bad and returns def.
func (p *parser) intSetting(n *yaml.Node, name string, def int, lo, hi int, limit bool) int {
	if n == nil {
		return def
	}
	v, ok := p.integer(n, name, int64(lo), int64(hi), limit)
	if !ok {
		p.bad[name] = true
		return def
	}
	return int(v)
}

// unsigned reads a whole number in 0..2^64-1 (the seed).
func (p *parser) unsigned(n *yaml.Node, name string) (uint64, bool) {
	s, ok := p.scalar(n, name, "a whole number")
	if !ok {
		return 0, false
	}
	if isQuoted(n) {
		p.errorf(n, "%q is quoted text, but %s is a whole number (remove the quotes)", s, name)
		return 0, false
	}
	if !isDecimal(s) {
		p.errorf(n, "%s: %q is not a whole number%s", keyOf(name), s, numberHint(s))
		return 0, false
	}
	if leadingZero(s) {
		p.errorf(n, "%s: %q has a leading zero: write it without (some YAML readers take 010 for octal 8)", keyOf(name), s)
		return 0, false
	}
	if strings.HasPrefix(s, "+") {
		p.errorf(n, "%s: %q has a plus sign: write the number without it", keyOf(name), s)
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		p.errorf(n, "%q is out of range for %s: it must be between 0 and %d", s, name, uint64(1<<64-1))
		return 0, false
	}
	return v, true
}

// boolean reads true or false.
func (p *parser) boolean(n *yaml.Node, name string) (bool, bool) {
	s, ok := p.scalar(n, name, "true or false")
	if !ok {
		return false, false
	}
	if !isQuoted(n) {
		switch s {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	p.errorf(n, "%q is not true or false (%s is true or false)", s, name)
	return false, false
}

// text reads a scalar as text of at most max characters. Numbers and other
// plain scalars are taken as written.
func (p *parser) text(n *yaml.Node, name string, max int) (string, bool) {
	s, ok := p.scalar(n, name, "text")
	if !ok {
		return "", false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			p.errorf(n, "%s contains the control character %U: write it on one line, as plain text", name, r)
			return "", false
		}
		if sim.BidiControl(r) {
			p.errorf(n, "%s holds the bidirectional control %U, which shows text in another order than it is written: take it out", name, r)
			return "", false
		}
	}
	if s != "" && !visible(s) {
		p.errorf(n, "%s has no visible character (only spaces or invisible ones such as U+200B): write some text", name)
		return "", false
	}
	if l := len([]rune(s)); l > max {
		p.errorf(n, "%s is %d characters long; Kafka Flow allows at most %d", name, l, max)
		return "", false
	}
	return s, true
}

// visible reports whether s has a character that shows: a letter, digit,
// mark, punctuation or symbol (not a space, nor a format character such as
// a zero-width space).
func visible(s string) bool {
	for _, r := range s {
		if unicode.IsGraphic(r) && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// ident reads an id: 1 to maxIDLen characters from a-z, 0-9 and "-", so
// that it can be used as it stands in DOM ids, links and member names.
func (p *parser) ident(n *yaml.Node, name string) (string, bool) {
	s, ok := p.scalar(n, name, "an id such as \"acks-one-loss\"")
	if !ok {
		return "", false
	}
	if s == "" {
		p.errorf(n, "%s is empty: use lowercase letters a-z, digits 0-9 and \"-\"", name)
		return "", false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			p.errorf(n, "%q is not a valid %s: use only lowercase letters a-z, digits 0-9 and \"-\"", s, name)
			return "", false
		}
	}
	if len(s) > maxIDLen {
		p.errorf(n, "%s is %d characters long; Kafka Flow allows at most %d", name, len(s), maxIDLen)
		return "", false
	}
	return s, true
}

// choice reads one of the allowed words.
func (p *parser) choice(n *yaml.Node, name string, allowed ...string) (string, bool) {
	want := "one of " + strings.Join(allowed, ", ")
	if len(allowed) == 2 {
		want = allowed[0] + " or " + allowed[1]
	}
	s, ok := p.scalar(n, name, want)
	if !ok {
		return "", false
	}
	if contains(allowed, s) {
		return s, true
	}
	hint := ""
	if best := nearest(s, allowed); best != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", best)
	}
	p.errorf(n, "%q is not a valid %s: use %s%s", s, name, want, hint)
	return "", false
}

// list returns the items of a sequence (nil for a missing section),
// reporting a value that is not one.
func (p *parser) list(n *yaml.Node, name, item string) []*yaml.Node {
	if n == nil || n.Kind == yaml.AliasNode {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		if isNull(n) {
			return nil // "timeline:" with nothing after it is an empty list
		}
		p.errorf(n, "%s must be a list of %s, not %s", name, item, kindName(n))
		return nil
	}
	return n.Content
}

// entries is list for a list of mappings (timeline, groups, expect): an
// entry left empty ("- " alone, ~ or null) is reported and left out,
// rather than taken silently as nothing.
func (p *parser) entries(n *yaml.Node, name, item string) []*yaml.Node {
	var out []*yaml.Node
	for _, it := range p.list(n, name, item) {
		if isNull(it) {
			p.errorf(it, "an empty entry in %s: fill it in, as %s, or remove it", name, item)
			continue
		}
		out = append(out, it)
	}
	return out
}

// mapping checks that n is a mapping; name describes it in the message.
func (p *parser) mapping(n *yaml.Node, name, example string) bool {
	if n == nil || n.Kind == yaml.AliasNode {
		return false
	}
	if isNull(n) {
		return false // "topic:" with nothing after it keeps every default
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping such as %s, not %s", name, example, kindName(n))
		return false
	}
	return true
}

// quote formats a value for a message the way the user wrote it.
func quote(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return strconv.Quote(n.Value)
	}
	return kindName(n)
}
