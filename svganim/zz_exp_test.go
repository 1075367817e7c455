package svganim

import (
	"regexp"
	"testing"
)

func TestZZExperiment(t *testing.T) {
	ctl := regexp.MustCompile(`(?s)<div class="kf-controls".*?</div>`)
	ttl := regexp.MustCompile(`<title>[^<]*</title>\n`)
	story := regexp.MustCompile(`(?s)<details.*?</details>`)
	page := map[string][]byte{}
	pageBound := map[string]int{}
	for _, nt := range append(guideTraces(t), testdataTraces(t)...) {
		fig, _ := Figure(nt.t, Options{ID: "w"})
		b := gzipSize(Delta(nt.t))
		noCtl := ctl.ReplaceAll(fig, nil)
		noTtl := ttl.ReplaceAll(fig, nil)
		noStory := story.ReplaceAll(fig, nil)
		t.Logf("%-16s full %5d  -controls %5d  -titles %5d  -story %5d  bound %5d", nt.name, gzipSize(fig), gzipSize(noCtl), gzipSize(noTtl), gzipSize(noStory), b)
		p := nt.name[:len(nt.name)-2]
		page[p] = append(page[p], fig...)
		pageBound[p] += b
	}
	for p, b := range page {
		t.Logf("page %-10s gzip %5d  sum of bounds %5d", p, gzipSize(b), pageBound[p])
	}
}
