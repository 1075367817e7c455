package site

import (
	"io/fs"
	"testing"

	"github.com/kafkaflow/kflowgen/content"
)

// guidePage is one page of the guide built into kflowgen (content.FS): its
// file name ("acks.md") and its text.
type guidePage struct {
	name string
	src  []byte
}

// guidePages reads every page of the built-in guide, in name order (as
// fs.Glob gives them); the tests that read the guide's pages or fences
// start here.
func guidePages(t testing.TB) []guidePage {
	t.Helper()
	names, err := fs.Glob(content.FS, "*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages := make([]guidePage, 0, len(names))
	for _, n := range names {
		src, err := fs.ReadFile(content.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, guidePage{n, src})
	}
	return pages
}

// guideFence is one ```kflow fence of a guide page, found as a build finds
// it (FindFences), with its page's file name.
type guideFence struct {
	page string
	Fence
}

// guideFences is every fence of the built-in guide, page by page in name
// order and in page order within each.
func guideFences(t testing.TB) []guideFence {
	t.Helper()
	var out []guideFence
	for _, p := range guidePages(t) {
		for _, f := range FindFences(p.src) {
			out = append(out, guideFence{p.name, f})
		}
	}
	return out
}
