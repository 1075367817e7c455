package scenario

import (
	"fmt"
	"sort"

	"github.com/kafkaflow/kflowgen/sim"
)

// Error is one problem found in a scenario: a 1-based position inside the
// text given to Parse and a lowercase message that quotes the user's token,
// in the style of go/scanner ("14:9: unknown setting \"ack\" (did you mean
// \"acks\"?)"). The caller adds the file name and the fence's line offset.
type Error struct {
	Pos sim.Pos
	Msg string
}

// Error returns "LINE:COL: MSG".
func (e Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is every problem Parse found, sorted by line, then column, then
// message, without duplicates. Parse returns nil when the scenario is valid.
type ErrorList []Error

// Error returns the first error, followed by how many more there are, like
// go/scanner.ErrorList. Print each element to show them all.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// sortDedup orders l by position and message and drops repeats.
func (l ErrorList) sortDedup() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Msg < b.Msg
	})
	out := l[:0]
	for i, e := range l {
		if i > 0 && e == l[i-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}
