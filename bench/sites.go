package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"
)

// GuideSite makes a site of pages Markdown files (index.md included) out
// of the guide: its index.md, then its other pages in path order, again and
// again, copy c > 0 of page "acks.md" named "acks-c.md". A copy's in-page
// links to its own figures ("#acks--…") name the copy's figure ids
// ("#acks-c--…"), so every copy builds; links to other pages keep pointing
// at the first copy, which every site of at least the guide's size holds.
// The site has pages files whatever the guide's size; pages must be at
// least the guide's own count, so that every link resolves.
//
// It is the site the benchmark builds at a given page count, for kflowgen
// and (HugoSite) for Hugo, with the same Markdown.
func GuideSite(guide fs.FS, pages int) (fstest.MapFS, error) {
	names, err := fs.Glob(guide, "*.md")
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == homeSource })
	if len(names) == 0 {
		return nil, errors.New("the guide has no pages besides index.md")
	}
	if pages < len(names)+1 {
		return nil, fmt.Errorf("a site of %d pages: the guide alone has %d (index.md included); ask for at least that many", pages, len(names)+1)
	}
	out := fstest.MapFS{}
	home, err := fs.ReadFile(guide, homeSource)
	if err != nil {
		return nil, err
	}
	out[homeSource] = &fstest.MapFile{Data: home}
	srcs := make([][]byte, len(names))
	for i, n := range names {
		if srcs[i], err = fs.ReadFile(guide, n); err != nil {
			return nil, err
		}
	}
	for k := 0; k < pages-1; k++ {
		i, c := k%len(names), k/len(names)
		base := strings.TrimSuffix(names[i], ".md")
		data := srcs[i]
		name := base
		if c > 0 {
			name = base + "-" + strconv.Itoa(c)
			data = []byte(strings.ReplaceAll(string(data), "#"+base+"--", "#"+name+"--"))
		}
		out[path.Join(name+".md")] = &fstest.MapFile{Data: data}
	}
	return out, nil
}

// homeSource is the page that becomes the home page (site's homeSource).
const homeSource = "index.md"

// HugoLayout is the one template the Hugo site is built with, for single
// pages, lists and the home page alike: the page's title, a link to every
// page of the site (as kflowgen's navigation lists them), and the content.
const HugoLayout = `<!doctype html><title>{{ .Title }}</title>{{ range .Site.Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ .Content }}` + "\n"

// HugoSite lays out a Hugo project holding the pages of a GuideSite (its
// ```kflow fences are plain code to Hugo, which simulates nothing):
// config.toml, content/ without index.md (Hugo's home page is the list),
// and HugoLayout as every layout. Paths are relative to the project.
func HugoSite(gs fstest.MapFS) fstest.MapFS {
	h := fstest.MapFS{
		"config.toml":                  {Data: []byte("baseURL = \"/\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\"]\n")},
		"layouts/_default/single.html": {Data: []byte(HugoLayout)},
		"layouts/_default/list.html":   {Data: []byte(HugoLayout)},
		"layouts/index.html":           {Data: []byte(HugoLayout)},
	}
	for name, f := range gs {
		if name == homeSource {
			continue
		}
		h["content/"+name] = f
	}
	return h
}
