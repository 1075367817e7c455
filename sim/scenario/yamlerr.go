package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// YAMLError turns an error of the YAML library reading src into the place
// at fault (1-based line and column, the column counting characters, inside
// src) and a message saying what was expected. site uses it for a page's
// front matter, Parse for a fence.
//
// The place comes from the marks of the library's parser
// (yaml.SyntaxError, the one addition Kafka Flow's copy of
// go.yaml.in/yaml/v3 makes for it): the character or token it stopped at,
// or, where the fault is the construct left open (a quoted value, a {…} or
// […] never closed, a key without its colon), where that construct began.
// Other errors (an alias to an unknown anchor, a panic turned into an
// error) name at most a line; the position is then that line's first
// character. what names the text in messages ("a scenario", "front
// matter").
func YAMLError(src []byte, err error, what string) (sim.Pos, string) {
	lines := bytes.Split(src, []byte("\n"))
	at := func(line, col int) sim.Pos { return clampPos(lines, sim.Pos{Line: line, Col: col}) }
	var se *yaml.SyntaxError
	if !errors.As(err, &se) {
		num, msg, ok := splitYAMLError(err.Error())
		if !ok {
			return at(1, 1), "invalid YAML: " + err.Error()
		}
		if strings.HasPrefix(msg, "unknown anchor") {
			// The library names the anchor but not where the alias is.
			name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
			pos, ok := findText(src, "*"+name)
			if !ok {
				pos = at(1, 1)
			}
			return pos, fmt.Sprintf("aliases (*%s) are not supported in %s; write the value out", name, what)
		}
		line, _ := strconv.Atoi(num)
		return at(max(line, 1), 1), "invalid YAML: " + msg
	}
	pos := at(se.Line, se.Column)
	ctx := at(se.ContextLine, se.ContextColumn)
	hasCtx := se.ContextLine > 0
	text := lines[pos.Line-1]
	char := charAt(text, pos.Col)
	msg := se.Problem
	switch {
	case strings.Contains(msg, "tab character") || (strings.Contains(msg, "cannot start any token") && char == '\t'):
		if c := firstTabCol(text); c > 0 {
			pos.Col = c
		}
		return pos, "tab character: YAML indents with spaces only"
	case strings.Contains(msg, "cannot start any token") && (char == '@' || char == '`'):
		return pos, fmt.Sprintf("invalid YAML: %q cannot start a key or a plain value (YAML reserves it): put the text in quotes", char)
	case strings.Contains(msg, "cannot start any token"):
		return pos, fmt.Sprintf("invalid YAML: %q cannot start a value or a key here", char)
	case strings.Contains(se.Context, "quoted scalar") && hasCtx:
		return ctx, "invalid YAML: the quoted value opened here is never closed: add its closing quote"
	case msg == "did not find expected ',' or '}'" && hasCtx:
		return ctx, "invalid YAML: " + msg + " (the {…} mapping opened here is not closed)"
	case msg == "did not find expected ',' or ']'" && hasCtx:
		return ctx, "invalid YAML: " + msg + " (the […] list opened here is not closed)"
	case msg == "did not find expected node content" && se.Context == "while parsing a flow node":
		// The text ended inside a {…} or […]: the library's marks are
		// both at the end, so find the collection left open.
		if open, kind, ok := unclosedFlow(lines); ok {
			return open, "invalid YAML: the text ends inside the " + kind + " opened here: close it"
		}
		return pos, "invalid YAML: " + msg
	case msg == "could not find expected ':'" && hasCtx:
		return ctx, "invalid YAML: could not find expected ':' (the text here reads as a key and needs a colon after it)"
	case msg == "mapping values are not allowed in this context":
		// A colon the parser could not take: inside a value ("title:
		// a: b"), or ending a key whose line is indented under a value.
		before := string(text[:byteOffset(text, pos.Col)])
		if strings.Contains(before, ": ") {
			return pos, "invalid YAML: mapping values are not allowed in this context (a value holding \": \" must be in quotes)"
		}
		pos.Col = firstNonSpaceCol(text)
		return pos, "invalid YAML: mapping values are not allowed in this context (check this line's indentation against the lines above)"
	case msg == "did not find expected key" || msg == "did not find expected '-' indicator":
		return pos, "invalid YAML: " + msg + " (check this line's indentation against the lines above)"
	}
	return pos, "invalid YAML: " + msg
}

// yamlError reports err, an error of the YAML library reading p.src.
func (p *parser) yamlError(err error) {
	pos, msg := YAMLError(p.src, err, "a scenario")
	p.errAt(pos, "%s", msg)
}

// clampPos moves pos to the nearest place inside the text split into
// lines: a character or the end of a line.
func clampPos(lines [][]byte, pos sim.Pos) sim.Pos {
	pos.Line = min(max(pos.Line, 1), len(lines))
	pos.Col = min(max(pos.Col, 1), utf8.RuneCount(lines[pos.Line-1])+1)
	return pos
}

// byteOffset is the byte offset of the col-th character (1-based) of text,
// or len(text) past its end.
func byteOffset(text []byte, col int) int {
	i := 0
	for n := 1; n < col && i < len(text); n++ {
		_, w := utf8.DecodeRune(text[i:])
		i += w
	}
	return i
}

// charAt is the col-th character of text, or 0 past its end.
func charAt(text []byte, col int) rune {
	rest := text[byteOffset(text, col):]
	if len(rest) == 0 {
		return 0
	}
	r, _ := utf8.DecodeRune(rest)
	return r
}

func firstTabCol(text []byte) int {
	if i := bytes.IndexByte(text, '\t'); i >= 0 {
		return utf8.RuneCount(text[:i]) + 1
	}
	return 0
}

func firstNonSpaceCol(text []byte) int {
	for i, r := range string(text) {
		if r != ' ' {
			return utf8.RuneCount(text[:i]) + 1
		}
	}
	return 1
}

// starts says whether a value can start after the character prev (the
// last one that is not a space; '\n' for a line's start).
func starts(prev byte) bool {
	return prev == '\n' || prev == ':' || prev == '-' || prev == ',' || prev == '[' || prev == '{'
}

// unclosedFlow finds the outermost {…} or […] that src (split into lines)
// opens and never closes, skipping quoted text and comments; kind names it
// ("{…} mapping", "[…] list"). A bracket counts only where a value can
// start (after ":", "-", ",", another bracket, or at a line's start), since
// in a plain value such as "a[b" it is text.
func unclosedFlow(lines [][]byte) (pos sim.Pos, kind string, ok bool) {
	type opener struct {
		pos sim.Pos
		c   byte
	}
	var stack []opener
	prev := byte('\n')
	for li, text := range lines {
		col, quote := 0, byte(0)
		if len(stack) == 0 {
			prev = '\n' // a line's start outside {…} and […]
		}
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c < 0x80 || c >= 0xC0 {
				col++ // a character's first byte
			}
			switch {
			case quote != 0:
				if c == '\\' && quote == '"' {
					i++
					col++
				} else if c == quote {
					quote = 0
				}
				continue
			case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
				i = len(text)
				continue
			case (c == ']' || c == '}') && len(stack) > 0:
				stack = stack[:len(stack)-1]
			case !starts(prev):
				// inside a plain value: quotes and brackets are text
			case c == '\'' || c == '"':
				quote = c
			case c == '[' || c == '{':
				stack = append(stack, opener{sim.Pos{Line: li + 1, Col: col}, c})
			}
			if c != ' ' && c != '\t' {
				prev = c
			}
		}
	}
	if len(stack) == 0 {
		return sim.Pos{}, "", false
	}
	if stack[0].c == '{' {
		return stack[0].pos, "{…} mapping", true
	}
	return stack[0].pos, "[…] list", true
}
