package sim

import (
	"fmt"
	"slices"
	"strings"
)

// Pos is a place in a text: a scenario's text (the body of a kflow fence,
// or a bare scenario file) while the parser and Check report it, a content
// file once the site has placed it there. Every position in Kafka Flow —
// scenario errors, page errors, failed expectations, serve's caret — is a
// Pos and counts the same way. The zero Pos means "no position" (a
// scenario built in Go rather than parsed, or a problem with a file as a
// whole).
type Pos struct {
	// Line is 1-based; 0 means no position.
	Line int
	// Col is 1-based and counts characters, not bytes: each Unicode code
	// point of the line's UTF-8 text is one column, a tab is one, and a
	// byte that is not part of valid UTF-8 counts as one character of its
	// own (what an editor shows as one replacement character). Col is
	// what yaml.v3 reports and what an editor's "go to column" expects.
	Col int
}

// Error is one positioned problem with the user's input, printed the way
// go/scanner prints a source error: "file:line:col: message". File is the
// path as the user knows it ("content/acks.md"), or "" inside a scenario
// before the caller knows which file holds it (the parser and Check
// report positions relative to the scenario's text; the site moves them
// into the page). Messages are lowercase and quote the user's token.
type Error struct {
	File string
	Pos
	Msg string
	// Follows says the error follows from another one in its list (a
	// link into a figure that does not build): Sort puts such errors
	// after all the others, so that a reader meets the cause first.
	Follows bool
}

// Error returns "file:line:col: message"; "line:col: message" without a
// file; "file: message" without a position (Line 0); a column below 1 is
// printed as 1. The file name is printed through EscapeName, so a name
// holding a newline or another control character cannot forge a line.
func (e Error) Error() string {
	switch {
	case e.Line <= 0 && e.File == "":
		return e.Msg
	case e.Line <= 0:
		return EscapeName(e.File) + ": " + e.Msg
	case e.File == "":
		return fmt.Sprintf("%d:%d: %s", e.Line, max(e.Col, 1), e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", EscapeName(e.File), e.Line, max(e.Col, 1), e.Msg)
}

// ErrorList is every problem found in a scenario, a page or a whole
// build. A nil list means success; Err turns it into an error.
type ErrorList []Error

// Error joins the errors one a line, in the list's order.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the list by file, line, column, then message, so that output
// never depends on the order in which parallel work finished; the errors
// that follow from others (Follows) come after the rest, in the same order.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, compareErrors)
}

// SortDedup sorts the list and drops errors equal to the one before;
// it returns the shortened list.
func (l ErrorList) SortDedup() ErrorList {
	l.Sort()
	return slices.Compact(l)
}

// Err returns the sorted list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

func compareErrors(a, b Error) int {
	switch {
	case a.Follows != b.Follows:
		if a.Follows {
			return 1
		}
		return -1
	case a.File != b.File:
		return strings.Compare(a.File, b.File)
	case a.Line != b.Line:
		return a.Line - b.Line
	case a.Col != b.Col:
		return a.Col - b.Col
	}
	return strings.Compare(a.Msg, b.Msg)
}
