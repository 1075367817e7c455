package site

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// templateError is an error of html/template (parsing or executing the
// layout), which Generate turns into a positioned one (positionTemplate).
type templateError struct{ err error }

func (e *templateError) Error() string { return "templates: " + e.err.Error() }
func (e *templateError) Unwrap() error { return e.err }

// templatePos matches the place text/template gives its errors:
// "template: layout.html:3: unclosed action" (a parse error: a line) or
// "template: layout.html:12:5: executing …" (a line and a column).
var templatePos = regexp.MustCompile(`(?s)^template: ([^:\s]+):(\d+):(?:(\d+):)? (.*)$`)

// positionTemplate turns err, when it is a templateError that names its
// place, into "DIR/layout.html:3:1: message", DIR being how the user named
// the templates folder (Options.TemplatesName; "templates" when unset):
// the file:line:col form of every other build error, which editors and
// serve's overlay read. A parse error has no column; it is given as 1.
// An execution error's column is a byte's, which is the character's on
// an ASCII line.
// Other errors are returned as they are.
func positionTemplate(err error, dir string) error {
	var te *templateError
	if !errors.As(err, &te) {
		return err
	}
	if dir == "" {
		dir = "templates"
	}
	m := templatePos.FindStringSubmatch(te.err.Error())
	if m == nil {
		return fmt.Errorf("templates %s: %w", sim.EscapeName(dir), te.err)
	}
	line, _ := strconv.Atoi(m[2])
	// An execution error's column counts bytes from 0; a parse error
	// has none (0, printed as 1).
	col, _ := strconv.Atoi(m[3])
	if m[3] != "" {
		col++
	}
	// "unclosed action started at layout.html:2": the file is named
	// already, so its line is enough.
	msg := strings.ReplaceAll(m[4], " at "+m[1]+":", " at line ")
	return sim.ErrorList{{File: path.Join(dir, m[1]), Pos: sim.Pos{Line: line, Col: col}, Msg: msg}}
}
