package site

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPageSizeLimit (issue 18.4): a page over MaxPageBytes is an error of
// that page, found from its size before it is read (a sparse file of a
// terabyte costs nothing), and links to it do not fail as well; a page at
// the limit builds.
func TestPageSizeLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "---\ntitle: A\n---\n\n[big](big.md) and [sparse](sparse.md)\n")
	head := "---\ntitle: Big\n---\n\n"
	write("big.md", head+strings.Repeat("x", MaxPageBytes+1-len(head)))
	write("sparse.md", "")
	if err := os.Truncate(filepath.Join(dir, "sparse.md"), 1<<40); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	_, err := Generate(Options{Content: os.DirFS(dir), ContentName: "content"})
	want := fmt.Sprintf("content/big.md:1:1: the file is more than %d bytes: Kafka Flow reads at most %d bytes of a page (split it)\n"+
		"content/sparse.md:1:1: the file is 1099511627776 bytes: Kafka Flow reads at most %d bytes of a page (split it)", MaxPageBytes, MaxPageBytes, MaxPageBytes)
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	write("big.md", head+strings.Repeat("x", MaxPageBytes-len(head)))
	if err := os.Remove(filepath.Join(dir, "sparse.md")); err != nil {
		t.Fatal(err)
	}
	write("a.md", "---\ntitle: A\n---\n\n[big](big.md)\n")
	if _, err := Generate(Options{Content: os.DirFS(dir)}); err != nil {
		t.Errorf("a page of exactly %d bytes: %v", MaxPageBytes, err)
	}
}

// TestNestingLimit (issue 18.5): lists and quotes nested past MaxNesting
// are an error at the line that goes past it: on one line ("* > * > …",
// found before goldmark parses the page, since that parse is what takes
// minutes) or by indentation over many lines; at MaxNesting the page
// builds, and a thematic break of many dashes is no nesting.
func TestNestingLimit(t *testing.T) {
	gen := func(body string) error {
		_, err := Generate(Options{Content: fstest.MapFS{"a.md": page("title: A", body)}, ContentName: "content"})
		return err
	}
	// page() puts the body on line 4.
	if err := gen(strings.Repeat("* > ", 50_000) + "x"); err == nil || err.Error() != fmt.Sprintf("content/a.md:4:%d: this line opens 100000 lists and quotes inside each other: Kafka Flow allows them %d deep", 4*8+1, MaxNesting) {
		t.Errorf("one line of * > : %v", err)
	}
	if err := gen(strings.Repeat("- ", MaxNesting+1) + "x"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("content/a.md:4:%d: this line opens %d lists", 2*MaxNesting+1, MaxNesting+1)) {
		t.Errorf("one line of - : %v", err)
	}
	var nested strings.Builder
	for i := range MaxNesting + 1 {
		nested.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	if err := gen(nested.String()); err == nil || err.Error() != fmt.Sprintf("content/a.md:%d:1: lists and quotes are nested %d deep here: Kafka Flow allows them %d deep", 4+MaxNesting, MaxNesting+1, MaxNesting) {
		t.Errorf("a list nested by indentation: %v", err)
	}
	var ok strings.Builder
	for i := range MaxNesting {
		ok.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	for _, body := range []string{
		strings.Repeat("> ", MaxNesting) + "x",
		strings.Repeat("* > ", MaxNesting/2) + "x",
		ok.String(),
		strings.Repeat("- ", 40) + "\n",
		"> " + strings.Repeat("* ", 40) + "\n",
	} {
		if err := gen(body); err != nil {
			t.Errorf("%.40q…: %v", body, err)
		}
	}
}

// TestPageCountLimit (issue 18.6): a site of more than MaxPages pages is
// an error naming the first page past the limit, reported before any page
// is parsed.
func TestPageCountLimit(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range MaxPages + 1 {
		fsys[fmt.Sprintf("p%04d.md", i)] = page(fmt.Sprintf("title: P%d", i), "Text.")
	}
	_, err := Generate(Options{Content: fsys, ContentName: "content"})
	want := fmt.Sprintf("content/p%04d.md:1:1: the site has %d pages (*.md files): Kafka Flow allows at most %d, and this is page %d in path order", MaxPages, MaxPages+1, MaxPages, MaxPages+1)
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	delete(fsys, fmt.Sprintf("p%04d.md", MaxPages))
	if testing.Short() {
		return
	}
	if _, err := Generate(Options{Content: fsys}); err != nil {
		t.Errorf("%d pages: %v", MaxPages, err)
	}
}

// BenchmarkPageAtLimits builds pages that sit at MaxPageBytes and
// MaxNesting in the shapes goldmark finds hardest: lines of quote and list
// markers as deep as allowed, a list nested by indentation, plain prose.
func BenchmarkPageAtLimits(b *testing.B) {
	fill := func(line string) string {
		head := "---\ntitle: A\n---\n\n"
		return head + strings.Repeat(line, (MaxPageBytes-len(head))/len(line))
	}
	var indent strings.Builder
	for indent.Len() < MaxPageBytes-400 {
		for i := range MaxNesting {
			indent.WriteString(strings.Repeat("  ", i) + "- item\n")
		}
	}
	for _, c := range []struct{ name, src string }{
		{"quote-list-lines", fill(strings.Repeat("* > ", MaxNesting/2) + "x\n")},
		{"list-marker-lines", fill(strings.Repeat("- ", MaxNesting) + "x\n")},
		{"quote-lines", fill(strings.Repeat("> ", MaxNesting) + "x\n")},
		{"indented-lists", "---\ntitle: A\n---\n\n" + indent.String()},
		{"prose", fill("Acks and the **high watermark** move on [different](a.md) beats, `code` and *emph*.\n\n")},
		{"emphasis", fill("*a **b *c **d")},
		{"brackets", fill("[")},
	} {
		b.Run(c.name, func(b *testing.B) {
			if len(c.src) > MaxPageBytes {
				b.Fatalf("%d bytes", len(c.src))
			}
			fsys := fstest.MapFS{"a.md": {Data: []byte(c.src)}}
			for b.Loop() {
				if _, err := Generate(Options{Content: fsys}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
