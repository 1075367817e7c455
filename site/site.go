package site

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/svganim"
	"github.com/kafkaflow/kflowgen/templates"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
)

// Options configure Generate and Build.
type Options struct {
	// Content holds the guide's pages (*.md, any depth). Required.
	Content fs.FS
	// ContentName prefixes page paths in error messages, e.g. "content"
	// gives "content/acks.md:12:3: …". Use the folder as the user named it
	// (never an absolute path the user did not type).
	ContentName string
	// Templates holds layout.html, index.html and the assets (*.css,
	// *.js). Nil means the embedded templates.FS.
	Templates fs.FS
	// TemplatesName names the templates folder in error messages, as
	// ContentName does the content folder: "templates" gives
	// "templates/layout.html:3:1: …" ("templates" when empty).
	TemplatesName string
	// Cache, when set, keeps scenario results between builds.
	Cache Cache
	// Pages, when set, keeps the rendered pages between builds, so that
	// a build renders only the pages whose inputs changed (PageCache).
	Pages *PageCache
	// KeepRuns keeps, in each FigureStat.Run, the scenarios and traces the
	// build computed, for readers such as the benchmark. Without it a
	// figure's traces are dropped once it is drawn: they are most of a
	// build's memory (226 MB of 571 MB live at 1,000 pages), and only the
	// markup is written.
	KeepRuns bool
	// EngineVersion is mixed into every cache key. A cache that outlives
	// the process must set it to something that changes with the engine
	// and renderer; an in-process cache may leave it empty.
	EngineVersion string
	// DeferVariants, with a Cache and without KeepRuns, draws only the
	// default combination of each figure with knobs that the build
	// computes (its page markup is complete: the other combinations are
	// scripts of their own): their scripts are left to Site.DrawPending,
	// listed in Site.Pending meanwhile, and the figures go into the Cache
	// only once drawn. kflowgen serve publishes a save's pages first and
	// draws the rest after.
	DeferVariants bool
	// Output is the folder the site is to be written to, as the user
	// named it ("" for none; Build sets it to its out). A symbolic link of
	// Content through which the walk reaches that folder is an error at
	// the link: the previous build would be published inside the new one,
	// one level deeper with each build.
	Output string
	// ContentDir is the operating system's path of the folder Content
	// reads ("" when Content is not one, as for the built-in guide; Build
	// sets it to its contentDir). With Output, it lets the walk refuse a
	// symbolic link that points into the output folder even when its
	// target is not written yet, as on the first build.
	ContentDir string
}

// Site is a generated site held in memory: every output file, plus what
// was built, for tests and the benchmark.
type Site struct {
	// Files holds every output file, sorted by Path.
	Files []File
	// Pages are the content pages in site order: the root section's,
	// then each section's in turn (index pages excluded).
	Pages []*Page
	// Sections are the site's sections in order, the root section first.
	Sections []*Section
	// Figures describes every figure in page order.
	Figures []FigureStat
	// Static lists the output paths of the files published from the
	// content folder as they are (images and the like: staticFiles), in
	// content path order; each is in Files.
	Static []string
	// Pending lists the variant scripts not drawn yet, sorted
	// (Options.DeferVariants): each is a FigureStat's variant, and joins
	// Files once DrawPending has drawn it.
	Pending []string
	// Warnings are problems that leave the site working but not as its
	// author meant (a layout that never loads the stepper), positioned
	// like errors; the build writes the site anyway.
	Warnings sim.ErrorList

	// draws are the figures DrawPending finishes; cache the build's.
	draws []*pendingDraw
	cache Cache
}

// File is one output file; Path is slash-separated and relative to the
// output folder.
type File struct {
	Path string
	Data []byte
}

// FigureStat describes one built figure.
type FigureStat struct {
	// Page is the page's output file ("acks.html"); ID the figure's DOM id.
	Page, ID string
	// Beats is the number of beats shown (beat 0 included; of the longer
	// run of a side-by-side figure); Records the number of records the
	// scenario's producer created; Bytes the size of the figure's markup.
	Beats, Records, Bytes int
	// Frames is the frames drawn, as MaxFrames counts them: each run's
	// beats, beat 0 included, summed over both runs of a figure with
	// compare: (fence.Work.Frames).
	Frames int
	// Run is what the build computed for the fence: its scenarios, their
	// traces and the markup (Run.HTML), for readers such as the benchmark
	// that would otherwise compute them again. It is nil unless
	// Options.KeepRuns is set, and for a figure whose markup came from the
	// Cache, which keeps no traces.
	Run *fence.Result
	// Variants are the output paths of the figure's variant scripts
	// (one per knob combination but the default, fence.VariantFile under
	// AssetDir), which only Page loads; none for a figure without knobs.
	// VariantsKey, in a build with a Cache, is the fence's CacheKey: it
	// names everything the scripts are made of (equal keys, equal
	// scripts), so that a reader can tell them changed before they are
	// drawn (Options.DeferVariants); "" without a Cache.
	Variants    []string
	VariantsKey string
}

// File returns the output file at path p, or nil.
func (s *Site) File(p string) []byte {
	i, ok := slices.BinarySearchFunc(s.Files, p, func(f File, p string) int { return cmp.Compare(f.Path, p) })
	if !ok {
		return nil
	}
	return s.Files[i].Data
}

// AssetDir is the output folder (relative to the site root) that receives
// the shared assets.
const AssetDir = "assets"

// homeSource is the content page whose body becomes the top of index.html
// instead of a page of its own.
const homeSource = "index.md"

// Generate builds the site in memory. Problems with the user's input come
// back as a sim.ErrorList (every one found, sorted by file, line, column);
// other failures (unreadable files, broken templates) as plain errors.
func Generate(o Options) (*Site, error) {
	s, err := generate(o)
	return s, positionTemplate(err, o.TemplatesName)
}

func generate(o Options) (*Site, error) {
	if o.Content == nil {
		return nil, errors.New("no content to build")
	}
	tfs := o.Templates
	if tfs == nil {
		tfs = templates.FS
	}
	tmpl, err := template.ParseFS(tfs, "layout.html", "index.html")
	if err != nil {
		return nil, &templateError{err}
	}
	var out *outFolder
	if o.Output != "" {
		out = &outFolder{name: o.Output, abs: resolvePath(o.Output), contentDir: o.ContentDir}
		if info, err := os.Stat(o.Output); err == nil && info.IsDir() {
			out.info = info
		}
	}
	paths, staticPaths, err := readPages(o.Content, o.ContentName, out)
	if _, positioned := err.(sim.ErrorList); positioned {
		return nil, err
	} else if err != nil {
		// The walk stops only when the content folder itself cannot
		// be read (removed while serve runs, say): name it.
		name := o.ContentName
		if name == "" {
			name = "."
		}
		return nil, fmt.Errorf("cannot read the content folder %s: %s", sim.EscapeName(name), readReason(err))
	}
	if len(paths) == 0 {
		name := o.ContentName
		if name == "" {
			name = "the content folder"
		}
		return nil, fmt.Errorf("%s holds no pages (*.md files)", name)
	}

	if len(paths) > MaxPages {
		file := paths[MaxPages]
		if o.ContentName != "" {
			file = path.Join(o.ContentName, file)
		}
		return nil, sim.ErrorList{{File: file, Pos: sim.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf("the site has %d pages (*.md files): Kafka Flow allows at most %d, and this is page %d in path order", len(paths), MaxPages, MaxPages+1)}}
	}

	if o.Pages != nil {
		o.Pages.begin()
	}
	// Pages are read and parsed on GOMAXPROCS workers (goldmark's parser
	// and renderer are safe for concurrent use; each parse has its own
	// context) and gathered in path order.
	md := newMarkdown()
	type parsedPage struct {
		pg   *Page
		errs sim.ErrorList
		gone bool // deleted since the walk listed it
	}
	read := make([]parsedPage, len(paths))
	parallel(len(paths), func(i int) {
		p := paths[i]
		file := p
		if o.ContentName != "" {
			file = path.Join(o.ContentName, p)
		}
		src, err := readPage(o.Content, p, file)
		var big *pageSizeError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Listed by the walk, gone before it was read (an editor
			// saving by rename, a page deleted while serve rebuilds):
			// the page was deleted, as the next listing will say.
			read[i].gone = true
		case errors.As(err, &big):
			// Left unread; it stays a page, so links to it do not fail too.
			read[i].errs = sim.ErrorList{{File: file, Pos: sim.Pos{Line: 1, Col: 1}, Msg: big.msg}}
			read[i].pg = &Page{Path: p, File: file, Slug: Slug(p), doc: ast.NewDocument()}
		case err != nil:
			// Reported at the page, with every other one that cannot be
			// read; it stays a page, so links to it do not fail too.
			read[i].errs = sim.ErrorList{{File: file, Pos: sim.Pos{Line: 1, Col: 1}, Msg: "cannot read this page: " + sim.EscapeName(readReason(err))}}
			read[i].pg = &Page{Path: p, File: file, Slug: Slug(p), doc: ast.NewDocument()}
		default:
			if o.Pages != nil {
				if pg, errs, ok := o.Pages.getParsed(p, file, src); ok {
					read[i].pg, read[i].errs = pg, errs
					return
				}
			}
			read[i].pg, read[i].errs = parsePage(md, p, file, src)
			if o.Pages != nil {
				o.Pages.putParsed(p, file, src, read[i].pg, read[i].errs)
			}
		}
	})
	kept := paths[:0:0]
	for i, p := range paths {
		if !read[i].gone {
			read[len(kept)] = read[i]
			kept = append(kept, p)
		}
	}
	paths, read = kept, read[:len(kept)]
	if len(paths) == 0 {
		name := o.ContentName
		if name == "" {
			name = "the content folder"
		}
		return nil, fmt.Errorf("%s holds no pages (*.md files)", name)
	}
	var errs sim.ErrorList
	parsed := make([]*Page, len(paths))
	for i := range paths {
		parsed[i] = read[i].pg
		parsed[i].Out = "" // placePages sets it again; a page kept from the last build had one
		errs = append(errs, read[i].errs...)
	}
	sections, perrs := placePages(parsed)
	errs = append(errs, perrs...)
	root := sections[0]
	home := root.Index
	siteTitle := "Kafka Flow"
	if home != nil {
		siteTitle = home.Title
		root.Summary = home.Summary
	}
	root.Title = siteTitle

	// pages are the content pages in site order; all adds the index
	// pages (the home page first), and last the pages no section holds
	// (too deep), whose figures and links are still checked.
	var pages, all []*Page
	for _, sec := range sections {
		if sec.Index != nil {
			all = append(all, sec.Index)
		}
		all = append(all, sec.Pages...)
		pages = append(pages, sec.Pages...)
	}
	placed := map[*Page]bool{}
	for _, pg := range all {
		placed[pg] = true
	}
	for _, pg := range parsed {
		if pg.Out != "" && !placed[pg] {
			all = append(all, pg)
		}
	}
	byPath := map[string]*Page{}
	byOut := map[string]*Page{}
	outputs := map[string]bool{}
	for _, pg := range all {
		byPath[pg.Path], byOut[pg.Out] = pg, pg
		outputs[pg.Out] = true
		for _, f := range pg.figures {
			f.ToRoot = toRoot(pg.Out)
		}
	}
	for _, sec := range sections {
		outputs[sec.Out()] = true // from its index page or, without one, a list of its pages
	}
	// The content folder's other files, published as they are, beside
	// the pages that link to them.
	statics, static, staticOuts, serrs := staticFiles(o.Content, o.ContentName, staticPaths, outputs)
	errs = append(errs, serrs...)
	errs = append(errs, computeFigures(all, &o)...)
	figs := make(map[*Page][]pageFigure, len(all))
	broken := map[*Page][]pageFigure{} // fences that did not parse, by their id as written
	for _, pg := range all {
		for _, f := range pg.figures {
			if r := f.result; r.ScenarioID != "" {
				figs[pg] = append(figs[pg], pageFigure{id: r.ScenarioID, full: f.domID(pg.Slug, r.ScenarioID), last: r.Beats - 1, knobs: r.Knobs, lasts: r.Lasts, def: r.DefaultCombination})
			} else {
				b := pageFigure{id: r.FenceID, last: -1}
				if b.id != "" {
					b.full = FigureID(pg.Slug, b.id)
				}
				broken[pg] = append(broken[pg], b)
			}
		}
	}
	// Links are checked once the figures are known (a fragment may name
	// one); a page's check reads only its own parse and facts of the
	// pages it links to, so the pages kept from the last build whose
	// facts are the same are not checked again (checkPageLinks).
	var memo map[*Page]*linkMemo
	if o.Pages != nil {
		memo = o.Pages.linkMemos()
	}
	secByDir := make(map[string]*Section, len(sections))
	for _, sec := range sections {
		secByDir[sec.Dir] = sec
	}
	lc := &linkContext{byPath: byPath, byOut: byOut, outputs: outputs, figs: figs, broken: broken, secByDir: secByDir, static: static, staticOut: staticOuts}
	lerrs, linked := checkPageLinks(all, lc, memo)
	errs = append(errs, lerrs...)
	if o.Pages != nil {
		o.Pages.Linked = linked
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}

	s := &Site{Pages: pages, Sections: sections}
	s.Files = append(s.Files, statics...)
	for _, f := range statics {
		s.Static = append(s.Static, f.Path)
	}
	for _, pg := range all {
		for _, f := range pg.figures {
			r := f.result
			id := f.domID(pg.Slug, r.ScenarioID)
			st := FigureStat{Page: pg.Out, ID: id,
				Beats: r.Beats, Frames: r.Work.Frames, Records: r.Records, Bytes: len(f.HTML), Run: r.run}
			// A figure's other knob combinations, each loaded when a
			// reader first picks it.
			for i, a := range r.Assets {
				if a != nil {
					p := AssetDir + "/" + fence.VariantFile(id, i)
					s.Files = append(s.Files, File{Path: p, Data: a})
					st.Variants = append(st.Variants, p)
				}
			}
			if pd := r.pending; pd != nil {
				// Drawn later (DrawPending): every combination but the
				// default, as r.Assets will hold them.
				for i := range pd.variants {
					if i != pd.def {
						p := AssetDir + "/" + fence.VariantFile(id, i)
						s.Pending = append(s.Pending, p)
						st.Variants = append(st.Variants, p)
					}
				}
				if !slices.Contains(s.draws, pd) { // one per body, however many pages show it
					s.draws = append(s.draws, pd)
				}
			}
			if len(st.Variants) > 0 && o.Cache != nil {
				st.VariantsKey = f.cacheKey(o.EngineVersion, pg.Slug)
			}
			s.Figures = append(s.Figures, st)
		}
	}

	nav := siteNav{sections: sections, siteTitle: siteTitle}
	// The layout's "nav-item" template, when it has one, draws one entry
	// of a section's navigation; each section's entries are drawn with it
	// once a build instead of once per page (navHTML).
	navItem := tmpl.Lookup(navItemTemplate)
	// Every page of every section, and each folder section's index page,
	// is rendered on GOMAXPROCS workers (a template may be executed in
	// parallel), each into its own slot; the first error in site order is
	// the one returned.
	var tmplDigest []byte
	if o.Pages != nil {
		if tmplDigest, err = templatesDigest(tfs); err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
	}
	var jobs []renderJob
	var navs []*sectionNav
	var rootNav *sectionNav // the root section's, which the home page and the playground list
	for _, sec := range sections {
		if sec != root {
			jobs = append(jobs, nav.indexJob(sec))
		}
		if len(sec.Pages) == 0 {
			continue
		}
		sn := nav.shared(sec)
		if sec == root {
			rootNav = sn
		}
		if o.Pages != nil {
			// A section's entries drawn by an earlier build with the
			// same layout and the same navigation are taken as they are.
			if h, ok := o.Pages.getNav(navKey(tmplDigest, sn)); ok {
				sn.once.Do(func() { sn.html = h })
			}
			navs = append(navs, sn)
		}
		for i := range sec.Pages {
			jobs = append(jobs, nav.pageJob(sec, sn, i))
		}
	}
	// Without a Cache or a PageCache, nothing reads a figure's markup once
	// its page is rendered (the results are this build's own, and
	// FigureStat.Bytes is taken above).
	release := o.Cache == nil && o.Pages == nil && !o.KeepRuns
	splice := printsContentOnly(tmpl, "layout.html")
	rendered := make([]File, len(jobs))
	rerrs := make([]error, len(jobs))
	parallel(len(jobs), func(i int) {
		j := &jobs[i]
		var key string
		if o.Pages != nil {
			key = pageKey(tmplDigest, j)
			if b, ok := o.Pages.get(key); ok {
				o.Pages.put(key, b)
				rendered[i] = File{Path: j.out, Data: b}
				return
			}
		}
		if err := j.fillNav(navItem); err != nil {
			rerrs[i] = err
			return
		}
		if j.page != nil {
			body, err := renderBody(md, j.page)
			if err != nil {
				rerrs[i] = err
				return
			}
			j.data.Content = body
		}
		data, err := executeLayout(tmpl, "layout.html", j.data, splice)
		if err != nil {
			rerrs[i] = err
			return
		}
		rendered[i] = File{Path: j.out, Data: data}
		if o.Pages != nil && key != "" {
			o.Pages.put(key, data)
		}
		if release && j.page != nil {
			// The page holds its figures' markup now: a cold build lets
			// go of theirs (an eighth of its memory at 1,000 pages).
			for _, f := range j.page.figures {
				f.HTML = nil
				if f.result != nil {
					f.result.HTML = nil
				}
			}
		}
	})
	for _, err := range rerrs {
		if err != nil {
			return nil, err
		}
	}
	for _, sn := range navs {
		if sn.html != nil {
			o.Pages.putNav(navKey(tmplDigest, sn), sn.html)
		}
	}
	s.Files = append(s.Files, rendered...)

	// The home page is the root section's index page: the top of index.md,
	// the root section's pages, and the other sections.
	hd := nav.base("index.html")
	hd.Title, hd.Nav, hd.Sections = siteTitle, nav.pages(root, "index.html", -1), nav.list("index.html", root, true)
	hd.Section = nav.sectionTitle(root)
	if home != nil {
		hd.Summary, hd.HasFigures, hd.HasKnobs = home.Summary, len(home.figures) > 0, hasKnobs(home)
	}
	switch {
	case len(hd.Nav) > 0:
		hd.Next = &hd.Nav[0]
	case len(sections) > 1:
		hd.Next = &NavItem{Href: navHref("index.html", sections[1].Out()), Title: sections[1].Title}
	}
	index, err := renderWhole(o.Pages, tmplDigest, tmpl, "index.html", hd, home, rootNav, func(d *layoutData) error {
		var err error
		if d.NavItems, err = navItems(navItem, d.Nav); err != nil {
			return err
		}
		if home != nil {
			d.Content, err = renderBody(md, home)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Files = append(s.Files, File{Path: "index.html", Data: index})

	// The playground: one page running fences with the engine compiled
	// to WebAssembly (package playground), in every site, at its root.
	reference := ""
	if byOut["reference.html"] != nil {
		reference = "reference.html"
	}
	pd := nav.base(playground.PageFile)
	pd.Title = "Playground"
	pd.Summary = "Edit a scenario and run it in the browser with the engine the guide is built with."
	pd.Content, pd.HasFigures, pd.HasKnobs, pd.Playground = playground.Content(playground.Sample, reference), true, true, true
	pd.Nav, pd.Sections, pd.Section = nav.pages(root, playground.PageFile, -1), nav.list(playground.PageFile, nil, false), nav.sectionTitle(root)
	play, err := renderWhole(o.Pages, tmplDigest, tmpl, "layout.html", pd, nil, rootNav, func(d *layoutData) error {
		var err error
		d.NavItems, err = navItems(navItem, d.Nav)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Files = append(s.Files, File{Path: playground.PageFile, Data: play})
	if o.Pages != nil {
		o.Pages.commit()
	}
	for _, a := range playground.Assets() {
		s.Files = append(s.Files, File{Path: AssetDir + "/" + a.Name, Data: a.Data})
	}

	assets, err := readAssets(tfs, o.Pages)
	if err != nil {
		return nil, err
	}
	s.Files = append(s.Files, assets...)
	// kf-words.js is generated from the renderer's own tables, so the
	// phrases a figure's titles are coded against can never drift from it.
	s.Files = append(s.Files, File{Path: AssetDir + "/" + svganim.WordsFile, Data: svganim.WordsJS()})
	s.Files = append(s.Files, File{Path: AssetDir + "/" + svganim.KnobsFile, Data: svganim.KnobsJS()})
	s.Files = append(s.Files, File{Path: AssetDir + "/" + svganim.LinkFile, Data: svganim.LinkJS()})
	// The stepper lives beside the patch encoder it decodes; a templates
	// folder may still replace it with its own stepper.js.
	if !slices.ContainsFunc(assets, func(f File) bool { return f.Path == AssetDir+"/"+svganim.StepperFile }) {
		s.Files = append(s.Files, File{Path: AssetDir + "/" + svganim.StepperFile, Data: svganim.StepperJS()})
	}
	errs, s.Warnings = checkTemplates(tfs, tmpl, s.Files, o.TemplatesName, len(s.Figures) > 0)
	if len(errs) > 0 {
		return nil, errs
	}
	slices.SortFunc(s.Files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
	slices.Sort(s.Pending)
	s.cache = o.Cache
	return s, nil
}

// navItemBytes is about what one entry of a page's navigation, or of its
// table of contents, takes in layout.html (the guide's are about 100
// bytes), for sizing buffers.
const navItemBytes = 128

// layoutBytes is about what layout.html takes besides a page's content,
// navigation and table of contents (the guide's pages: under 1.2 KB).
const layoutBytes = 2 << 10

// pageBuffer is what a page is rendered into: an io.Writer appending to
// a slice made at the page's expected size. A bytes.Buffer grown to that
// size zeroes its whole capacity first; a slice made fresh from the
// system's memory is not zeroed again (the system's pages are), so its
// room past the page's end costs no page faults.
type pageBuffer []byte

// Write appends p.
func (b *pageBuffer) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

// trim returns the page, kept at its length when the buffer holds much
// more: a grown buffer's spare capacity was a third of a big site's
// memory. Spare room of up to maxSpare is kept.
func (b pageBuffer) trim() []byte {
	if spare := cap(b) - len(b); spare > len(b)/8 && spare > maxSpare {
		return bytes.Clone(b)
	}
	return b
}

// maxSpare is the spare capacity a page's buffer may keep (pageBuffer.trim).
const maxSpare = 8 << 10

// layoutData is what layout.html and index.html see.
type layoutData struct {
	// SiteTitle is the home page's title ("Kafka Flow" without index.md).
	SiteTitle string
	// Title and Summary are the page's front matter (a section's index
	// page: the section's).
	Title, Summary string
	// Content is the page's rendered Markdown with its figures.
	Content template.HTML
	// Headings is the page's table of contents (level-2 headings).
	Headings []Heading
	// Nav lists the pages of the page's section in order (the root
	// section's on the home page and the playground); Prev and Next
	// point into it, so they stay within the section.
	Nav        []NavItem
	Prev, Next *NavItem
	// NavItems is Nav drawn by the layout's "nav-item" template, entry
	// after entry (empty when the layout has no such template, whose
	// layout ranges over Nav itself).
	NavItems template.HTML
	// Sections lists every section, the root section first, when the
	// site has more than one (nil otherwise: a site of one section shows
	// its pages alone, as before sections); Section is then the title of
	// the page's section, which heads Nav.
	Sections []NavSection
	Section  string
	// Listing says the page is a folder section's index page, which
	// lists Nav, with summaries, under its text.
	Listing bool
	// HasFigures says whether the page needs stepper.js, HasKnobs
	// whether it also needs kf-knobs.css (a figure with knobs; the
	// playground, whose fence may have them).
	HasFigures, HasKnobs bool
	// Assets is the relative path prefix of the shared assets ("assets/",
	// "../assets/" one folder down); Home the relative link to the home
	// page; PlaygroundHref the relative link to the playground page.
	Assets, Home, PlaygroundHref string
	// Playground says the page is the playground, which loads its
	// scripts (playground.Assets) and no other page does.
	Playground bool
}

// NavItem is one page in its section's table of contents.
type NavItem struct {
	// Href is the page's link, relative to the page being rendered.
	Href, Title, Summary string
	// Current marks the page being rendered.
	Current bool
}

// NavSection is one section in the site's list of sections.
type NavSection struct {
	// Href is the section's index page, relative to the page being
	// rendered.
	Href, Title, Summary string
	// Current is the section's aria-current value: "page" on its index
	// page, "true" on one of its pages, "" elsewhere.
	Current string
}

// siteNav makes the navigation a page shows: its section's pages, the
// list of sections, and the links to the site's root.
type siteNav struct {
	sections  []*Section
	siteTitle string
}

// base is the layout data every page written at out starts from.
func (n siteNav) base(out string) layoutData {
	up := toRoot(out)
	return layoutData{SiteTitle: n.siteTitle, Assets: up + AssetDir + "/", Home: up + "index.html", PlaygroundHref: up + playground.PageFile}
}

// pages lists sec's pages as links from the page at out; current is the
// index of the page being rendered, or -1.
func (n siteNav) pages(sec *Section, out string, current int) []NavItem {
	items := make([]NavItem, len(sec.Pages))
	for i, p := range sec.Pages {
		items[i] = NavItem{Href: navHref(out, p.Out), Title: p.Title, Summary: p.Summary, Current: i == current}
	}
	return items
}

// list lists the sections as links from the page at out, cur being the
// page's section (nil for none) and onIndex saying the page is cur's
// index page; nil when the site has one section.
func (n siteNav) list(out string, cur *Section, onIndex bool) []NavSection {
	if len(n.sections) < 2 {
		return nil
	}
	items := make([]NavSection, len(n.sections))
	for i, s := range n.sections {
		items[i] = NavSection{Href: navHref(out, s.Out()), Title: s.Title, Summary: s.Summary}
		switch {
		case s == cur && onIndex:
			items[i].Current = "page"
		case s == cur:
			items[i].Current = "true"
		}
	}
	return items
}

// sectionTitle is what heads sec's pages in the navigation: its title
// when the site has several sections, "" when it has one.
func (n siteNav) sectionTitle(sec *Section) string {
	if len(n.sections) < 2 {
		return ""
	}
	return sec.Title
}

// renderJob is one page to render with layout.html: its output file, its
// layout data (without Content) and the content page whose Markdown
// becomes Content (nil for a generated section index). A page of a
// section leaves its data's navigation to fill, from shared (its
// section's) at pos, once the page cache has missed: the key needs only
// shared's digest, so a build that renders few pages makes no page's
// navigation.
type renderJob struct {
	out    string
	data   layoutData
	page   *Page
	shared *sectionNav
	pos    int
}

// sectionNav is the navigation every page of one section shows, made once
// a build: the section's pages as linked from its folder, none current,
// and the list of sections with this one current; digest hashes both.
type sectionNav struct {
	pages  []NavItem
	list   []NavSection
	digest []byte

	// html is pages drawn with the "nav-item" template, made by the first
	// page of the section that is rendered (none, when every page came
	// from the PageCache).
	once sync.Once
	html *navHTML
	err  error
}

// shared makes sec's sectionNav (sec has at least one page).
func (n siteNav) shared(sec *Section) *sectionNav {
	from := sec.Pages[0].Out // every page of sec is in one folder
	sn := &sectionNav{pages: n.pages(sec, from, -1), list: n.list(from, sec, false)}
	// Every field of both (a field added to NavItem or NavSection must
	// be added here, or the page cache would not see it change).
	h := sha256.New()
	for _, p := range sn.pages {
		writeField(h, p.Href)
		writeField(h, p.Title)
		writeField(h, p.Summary)
	}
	writeField(h, "\x00sections")
	for _, s := range sn.list {
		writeField(h, s.Href)
		writeField(h, s.Title)
		writeField(h, s.Summary)
		writeField(h, s.Current)
	}
	sn.digest = h.Sum(nil)
	return sn
}

// pageJob is page i of sec, whose shared navigation is sn.
func (n siteNav) pageJob(sec *Section, sn *sectionNav, i int) renderJob {
	pg := sec.Pages[i]
	d := n.base(pg.Out)
	d.Title, d.Summary, d.Headings, d.HasFigures, d.HasKnobs = pg.Title, pg.Summary, pg.Headings, len(pg.figures) > 0, hasKnobs(pg)
	d.Section = n.sectionTitle(sec)
	return renderJob{out: pg.Out, data: d, page: pg, shared: sn, pos: i}
}

// fillNav gives the job's data its navigation: its section's pages with
// this one current, prev/next within the section, the sections; and, with
// the layout's "nav-item" template (nil without one), the pages drawn.
func (j *renderJob) fillNav(item *template.Template) error {
	d, i := &j.data, j.pos
	if j.shared == nil {
		var err error
		d.NavItems, err = navItems(item, d.Nav)
		return err
	}
	d.Nav = slices.Clone(j.shared.pages)
	d.Nav[i].Current = true
	d.Sections = j.shared.list
	if i > 0 {
		d.Prev = &d.Nav[i-1]
	}
	if i+1 < len(d.Nav) {
		d.Next = &d.Nav[i+1]
	}
	if item == nil {
		return nil
	}
	sn := j.shared
	sn.once.Do(func() { sn.html, sn.err = renderNav(item, sn.pages) })
	if sn.err != nil {
		return sn.err
	}
	d.NavItems = sn.html.page(i)
	return nil
}

// navItemTemplate names the template, defined in layout.html, that draws
// one entry (a NavItem) of a page's navigation.
const navItemTemplate = "nav-item"

// navHTML is a section's navigation drawn once for all its pages: every
// page of a section shows the same entries, linked from the same folder,
// but for which one is current. all holds every entry drawn as it shows
// on the other pages, at[i] being where entry i starts in it (at[n] the
// end), and current[i] entry i drawn as it shows on its own page.
type navHTML struct {
	all     []byte
	at      []int
	current [][]byte
}

// renderNav draws each of items twice with the "nav-item" template t:
// not current, and current.
func renderNav(t *template.Template, items []NavItem) (*navHTML, error) {
	n := &navHTML{at: make([]int, len(items)+1), current: make([][]byte, len(items))}
	var buf bytes.Buffer
	for i, it := range items {
		n.at[i] = len(n.all)
		for _, cur := range []bool{false, true} {
			it.Current = cur
			buf.Reset()
			if err := t.Execute(&buf, it); err != nil {
				return nil, &templateError{err}
			}
			if cur {
				n.current[i] = bytes.Clone(buf.Bytes())
			} else {
				n.all = append(n.all, buf.Bytes()...)
			}
		}
	}
	n.at[len(items)] = len(n.all)
	return n, nil
}

// page is the navigation as entry i's page shows it: the others as they
// are, entry i current.
func (n *navHTML) page(i int) template.HTML {
	var b strings.Builder
	b.Grow(len(n.all) + len(n.current[i]))
	b.Write(n.all[:n.at[i]])
	b.Write(n.current[i])
	b.Write(n.all[n.at[i+1]:])
	return template.HTML(b.String())
}

// navItems draws items, as they are, with the "nav-item" template t;
// "" without one.
func navItems(t *template.Template, items []NavItem) (template.HTML, error) {
	if t == nil {
		return "", nil
	}
	var buf bytes.Buffer
	for _, it := range items {
		if err := t.Execute(&buf, it); err != nil {
			return "", &templateError{err}
		}
	}
	return template.HTML(buf.String()), nil
}

// indexJob is the index page of a folder section: its index.md's text,
// if it has one, over the list of its pages.
func (n siteNav) indexJob(sec *Section) renderJob {
	out := sec.Out()
	d := n.base(out)
	d.Title, d.Summary, d.Listing = sec.Title, sec.Summary, true
	d.Nav, d.Sections, d.Section = n.pages(sec, out, -1), n.list(out, sec, true), n.sectionTitle(sec)
	if len(d.Nav) > 0 {
		d.Next = &d.Nav[0]
	}
	if pg := sec.Index; pg != nil {
		d.Headings, d.HasFigures, d.HasKnobs = pg.Headings, len(pg.figures) > 0, hasKnobs(pg)
	}
	return renderJob{out: out, data: d, page: sec.Index}
}

// toRoot is the relative path from the output file out to the site's
// root: "" at the root, "../" one folder down.
func toRoot(out string) string { return strings.Repeat("../", strings.Count(out, "/")) }

// renderBody renders a page's Markdown (its figures already computed).
func renderBody(md goldmark.Markdown, pg *Page) (template.HTML, error) {
	// Sized for the page's text and figures, so that a page of big
	// figures is not copied and doubled as its buffer grows.
	n := len(pg.src)
	for _, f := range pg.figures {
		n += len(f.HTML)
	}
	var buf textWriter
	buf.Grow(n + n/8)
	if err := md.Renderer().Render(&buf, pg.src, pg.doc); err != nil {
		return "", fmt.Errorf("%s: rendering: %w", pg.File, err)
	}
	return template.HTML(buf.String()), nil
}

// readAssets copies every *.css, *.js and *.svg file at the top of the templates
// folder into AssetDir, except svganim.WordsFile, which Generate writes
// from svganim.WordsJS; stylesheets are minified (minifyCSS).
//
// With a PageCache, a stylesheet whose bytes are the last build's is not
// minified again (1.5 ms of processor on every save).
func readAssets(tfs fs.FS, c *PageCache) ([]File, error) {
	entries, err := fs.ReadDir(tfs, ".")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	var files []File
	for _, e := range entries {
		ext := path.Ext(e.Name())
		if e.IsDir() || (ext != ".css" && ext != ".js" && ext != ".svg") || strings.HasPrefix(e.Name(), ".") || e.Name() == svganim.WordsFile {
			continue
		}
		b, err := fs.ReadFile(tfs, e.Name())
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		if ext == ".css" {
			if b, err = c.minifiedCSS(e.Name(), b); err != nil {
				return nil, err
			}
		}
		files = append(files, File{Path: AssetDir + "/" + e.Name(), Data: b})
	}
	return files, nil
}

// Build generates the site and writes it into out (see Site.WriteDir);
// contentDir is the content folder on disk ("" for an embedded one), which
// out must never replace. Input problems come back as a sim.ErrorList and
// leave out untouched. A *LeftoverError comes back with the site: it was
// written, and only a folder of kflowgen's own was left behind.
func Build(o Options, out, contentDir string) (*Site, error) {
	if o.Output == "" {
		o.Output = out
	}
	if o.ContentDir == "" {
		o.ContentDir = contentDir
	}
	s, err := Generate(o)
	if err != nil {
		return nil, err
	}
	if err := s.WriteDir(out, contentDir); err != nil {
		var left *LeftoverError
		if errors.As(err, &left) {
			return s, err
		}
		return nil, err
	}
	return s, nil
}

// hasKnobs says whether a page holds a figure with knobs.
func hasKnobs(pg *Page) bool {
	for _, f := range pg.figures {
		if f.result != nil && len(f.result.Knobs) > 0 {
			return true
		}
	}
	return false
}
