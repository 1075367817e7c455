package site

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Error is one problem with the user's input, positioned in a content file
// the way go/scanner positions a source error: File is the path as the user
// knows it (the content folder's name joined with the page's path inside
// it, e.g. "content/acks.md"), Line and Col are 1-based and count from the
// top of the file, front matter included. A zero Line means the problem is
// about the file as a whole.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

// Error returns "file:line:col: message" ("file: message" when the error has
// no position).
func (e Error) Error() string {
	if e.Line <= 0 {
		return e.File + ": " + e.Msg
	}
	col := max(e.Col, 1)
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, col, e.Msg)
}

// ErrorList is every positioned error of a build, sorted by file, line,
// column and message so that the output never depends on the order in
// which parallel work finished. A nil ErrorList means success.
type ErrorList []Error

// Error joins the errors one a line.
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

// Sort orders the list by file, line, column, then message.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b Error) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
}

// Err returns the sorted list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}
