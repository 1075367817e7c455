package site

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkaflow/kflowgen/content"
	"golang.org/x/net/html"
)

// The README's GitHub Pages recipe publishes the site at
// https://USER.github.io/REPO/, a sub-path. The built guide, served under
// /sub/ and nothing else, must have every link and asset of every page
// resolve there: each href and src, read as a browser resolves it against
// its page's URL, answers 200 under /sub/. A root-relative link
// ("/assets/site.css") or one that climbs out ("../x") would 404 here.
// The same holds for the guide with two sections added, whose pages sit
// one folder down and link across sections.
func TestSiteWorksUnderSubPath(t *testing.T) {
	pages, assets := crawlUnderSubPath(t, content.FS)
	// The guide's pages and its stylesheets, scripts and icon were all
	// reached, so the walk did follow the links.
	if pages < 19 || assets < 4 {
		t.Errorf("reached %d pages and %d assets; want the guide's 19 pages and at least 4 assets", pages, assets)
	}

	sectioned := fstest.MapFS{}
	err := fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, err := fs.ReadFile(content.FS, p)
			sectioned[p] = &fstest.MapFile{Data: b}
			return err
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sectioned["ops/_index.md"] = page("title: Operations\nsummary: Running a cluster.", "Start with [the ISR](isr.md), or go back to [acks](../acks.md#the-three-values).")
	sectioned["ops/isr.md"] = page("title: ISR in practice", "```kflow", "id: lag", "beats: 6", "```", "",
		"See [beat 3](#lag@3), [replicas](../replicas.md) and [a note](../notes/one.md).")
	sectioned["notes/one.md"] = page("title: One note", "Back to [the figure](../ops/isr.md#lag@2) and [home](../index.md).")
	sectioned["notes/two.md"] = page("title: Two notes")
	withSections, assets := crawlUnderSubPath(t, sectioned)
	// Every page of the guide, the two sections' index pages and their
	// three pages.
	if withSections < pages+5 || assets < 4 {
		t.Errorf("with sections: reached %d pages and %d assets; want the guide's %d and 5 more, and at least 4 assets", withSections, assets, pages)
	}
}

// crawlUnderSubPath builds the content, serves it under /sub/ alone and
// follows every link and asset of every page from the home page, failing
// on any that does not answer 200 under /sub/; it returns how many pages
// and other files it reached.
func crawlUnderSubPath(t *testing.T, fsys fs.FS) (pages, assets int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{Content: fsys, ContentName: "content"}, out, ""); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/sub/", http.StripPrefix("/sub/", http.FileServer(http.Dir(out))))
	srv := httptest.NewServer(mux) // anything outside /sub/ is the mux's 404
	defer srv.Close()

	base, _ := url.Parse(srv.URL + "/sub/")
	seen := map[string]bool{}
	queue := []*url.URL{base}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		resp, err := http.Get(u.String())
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %s", u.Path, resp.Status)
			continue
		}
		if !strings.HasSuffix(u.Path, ".html") && !strings.HasSuffix(u.Path, "/") {
			assets++
			continue
		}
		pages++
		doc, err := html.Parse(strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		for n := range doc.Descendants() {
			if n.Type != html.ElementNode {
				continue
			}
			for _, a := range n.Attr {
				if a.Key != "href" && a.Key != "src" {
					continue
				}
				ref, err := url.Parse(a.Val)
				if err != nil {
					t.Errorf("%s: <%s %s=%q>: %v", u.Path, n.Data, a.Key, a.Val, err)
					continue
				}
				if ref.Scheme != "" || ref.Host != "" {
					continue // an outside link, such as Kafka's source
				}
				next := u.ResolveReference(ref)
				next.Fragment = ""
				if !strings.HasPrefix(next.Path, "/sub/") {
					t.Errorf("%s: <%s %s=%q> leaves the sub-path: %s", u.Path, n.Data, a.Key, a.Val, next.Path)
					continue
				}
				if !seen[next.String()] {
					seen[next.String()] = true
					queue = append(queue, next)
				}
			}
		}
	}
	return pages, assets
}
