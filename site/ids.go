package site

import (
	"strconv"

	"github.com/yuin/goldmark/ast"
)

// headingIDs gives headings their ids (goldmark's parser.IDs): the
// heading's text reduced to [a-z0-9-] with single dashes only ("Acks &
// ISR" → "acks-isr"), "-2", "-3"… on repeats. A heading id therefore never
// contains "--", which every figure id does (FigureID), so the two can
// never collide on a page.
type headingIDs struct {
	used map[string]bool
}

// newHeadingIDs starts with the ids the page already has outside its
// text taken: "main" (the layout's <main>, the skip link's target) and
// "top" (which browsers read as the page's top), so "## Main" becomes
// "main-2".
func newHeadingIDs() *headingIDs {
	return &headingIDs{used: map[string]bool{"main": true, "top": true}}
}

// Generate implements parser.IDs.
func (h *headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	base := safeID(string(value), "section")
	id := base
	for n := 2; h.used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	h.used[id] = true
	return []byte(id)
}

// Put implements parser.IDs.
func (h *headingIDs) Put(value []byte) {
	h.used[string(value)] = true
}
