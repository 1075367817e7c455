// Kafka Flow's addition to its copy of go.yaml.in/yaml/v3 (see README.md).

package yaml

// SyntaxError is the error Decoder.Decode, Unmarshal and Node.Decode
// return for text the YAML scanner or parser cannot read. Its Error text is
// upstream's, unchanged ("yaml: line N: msg"); upstream names only a line,
// and for parser problems the line where the enclosing block began, counted
// from 0. SyntaxError also carries the marks the parser had: where it
// stopped (the problem) and, when there is one, where the construct it was
// reading began (the context). Lines and columns count from 1; a column
// counts characters (runes), not bytes.
type SyntaxError struct {
	text string

	// Problem is the parser's message, such as "did not find expected key".
	Problem string
	// Line and Column are where the problem was found: the token the
	// parser could not take, or the character the scanner stopped at.
	Line, Column int
	// Context describes the construct being read, such as "while
	// scanning a quoted scalar", or is "" when the parser gave none.
	Context string
	// ContextLine and ContextColumn are where that construct began (0
	// when Context is "").
	ContextLine, ContextColumn int
}

func (e *SyntaxError) Error() string { return e.text }

func newSyntaxError(text string, p *yaml_parser_t) *SyntaxError {
	e := &SyntaxError{
		text:    text,
		Problem: p.problem,
		Line:    p.problem_mark.line + 1,
		Column:  p.problem_mark.column + 1,
		Context: p.context,
	}
	if e.Problem == "" {
		e.Problem = "unknown problem parsing YAML content"
	}
	if p.context != "" {
		e.ContextLine = p.context_mark.line + 1
		e.ContextColumn = p.context_mark.column + 1
	}
	return e
}
