package svganim

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// overlapJS steps one figure (its id is the argument) from its first beat
// to its last and, at every beat, measures in the browser what is drawn:
// every non-empty text, the label-like shapes (message tokens, window
// flags, record cards, role and member badges, share squares and verdict
// discs), the tick lines (high watermark, log end offset, positions,
// start offsets) and the bands (rail, broker and group lanes). It returns
// one line per problem, the first beat each is seen: two of these from
// different marks overlapping (lines against lines excepted: a high
// watermark at the log end offset is one line on the other), a text or
// shape reaching outside the picture, a text wider than the box of its own
// mark, a message token over a band, or two texts of different marks on
// one line closer than six units (runTogether), which a reader takes for
// one phrase ("ISR 2 / min 1LEO 0"). Boxes that only touch (less than
// half a pixel shared either way) do not count as overlapping.
const overlapJS = `(function(id){
	var f=document.getElementById(id), svg=f.querySelector('.kf-svg'), last=+f.dataset.last, seen={}, out=[];
	var shapes='.sw,.kf-wflag,.kf-card,.ss,.kf-verdict,.kf-sq';
	function name(g,it){
		var c=Array.from(g.classList).filter(function(x){return x!=='m'&&x!=='kf-new'&&!/^k[0-9x]$/.test(x)&&x!=='kf-k'&&x!=='kf-ks'}).join('.');
		var t=Array.from(g.querySelectorAll('text')).map(function(x){return x.textContent}).filter(Boolean).join('/');
		return it+' of '+c+(t?' "'+t+'"':'');
	}
	function hit(a,b){
		var w=Math.min(a.right,b.right)-Math.max(a.left,b.left), h=Math.min(a.bottom,b.bottom)-Math.max(a.top,b.top);
		return w>0.5&&h>0.5;
	}
	// Two texts whose lines share most of their height and whose ends are
	// less than six units apart (u: CSS px per user unit; a word space is
	// 3.8) run together.
	function runTogether(a,b,u){
		var h=Math.min(a.bottom,b.bottom)-Math.max(a.top,b.top), gap=Math.max(a.left,b.left)-Math.min(a.right,b.right);
		return h>0.5*Math.min(a.bottom-a.top,b.bottom-b.top)&&gap>-0.5&&gap<6*u;
	}
	function report(b,s){ if(!seen[s]){seen[s]=1; out.push('beat '+b+': '+s);} }
	f.dispatchEvent(new KeyboardEvent('keydown',{key:'Home',bubbles:true}));
	for(var b=0;b<=last;b++){
		var box=svg.getBoundingClientRect(), items=[], bands=[], u=box.width/svg.viewBox.baseVal.width;
		Array.from(svg.children).forEach(function(g,gi){
			if(g.tagName!=='g'||g.classList.contains('kf-gone')) return;
			var cs=getComputedStyle(g); if(cs.display==='none'||cs.visibility==='hidden'||+cs.opacity===0) return;
			g.querySelectorAll('text').forEach(function(t){
				if(t.textContent.trim()==='') return;
				items.push({m:gi,k:'t',r:t.getBoundingClientRect(),n:name(g,'text "'+t.textContent+'"')});
			});
			var rect=g.querySelector('rect');
			if(g.matches(shapes)&&rect) items.push({m:gi,k:'s',r:rect.getBoundingClientRect(),n:name(g,'shape')});
			if(g.matches('.sn')&&rect) bands.push({r:rect.getBoundingClientRect(),n:name(g,'band')});
			if(rect&&!g.matches('.sn')){ var rr=rect.getBoundingClientRect();
				g.querySelectorAll('text').forEach(function(t){
					if(t.textContent.trim()==='') return;
					var tr=t.getBoundingClientRect();
					if(tr.left<rr.left-0.5||tr.right>rr.right+0.5) report(b,name(g,'text "'+t.textContent+'"')+' is wider than its box');
				});
			}
			if(g.matches('.su,.sd')){ var l=g.querySelector('line'), lr=l.getBoundingClientRect();
				items.push({m:gi,k:'l',r:{left:lr.left-0.75,right:lr.right+0.75,top:lr.top,bottom:lr.bottom},n:name(g,'tick')}); }
		});
		for(var i=0;i<items.length;i++){
			var a=items[i];
			if(a.k!=='l'&&(a.r.left<box.left-0.5||a.r.right>box.right+0.5||a.r.top<box.top-0.5||a.r.bottom>box.bottom+0.5))
				report(b,a.n+' is cut off by the picture\'s edge');
			if(a.k==='s'&&/^shape of sw/.test(a.n)) bands.forEach(function(c){
				if(hit(a.r,c.r)) report(b,a.n+' lies over '+c.n);
			});
			for(var j=i+1;j<items.length;j++){
				var c=items[j];
				if(a.m===c.m||(a.k==='l'&&c.k==='l')) continue;
				if(hit(a.r,c.r)) report(b,a.n+' overlaps '+c.n);
				else if(a.k==='t'&&c.k==='t'&&runTogether(a.r,c.r,u)) report(b,a.n+' runs into '+c.n);
			}
		}
		f.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight',bubbles:true}));
	}
	return out;})`

// TestBrowserNoOverlap: on every beat of every guide figure, at a desktop
// (1280 px) and a phone (390 px) window, no two texts, labels or marks of
// the picture overlap, none is cut off by its edge, no text is wider than
// the box it is drawn in (a token's pill, a flag, a chip, a badge), and no
// message token lies over a band — the rail, a broker lane, a group lane
// (overlapJS says what is measured). Tokens run in the gutter beside the
// lanes, so a token over a band would hide that band's content, and one
// crossing a lane between its two ends is over a lane it is not
// addressed to. Motion is reduced, so every mark stands where the beat
// puts it when it is measured. Nothing is exempt: the layout keeps every
// pair apart (layout.go, share.go).
func TestBrowserNoOverlap(t *testing.T) {
	srv, ids := guidePage(t)
	for _, width := range []int{1280, 390} {
		ctx, checkErrors := browser(t, width, 900)
		run(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
			return err
		}), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`.kf-controls`))
		for _, id := range ids {
			// One evaluation per figure, so that a busy machine does not
			// run one past its timeout.
			if bad := eval[[]string](t, ctx, overlapJS+`('`+id+`')`); len(bad) > 0 {
				t.Errorf("%d px: %s:\n  %s", width, id, strings.Join(bad, "\n  "))
			}
		}
		checkErrors()
	}
}

// TestBrowserNoOverlapLongNames: the same measures on a figure whose
// groups' names are longer than a member row's label column
// (testdata/long-names.yaml: compute-analytics-1, settlement-workers-2):
// a member's label, its partition rows' owner labels and the wire tokens
// that name it are cut to the name's tail ("…alytics-1", names.go), and
// nothing runs into a chip. Whole, the labels ran under the chips, and
// all three members read "compute-an".
func TestBrowserNoOverlapLongNames(t *testing.T) {
	var tr namedTrace
	for _, nt := range testdataTraces(t) {
		if nt.name == "long-names" {
			tr = nt
		}
	}
	if tr.t == nil {
		t.Fatal("no testdata/long-names.yaml")
	}
	srv := testPage(t, mustFigure(t, tr.t, "long"))
	for _, width := range []int{1280, 390} {
		ctx, checkErrors := browser(t, width, 900)
		run(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
			return err
		}), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`.kf-controls`))
		if bad := eval[[]string](t, ctx, overlapJS+`('long')`); len(bad) > 0 {
			t.Errorf("%d px:\n  %s", width, strings.Join(bad, "\n  "))
		}
		checkErrors()
	}
}
