package svganim

import (
	"bytes"
	"encoding/xml"
	"io"
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
	fig, err := Figure(tr, Options{ID: "acks--acks-one-loss"})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script>", `"onload=`, "<b>"} {
		if bytes.Contains(fig, []byte(bad)) {
			i := bytes.Index(fig, []byte(bad))
			t.Errorf("figure contains raw %q: …%s…", bad, fig[max(0, i-80):min(len(fig), i+80)])
		}
	}
	if !strings.Contains(string(fig), "&lt;script&gt;") {
		t.Errorf("the markup key should appear escaped")
	}
}

func TestFigureRejectsUnsafeID(t *testing.T) {
	for _, id := range []string{"", "Acks", `a"b`, "a b", "a@1"} {
		if _, err := Figure(acksOneLoss(), Options{ID: id}); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
}
