package site

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/internal/browsertest"
)

// typeSize is what measureType finds in one figure over all its beats:
// the smallest drawn text, in CSS pixels (Px, Beat, Text, Mark), and the
// text of least contrast against what is painted under it (Ratio, the
// WCAG 2 contrast ratio; RBeat, RText, RMark, and the two colours composed
// as drawn, Fg and Bg, "r,g,b").
type typeSize struct {
	Px    float64
	Beat  int
	Text  string
	Mark  string
	Ratio float64
	RBeat int
	RText string
	RMark string
	Fg    string
	Bg    string
}

// measureType is a script that steps the figure with id %s through every
// beat (Home, then → until its last) and returns, over all beats, its
// smallest drawn <text>: the computed font size (user units inside the
// SVG) times the scale from user units to CSS pixels (the text's screen
// transform, which holds the viewBox's fit to its box). Empty and hidden
// texts (an absent mark's, kf-gone) are not drawn and not measured.
//
// It also returns the text of least contrast: every drawn <text> of the
// picture and every element of the figure outside it that holds text of
// its own (caption, controls, legend, story), but not a disabled control
// (WCAG 1.4.3 exempts an inactive one). A text's colour (an SVG text's
// fill, an HTML element's color) and every layer under the middle of its
// box (document.elementsFromPoint: SVG shapes' fills, HTML boxes'
// background colours, from the page's white up) are composed as drawn,
// with opacity (its own and its ancestors') and fill-opacity, a layer
// later in the document drawn over the text as well; the ratio is WCAG's,
// (L1 + 0.05) / (L2 + 0.05) of the two relative luminances.
const measureType = `(function(f){
	var best={Px:1e9, Beat:-1, Text:'', Mark:'', Ratio:1e9, RBeat:-1, RText:'', RMark:'', Fg:'', Bg:''}, last=+f.dataset.last;
	function key(k){ f.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true})); }
	function rgba(s){
		var m=/rgba?\(([^)]*)\)/.exec(s||''); if(!m) return null;
		var p=m[1].split(/[ ,\/]+/).filter(Boolean).map(parseFloat);
		return [p[0],p[1],p[2],p.length>3?p[3]:1];
	}
	function over(c,a,b){ return [c[0]*a+b[0]*(1-a), c[1]*a+b[1]*(1-a), c[2]*a+b[2]*(1-a)]; }
	function alphaOf(e){ var a=1; for(var x=e;x&&x.nodeType===1;x=x.parentElement) a*=+getComputedStyle(x).opacity; return a; }
	function lum(c){ var v=c.map(function(x){x/=255; return x<=0.03928?x/12.92:Math.pow((x+0.055)/1.055,2.4)}); return 0.2126*v[0]+0.7152*v[1]+0.0722*v[2]; }
	function ratio(a,b){ var x=lum(a), y=lum(b); return (Math.max(x,y)+0.05)/(Math.min(x,y)+0.05); }
	// paint: what element e lays over the colour beneath at a point, or
	// null: an SVG shape's fill, an HTML box's background colour.
	function paint(e){
		var cs=getComputedStyle(e), c, a;
		if(e instanceof SVGElement){
			if(!/^(rect|circle|ellipse|path|polygon)$/.test(e.tagName)) return null;
			c=rgba(cs.fill); if(!c) return null; a=c[3]*+cs.fillOpacity;
		} else { c=rgba(cs.backgroundColor); if(!c) return null; a=c[3]; }
		a*=alphaOf(e); return a>0?[c,a]:null;
	}
	// contrast measures text element t (its own colour: an SVG text's fill,
	// an HTML element's color) against what is painted under its box's
	// middle (scrolled into the window's middle first when it lies outside
	// the window, where elementsFromPoint sees nothing), every layer composed (opacity and fill-opacity included),
	// and returns [ratio, text colour, background colour].
	function contrast(t){
		var r=t.getBoundingClientRect();
		// (and off a phone's sticky controls at the window's bottom)
		if(r.top<0||r.bottom>innerHeight-150||r.left<0||r.right>innerWidth){
			t.scrollIntoView({block:'center', inline:'center', behavior:'instant'}); r=t.getBoundingClientRect();
		}
		var x=r.left+r.width/2, y=r.top+r.height/2;
		var cs=getComputedStyle(t), own=rgba(t instanceof SVGElement?cs.fill:cs.color);
		if(!own) return null;
		var bg=[255,255,255], fg=null;
		var stack=document.elementsFromPoint(x,y).filter(function(e){return e!==t&&!t.contains(e)}).reverse();
		// An HTML element's own background lies under its text (an SVG
		// text paints no box).
		function mine(under){
			var p=t instanceof SVGElement?null:paint(t);
			if(p) bg=under=over(p[0],p[1],under);
			return over(own,own[3]*alphaOf(t),under);
		}
		var placed=false;
		stack.forEach(function(e){
			var above=!e.contains(t)&&(t.compareDocumentPosition(e)&Node.DOCUMENT_POSITION_FOLLOWING)&&!(t.compareDocumentPosition(e)&Node.DOCUMENT_POSITION_CONTAINED_BY);
			if(above&&!placed){ fg=mine(bg); placed=true; }
			var p=paint(e); if(!p) return;
			bg=over(p[0],p[1],bg); if(placed) fg=over(p[0],p[1],fg);
		});
		if(!placed) fg=mine(bg);
		return [ratio(fg,bg), fg.map(Math.round).join(','), bg.map(Math.round).join(',')];
	}
	function worst(t,b,mark){
		var c=contrast(t); if(!c) return;
		if(c[0]<best.Ratio){ best.Ratio=c[0]; best.RBeat=b; best.RText=t.textContent.trim().slice(0,60); best.RMark=mark; best.Fg=c[1]; best.Bg=c[2]; }
	}
	key('Home');
	for(var b=0;b<=last;b++){
		f.querySelectorAll('.kf-svg text').forEach(function(x){
			if(!x.textContent.trim() || x.closest('.kf-gone') || !x.checkVisibility({visibilityProperty:true})) return;
			var m=x.getScreenCTM(); if(!m) return;
			var px=parseFloat(getComputedStyle(x).fontSize)*Math.hypot(m.a,m.b);
			var mark=x.closest('g.m').getAttribute('class');
			if(px<best.Px){ best.Px=px; best.Beat=b; best.Text=x.textContent; best.Mark=mark; }
			worst(x,b,mark);
		});
		f.querySelectorAll('*').forEach(function(x){
			if(x.closest('.kf-svg')||x.matches(':disabled')||x.closest(':disabled')||!x.checkVisibility({visibilityProperty:true})) return;
			if(!Array.from(x.childNodes).some(function(n){return n.nodeType===3&&n.textContent.trim()})) return;
			worst(x,b,x.tagName.toLowerCase()+(x.className?'.'+String(x.className).trim().replace(/\s+/g,'.'):''));
		});
		key('ArrowRight');
	}
	return best;
})(document.getElementById('%s'))`

// TestBrowserLegibleType opens every page of the built guide in Chromium
// at a desktop (1280 CSS px) and a phone (390 CSS px) width, steps every
// figure through every beat, and wants every text of every picture drawn
// at 12 px or more on the desktop and 10 px or more on the phone: the
// figures reach it by their layout (a narrow layout on a phone, panels
// side by side only where both fit), not by type too small to read.
func TestBrowserLegibleType(t *testing.T) {
	browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	s, err := Build(Options{Content: content.FS, ContentName: "content"}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		width  int
		least  float64
		scheme string
	}{{1280, 12, "light"}, {390, 11, "light"}, {390, 11, "dark"}} {
		ctx := browsertest.Start(t, w.width, 900)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w.width), 900), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: w.scheme},
					// Every mark at rest, not fading in, when it is measured.
					{Name: "prefers-reduced-motion", Value: "reduce"}}})
			return err
		})); err != nil {
			t.Fatal(err)
		}
		figures := 0
		var report []string
		for _, f := range s.Files {
			if !strings.HasSuffix(f.Path, ".html") {
				continue
			}
			tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			err := chromedp.Do(tctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, f.Path))))
			var ids []string
			if err == nil {
				ids, err = chromedp.Run(tctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("figure.kflow")].map(f => f.id)`))
			}
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			for _, id := range ids {
				figures++
				tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
				got, err := chromedp.Run(tctx, chromedp.Evaluate[typeSize](strings.Replace(measureType, "%s", id, 1)))
				cancel()
				if err != nil {
					t.Fatalf("%s: figure %s: %v", f.Path, id, err)
				}
				report = append(report, fmt.Sprintf("%-48s %5.1f px %5.2f:1", id, got.Px, got.Ratio))
				if got.Px < w.least {
					t.Errorf("%d px: %s: figure %s draws %q (%s) at %.1f px at beat %d, want at least %.0f px",
						w.width, f.Path, id, got.Text, got.Mark, got.Px, got.Beat, w.least)
				}
				if got.Ratio < 4.5 {
					t.Errorf("%d px, %s: %s: figure %s draws %q (%s) at contrast %.2f:1 at beat %d (rgb %s on %s), want at least 4.5:1 (WCAG 1.4.3)",
						w.width, w.scheme, f.Path, id, got.RText, got.RMark, got.Ratio, got.RBeat, got.Fg, got.Bg)
				}
			}
		}
		sort.Strings(report)
		t.Logf("%d px, %s: smallest text and least contrast per figure:\n%s", w.width, w.scheme, strings.Join(report, "\n"))
		if figures < 20 {
			t.Fatalf("%d px: checked %d figures", w.width, figures)
		}
	}
}
