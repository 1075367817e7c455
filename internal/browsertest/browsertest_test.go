package browsertest

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestStartPhoneViewport: a page opened by Start at a phone's 390 × 844
// lays out at 390 CSS px, with the viewport's media queries and a
// width=device-width page's layout width as a phone has them, not the
// ~500 px a headless window narrower than that is widened to.
func TestStartPhoneViewport(t *testing.T) {
	ctx := Start(t, 390, 844)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[3]any](`document.write('<meta name="viewport" content="width=device-width"><p>x</p>');
		[document.documentElement.clientWidth, matchMedia('(max-width: 390px)').matches, matchMedia('(min-width: 391px)').matches]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != float64(390) || got[1] != true || got[2] != false {
		t.Errorf("at 390 px: clientWidth, (max-width: 390px), (min-width: 391px) = %v, want [390 true false]", got)
	}
}
