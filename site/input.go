package site

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/yuin/goldmark/ast"
)

// Limits on the Markdown of a page and on the pages of a site, beside the
// limits on figures (limits.go) and on one scenario (sim.Max*). Measured on
// two busy cores: goldmark's cost grows with the product of a page's lines
// and how deep its lists and quotes nest, so one 320 KB line of "* > "
// took 29 s, and 10,000 pages, each listing every other in its contents,
// took 305 s and 11 GB. At these limits a page builds in well under a
// second (BenchmarkPageAtLimits), and a site of MaxPages pages within the
// 1 GB a build may take (MaxPages).
const (
	// MaxPageBytes is the largest page, in bytes (the guide's largest,
	// reference.md, is about 40 KB).
	MaxPageBytes = 256 << 10
	// MaxNesting is how deep lists and block quotes may nest: the number of
	// list items and quotes around any text.
	MaxNesting = 16
	// MaxPages is how many pages (*.md files, index.md included) a site may
	// have: every page lists every other in its contents, so a site's size
	// grows with the square of its pages. 1,000 pages made of the guide
	// (bench.GuideSite: 1,740 figures) write 131 MB and peak at 760 MB of
	// resident memory in `kflowgen build`, within the 1 GB a build may
	// take (1.4 GB before a build dropped each figure's traces once drawn).
	MaxPages = 1000
)

// readPage reads a page or scenario file through fsys: it refuses what is
// not a regular file (a pipe, a device, /dev/zero) before reading from it,
// and a file over MaxPageBytes without reading it whole (a sparse file can
// claim terabytes). name is how errors name the file.
func readPage(fsys fs.FS, p, name string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, name, false)
}

// StdinName is how errors name the standard input, given as "-",
// /dev/stdin or /dev/fd/0 (InputName).
const StdinName = "stdin"

// InputName is how errors name the input path given on the command line:
// StdinName for "-", /dev/stdin and /dev/fd/0 (a pipe's /dev/stdin,
// /proc/self/fd/0 -> "pipe:[…]", says nothing to a reader), else the path
// with its unprintable runes escaped (sim.EscapeName).
func InputName(path string) string {
	switch path {
	case "-", "/dev/stdin", "/dev/fd/0":
		return StdinName
	}
	return sim.EscapeName(path)
}

// ReadInput reads a file named on the command line (kflowgen sim's or
// figure's page or scenario) as a build reads a page, at most
// MaxPageBytes of it: a regular file, or with pipes also a pipe — "-" for
// the standard input, /dev/stdin, a named pipe (opening one waits for its
// writer, as cat does). A device or folder is refused before it is opened
// (/dev/zero would never end, a terminal would wait for typing). Shell
// completion reads with pipes false: it must not wait for a writer.
// Errors name the file as InputName does.
func ReadInput(path string, pipes bool) ([]byte, error) {
	name := InputName(path)
	if path == "-" {
		if !pipes {
			return nil, notRegular(name, false)
		}
		return readLimited(os.Stdin, name, true)
	}
	// Opening a named pipe waits for a writer, so look before opening;
	// readLimited checks the opened file again.
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() && !(pipes && st.Mode()&fs.ModeNamedPipe != 0) {
		return nil, notRegular(name, pipes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readLimited(f, name, pipes)
	if errors.Is(err, errKernelFile) {
		err = fmt.Errorf("%s: %w", name, err)
	}
	return b, err
}

// notRegular refuses name; pipes says whether a pipe would have been read.
func notRegular(name string, pipes bool) error {
	if pipes {
		return fmt.Errorf("%s is not a regular file or a pipe (a device or folder); a page must be a file, or come through a pipe", name)
	}
	return fmt.Errorf("%s is not a regular file (a pipe, device or folder); a page must be a file", name)
}

// HeldFile is an fs.File whose bytes are already in memory, whole and
// never changed (serve's kept files): a build reads a page from one
// without copying it (and reading it again gives the same slice, which
// the PageCache recognises without comparing). Its Stat must give its
// regular mode and its length.
type HeldFile interface {
	fs.File
	Bytes() []byte
}

// readLimited reads f whole, at most MaxPageBytes of it: a regular file,
// or with pipes also a pipe (whose size is not known before reading it).
func readLimited(f fs.File, name string, pipes bool) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() && !(pipes && st.Mode()&fs.ModeNamedPipe != 0) {
		return nil, notRegular(name, pipes)
	}
	size := st.Size()
	if !st.Mode().IsRegular() {
		size = 0 // a pipe's size says nothing of what will come through it
	}
	if size > MaxPageBytes {
		return nil, tooBig(name, size)
	}
	// A file held in memory (serve keeps the files no save touched)
	// hands over its bytes, which the build only reads, without a copy.
	if h, ok := f.(HeldFile); ok {
		return h.Bytes(), nil
	}
	// The size can change while we read: read one byte past the limit,
	// into a buffer of the size the file says it has (and the byte that
	// tells it grew), so a page is read without growing and copying it.
	b := make([]byte, 0, size+1)
	for len(b) <= MaxPageBytes {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grown since the stat
		}
		n, err := f.Read(b[len(b):min(cap(b), MaxPageBytes+1)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(b) > MaxPageBytes {
		return nil, tooBig(name, int64(len(b)))
	}
	if err := kernelFile(st, len(b)); err != nil {
		return nil, err
	}
	return b, nil
}

// pageSizeError is a file over MaxPageBytes; Generate reports it as an
// error of that page.
type pageSizeError struct {
	name, msg string
}

func (e *pageSizeError) Error() string { return e.name + ": " + e.msg }

func tooBig(name string, size int64) error {
	what := fmt.Sprintf("%d bytes", size)
	if size == MaxPageBytes+1 {
		what = fmt.Sprintf("more than %d bytes", MaxPageBytes)
	}
	return &pageSizeError{name, fmt.Sprintf("the file is %s: Kafka Flow reads at most %d bytes of a page (split it)", what, MaxPageBytes)}
}

// CheckNesting reports, before goldmark parses the page, the first line
// that opens lists and quotes more than MaxNesting deep by itself ("* > *
// > …" or "- - - …"): such a line is what makes the parse take time that
// grows with the square of its length. file names the page in the error.
// Lines nested deep by indentation are caught after the parse (see
// checkNestingDepth), where they cost little, the page size bounding them.
func CheckNesting(file string, src []byte) sim.ErrorList {
	lines := newLineIndex(src)
	for l := 1; l <= len(lines); l++ {
		start := lines.start(l)
		if n, at := lineMarkers(lines.text(src, l)); n > MaxNesting {
			return sim.ErrorList{{File: file, Pos: lines.pos(src, start+at),
				Msg: fmt.Sprintf("this line opens %d lists and quotes inside each other: Kafka Flow allows them %d deep", n, MaxNesting)}}
		}
	}
	return nil
}

// lineMarkers counts the block quote markers (">") and list markers ("-",
// "*", "+" or "1." and "1)" followed by a space, tab or the end of the
// line) at the start of line, each after optional spaces, stopping at a
// thematic break ("- - -", "* * *"). at is the byte offset of the marker
// past MaxNesting (or 0).
func lineMarkers(line []byte) (n, at int) {
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) || thematicBreak(line[i:]) {
			return n, at
		}
		j := i
		switch c := line[i]; {
		case c == '>':
			j = i + 1
		case c == '-' || c == '*' || c == '+':
			j = i + 1
			if j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
				return n, at
			}
		case c >= '0' && c <= '9':
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j >= len(line) || (line[j] != '.' && line[j] != ')') {
				return n, at
			}
			j++
			if j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
				return n, at
			}
		default:
			return n, at
		}
		n++
		if n == MaxNesting+1 {
			at = i
		}
		i = j
	}
}

// thematicBreak reports whether s is a thematic break: three or more of
// one of -, * or _, with only spaces or tabs between and after.
func thematicBreak(s []byte) bool {
	var mark byte
	count := 0
	for _, c := range s {
		switch {
		case c == ' ' || c == '\t' || c == '\r':
		case mark == 0 && (c == '-' || c == '*' || c == '_'):
			mark, count = c, 1
		case c == mark:
			count++
		default:
			return false
		}
	}
	return count >= 3
}

// checkNestingDepth reports the first list item or block quote nested more
// than MaxNesting deep (by indentation, over several lines), at its first
// line.
func checkNestingDepth(pg *Page) sim.ErrorList {
	var errs sim.ErrorList
	depth := 0
	lines := newLineIndex(pg.src)
	_ = ast.Walk(pg.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Kind() != ast.KindListItem && n.Kind() != ast.KindBlockquote {
			return ast.WalkContinue, nil
		}
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		depth++
		if depth > MaxNesting {
			errs = append(errs, sim.Error{File: pg.File, Pos: sim.Pos{Line: firstLine(n, lines), Col: 1},
				Msg: fmt.Sprintf("lists and quotes are nested %d deep here: Kafka Flow allows them %d deep", depth, MaxNesting)})
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return errs
}

// firstLine is the file line of the first text inside n (1 when there is
// none).
func firstLine(n ast.Node, lines lineIndex) int {
	line := 0
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			line = lines.line(c.Lines().At(0).Start)
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return max(line, 1)
}
