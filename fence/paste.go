package fence

import (
	"bytes"
	"slices"

	"github.com/kafkaflow/kflowgen/sim"
)

// Pasted finds the fence body in text as a reader pastes it into the
// playground: text itself, unless a line of text opens a kflow fence
// (```kflow or ~~~kflow, as a page writes one) — a fence copied whole, or
// a whole page with its front matter and prose — when the body is that
// first fence's, up to its closing line or the end of text. Each body line
// loses as many leading spaces, up to the opening line's indentation, as
// CommonMark takes from a fence's content. The Pasting it returns maps a
// position in the body back to text.
func Pasted(text []byte) ([]byte, Pasting) {
	var p Pasting
	rest := text
	for n := 0; len(rest) > 0; n++ {
		line, next := cutLine(rest)
		rest = next
		indent, mark, ok := kflowOpener(line)
		if !ok {
			continue
		}
		p.Lines = n + 1
		var body []byte
		for len(rest) > 0 {
			line, next := cutLine(rest)
			if closes(line, mark, indent) {
				break
			}
			rest = next
			cut := 0
			for cut < indent && cut < len(line) && line[cut] == ' ' {
				cut++
			}
			p.Cols = append(p.Cols, cut)
			body = append(body, line[cut:]...)
		}
		return body, p
	}
	return text, Pasting{}
}

// Pasting says where Pasted found a fence body in the text: Lines lines
// of the text come before its first line, and its line i (from 1) lost
// Cols[i-1] leading spaces. The zero Pasting is the text itself.
type Pasting struct {
	Lines int
	Cols  []int
}

// Place returns errs, positioned in the body (Line from 1), with each
// position moved to the same place in the text; errs is not changed.
func (p Pasting) Place(errs []sim.Error) []sim.Error {
	if p.Lines == 0 {
		return errs
	}
	errs = slices.Clone(errs)
	for i := range errs {
		e := &errs[i]
		if e.Line < 1 {
			continue
		}
		if e.Line <= len(p.Cols) {
			e.Col += p.Cols[e.Line-1]
		}
		e.Line += p.Lines
	}
	return errs
}

// cutLine returns the first line of b with its line ending, and the rest.
func cutLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1], b[i+1:]
	}
	return b, nil
}

// kflowOpener reports whether line opens a kflow fence: spaces, a run of
// three or more backticks or tildes, then the info string "kflow" (alone
// or followed by a space or tab; a backtick fence's info string holds no
// backtick). It returns the indentation and the run.
func kflowOpener(line []byte) (indent int, mark []byte, ok bool) {
	line = bytes.TrimRight(line, "\r\n")
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	s := line[indent:]
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return 0, nil, false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return 0, nil, false
	}
	info := bytes.TrimLeft(s[n:], " \t")
	if s[0] == '`' && bytes.IndexByte(info, '`') >= 0 {
		return 0, nil, false
	}
	word, _, _ := bytes.Cut(bytes.TrimRight(info, " \t"), []byte(" "))
	word, _, _ = bytes.Cut(word, []byte("\t"))
	if string(word) != "kflow" {
		return 0, nil, false
	}
	return indent, s[:n], true
}

// closes reports whether line closes a fence opened with mark, indented
// by indent spaces: up to three spaces (or indent, when more), a run of
// mark's character at least as long, then only spaces or tabs.
func closes(line, mark []byte, indent int) bool {
	line = bytes.TrimRight(line, "\r\n")
	i := 0
	for i < max(3, indent) && i < len(line) && line[i] == ' ' {
		i++
	}
	n := 0
	for i+n < len(line) && line[i+n] == mark[0] {
		n++
	}
	return n >= len(mark) && len(bytes.Trim(line[i+n:], " \t")) == 0
}
