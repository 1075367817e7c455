package fence

import (
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// Play is the playground's path from fence text to figure (the
// WebAssembly module in playground/wasm calls it on every Run): Parse,
// Run and Draw with the DOM id a page with the given slug gives the
// figure (FigureID), so for a fence that builds cleanly the markup is
// byte for byte the build's. Unlike a build, a fence whose only problems
// are expect: entries the trace contradicts is still drawn — a reader who
// turns acks from all to 1 should see the loss that the claim now
// misses — and those entries come back in Errors beside the markup. Parse
// errors and internal errors leave HTML nil. Play never panics.
//
// text is what the reader typed or pasted: a fence body, or anything
// holding a kflow fence — the fence copied whole with its ``` lines, or a
// whole page — whose first fence's body is run then (Pasted). Positions
// are in text either way.
//
// For a fence with knobs every combination is simulated and checked (the
// figure's outcome table and the expect: entries need every trace) but
// only the default is drawn, so the figure is on screen without waiting
// for the others: Assets stays nil, and PlayVariant draws combination i
// when a reader first picks it.
func Play(text []byte, slug string) *Result {
	body, at := Pasted(text)
	r := Parse(body).Run()
	if r.Trace != nil && !hasInternal(r.Errors) {
		errs := r.Errors
		r.Errors = nil
		r.draw(playOptions(slug), false)
		r.Errors = append(errs, r.Errors...)
	}
	r.Errors = at.Place(r.Errors)
	return r
}

// PlayVariant draws combination i of r, a Play result for a page with
// the given slug, and returns its script, byte for byte what the build
// writes to VariantFile (DrawVariant): nil for the default combination,
// an error for a figure not drawn, without knobs, or an i out of range.
func PlayVariant(r *Result, slug string, i int) ([]byte, error) {
	return r.DrawVariant(playOptions(slug), i)
}

// playOptions are the Options Play draws with for a page's slug.
func playOptions(slug string) Options {
	return Options{ID: func(id string) string { return FigureID(slug, id) }}
}

// hasInternal says whether errs holds an InternalError.
func hasInternal(errs []sim.Error) bool {
	for _, e := range errs {
		if strings.HasPrefix(e.Msg, InternalError) {
			return true
		}
	}
	return false
}

// FigureID is the DOM id of a figure: the page slug, "--", then the
// scenario id, each reduced to [a-z0-9-] on its own (SafeID; "page" and
// "figure" when nothing is left), so the "--" separator stays.
func FigureID(slug, scenarioID string) string {
	return SafeID(slug, "page") + "--" + SafeID(scenarioID, "figure")
}

// SafeID reduces s to [a-z0-9-]: lower case, every run of other
// characters becomes one '-', no '-' at either end. An empty result
// becomes def.
func SafeID(s, def string) string {
	return Slug(s, def, func(r rune, _ bool) bool {
		return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')
	})
}

// Slug lower-cases s and keeps the runes keep accepts, joining each run of
// kept runes to the next with one '-' where runes were dropped between
// them; no '-' at either end, and def when nothing is kept. keep is told,
// for each rune, whether it would join straight onto a kept rune (true) or
// start a run (false), so that a mark can be kept after a letter and not
// alone. SafeID and site's heading ids are its two uses.
func Slug(s, def string, keep func(r rune, joined bool) bool) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if keep(r, b.Len() > 0 && !dash) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return def
	}
	return b.String()
}
