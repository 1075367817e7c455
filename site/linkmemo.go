package site

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
)

// A page's links are checked and rewritten (resolveLinks, then
// checkFragments) from its own parse and a few facts of the rest of the
// site: whether the pages it links to exist, their output files, and for
// a link with a fragment their figures and headings. A build with a
// PageCache keeps, for each page, the facts its last check read and what
// that check found (linkMemo); a later build whose facts are the same
// for a page kept unparsed (the same *Page) checks none of its links
// again: the check would give the same errors and the same destinations,
// which the page's links hold already. At 500 pages this is most of what
// a save spent on links (7.5 ms of processor in resolveLinks and
// checkFragments for 500 pages, for one page's edit).

// linkDep is one fact a page's link check read, by kind: depSource, the
// page at content path key ("ops/acks.md"); depOutput, the output page
// key ("ops/index.html"); depSelf, the page itself (an in-page link);
// depOther, any other target (otherKey: a section's folder or a file the
// site publishes). frag says a link with a fragment names it, so its
// figures and headings count too. facts is what the build found (linkContext.facts).
type linkDep struct {
	kind  byte
	key   string
	frag  bool
	facts linkFacts
}

const (
	depSource byte = 'm'
	depOutput byte = 'h'
	depSelf   byte = 's'
	depOther  byte = 'o'
)

// linkFacts is what a link check read of one linkDep: whether the page
// exists (for depOutput: whether the site has the output page, and
// whether a content page writes it), its output file, and, for a link
// with a fragment, target (targetFacts: its file name, figures and
// headings; for depSelf only its figures).
type linkFacts struct {
	exists, page bool
	out, target  string
}

// addDep adds d to *deps, once per kind and key (frag is or-ed).
func addDep(deps *[]linkDep, d linkDep) {
	if deps == nil {
		return
	}
	for i := range *deps {
		if e := &(*deps)[i]; e.kind == d.kind && e.key == d.key {
			e.frag = e.frag || d.frag
			return
		}
	}
	*deps = append(*deps, d)
}

// linkMemo is the last link check of one page: its output file then, the
// facts it read, and the errors it found (resolveLinks' and
// checkFragments').
type linkMemo struct {
	out  string
	deps []linkDep
	errs sim.ErrorList
}

// linkContext is what one build checks links against, with the facts of
// target pages made once a build.
type linkContext struct {
	byPath, byOut map[string]*Page
	outputs       map[string]bool
	// secByDir maps each section's content folder ("" for the root) to
	// it; static maps each file the site publishes from the content
	// folder to its output path, and staticOut holds those outputs.
	secByDir  map[string]*Section
	static    map[string]string
	staticOut map[string]bool
	figs      map[*Page][]pageFigure
	broken    map[*Page][]pageFigure
	targets   map[*Page]string
}

// facts returns what a link check of pg reads of d in this build.
func (lc *linkContext) facts(pg *Page, d linkDep) linkFacts {
	switch d.kind {
	case depSelf:
		// The page's own headings and file name come with its parse,
		// which a memo is only used with (the same *Page).
		if d.frag {
			return linkFacts{exists: true, target: figureFacts(lc.figs[pg], lc.broken[pg])}
		}
		return linkFacts{exists: true}
	case depOther:
		// What it resolves to, or the message saying why it does not,
		// and for an index page with a fragment, that page's facts.
		out, why := lc.other(d.key)
		f := linkFacts{exists: out != "", out: out, target: why}
		if to := lc.byOut[out]; to != nil && d.frag && path.Base(out) == "index.html" {
			f.page, f.target = true, lc.targetFacts(to)
		}
		return f
	case depSource:
		to := lc.byPath[d.key]
		if to == nil {
			return linkFacts{}
		}
		f := linkFacts{exists: true, page: true, out: to.Out}
		if d.frag {
			f.target = lc.targetFacts(to)
		}
		return f
	default:
		to := lc.byOut[d.key]
		f := linkFacts{exists: lc.outputs[d.key] || lc.staticOut[d.key], page: to != nil}
		if to != nil && d.frag {
			f.target = lc.targetFacts(to)
		}
		return f
	}
}

// targetFacts is everything checkFragments reads of a page a fragment
// names: its file name (in messages), whether its text was read, its
// figures (ids, last beats, knobs), whether one of its fences is broken,
// and its headings' ids.
// Made once a build per page.
func (lc *linkContext) targetFacts(to *Page) string {
	if f, ok := lc.targets[to]; ok {
		return f
	}
	hasHeadingID(to, "") // gathers to.headingIDs
	ids := make([]string, 0, len(to.headingIDs))
	for id := range to.headingIDs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	f := to.File + "\x00" + to.unread + "\x00" + figureFacts(lc.figs[to], lc.broken[to]) + "\x00" + strings.Join(ids, "\x00")
	if lc.targets == nil {
		lc.targets = map[*Page]string{}
	}
	lc.targets[to] = f
	return f
}

// figureFacts is what checkFragments reads of a page's figures, those
// that built and those that did not.
func figureFacts(figs, broken []pageFigure) string {
	var b strings.Builder
	for _, f := range broken {
		b.WriteString("\x03" + f.id + "\x00" + f.full)
	}
	for _, f := range figs {
		b.WriteString("\x01" + f.id + "\x00" + f.full + "\x00" + strconv.Itoa(f.last) + "\x00" + strconv.Itoa(f.def))
		for _, l := range f.lasts {
			b.WriteString("\x00" + strconv.Itoa(l))
		}
		for _, k := range f.knobs {
			b.WriteString("\x02" + k.Path)
			for _, v := range k.Values {
				b.WriteString("\x00" + v)
			}
		}
	}
	return b.String()
}

// checkPageLinks checks and rewrites the links of every page (resolveLinks,
// then checkFragments) and returns the errors, in page order. With memo
// (a PageCache's, nil without one), a page whose last check read the
// same facts as this build gives is not checked again (see linkMemo);
// every page checked is recorded in memo, which afterwards holds the
// pages given alone. It also returns how many pages it checked.
func checkPageLinks(pages []*Page, lc *linkContext, memo map[*Page]*linkMemo) (sim.ErrorList, int) {
	var errs sim.ErrorList
	checked := 0
	for _, pg := range pages {
		if m := memo[pg]; m != nil && m.valid(pg, lc) {
			errs = append(errs, m.errs...)
			continue
		}
		checked++
		pg.linkChecks++ // the page's PageCache key hashes its links again
		var deps *[]linkDep
		if memo != nil {
			delete(memo, pg) // the check below rewrites its links
			deps = new([]linkDep)
		}
		frags, perrs := resolveLinks(pg, lc, deps)
		perrs = append(perrs, checkFragments(frags, lc.figs, lc.broken)...)
		errs = append(errs, perrs...)
		if memo != nil {
			for i := range *deps {
				d := &(*deps)[i]
				d.facts = lc.facts(pg, *d)
			}
			memo[pg] = &linkMemo{out: pg.Out, deps: *deps, errs: perrs}
		}
	}
	if memo != nil {
		keep := make(map[*Page]bool, len(pages))
		for _, pg := range pages {
			keep[pg] = true
		}
		for pg := range memo {
			if !keep[pg] {
				delete(memo, pg)
			}
		}
	}
	return errs, checked
}

// valid says whether m, the last check of pg, read the facts this build
// gives.
func (m *linkMemo) valid(pg *Page, lc *linkContext) bool {
	if m.out != pg.Out {
		return false
	}
	for _, d := range m.deps {
		if lc.facts(pg, d) != d.facts {
			return false
		}
	}
	return true
}
