package site

import (
	"regexp"
	"strings"
	"testing"
)

// runByPosition matches words that find one run of a side-by-side figure
// by where it is drawn: "on the left", "the right run", "Right, acks=all.",
// "left:" at a note's start. Those runs sit side by side only where both
// fit; on a phone, or wherever the pair is too wide (kf-stack), they are
// stacked, the first above the second, and "left" names nothing the
// reader sees. A run is named by its setting ("with acks=1", "the floor
// of 2") or as the first and the second.
var runByPosition = regexp.MustCompile(`(?i)\b(?:(?:on|to|at) the (?:left|right)\b|(?:left|right)(?:-hand)? (?:run|side|panel|one|figure)s?\b|(?:left|right)[:,])|\*\*(?:left|right)\b`)

// TestGuideNamesRunsBySetting: on a page with a side-by-side figure
// (a fence with compare:), neither the prose nor a note of the figure
// (notes are its captions) locates a run by left or right. Cells "to
// the left" of a tick within one picture are not meant, and are not
// matched: the phrases are those that pick one of two runs.
func TestGuideNamesRunsBySetting(t *testing.T) {
	pages := 0
	for _, p := range guidePages(t) {
		if !strings.Contains(string(p.src), "\ncompare:") {
			continue
		}
		pages++
		for i, line := range strings.Split(string(p.src), "\n") {
			// A member row's chip says it left the group: a verb.
			line = strings.ReplaceAll(line, "left: max.poll.interval", "")
			if m := runByPosition.FindString(line); m != "" {
				t.Errorf("%s:%d: %q finds a run of a side-by-side figure by its place, which a phone stacks: name it by its setting\n\t%s", p.name, i+1, m, strings.TrimSpace(line))
			}
		}
	}
	if pages < 5 {
		t.Errorf("%d guide pages have a side-by-side figure; the guide has nine such figures: is compare: still spelled so?", pages)
	}
}
