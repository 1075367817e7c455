package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// TraceEvent is one event of a Chrome trace (the Trace Event Format that
// chrome://tracing and Perfetto read): ts and dur in microseconds, ph the
// phase ("X" a complete event with a duration, "B"/"E" its begin and end,
// "M" metadata such as a thread's name).
type TraceEvent struct {
	Name string  `json:"name"`
	Cat  string  `json:"cat"`
	Ph   string  `json:"ph"`
	Pid  int64   `json:"pid"`
	Tid  int64   `json:"tid"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur,omitempty"`
	// Tts and Tdur are the thread's clock: the processor time the thread
	// had, which a busy machine does not inflate by switching it out.
	Tts  float64         `json:"tts,omitempty"`
	Tdur float64         `json:"tdur,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`
	// ID and ID2 tie the events of one asynchronous span together (an
	// Animation's start, its compositing verdict and its end): ID a string
	// or number, ID2 an object such as {"local":"0x1f"}. Kept as written.
	ID  json.RawMessage `json:"id,omitempty"`
	ID2 json.RawMessage `json:"id2,omitempty"`
}

// traceCategories are the categories DevTools' Performance panel records:
// enough to tell script, style, layout and paint apart, cheap enough to
// leave the timings near what they are untraced.
var traceCategories = []string{
	"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline",
	"v8.execute", "blink.user_timing",
}

// InvalidationTracking is the trace category that records why the style
// and layout passes had work: which class or attribute change invalidated
// which elements, through which selector (StyleInvalidatorInvalidationTracking,
// StyleRecalcInvalidationTracking, LayoutInvalidationTracking events). It
// makes a trace slower; pass it to Trace only to find out where a pass's
// work comes from.
const InvalidationTracking = "disabled-by-default-devtools.timeline.invalidationTracking"

// Trace records a Chrome trace of the tab in ctx while do runs, and returns
// its events in the order Chromium sent them. do runs browser actions on
// ctx as any test does. The trace is recorded in memory and delivered when
// do returns, so keep what do does short (a few hundred key presses).
// extra names categories to record besides the usual ones (e.g.
// InvalidationTracking).
func Trace(ctx context.Context, do func() error, extra ...string) ([]TraceEvent, error) {
	// Listen, unlike Events, keeps the order of the two event types:
	// every bucket of data arrives before tracingComplete.
	var mu sync.Mutex
	var raws [][]byte
	complete := make(chan struct{})
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	err := chromedp.Listen(lctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, raw := range ev.Value {
				raws = append(raws, raw)
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(complete)
		}
	})
	if err != nil {
		return nil, err
	}
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: append(traceCategories[:len(traceCategories):len(traceCategories)], extra...), ExcludedCategories: []string{"*"}},
		})
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("starting the trace: %w", err)
	}
	runErr := do()
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{})
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("ending the trace: %w", err)
	}
	select {
	case <-complete:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	stop()
	mu.Lock()
	defer mu.Unlock()
	events := make([]TraceEvent, 0, len(raws))
	for _, raw := range raws {
		var e TraceEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("a trace event: %w", err)
		}
		events = append(events, e)
	}
	return events, runErr
}

// Clock chooses which time Breakdown sums.
type Clock int

const (
	// Wall is the time that passed, as a reader waits for it.
	Wall Clock = iota
	// CPU is the renderer main thread's processor time: on a machine
	// shared with other work, what the page itself cost.
	CPU
)

// Phase is the kind of work the renderer's main thread did, as DevTools'
// summary groups it.
type Phase string

// The phases Breakdown sorts the main thread's time into.
const (
	Script Phase = "script"
	Style  Phase = "style"
	Layout Phase = "layout"
	Paint  Phase = "paint" // pre-paint, paint, layerize and commit
	Other  Phase = "other" // the rest of a task: scheduling, idle work
)

// phaseOf names the phase of a trace event by its name (the names of
// Chromium's devtools.timeline events), or "" for an event whose time
// belongs to whatever encloses it.
func phaseOf(name string) Phase {
	switch name {
	case "EvaluateScript", "FunctionCall", "EventDispatch", "FireAnimationFrame", "TimerFire",
		"v8.execute", "V8.Execute", "v8.compile", "v8.run", "RunMicrotasks", "v8.callFunction":
		return Script
	case "UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "UpdateStyle":
		return Style
	case "Layout", "UpdateLayout", "IntersectionObserverController::computeIntersections":
		return Layout
	case "PrePaint", "Paint", "PaintImage", "Layerize", "UpdateLayer", "UpdateLayerTree",
		"CompositeLayers", "Commit", "PaintSetup":
		return Paint
	case "RunTask", "ThreadControllerImpl::RunTask":
		return Other
	}
	return ""
}

// Breakdown sums the self time of the renderer main thread's events by
// phase, in milliseconds: an event's time less its children's goes to its
// phase, or to its nearest enclosing event's when its own name has none
// (so a layout forced from script counts as layout, not script). within,
// when not empty, keeps only the time inside events of that name (e.g.
// "FireAnimationFrame": the frame callbacks a benchmark times).
func Breakdown(events []TraceEvent, within string, clock Clock) map[Phase]float64 {
	main := map[[2]int64]bool{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), `"CrRendererMain"`) {
			main[[2]int64{e.Pid, e.Tid}] = true
		}
	}
	type span struct {
		start, end float64
		cpu        float64 // thread time, when the event has it
		phase      Phase
		name       string
	}
	byThread := map[[2]int64][]span{}
	open := map[[2]int64][]TraceEvent{}
	for _, e := range events {
		th := [2]int64{e.Pid, e.Tid}
		if !main[th] {
			continue
		}
		switch e.Ph {
		case "X":
			byThread[th] = append(byThread[th], span{e.Ts, e.Ts + e.Dur, e.Tdur, phaseOf(e.Name), e.Name})
		case "B":
			open[th] = append(open[th], e)
		case "E":
			if n := len(open[th]); n > 0 {
				b := open[th][n-1]
				open[th] = open[th][:n-1]
				byThread[th] = append(byThread[th], span{b.Ts, e.Ts, e.Tts - b.Tts, phaseOf(b.Name), b.Name})
			}
		}
	}
	out := map[Phase]float64{}
	for _, spans := range byThread {
		// Parents before children: by start, the longer first.
		sort.SliceStable(spans, func(i, j int) bool {
			if spans[i].start != spans[j].start {
				return spans[i].start < spans[j].start
			}
			return spans[i].end > spans[j].end
		})
		type frame struct {
			span
			phase  Phase // its own, or inherited
			inside bool  // within an event named within
			self   float64
		}
		var stack []*frame
		flush := func(f *frame) {
			if f.inside && f.phase != "" && f.self > 0 {
				out[f.phase] += f.self / 1000
			}
		}
		for _, s := range spans {
			for len(stack) > 0 && stack[len(stack)-1].end <= s.start {
				flush(stack[len(stack)-1])
				stack = stack[:len(stack)-1]
			}
			took := s.end - s.start
			if clock == CPU {
				took = s.cpu
			}
			f := &frame{span: s, phase: s.phase, inside: within == "" || s.name == within, self: took}
			if n := len(stack); n > 0 {
				parent := stack[n-1]
				parent.self -= took
				if f.phase == "" {
					f.phase = parent.phase
				}
				f.inside = f.inside || parent.inside
			}
			if f.phase == "" {
				f.phase = Other
			}
			stack = append(stack, f)
		}
		for len(stack) > 0 {
			flush(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
	}
	return out
}

// FormatBreakdown writes a breakdown as "script 1.20 ms, style 0.80 ms, …"
// in the order of the Phase constants, each divided by per (e.g. the number
// of key presses, for a time per press).
func FormatBreakdown(b map[Phase]float64, per int) string {
	var parts []string
	for _, p := range []Phase{Script, Style, Layout, Paint, Other} {
		parts = append(parts, fmt.Sprintf("%s %.2f ms", p, b[p]/float64(max(per, 1))))
	}
	return strings.Join(parts, ", ")
}

// Frame is one animation frame callback of a trace (a FireAnimationFrame
// event) and what the style and layout passes inside it did. Start and End
// are the trace clock's microseconds; CPU is the thread's processor time
// for the callback, in milliseconds.
type Frame struct {
	Tid        int64
	Start, End float64
	CPU        float64
	Restyled   int // elements restyled (UpdateLayoutTree's elementCount)
	LaidOut    int // layout objects laid out (Layout's beginData.dirtyObjects)
}

// Frames returns the animation frame callbacks of a trace, by start time,
// each with the elements restyled and the layout objects laid out by the
// style and layout passes that ran inside it, on its thread (those a
// callback forces, by reading layout from script).
func Frames(events []TraceEvent) []Frame {
	var frames []Frame
	for _, e := range events {
		if e.Name == "FireAnimationFrame" && e.Ph == "X" {
			frames = append(frames, Frame{Tid: e.Tid, Start: e.Ts, End: e.Ts + e.Dur, CPU: e.Tdur / 1000})
		}
	}
	sort.SliceStable(frames, func(i, j int) bool { return frames[i].Start < frames[j].Start })
	for _, e := range events {
		if e.Name != "UpdateLayoutTree" && e.Name != "Layout" {
			continue
		}
		k := FrameOf(frames, e)
		if k < 0 {
			continue
		}
		var args struct {
			ElementCount int `json:"elementCount"`
			BeginData    struct {
				DirtyObjects int `json:"dirtyObjects"`
			} `json:"beginData"`
		}
		if json.Unmarshal(e.Args, &args) != nil {
			continue
		}
		frames[k].Restyled += args.ElementCount
		frames[k].LaidOut += args.BeginData.DirtyObjects
	}
	return frames
}

// FrameOf returns the index in frames (as Frames returns them) of the
// frame callback that e happened in, on e's thread, or -1 when e happened
// in none.
func FrameOf(frames []Frame, e TraceEvent) int {
	k := sort.Search(len(frames), func(k int) bool { return frames[k].End >= e.Ts }) // the first frame not over by e
	for ; k < len(frames) && frames[k].Start <= e.Ts; k++ {
		if frames[k].Tid == e.Tid && e.Ts <= frames[k].End {
			return k
		}
	}
	return -1
}

// Animation is one animation or transition that ran in a traced page
// (Chromium's "Animation" async span, category devtools.timeline): what it
// animated (Name: a CSS animation's name, the property a transition or a
// Web Animation changes), the element it ran on as DevTools names it
// ("g class='m sw kf-msg kf-down'") and, when Chromium could not run it on
// the compositor thread, why not (Failed: the names of the bits of its
// compositeFailed; empty when it ran there or was never tried).
type Animation struct {
	Name, Node string
	Failed     []string
}

// compositeFailures names the bits of an Animation's compositeFailed, as
// Chromium's CompositorAnimations::FailureReason
// (third_party/blink/renderer/core/animation/compositor_animations.h)
// numbers them.
var compositeFailures = []string{
	"AcceleratedAnimationsDisabled", "EffectSuppressedByDevtools", "InvalidAnimationOrEffect",
	"EffectHasUnsupportedTimingParameters", "EffectHasNonReplaceCompositeMode", "TargetHasInvalidCompositingState",
	"TargetHasIncompatibleAnimations", "TargetHasCSSOffset", "ObsoleteTargetHasMultipleTransformProperties",
	"AnimationAffectsNonCSSProperties", "TransformRelatedPropertyCannotBeAcceleratedOnTarget", "bit 11",
	"FilterRelatedPropertyMayMovePixels", "UnsupportedCSSProperty", "ObsoleteMultipleTransformAnimationsOnSameTarget",
	"MixedKeyframeValueTypes", "TimelineSourceHasInvalidCompositingState", "AnimationHasNoVisibleChange",
	"AffectsImportantProperty", "SVGTargetHasIndependentTransformProperty",
}

// Animations returns the animations a trace saw start, in the order they
// started, each with the reasons Chromium gave for not compositing it.
func Animations(events []TraceEvent) []Animation {
	var out []Animation
	byID := map[string]int{}
	spanID := func(e TraceEvent) string { return string(e.ID) + string(e.ID2) }
	for _, e := range events {
		if e.Name != "Animation" {
			continue
		}
		var args struct {
			Data struct {
				DisplayName     string `json:"displayName"`
				NodeName        string `json:"nodeName"`
				CompositeFailed uint32 `json:"compositeFailed"`
			} `json:"data"`
		}
		if json.Unmarshal(e.Args, &args) != nil {
			continue
		}
		switch e.Ph {
		case "b":
			byID[spanID(e)] = len(out)
			out = append(out, Animation{Name: args.Data.DisplayName, Node: args.Data.NodeName})
		case "n":
			k, ok := byID[spanID(e)]
			if !ok || args.Data.CompositeFailed == 0 {
				continue
			}
			for bit, name := range compositeFailures {
				if args.Data.CompositeFailed&(1<<bit) != 0 && !slices.Contains(out[k].Failed, name) {
					out[k].Failed = append(out[k].Failed, name)
				}
			}
			if rest := args.Data.CompositeFailed >> len(compositeFailures); rest != 0 {
				out[k].Failed = append(out[k].Failed, fmt.Sprintf("bits %#x", rest<<len(compositeFailures)))
			}
		}
	}
	return out
}
