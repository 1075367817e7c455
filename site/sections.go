package site

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/yuin/goldmark/util"
	"golang.org/x/text/unicode/norm"
)

// Section is one folder of the content folder: the folder itself (the
// root section, which holds the home page) or a folder directly under it.
// Sections do not nest: a page two folders down is an error (see
// placePages). Hugo's sections are the model; the rule for a section's
// index page is one of Hugo's two names, either of which works:
//
//   - the section's index page is the folder's index.md or _index.md
//     (Hugo's name for it; the one file starting with "_" that is not
//     skipped); both in one folder is an error at the second;
//   - its front matter gives the section's title, summary and weight,
//     and its Markdown the top of the section's index page, under which
//     the build lists the section's pages;
//   - without one, the section's title is its folder's name as written,
//     its weight 0, and its index page the list alone.
//
// The root section's index page is the home page, index.html; a folder
// section's is SLUG/index.html, and its pages SLUG/NAME.html.
type Section struct {
	// Dir is the folder inside the content folder ("ops"); "" for the
	// root section.
	Dir string
	// Slug is the output folder, Dir lowered with every run of characters
	// other than letters and digits one '-' (pathSlug; "" for the root
	// section).
	Slug string
	// Title, Summary and Weight come from the index page's front matter
	// (Title defaults to Dir). Sections are ordered by (Weight, Title,
	// Dir), the root section first.
	Title, Summary string
	Weight         int
	// Index is the index page (index.md or _index.md), nil when the
	// build generates it. The root section's is the home page.
	Index *Page
	// Pages are the section's pages in order, by (Weight, Title, Path);
	// the index page is not one of them.
	Pages []*Page
}

// Out is the section's index page, relative to the site root
// ("index.html", "ops/index.html").
func (s *Section) Out() string {
	if s.Slug == "" {
		return "index.html"
	}
	return s.Slug + "/index.html"
}

// isIndexName reports whether a file name is a folder's index page.
func isIndexName(name string) bool { return name == "index.md" || name == "_index.md" }

// pageOut is the output file of the page at content path p, relative to
// the site root: "acks.md" → "acks.html", "Ops/Min ISR.md" →
// "ops/min-isr.html", "ops/_index.md" → "ops/index.html".
func pageOut(p string) string {
	dir, name := path.Split(p)
	if isIndexName(name) {
		name = "index.md"
	}
	base := pathSlug(strings.TrimSuffix(name, path.Ext(name)), "page") + ".html"
	if dir == "" {
		return base
	}
	return sectionSlug(strings.TrimSuffix(dir, "/")) + "/" + base
}

// sectionSlug is a section folder's output folder.
func sectionSlug(dir string) string { return pathSlug(dir, "section") }

// pathSlug is the output name made from a content file or folder name:
// lower case, letters and digits of any script kept ("Café" → "café",
// "日本" → "日本", as Hugo keeps them), every run of other characters
// one '-', no '-' at either end; def when nothing is left. Unlike DOM
// ids (safeID, [a-z0-9-]), output names must not lose letters: "café"
// and "cafe", or two Japanese names, would otherwise be one file.
// Letters are lowered with strings.ToLower and not normalized, so a
// name keeps the Unicode form its file system gave it.
func pathSlug(s, def string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return def
	}
	return b.String()
}

// placePages sorts the parsed pages (in path order) into sections: the
// root's, then one per folder directly under the content folder, each
// with its index page and its pages in order. It reports, positioned at
// the file that makes them: a page two or more folders down; a folder
// with both index.md and _index.md; two pages, or two sections, written
// to one output name; the names the build keeps for itself (the root's
// "index" and "playground", a section named like the assets folder).
func placePages(pages []*Page) ([]*Section, sim.ErrorList) {
	var errs sim.ErrorList
	root := &Section{}
	sections := []*Section{root}
	byDir := map[string]*Section{"": root}
	bySlug := map[string]string{} // section slug → the folder that took it
	outs := map[string]string{}   // output file → the page that took it
	fail := func(pg *Page, format string, args ...any) {
		errs = append(errs, sim.Error{File: pg.File, Pos: sim.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf(format, args...)})
	}
	for _, pg := range pages {
		dir, name := path.Split(pg.Path)
		dir = strings.TrimSuffix(dir, "/")
		if strings.Contains(dir, "/") {
			fail(pg, "this page is %d folders down: sections do not nest, so a page sits in the content folder or in a folder directly under it (move it into %s/)",
				strings.Count(dir, "/")+1, sim.EscapeName(dir[:strings.IndexByte(dir, '/')]))
			continue
		}
		sec := byDir[dir]
		if sec == nil {
			slug := sectionSlug(dir)
			if other, dup := bySlug[norm.NFC.String(slug)]; dup {
				fail(pg, "folder %s would be written to %s/, like folder %s%s; rename one", sim.EscapeName(dir), slug, sim.EscapeName(other), normOnly(dir, other))
				continue
			}
			if slug == AssetDir {
				fail(pg, "folder %s would be written to %s/, which holds the site's stylesheets and scripts; rename the folder", sim.EscapeName(dir), slug)
				continue
			}
			sec = &Section{Dir: dir, Slug: slug, Title: dir}
			bySlug[norm.NFC.String(slug)] = dir
			byDir[dir] = sec
			sections = append(sections, sec)
		}
		out := pageOut(pg.Path)
		if isIndexName(name) {
			if sec.Index != nil {
				fail(pg, "%s already has an index page, %s: a folder has one (index.md or _index.md); merge them or rename one", folderName(sec), sim.EscapeName(sec.Index.Path))
				continue
			}
			sec.Index = pg
			pg.Out = out
			outs[norm.NFC.String(out)] = pg.Path
			continue
		}
		switch slug := strings.TrimSuffix(path.Base(out), ".html"); {
		case slug == "index" && dir == "":
			fail(pg, `page name "index" is taken by the home page; rename the file`)
			continue
		case slug == "index":
			fail(pg, `page name "index" is taken by the section's index page; rename the file (or name it index.md to make it that page)`)
			continue
		case slug == playground.PageSlug && dir == "":
			fail(pg, `page name "playground" is taken by the playground page every site has; rename the file`)
			continue
		}
		if other, dup := outs[norm.NFC.String(out)]; dup {
			fail(pg, "page %q would be written to %s, like %q%s; rename one", pg.Path, out, other, normOnly(pg.Path, other))
			continue
		}
		outs[norm.NFC.String(out)] = pg.Path
		pg.Out = out
		sec.Pages = append(sec.Pages, pg)
	}
	for _, sec := range sections {
		if sec.Index != nil && sec != root {
			sec.Title, sec.Summary, sec.Weight = sec.Index.Title, sec.Index.Summary, sec.Index.Weight
		}
		slices.SortStableFunc(sec.Pages, func(a, b *Page) int {
			return cmp.Or(cmp.Compare(a.Weight, b.Weight), cmp.Compare(a.Title, b.Title), cmp.Compare(a.Path, b.Path))
		})
	}
	slices.SortStableFunc(sections[1:], func(a, b *Section) int {
		return cmp.Or(cmp.Compare(a.Weight, b.Weight), cmp.Compare(a.Title, b.Title), cmp.Compare(a.Dir, b.Dir))
	})
	return sections, errs
}

// normOnly is, for two names that differ only in their Unicode
// normalization ("café" written with é, or with e and a combining accent),
// the words that say so, for an error about their collision; "" for names
// that differ otherwise (in case, say) or not at all. Output names keep
// the form the file system gave (pathSlug), but many file systems (macOS)
// and copy tools take the two forms for one name, so two such files are a
// collision like two that differ only in case.
func normOnly(a, b string) string {
	if a == b || norm.NFC.String(a) != norm.NFC.String(b) {
		return ""
	}
	return " (the two names differ only in Unicode normalization, NFC and NFD, which many file systems take for one name)"
}

// folderName names a section's folder in an error.
func folderName(s *Section) string {
	if s.Dir == "" {
		return "the content folder"
	}
	return "folder " + sim.EscapeName(s.Dir)
}

// navHref is relHref percent-encoded as a page's text links are (goldmark's
// util.URLEscape: UTF-8 bytes as %XX in upper case, RFC 3986 §2.1), for
// the links the layout writes — the navigation, the section lists,
// previous and next. html/template would encode them itself, in lower case
// ("caf%c3%a9.html" in the navigation beside "caf%C3%A9.html" in the
// text), and leaves a valid %XX as it is.
func navHref(from, to string) string {
	return string(util.URLEscape([]byte(relHref(from, to)), false))
}

// relHref is the relative link from the output page from to the output
// file to (both relative to the site root, slash-separated): "acks.html"
// from "ops/isr.html" is "../acks.html".
func relHref(from, to string) string {
	fromDir := path.Dir(from)
	if fromDir == "." {
		return to
	}
	up := ""
	for d := fromDir; d != "."; d = path.Dir(d) {
		if rest, ok := strings.CutPrefix(to, d+"/"); ok {
			return up + rest
		}
		up += "../"
	}
	return up + to
}
