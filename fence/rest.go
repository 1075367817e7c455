//go:build !(js && wasm)

package fence

// PageDrawing and DrawRest are for kflowgen serve, which publishes a
// saved page before drawing the combinations no page shows until a
// reader picks one. They are not compiled into the playground's module
// (GOOS=js GOARCH=wasm), which draws a combination when it is picked
// (Play, PlayVariant) and so stays the module the rest of this package
// builds.

// PageDrawing is Drawing with, for a fence with knobs, the default
// combination alone drawn: Named gives the figure's page markup (HTML,
// Plain; the same bytes as Drawing's) without Assets, until DrawRest
// draws the other combinations. kflowgen serve publishes a saved page
// with it and draws the rest after. For a fence without knobs it is
// Drawing.
func (r *Result) PageDrawing(o Options) *Drawing { return r.drawing(o, false) }

// DrawRest draws the combinations a PageDrawing left undrawn, with
// o.Workers goroutines, so that Named gives afterwards what it gives for
// Drawing: every combination's script in Assets, or the error of the
// first combination (in combination order) that fails to draw, as
// Drawing reports it. A Drawing that is already whole is left as it is.
// Named must not be called while DrawRest runs.
func (d *Drawing) DrawRest(o Options) {
	if d.all {
		return
	}
	d.all = true
	r := d.r
	if r.Trace == nil || len(r.Errors) > 0 || len(r.Knobs) == 0 {
		return
	}
	if d.panicked != nil || d.err != nil {
		// The default failed: Drawing would have drawn the combinations
		// before it first, and failed at the first that fails.
		*d = *r.drawing(o, true)
		return
	}
	defer func() {
		if v := recover(); v != nil {
			d.figs, d.panicked = nil, internal(r.Scenario.Pos, "while drawing this figure", v)
		}
	}()
	for i, v := range r.Variants {
		if d.figs[i] != nil {
			continue
		}
		if d.figs[i], d.err = drawRun(v.Scenario, v.Compare, r.Runs[i], o.Workers); d.err != nil {
			d.figs[i], d.failed = nil, i
			return
		}
	}
}
