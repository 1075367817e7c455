package site

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"slices"
	"strings"

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
	// Cache, when set, keeps scenario results between builds.
	Cache Cache
	// Pages, when set, keeps the rendered pages between builds, so that
	// a build renders only the pages whose inputs changed (PageCache).
	Pages *PageCache
	// EngineVersion is mixed into every cache key. A cache that outlives
	// the process must set it to something that changes with the engine
	// and renderer; an in-process cache may leave it empty.
	EngineVersion string
}

// Site is a generated site held in memory: every output file, plus what
// was built, for tests and the benchmark.
type Site struct {
	// Files holds every output file, sorted by Path.
	Files []File
	// Pages are the content pages in site order (index.md excluded).
	Pages []*Page
	// Figures describes every figure in page order.
	Figures []FigureStat
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
	// that would otherwise compute them again. It is nil for a figure
	// whose markup came from the Cache, which keeps no traces.
	Run *fence.Result
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
	if o.Content == nil {
		return nil, errors.New("no content to build")
	}
	tfs := o.Templates
	if tfs == nil {
		tfs = templates.FS
	}
	tmpl, err := template.ParseFS(tfs, "layout.html", "index.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	paths, err := readPages(o.Content)
	if err != nil {
		return nil, fmt.Errorf("reading content: %w", err)
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
		return nil, sim.ErrorList{{File: file, Msg: fmt.Sprintf("the site has %d pages (*.md files): Kafka Flow allows at most %d, and this is page %d in path order", len(paths), MaxPages, MaxPages+1)}}
	}

	// Pages are read and parsed on GOMAXPROCS workers (goldmark's parser
	// and renderer are safe for concurrent use; each parse has its own
	// context) and gathered in path order.
	md := newMarkdown()
	type parsedPage struct {
		pg   *Page
		errs sim.ErrorList
		err  error
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
		case errors.As(err, &big):
			// Left unread; it stays a page, so links to it do not fail too.
			read[i].errs = sim.ErrorList{{File: file, Msg: big.msg}}
			read[i].pg = &Page{Path: p, File: file, Slug: Slug(p), doc: ast.NewDocument()}
		case err != nil:
			read[i].err = fmt.Errorf("reading content: %w", err)
		default:
			read[i].pg, read[i].errs = parsePage(md, p, file, src)
		}
	})
	var errs sim.ErrorList
	var pages []*Page
	var home *Page
	slugs := map[string]string{}
	for i, p := range paths {
		if read[i].err != nil {
			return nil, read[i].err
		}
		pg, file := read[i].pg, read[i].pg.File
		errs = append(errs, read[i].errs...)
		if p == homeSource {
			home = pg
			continue
		}
		if pg.Slug == "index" {
			errs = append(errs, sim.Error{File: file, Msg: `page name "index" is taken by the home page; rename the file`})
			continue
		}
		if pg.Slug == playground.PageSlug {
			errs = append(errs, sim.Error{File: file, Msg: `page name "playground" is taken by the playground page every site has; rename the file`})
			continue
		}
		if other, dup := slugs[pg.Slug]; dup {
			errs = append(errs, sim.Error{File: file, Msg: fmt.Sprintf("page %q would be written to %s.html, like %q; rename one", p, pg.Slug, other)})
			continue
		}
		slugs[pg.Slug] = p
		pages = append(pages, pg)
	}
	slices.SortStableFunc(pages, func(a, b *Page) int {
		return cmp.Or(cmp.Compare(a.Weight, b.Weight), cmp.Compare(a.Title, b.Title), cmp.Compare(a.Path, b.Path))
	})

	all := pages
	if home != nil {
		all = append([]*Page{home}, pages...)
	}
	byPath := map[string]*Page{}
	outputs := map[string]bool{}
	for _, pg := range all {
		byPath[pg.Path] = pg
		outputs[outName(pg)] = true
	}
	outputs["index.html"] = true // written from index.md or, without one, as a list of the pages
	var frags []fragLink
	for _, pg := range all {
		f, lerrs := resolveLinks(pg, byPath, outputs)
		frags, errs = append(frags, f...), append(errs, lerrs...)
	}
	errs = append(errs, computeFigures(all, &o)...)
	figs := map[*Page][]pageFigure{}
	broken := map[*Page]bool{}
	for _, pg := range all {
		for _, f := range pg.figures {
			if r := f.result; r.ScenarioID != "" {
				figs[pg] = append(figs[pg], pageFigure{id: r.ScenarioID, last: r.Beats - 1})
			} else {
				broken[pg] = true
			}
		}
	}
	errs = append(errs, checkFragments(frags, figs, broken)...)
	if err := errs.Err(); err != nil {
		return nil, err
	}

	s := &Site{Pages: pages}
	for _, pg := range all {
		for _, f := range pg.figures {
			r := f.result
			s.Figures = append(s.Figures, FigureStat{Page: outName(pg), ID: FigureID(pg.Slug, r.ScenarioID),
				Beats: r.Beats, Frames: r.Work.Frames, Records: r.Records, Bytes: len(f.HTML), Run: r.run})
		}
	}

	siteTitle := "Kafka Flow"
	if home != nil {
		siteTitle = home.Title
	}
	// Pages are rendered on GOMAXPROCS workers too (a template may be
	// executed in parallel), each into its own slot; the first error in
	// site order is the one returned.
	rendered := make([]File, len(pages))
	rerrs := make([]error, len(pages))
	var tmplDigest []byte
	var pageSet []string
	if o.Pages != nil {
		o.Pages.begin()
		if tmplDigest, err = templatesDigest(tfs); err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		for _, pg := range all {
			pageSet = append(pageSet, pg.Path)
		}
	}
	parallel(len(pages), func(i int) {
		pg := pages[i]
		var key string
		if o.Pages != nil {
			key = pageKey(tmplDigest, siteTitle, pageSet, pages, i)
			if b, ok := o.Pages.get(key); ok {
				o.Pages.put(key, b)
				rendered[i] = File{Path: outName(pg), Data: b}
				return
			}
		}
		body, err := renderBody(md, pg)
		if err != nil {
			rerrs[i] = err
			return
		}
		d := layoutData{SiteTitle: siteTitle, Title: pg.Title, Summary: pg.Summary, Content: body,
			Headings: pg.Headings, HasFigures: len(pg.figures) > 0, Assets: AssetDir + "/", Home: "index.html",
			PlaygroundHref: playground.PageFile}
		d.Nav = navItems(pages, i)
		if i > 0 {
			d.Prev = &d.Nav[i-1]
		}
		if i+1 < len(pages) {
			d.Next = &d.Nav[i+1]
		}
		var buf bytes.Buffer
		if err := tmpl.ExecuteTemplate(&buf, "layout.html", d); err != nil {
			rerrs[i] = fmt.Errorf("templates: layout.html: %w", err)
			return
		}
		rendered[i] = File{Path: outName(pg), Data: buf.Bytes()}
		if o.Pages != nil {
			o.Pages.put(key, buf.Bytes())
		}
	})
	for _, err := range rerrs {
		if err != nil {
			return nil, err
		}
	}
	if o.Pages != nil {
		o.Pages.commit()
	}
	s.Files = append(s.Files, rendered...)

	hd := layoutData{SiteTitle: siteTitle, Title: siteTitle, Assets: AssetDir + "/", Home: "index.html",
		Nav: navItems(pages, -1), PlaygroundHref: playground.PageFile}
	if home != nil {
		body, err := renderBody(md, home)
		if err != nil {
			return nil, err
		}
		hd.Content, hd.Summary, hd.HasFigures = body, home.Summary, len(home.figures) > 0
	}
	if len(pages) > 0 {
		hd.Next = &hd.Nav[0]
	}
	var buf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&buf, "index.html", hd); err != nil {
		return nil, fmt.Errorf("templates: index.html: %w", err)
	}
	s.Files = append(s.Files, File{Path: "index.html", Data: buf.Bytes()})

	// The playground: one page running fences with the engine compiled
	// to WebAssembly (package playground), in every site.
	reference := ""
	if slugs["reference"] != "" {
		reference = "reference.html"
	}
	pd := layoutData{SiteTitle: siteTitle, Title: "Playground",
		Summary: "Edit a scenario and run it in the browser with the engine the guide is built with.",
		Content: playground.Content(playground.Sample, reference), HasFigures: true, Playground: true,
		Assets: AssetDir + "/", Home: "index.html", Nav: navItems(pages, -1), PlaygroundHref: playground.PageFile}
	var pbuf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&pbuf, "layout.html", pd); err != nil {
		return nil, fmt.Errorf("templates: layout.html: %w", err)
	}
	s.Files = append(s.Files, File{Path: playground.PageFile, Data: pbuf.Bytes()})
	for _, a := range playground.Assets() {
		s.Files = append(s.Files, File{Path: AssetDir + "/" + a.Name, Data: a.Data})
	}

	assets, err := readAssets(tfs)
	if err != nil {
		return nil, err
	}
	s.Files = append(s.Files, assets...)
	// kf-words.js is generated from the renderer's own tables, so the
	// phrases a figure's titles are coded against can never drift from it.
	s.Files = append(s.Files, File{Path: AssetDir + "/" + svganim.WordsFile, Data: svganim.WordsJS()})
	// The stepper lives beside the patch encoder it decodes; a templates
	// folder may still replace it with its own stepper.js.
	if !slices.ContainsFunc(assets, func(f File) bool { return f.Path == AssetDir+"/"+svganim.StepperFile }) {
		s.Files = append(s.Files, File{Path: AssetDir + "/" + svganim.StepperFile, Data: svganim.StepperJS()})
	}
	slices.SortFunc(s.Files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
	return s, nil
}

// layoutData is what layout.html and index.html see.
type layoutData struct {
	// SiteTitle is the home page's title ("Kafka Flow" without index.md).
	SiteTitle string
	// Title and Summary are the page's front matter.
	Title, Summary string
	// Content is the page's rendered Markdown with its figures.
	Content template.HTML
	// Headings is the page's table of contents (level-2 headings).
	Headings []Heading
	// Nav lists every page in order; Prev and Next point into it.
	Nav        []NavItem
	Prev, Next *NavItem
	// HasFigures says whether the page needs stepper.js.
	HasFigures bool
	// Assets is the relative path prefix of the shared assets ("assets/");
	// Home the relative link to the index; PlaygroundHref the relative
	// link to the playground page.
	Assets, Home, PlaygroundHref string
	// Playground says the page is the playground, which loads its
	// scripts (playground.Assets) and no other page does.
	Playground bool
}

// NavItem is one page in the site's table of contents.
type NavItem struct {
	Href, Title, Summary string
	// Current marks the page being rendered.
	Current bool
}

func navItems(pages []*Page, current int) []NavItem {
	items := make([]NavItem, len(pages))
	for i, p := range pages {
		items[i] = NavItem{Href: outName(p), Title: p.Title, Summary: p.Summary, Current: i == current}
	}
	return items
}

// outName is a page's output file, relative to the site root.
func outName(p *Page) string {
	if p.Path == homeSource {
		return "index.html"
	}
	return p.Slug + ".html"
}

// renderBody renders a page's Markdown (its figures already computed).
func renderBody(md goldmark.Markdown, pg *Page) (template.HTML, error) {
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, pg.src, pg.doc); err != nil {
		return "", fmt.Errorf("%s: rendering: %w", pg.File, err)
	}
	return template.HTML(buf.String()), nil
}

// readAssets copies every *.css, *.js and *.svg file at the top of the templates
// folder into AssetDir, except svganim.WordsFile, which Generate writes
// from svganim.WordsJS.
func readAssets(tfs fs.FS) ([]File, error) {
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
