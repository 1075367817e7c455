package svganim

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// Knob is one setting a figure lets its reader change (a fence's knobs:,
// see sim/scenario.ParseFence).
type Knob struct {
	// Name is Kafka's name for the setting ("acks"), the control's
	// label; Path its path in the fence ("producer.acks"), which deep
	// links use; Group the group it belongs to, if any ("readers").
	Name, Path, Group string
	// Values are the values to pick from, as the fence writes them.
	Values []string
	// LeftOnly says the knob changes a side-by-side figure's first run
	// only: the second run's compare gives the setting its own value.
	// The control says so, beside the values.
	LeftOnly bool
}

// Variant is one combination of knob values, drawn.
type Variant struct {
	// Choice is the index of each knob's value.
	Choice []int
	// HTML is the variant's figure, from Figure or FigureCompare with
	// the knob figure's id.
	HTML []byte
	// Runs are its traces: one, or two for a compare figure.
	Runs []*sim.Trace
}

// KnobFigure assembles a figure whose reader picks a combination of knob
// values. page is the markup for the page: a <figure class="kflow …"
// id=ID data-kn=N> holding a row of controls, one labelled group of
// buttons per knob (aria-pressed on the picked value; hidden until
// stepper.js shows it), the default variant's figure (variants[def],
// whose markup moves into a <div class="kf-var">), and a table of every
// combination's outcome at the end of the run (written before the variant,
// shown after it), read from the traces:
// records acked, sent, F, U, L and pending, and each partition's high
// watermark and ISR on the last beat. assets[i] is, for every variant
// but the default (whose entry is nil), a script defining that variant's
// markup (self.kfV["ID.i"]), which the stepper loads with a <script>
// element the first time a reader picks it — so file:// works — and
// which a standalone page may also inline. The error reports markup that
// is not a figure of this id, or variants and knobs that do not fit.
//
// KnobFigure is KnobPage and a KnobAsset for every other variant.
func KnobFigure(id string, knobs []Knob, variants []Variant, def int) (page []byte, assets [][]byte, err error) {
	if page, err = KnobPage(id, knobs, variants, def); err != nil {
		return nil, nil, err
	}
	assets = make([][]byte, len(variants))
	for i, v := range variants {
		if i == def {
			continue
		}
		if assets[i], err = KnobAsset(id, i, v.HTML); err != nil {
			return nil, nil, err
		}
	}
	return page, assets, nil
}

// KnobPage is KnobFigure's page markup alone. Of the variants it reads
// every Choice and Runs (the outcome table) but only the default's HTML,
// so the others need not be drawn yet: the playground draws them when a
// reader first picks one (KnobAsset gives the same script KnobFigure
// does).
func KnobPage(id string, knobs []Knob, variants []Variant, def int) ([]byte, error) {
	n := 1
	for _, k := range knobs {
		n *= len(k.Values)
	}
	if len(knobs) == 0 || n != len(variants) || def < 0 || def >= n {
		return nil, fmt.Errorf("figure %s: %d variants for knobs with %d combinations (default %d)", id, len(variants), n, def)
	}
	v, err := variantMarkup(id, def, variants[def].HTML)
	if err != nil {
		return nil, err
	}
	// Sized for the picture, the knobs and a row of the table for each
	// combination, so that the figure's markup is not copied as it grows.
	var b bytes.Buffer
	b.Grow(v.len() + 1024 + 512*len(knobs) + knobTableRowBytes*len(variants))
	fmt.Fprintf(&b, `<figure class="%s" id="%s" data-kn="%d" data-kv="%d" tabindex="0" aria-labelledby="%s-t">`+"\n", v.class, id, n, def, id)
	b.WriteString(`<div class="kf-knobs" hidden>`)
	d := variants[def].Choice
	for ki, k := range knobs {
		label := k.Name
		if k.Group != "" {
			label += " (" + k.Group + ")"
		}
		fmt.Fprintf(&b, `<div class="kf-knob" role="group" aria-label="%s" data-path="%s"><span class="kf-kname" aria-hidden="true">%s</span>`,
			escapeCaption(label), escapeCaption(k.Path), escapeCaption(label))
		for vi, v := range k.Values {
			fmt.Fprintf(&b, `<button type="button" data-kb="%d" data-kval="%d" aria-pressed="%t">%s</button>`, ki, vi, vi == d[ki], escapeCaption(v))
		}
		if k.LeftOnly {
			// The reference's rule ("knobs apply to both runs, except a
			// setting compare gives"), said where the reader picks.
			b.WriteString(`<span class="kf-kscope">` + leftOnlyWords + `</span>`)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString("</div>\n")
	// The table comes before the picture in the markup and is shown after
	// it (kf-knobs.css: order): between this figure's picture and the next
	// figure's, whose SVG repeats much of this one's, it pushed the next
	// one's repeats past deflate's 32 KB window — on the Partitions page
	// 800 bytes of table cost 1.6 KB gzip.
	outcomeTable(&b, knobs, variants, def)
	v.write(&b)
	b.WriteString("</figure>\n")
	return b.Bytes(), nil
}

// knobTableRowBytes is about what the outcome table takes for one
// combination, for sizing buffers.
const knobTableRowBytes = 512

// leftOnlyWords follows the values of a knob that changes a side-by-side
// figure's first run only (Knob.LeftOnly). "First", not "left": on a
// phone the runs are stacked.
const leftOnlyWords = "changes the first run; the second keeps its own"

// KnobAsset is the script that defines variant i of knob figure id,
// html being that variant's figure (Variant.HTML): it sets
// self.kfV["ID.i"] to the variant's <div class="kf-var"> markup and calls
// self.kfVLoaded("ID.i") when knobs.js waits for it. The error reports
// markup that is not a figure of this id.
func KnobAsset(id string, i int, html []byte) ([]byte, error) {
	v, err := variantMarkup(id, i, html)
	if err != nil {
		return nil, err
	}
	key := strconv.Quote(id + "." + itoa(i))
	n := v.len()
	a := make([]byte, 0, n+n/2+2*len(key)+64)
	a = append(a, "(self.kfV=self.kfV||{})["...)
	a = append(a, key...)
	a = append(a, "]=\""...)
	a = appendScriptChars(a, v.open)
	a = appendScriptChars(a, v.body)
	a = appendScriptChars(a, variantClose)
	a = append(a, "\";self.kfVLoaded&&kfVLoaded("...)
	a = append(a, key...)
	a = append(a, ");\n"...)
	return a, nil
}

// variantMarkup turns variant i's <figure> into a <div class="kf-var">
// with the figure's beat attributes, and returns the figure's classes.
// The div is returned in pieces (varMarkup), its body a slice of fig, so
// that each writer copies the figure's markup once, into its own output.
func variantMarkup(id string, i int, fig []byte) (varMarkup, error) {
	end := bytes.IndexByte(fig, '>')
	close := bytes.LastIndex(fig, []byte("</figure>"))
	if !bytes.HasPrefix(fig, []byte("<figure ")) || end < 0 || close < end || !bytes.Contains(fig[:end], []byte(` id="`+id+`"`)) {
		return varMarkup{}, fmt.Errorf("figure %s: variant %d is not a figure with this id", id, i)
	}
	tag := string(fig[:end])
	attr := func(name string) string {
		_, v, _ := strings.Cut(tag, " "+name+`="`)
		v, _, _ = strings.Cut(v, `"`)
		return v
	}
	return varMarkup{
		class: attr("class"),
		open:  `<div class="kf-var" data-v="` + itoa(i) + `" data-last="` + attr("data-last") + `" data-poster="` + attr("data-poster") + `" data-open="` + attr("data-open") + `">`,
		body:  bytes.TrimRight(fig[end+1:close], "\n"),
	}, nil
}

// varMarkup is a variant's <div class="kf-var">: open, body, then
// variantClose; class is its figure's classes.
type varMarkup struct {
	class, open string
	body        []byte
}

// variantClose ends a variant's div.
const variantClose = "\n</div>\n"

// len is the length of the div's markup.
func (v varMarkup) len() int { return len(v.open) + len(v.body) + len(variantClose) }

// write appends the div's markup to b.
func (v varMarkup) write(b *bytes.Buffer) {
	b.WriteString(v.open)
	b.Write(v.body)
	b.WriteString(variantClose)
}

// outcomeTable writes the table of every combination's outcome: one row
// per combination and run, in the order of variants, the default's rows
// marked kf-on, and a caption naming the combination shown in a <span>
// (kf-knobs.js moves the mark at every pick; at the first, it fills the
// span with every combination's name, of which a pick shows one).
func outcomeTable(b *bytes.Buffer, knobs []Knob, variants []Variant, def int) {
	outcomes := []string{sim.OutcomeAcked, sim.OutcomeSent, sim.OutcomeF, sim.OutcomeU, sim.OutcomeL, sim.OutcomePending}
	// A column for an outcome no combination has would only be zeros;
	// acked, F, U and L always stand: they are what a reader compares.
	used := map[string]bool{sim.OutcomeAcked: true, sim.OutcomeF: true, sim.OutcomeU: true, sim.OutcomeL: true}
	pair := false
	for _, v := range variants {
		pair = pair || len(v.Runs) > 1
		for _, t := range v.Runs {
			for _, r := range t.Records {
				used[r.Outcome] = true
			}
		}
	}
	var shown []string
	for i, k := range knobs {
		shown = append(shown, k.Name+"="+k.Values[variants[def].Choice[i]])
	}
	fmt.Fprintf(b, `<table class="kf-outcomes"><caption>Every combination at the end of the run: how many records settled each way, each partition's high watermark and ISR, and what each group made of the records (the figure shows <span>%s</span>)</caption>`,
		escapeCaption(strings.Join(shown, ", ")))
	// Every body cell names its column (data-h), which a phone shows
	// before it where the rows stack as cards (kf-knobs.css).
	b.WriteString("<thead><tr>")
	for _, k := range knobs {
		fmt.Fprintf(b, `<th scope="col">%s</th>`, escapeCaption(k.Name))
	}
	if pair {
		b.WriteString(`<th scope="col">run</th>`)
	}
	for _, o := range outcomes {
		if used[o] {
			fmt.Fprintf(b, `<th scope="col">%s</th>`, o)
		}
	}
	b.WriteString(`<th scope="col">high watermark</th><th scope="col">ISR</th>`)
	groups := variants[def].Runs[0].Beats[0].Groups
	for _, g := range groups {
		fmt.Fprintf(b, `<th scope="col">%s</th>`, escapeCaption(g.Group))
	}
	b.WriteString(`</tr></thead><tbody>`)
	for vi, v := range variants {
		for ri, t := range v.Runs {
			cls := ""
			if vi == def {
				cls = ` class="kf-on"`
			}
			fmt.Fprintf(b, "<tr%s>", cls)
			if ri == 0 {
				for ki, k := range knobs {
					if len(v.Runs) > 1 {
						fmt.Fprintf(b, `<td rowspan="%d" data-h="%s">%s</td>`, len(v.Runs), escapeCaption(k.Name), escapeCaption(k.Values[v.Choice[ki]]))
					} else {
						fmt.Fprintf(b, `<td data-h="%s">%s</td>`, escapeCaption(k.Name), escapeCaption(k.Values[v.Choice[ki]]))
					}
				}
			}
			if pair {
				fmt.Fprintf(b, `<td data-h="run">%s</td>`, escapeCaption(panelName(t)))
			}
			count := map[string]int{}
			for _, r := range t.Records {
				count[r.Outcome]++
			}
			for _, o := range outcomes {
				if used[o] {
					fmt.Fprintf(b, `<td data-h="%s">%d</td>`, o, count[o])
				}
			}
			lastBeat := t.Beats[len(t.Beats)-1]
			var hw, isr []string
			for _, p := range lastBeat.Partitions {
				prefix := ""
				if len(lastBeat.Partitions) > 1 {
					prefix = "p" + itoa(p.Partition) + " "
				}
				hw = append(hw, prefix+strconv.FormatInt(p.HighWatermark, 10))
				ids := make([]string, len(p.ISR))
				for i, id := range p.ISR {
					ids[i] = itoa(id)
				}
				isr = append(isr, prefix+"["+strings.Join(ids, " ")+"]")
			}
			fmt.Fprintf(b, `<td data-h="high watermark">%s</td><td data-h="ISR">%s</td>`, strings.Join(hw, ", "), strings.Join(isr, ", "))
			for _, g := range groups {
				fmt.Fprintf(b, `<td data-h="%s">%s</td>`, escapeCaption(g.Group), escapeCaption(groupOutcome(lastBeat, g.Group)))
			}
			b.WriteString("</tr>")
		}
	}
	b.WriteString("</tbody></table>\n")
}

// groupOutcome sums up group id at beat b, the run's last: for a consumer
// group each partition's committed offset, how many offsets it processed
// more than once and how many members own no partition; for a share group how many records it acknowledged and
// archived and how many deliveries that took (the delivery counts of every
// record, in flight or finished, summed).
func groupOutcome(b sim.Beat, id string) string {
	for _, g := range b.Groups {
		if g.Group != id {
			continue
		}
		if g.Type == "consumer" {
			var committed []string
			twice := 0
			for _, gp := range g.Partitions {
				c := "none"
				if gp.Committed >= 0 {
					c = strconv.FormatInt(gp.Committed, 10)
				}
				committed = append(committed, "p"+itoa(gp.Partition)+" "+c)
				twice += len(gp.Reprocessed)
			}
			idle := 0
			for _, m := range g.Members {
				if len(m.Partitions) == 0 {
					idle++
				}
			}
			return "committed " + strings.Join(committed, ", ") + "; " + itoa(twice) + " processed twice; " +
				itoa(idle) + " of " + itoa(len(g.Members)) + " members idle"
		}
		acked, archived, deliveries := 0, 0, 0
		for _, gp := range g.Partitions {
			for _, rs := range [][]sim.ShareRecord{gp.Finished, gp.Records} {
				for _, r := range rs {
					deliveries += r.DeliveryCount
					switch r.State {
					case "acknowledged":
						acked++
					case "archived":
						archived++
					}
				}
			}
		}
		return itoa(acked) + " acknowledged, " + itoa(archived) + " archived, " + itoa(deliveries) + " deliveries"
	}
	return ""
}
