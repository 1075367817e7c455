package site

import (
	"strconv"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"golang.org/x/text/unicode/norm"

	"github.com/kafkaflow/kflowgen/fence"
)

// headingIDs gives headings their ids (goldmark's parser.IDs): the
// heading's text in lower case with its letters and digits of any script
// kept and every run of other characters one dash (headingSlug: "Acks &
// ISR" → "acks-isr", "Über Ünïcode" → "über-ünïcode", "日本語" → "日本語"),
// "-2", "-3"… on repeats, "section" when nothing is left ("🎉"). A heading
// id therefore never contains "--", which every figure id does
// (FigureID), so the two can never collide on a page.
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
	base := headingSlug(string(value))
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

// headingSlug is a heading's id before repeats are numbered: the text in
// Unicode NFC (so a heading typed with a combining accent gets the id of
// one typed with the composed letter) and lower case; letters, digits and
// the marks that follow them kept; every run of anything else one '-',
// with none at either end; "section" when nothing is left.
func headingSlug(text string) string {
	return fence.Slug(norm.NFC.String(text), "section", func(r rune, joined bool) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) && joined
	})
}
