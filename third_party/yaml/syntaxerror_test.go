// Kafka Flow's test of its addition, SyntaxError (see README.md).

package yaml_test

import (
	"errors"
	"testing"

	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// TestSyntaxErrorMarks: the error keeps upstream's text and carries the
// parser's marks, 1-based, columns in characters.
func TestSyntaxErrorMarks(t *testing.T) {
	for _, c := range []struct {
		src, text, problem string
		line, col          int
		context            string
		ctxLine, ctxCol    int
	}{
		// A parser problem: upstream's text names a line counted from 0
		// (here the block began on line 1, so it names the problem's: 3
		// for 4); the marks name the token at fault.
		{"a: 1\nb:\n    c: 1\n  d: 2\n", "yaml: line 3: did not find expected key", "did not find expected key", 4, 3, "while parsing a block mapping", 1, 1},
		// A scanner problem on line 1 (upstream's text names no line),
		// after a two-byte character.
		{"é: @x\n", "yaml: found character that cannot start any token", "found character that cannot start any token", 1, 4, "while scanning for the next token", 1, 4},
		{"a: \"open\nb: 2\n", "yaml: line 3: found unexpected end of stream", "found unexpected end of stream", 3, 1, "while scanning a quoted scalar", 1, 4},
		{"a: b: c\n", "yaml: mapping values are not allowed in this context", "mapping values are not allowed in this context", 1, 5, "", 0, 0},
	} {
		var n yaml.Node
		err := yaml.Unmarshal([]byte(c.src), &n)
		var se *yaml.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: %v is not a *SyntaxError", c.src, err)
			continue
		}
		if se.Error() != c.text || se.Problem != c.problem || se.Line != c.line || se.Column != c.col ||
			se.Context != c.context || se.ContextLine != c.ctxLine || se.ContextColumn != c.ctxCol {
			t.Errorf("%q: got %q %q %d:%d %q %d:%d", c.src, se.Error(), se.Problem, se.Line, se.Column, se.Context, se.ContextLine, se.ContextColumn)
		}
	}
}
