package site

import (
	"bytes"
	"html/template"

	"github.com/kafkaflow/kflowgen/sim"
)

// renderFigure draws a trace as a figure.
//
// TEMPORARY adapter until svganim.Figure lands: a plain list of the beats'
// events, no frames. It is replaced by a call to svganim.Figure.
func renderFigure(t *sim.Trace, id string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`<figure class="kflow" id="` + id + `"><figcaption>`)
	template.HTMLEscape(&b, []byte(t.Title))
	b.WriteString(`</figcaption><ol>`)
	for _, beat := range t.Beats {
		b.WriteString("<li>")
		for _, e := range beat.Events {
			template.HTMLEscape(&b, []byte(e))
			b.WriteString(" ")
		}
		b.WriteString("</li>")
	}
	b.WriteString(`</ol></figure>`)
	return b.Bytes(), nil
}
