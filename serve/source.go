package serve

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// maxCached is the largest file a sourceFS keeps, in bytes: four times
// site.MaxPageBytes, so every page fits and so do a templates folder's
// stylesheets and scripts. A bigger file is read from the disk each time.
const maxCached = 1 << 20

// sourceFS is a watched folder (the content or the templates) as the
// build reads it: an fs.FS over the folder that keeps each file's bytes,
// and each folder's listing, from one build to the next, and forgets them
// when the watcher says they changed (forget). A save then costs the
// build one read of the file saved instead of one of every file of the
// site (500 opens, stats and reads at 500 pages).
//
// The watcher's word is trusted as far as it goes: an event on a file
// forgets that file; one that creates, removes or renames a name forgets
// everything below it and every listing (a folder may have come or gone);
// an event on the folder itself, a lost event (fsnotify.ErrEventOverflow)
// or any other watcher error forgets everything. A symbolic link is never
// kept: its target may change where no watch sees it. Safe for concurrent
// use; a read that raced with a forget is served but not kept, so the
// cache never holds bytes older than the last event it was told of.
type sourceFS struct {
	dir  string // the folder as the user gave it
	abs  string // its absolute path, to match event names
	fsys fs.FS  // os.DirFS(dir)

	mu    sync.Mutex
	epoch uint64 // counts forgets; a read keeps what it read only if none came meanwhile
	files map[string]*sourceFile
	dirs  map[string][]fs.DirEntry
	// reads counts the files read from the disk, for tests.
	reads int
}

// sourceFile is a kept file: its bytes and what Stat said of it.
type sourceFile struct {
	data    []byte
	mode    fs.FileMode
	modTime time.Time
}

// newSourceFS returns the cache of folder dir, empty.
func newSourceFS(dir string) (*sourceFS, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return &sourceFS{dir: dir, abs: abs, fsys: os.DirFS(dir), files: map[string]*sourceFile{}, dirs: map[string][]fs.DirEntry{}}, nil
}

// Open implements fs.FS: a kept file from memory, else the file read from
// the disk (and kept when it is a regular file of at most maxCached bytes
// and no forget came while it was read).
func (c *sourceFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	c.mu.Lock()
	kept, epoch := c.files[name], c.epoch
	c.mu.Unlock()
	if kept != nil {
		return &memFile{name: name, f: kept, r: bytes.NewReader(kept.data)}, nil
	}
	f, err := c.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxCached {
		return f, nil // a folder, a device, a big file: as it is, unkept
	}
	// os.DirFS follows links; a link is served but never kept.
	if lst, err := os.Lstat(filepath.Join(c.dir, filepath.FromSlash(name))); err != nil || !lst.Mode().IsRegular() {
		return f, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCached+1))
	f.Close()
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if len(data) > maxCached {
		return c.fsys.Open(name) // grown while read: as it is, unkept
	}
	read := &sourceFile{data: data, mode: st.Mode(), modTime: st.ModTime()}
	c.mu.Lock()
	c.reads++
	if c.epoch == epoch {
		c.files[name] = read
	}
	c.mu.Unlock()
	return &memFile{name: name, f: read, r: bytes.NewReader(data)}, nil
}

// ReadDir implements fs.ReadDirFS, keeping each folder's listing.
func (c *sourceFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	kept, ok := c.dirs[name]
	epoch := c.epoch
	c.mu.Unlock()
	if ok {
		return slices.Clone(kept), nil
	}
	list, err := fs.ReadDir(c.fsys, name)
	if err != nil {
		return list, err
	}
	c.mu.Lock()
	if c.epoch == epoch {
		c.dirs[name] = list
	}
	c.mu.Unlock()
	return slices.Clone(list), nil
}

// Stat implements fs.StatFS, from the disk (the build stats only links).
func (c *sourceFS) Stat(name string) (fs.FileInfo, error) {
	return fs.Stat(c.fsys, name)
}

// forget drops what the watcher event ev says may have changed.
func (c *sourceFS) forget(ev fsnotify.Event) {
	abs, err := filepath.Abs(ev.Name)
	if err != nil {
		c.forgetAll()
		return
	}
	rel, err := filepath.Rel(c.abs, abs)
	switch {
	case err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)):
		return // not in this folder (a sibling, from the watch on the parent)
	case rel == ".":
		c.forgetAll() // the folder itself: replaced, removed or renamed
		return
	}
	name := filepath.ToSlash(rel)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.files, name)
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		// A name came or went: every listing may be stale, and when the
		// name is a folder, so is everything kept below it.
		clear(c.dirs)
		for p := range c.files {
			if strings.HasPrefix(p, name+"/") {
				delete(c.files, p)
			}
		}
	}
}

// forgetAll drops everything kept.
func (c *sourceFS) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	clear(c.files)
	clear(c.dirs)
}

// memFile is a kept file opened for reading.
type memFile struct {
	name string
	f    *sourceFile
	r    *bytes.Reader
}

// Bytes implements site.HeldFile: the kept bytes, never changed.
func (m *memFile) Bytes() []byte { return m.f.data }

func (m *memFile) Stat() (fs.FileInfo, error) { return memInfo{m}, nil }
func (m *memFile) Read(b []byte) (int, error) { return m.r.Read(b) }
func (m *memFile) Close() error               { return nil }

// memInfo is a kept file's fs.FileInfo.
type memInfo struct{ m *memFile }

func (i memInfo) Name() string       { return path.Base(i.m.name) }
func (i memInfo) Size() int64        { return int64(len(i.m.f.data)) }
func (i memInfo) Mode() fs.FileMode  { return i.m.f.mode }
func (i memInfo) ModTime() time.Time { return i.m.f.modTime }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
