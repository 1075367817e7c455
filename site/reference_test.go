package site

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
)

// TestReferenceGuideShareOfSiteLimits keeps the reference page's Limits
// paragraph true: it says the whole guide, every knob combination
// counted, uses less than 1% of MaxRecordBeats and less than 5% of
// MaxFrames. The guide's work is summed as the limits count it
// (fence.Parsed.Work), so a guide that grows past either share fails
// here, and the sentence is reworded with it.
func TestReferenceGuideShareOfSiteLimits(t *testing.T) {
	ref, err := fs.ReadFile(content.FS, "reference.md")
	if err != nil {
		t.Fatal(err)
	}
	const claim = "every knob combination counted, uses less than 1% of the record-beats and\nless than 5% of the frames"
	if !strings.Contains(string(ref), claim) {
		t.Fatalf("reference.md no longer says %q; update this test with it", claim)
	}
	var recordBeats, frames, fences int
	for _, f := range guideFences(t) {
		parsed := fence.Parse(f.Body)
		if len(parsed.Errors) > 0 {
			t.Fatalf("%s:%d: %v", f.page, f.Line, parsed.Errors)
		}
		w := parsed.Work()
		recordBeats, frames, fences = recordBeats+w.RecordBeats, frames+w.Frames, fences+1
	}
	if fences < 30 || frames == 0 {
		t.Fatalf("found %d fences and %d frames in the guide; is the walk broken?", fences, frames)
	}
	if recordBeats*100 >= MaxRecordBeats {
		t.Errorf("the guide is %d record-beats, not less than 1%% of %d", recordBeats, MaxRecordBeats)
	}
	if frames*100 >= 5*MaxFrames {
		t.Errorf("the guide is %d frames, not less than 5%% of %d", frames, MaxFrames)
	}
	t.Logf("the guide: %d fences, %d record-beats (%.2f%% of the limit), %d frames (%.2f%%)",
		fences, recordBeats, 100*float64(recordBeats)/MaxRecordBeats, frames, 100*float64(frames)/MaxFrames)
}
