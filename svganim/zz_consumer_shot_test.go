package svganim

import (
	"os"
	"strings"
	"testing"
)

func TestZZConsumerShot(t *testing.T) {
	if os.Getenv("SHOT") == "" {
		t.Skip()
	}
	tr := runScenario(t, "x", []byte(consumerStory))
	css, _ := os.ReadFile("../templates/figure.css")
	var b strings.Builder
	b.WriteString("<html><head><style>" + string(css) + "</style></head><body><div class=kflow>")
	for _, beat := range strings.Split(os.Getenv("SHOT"), ",") {
		n := 0
		for _, c := range beat {
			n = n*10 + int(c-'0')
		}
		f, err := Frame(tr, n)
		if err != nil {
			t.Fatal(err)
		}
		s := string(f)
		s = s[strings.Index(s, "<svg"):]
		b.WriteString(s)
	}
	b.WriteString("</div></body></html>")
	os.WriteFile("/tmp/shot.html", []byte(b.String()), 0o644)
}
