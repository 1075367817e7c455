package site

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/kafkaflow/kflowgen/playground"
	"github.com/kafkaflow/kflowgen/sim"
	"golang.org/x/text/unicode/norm"
)

// Limits on the files the site publishes from the content folder as they
// are (images, diagrams, downloads: staticFiles). A build holds them in
// memory, as serve does between saves, so they count against the 1 GB a
// build may take: a site at MaxPages peaks near 930 MB without them
// (MaxFrames), which leaves room for MaxStaticTotal.
const (
	// MaxStaticBytes is the largest such file, in bytes (16 MiB).
	MaxStaticBytes = 16 << 20
	// MaxStaticTotal is the most all of them may hold together, in
	// bytes (64 MiB).
	MaxStaticTotal = 64 << 20
)

// staticOut is the output path of the file at content path p: the same
// path, but for a folder directly under the content folder, which is
// written under its section's output folder (sectionSlug: "Ops
// Guide/d.svg" → "ops-guide/d.svg"), so that a page's link to a file
// beside it resolves in the output as it does in the content folder.
func staticOut(p string) string {
	top, rest, ok := strings.Cut(p, "/")
	if !ok {
		return p
	}
	return sectionSlug(top) + "/" + rest
}

// staticFiles reads the files at content paths ps (readPages' files) and
// returns them at their output paths (staticOut), in the order of ps, with
// the maps a link check reads (content path → output path, and the set of
// outputs). taken holds the outputs the build writes itself (pages,
// sections' index pages). A file is an error, positioned at it (line 1,
// column 1; file names are prefixed with contentName) and every one
// reported, when it would be written where the build writes a page or
// another such file, or into the assets folder; when it cannot be read;
// when it is over MaxStaticBytes, or takes the files past MaxStaticTotal.
func staticFiles(fsys fs.FS, contentName string, ps []string, taken map[string]bool) ([]File, map[string]string, map[string]bool, sim.ErrorList) {
	var files []File
	var errs sim.ErrorList
	byOut := map[string]string{}
	static := make(map[string]string, len(ps))
	staticOuts := make(map[string]bool, len(ps))
	total := int64(0)
	for _, p := range ps {
		file := path.Join(contentName, p)
		fail := func(format string, args ...any) {
			errs = append(errs, sim.Error{File: file, Pos: sim.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf(format, args...)})
		}
		out := staticOut(p)
		switch {
		case out == AssetDir || strings.HasPrefix(out, AssetDir+"/"):
			fail("this file would be written to %s, in the folder that holds the site's stylesheets and scripts; move it or rename its folder", sim.EscapeName(out))
			continue
		case taken[out] || out == playground.PageFile:
			fail("this file would be written to %s, where the build writes a page; rename it", sim.EscapeName(out))
			continue
		case byOut[norm.NFC.String(out)] != "":
			other := byOut[norm.NFC.String(out)]
			fail("this file would be written to %s, like %s%s; rename one", sim.EscapeName(out), sim.EscapeName(path.Join(contentName, other)), normOnly(p, other))
			continue
		}
		byOut[norm.NFC.String(out)] = p
		// Known to the link check even when it fails below, so that links
		// to it do not fail too.
		static[p], staticOuts[out] = out, true
		data, err := readStatic(fsys, p)
		var big *staticSizeError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Listed by the walk, deleted before it was read (an
			// editor's save by rename): as if never listed.
			delete(static, p)
			delete(staticOuts, out)
			delete(byOut, norm.NFC.String(out))
			continue
		case errors.As(err, &big):
			fail("this file is %d bytes: Kafka Flow publishes files of at most %d bytes (%d MiB) from the content folder", big.size, MaxStaticBytes, MaxStaticBytes>>20)
			continue
		case err != nil:
			fail("cannot read this file: %s", sim.EscapeName(readReason(err)))
			continue
		}
		total += int64(len(data))
		if total > MaxStaticTotal {
			fail("this file takes the files published from the content folder to %d bytes: Kafka Flow allows at most %d (%d MiB) in all", total, MaxStaticTotal, MaxStaticTotal>>20)
			break
		}
		files = append(files, File{Path: out, Data: data})
	}
	return files, static, staticOuts, errs
}

// staticSizeError is a file over MaxStaticBytes, left unread.
type staticSizeError struct{ size int64 }

func (e *staticSizeError) Error() string { return fmt.Sprintf("%d bytes", e.size) }

// readStatic reads one file to publish, refusing one over MaxStaticBytes
// before reading it (and one that grows past it while read). A file held
// in memory (serve's) hands over its bytes without a copy.
func readStatic(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("it is not a regular file")
	}
	if st.Size() > MaxStaticBytes {
		return nil, &staticSizeError{st.Size()}
	}
	if h, ok := f.(HeldFile); ok {
		return h.Bytes(), nil
	}
	b := make([]byte, 0, st.Size())
	b, err = readAll(f, b, MaxStaticBytes+1)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxStaticBytes {
		return nil, &staticSizeError{int64(len(b))}
	}
	if err := kernelFile(st, len(b)); err != nil {
		return nil, err
	}
	return b, nil
}

// errKernelFile is a file that says it is empty and yet reads as bytes:
// one the kernel makes up as it is read (/proc/self/environ, a file of
// /sys), which a symbolic link in the content folder can lead to. Such a
// file is not published, nor read as a page: /proc/self/environ holds the
// build's environment, tokens and all (try12 T1).
var errKernelFile = errors.New("it says it is empty, yet reads as bytes: a file the system makes up as it is read (as under /proc or /sys), not one on disk; publish a copy of it instead")

// kernelFile returns errKernelFile when st, a regular file's, gives size 0
// and n bytes were read from it.
func kernelFile(st fs.FileInfo, n int) error {
	if st.Mode().IsRegular() && st.Size() == 0 && n > 0 {
		return errKernelFile
	}
	return nil
}

// readAll appends r's bytes to b, at most limit of them.
func readAll(r io.Reader, b []byte, limit int) ([]byte, error) {
	for len(b) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):min(cap(b), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// readReason is what went wrong reading a file, without the path the
// error repeats ("permission denied", not "open c/b.md: permission
// denied"): the message names the file itself, relative to where the
// user ran the command.
func readReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
