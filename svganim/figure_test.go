package svganim

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"strings"
	"testing"
)

// parseXML fails the test unless b is well-formed XML.
func parseXML(t *testing.T, name string, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", name, err)
		}
	}
}

func TestEveryFrameIsXML(t *testing.T) {
	tr := acksOneLoss()
	for b := range tr.Beats {
		f, err := Frame(tr, b)
		if err != nil {
			t.Fatal(err)
		}
		parseXML(t, "frame "+itoa(b), f)
	}
}

func TestUserStringsAreInert(t *testing.T) {
	tr := acksOneLoss()
	for _, full := range []bool{false, true} {
		fig, err := Figure(tr, Options{ID: "acks--acks-one-loss"})
		if err != nil {
			t.Fatal(err)
		}
		if full {
			fig = fullFrames(tr, "acks--acks-one-loss")
		}
		html, data := splitTracks(t, string(fig))
		// Inside the JSON script a quote is escaped by JSON; what could end
		// the script early is a "<", which must never appear there.
		if strings.Contains(data, "<") {
			t.Errorf("tracks contain a raw <: %s", data)
		}
		for _, bad := range []string{"<script", `"onload=`, "<b>"} {
			if i := strings.Index(html, bad); i >= 0 {
				t.Errorf("figure contains raw %q: …%s…", bad, html[max(0, i-80):min(len(html), i+80)])
			}
		}
		if !strings.Contains(html, "&lt;script&gt;") {
			t.Errorf("the markup key should appear escaped")
		}
	}
}

// splitTracks separates a figure's JSON tracks script body from the rest
// of its markup (the script's own tags removed).
func splitTracks(t *testing.T, fig string) (html, data string) {
	t.Helper()
	const open = `<script type="application/json" class="kf-tracks">`
	i := strings.Index(fig, open)
	if i < 0 {
		return fig, ""
	}
	j := strings.Index(fig[i:], "</script>")
	if j < 0 {
		t.Fatalf("tracks script is not closed")
	}
	return fig[:i] + fig[i+j+len("</script>"):], fig[i+len(open) : i+j]
}

func TestFigureRejectsUnsafeID(t *testing.T) {
	for _, id := range []string{"", "Acks", `a"b`, "a b", "a@1"} {
		if _, err := Figure(acksOneLoss(), Options{ID: id}); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
}

// TestStepperBudget keeps the shared script within issue 6's budget of
// 6 KiB unminified.
func TestStepperBudget(t *testing.T) {
	b, err := os.ReadFile("../templates/stepper.js")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 6<<10 {
		t.Errorf("stepper.js is %d bytes, over the 6 KiB budget", len(b))
	}
}
