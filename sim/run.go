package sim

// Run simulates sc for sc.Beats beats and returns its trace.
//
// PLACEHOLDER: returns the initial state repeated; the engine replaces it.
func Run(sc *Scenario) *Trace {
	t := &Trace{ID: sc.ID, Title: sc.Title}
	for b := 0; b <= sc.Beats; b++ {
		t.Beats = append(t.Beats, Beat{Beat: b, Events: []string{}})
	}
	return t
}

func describe(e Event) string { return e.Kind }
