package site

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

var knobShots = flag.String("knob-shots", "", "write screenshots of the Acks figure's knob controls into this folder")

// TestBrowserKnobShots saves the guide's Acks figure with its knobs, at
// acks=0 and beat 5, at desktop and phone widths in the light and dark
// schemes, for a person to look at: go test ./site -run KnobShots
// -knob-shots DIR. Without the flag it does nothing.
func TestBrowserKnobShots(t *testing.T) {
	if *knobShots == "" {
		t.Skip("no -knob-shots folder")
	}
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Content: content.FS, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	const id = "acks--acks-one-loss"
	for _, w := range []int{1280, 390} {
		ctx := browsertest.Start(t, w, 1000)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), 1000)); err != nil {
			t.Fatal(err)
		}
		for _, scheme := range []string{"light", "dark"} {
			tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			_, err := chromedp.Run(tctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
				return err
			}))
			if err == nil {
				err = chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "acks.html"))+"#"+id+"@5?producer.acks=0"))
			}
			if err == nil {
				_, err = chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelector('#`+id+` .kf-var').dataset.v === "0"`))
			}
			var buf []byte
			if err == nil {
				buf, err = chromedp.Run(tctx, chromedp.Screenshot(chromedp.CSS("#"+id)))
			}
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*knobShots, "acks-knobs-"+scheme+"-"+strconv.Itoa(w)+".png"), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
