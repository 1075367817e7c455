package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Marker is the file every build writes at the top of its output folder. It
// lists the files the build wrote, one path a line, so a later build can
// tell that the folder is ours and that nobody added files to it before
// replacing it.
const Marker = ".kflowgen"

const markerHead = "# written by kflowgen build; the next build replaces this folder.\n# files it wrote:\n"

// WriteDir writes the site into the folder out atomically: everything goes
// to a fresh folder next to out (".NAME.new-*"), which then takes out's
// place. Where the system can exchange two folders in one step (Linux's
// renameat2 RENAME_EXCHANGE, macOS's renamex_np RENAME_SWAP), out holds
// the old site or the new one at every instant, whenever the process is
// killed; elsewhere the old folder is renamed away first, and a kill between
// the two renames leaves the old site in ".NAME.old-*". The old site is then
// removed. If anything fails, out is left as it was.
//
// One writer at a time: WriteDir holds an exclusive lock (flock(2)) on
// out's parent folder from before it looks at out until the old site is
// gone. The system drops the lock when its holder exits or is killed, so a
// second writer (another build, or serve --out) waits for the first, up to
// LockWait, and then refuses. Holding the lock, WriteDir knows that every
// ".NAME.new-*" or ".NAME.old-*" folder next to out was left by a writer
// that is gone, and removes it (only when it is a real folder holding a
// Marker file; a symbolic link of that name is never followed).
//
// WriteDir refuses an out that is, is inside, or is a parent of contentDir
// (when not empty); an out that is, or is a parent of, the current folder,
// or the Go module root above either of them;
// an out that holds go.mod or .git; and an existing out that is neither
// empty nor a previous build's output (judged by its Marker file: every file
// in out must be one the marker lists).
func (s *Site) WriteDir(out, contentDir string) error {
	if err := CheckOutputDir(out, contentDir, ""); err != nil {
		return err
	}
	abs, err := canonical(out)
	if err != nil {
		return err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("output folder %s: %w", out, err)
	}
	unlock, err := lockFolder(parent, LockWait)
	if errors.Is(err, errLocked) {
		return fmt.Errorf("output folder %s: another kflowgen has been writing into %s for %v; try again when it is done", out, parent, LockWait)
	}
	if err != nil {
		return fmt.Errorf("output folder %s: locking %s: %w", out, parent, err)
	}
	defer unlock()
	step("locked")
	exists, err := checkReplaceable(out, abs)
	if err != nil {
		return err
	}
	// An earlier build killed while writing leaves its folders behind;
	// under the lock, their writers are gone.
	leftover := removeLeftovers(abs)
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".new-")
	if err != nil {
		return fmt.Errorf("output folder %s: %w", out, err)
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := s.writeFiles(tmp); err != nil {
		return fmt.Errorf("output folder %s: %w", out, err)
	}
	step("written")

	if !exists {
		if err := os.Rename(tmp, abs); err != nil {
			return fmt.Errorf("output folder %s: %w", out, err)
		}
		keep = true
		step("renamed")
		return leftover
	}
	if !noExchange {
		err := exchange(tmp, abs)
		if err == nil {
			// tmp now holds the old site.
			keep = true
			step("exchanged")
			if err := removeOurs(tmp); err != nil {
				return &LeftoverError{Path: tmp, Err: err}
			}
			return leftover
		}
		if !errors.Is(err, errNoExchange) {
			return fmt.Errorf("output folder %s: %w", out, err)
		}
	}
	old, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".old-")
	if err != nil {
		return fmt.Errorf("output folder %s: %w", out, err)
	}
	// Rename needs the name free: take a unique name, then free it.
	if err := os.Remove(old); err != nil {
		return err
	}
	if err := os.Rename(abs, old); err != nil {
		return fmt.Errorf("output folder %s: %w", out, err)
	}
	step("renamed aside")
	if err := os.Rename(tmp, abs); err != nil {
		if rerr := os.Rename(old, abs); rerr != nil {
			return fmt.Errorf("output folder %s: %w (and restoring the old build failed: %v; it is in %s)", out, err, rerr, old)
		}
		return fmt.Errorf("output folder %s: %w", out, err)
	}
	keep = true
	step("renamed")
	if err := removeOurs(old); err != nil {
		return &LeftoverError{Path: old, Err: err}
	}
	return leftover
}

// LockWait is how long WriteDir waits for another writer into the same
// parent folder (another build, or serve --out) before it refuses.
var LockWait = 30 * time.Second

// noExchange makes WriteDir swap folders with two renames, as on a system
// without an exchange (tests of that path set it).
var noExchange bool

// writeHook, when set (by tests), is called at each step of WriteDir:
// "locked", each file written or removed ("file", "remove"), "written",
// and the swap ("exchanged", or "renamed aside" then "renamed").
var writeHook func(step string)

func step(name string) {
	if writeHook != nil {
		writeHook(name)
	}
}

// removeOurs removes a folder of kflowgen's own, its Marker last: if
// anything in it cannot be removed, the marker stays, so the next build
// still knows the folder as its own and tries again.
func removeOurs(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == Marker {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
		step("remove")
	}
	return os.RemoveAll(dir)
}

// LeftoverError is what WriteDir returns when the new site is in place but
// a folder of its own making could not be removed: the previous build,
// renamed aside, or an unfinished build an interrupted run left next to
// the output. The build itself succeeded; callers report it as a warning.
type LeftoverError struct {
	Path string // the folder left behind
	Err  error
}

// Error says the site is written and which folder is left, and why.
func (e *LeftoverError) Error() string {
	return fmt.Sprintf("the new site is in place, but %s could not be removed (%v); remove it by hand", e.Path, e.Err)
}

// Unwrap returns the error the removal met.
func (e *LeftoverError) Unwrap() error { return e.Err }

// removeLeftovers removes the folders an interrupted build left next to
// abs (".NAME.new-*" and ".NAME.old-*"), each only if it is a folder, not a
// symbolic link, and holds a Marker file, so nothing kflowgen did not
// write is touched, and no link is followed. It returns the first folder
// it could not remove. The caller holds the output lock: no writer still
// works in these folders.
func removeLeftovers(abs string) error {
	base := filepath.Base(abs)
	for _, kind := range []string{".new-", ".old-"} {
		matches, _ := filepath.Glob(filepath.Join(filepath.Dir(abs), "."+base+kind+"*"))
		for _, m := range matches {
			if st, err := os.Lstat(m); err != nil || !st.IsDir() {
				continue // a link (to anywhere) or a file: not ours
			}
			if st, err := os.Lstat(filepath.Join(m, Marker)); err != nil || !st.Mode().IsRegular() {
				continue
			}
			if err := removeOurs(m); err != nil {
				return &LeftoverError{Path: m, Err: err}
			}
		}
	}
	return nil
}

// writeFiles writes every file and the marker under dir.
func (s *Site) writeFiles(dir string) error {
	// The marker's head goes first, so that a build killed halfway leaves
	// a folder the next one knows as its own (removeLeftovers); the list
	// of files completes it at the end.
	if err := os.WriteFile(filepath.Join(dir, Marker), []byte(markerHead), 0o644); err != nil {
		return err
	}
	var list strings.Builder
	list.WriteString(markerHead)
	made := map[string]bool{}
	for _, f := range s.Files {
		if d := path.Dir(f.Path); !made[d] {
			made[d] = true
			if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
				return err
			}
		}
		list.WriteString(f.Path)
		list.WriteByte('\n')
	}
	// The files are written one folder to a worker, on up to GOMAXPROCS
	// workers: two creates in one folder take its inode lock in turn, and
	// the one waiting spins on it (rwsem_spin_on_owner), so that parallel
	// writers in one folder cost processor time and gain nothing. Which file
	// comes first does not matter, as the folder is not in place until
	// every one is.
	var groups [][]int
	group := map[string]int{}
	for i, f := range s.Files {
		d := path.Dir(f.Path)
		g, ok := group[d]
		if !ok {
			g = len(groups)
			group[d] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	errs := make([]error, len(s.Files))
	var mu sync.Mutex
	parallel(len(groups), func(g int) {
		for _, i := range groups[g] {
			f := s.Files[i]
			if errs[i] = os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data, 0o644); errs[i] != nil {
				return
			}
			mu.Lock()
			step("file")
			mu.Unlock()
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, Marker), []byte(list.String()), 0o644)
}

// canonical returns p as an absolute, cleaned path with symbolic links in
// its existing part resolved.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	// Resolve links in the longest existing prefix.
	rest := ""
	cur := abs
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// CheckOutputDir reports, before any build, an output folder that
// WriteDir would refuse for where it lies: out is, holds or is inside one
// of the folders the build reads (contentDir, and serve's templates folder
// among others), or it is or holds the current folder, a Go module root or
// a project (go.mod, .git). A build checks it first, so a wrong --out fails
// at once rather than after the whole build.
func CheckOutputDir(out, contentDir, templatesDir string) error {
	if out == "" {
		return errors.New("no output folder given")
	}
	abs, err := canonical(out)
	if err != nil {
		return err
	}
	if err := checkOutput(out, abs, contentDir, "the content folder"); err != nil {
		return err
	}
	if templatesDir != "" {
		return checkOutput(out, abs, templatesDir, "the templates folder")
	}
	return nil
}

// checkOutput refuses output folders whose replacement would destroy the
// user's work.
func checkOutput(out, abs, contentDir, what string) error {
	type guarded struct{ path, what string }
	var protect []guarded
	if cwd, err := os.Getwd(); err == nil {
		if c, err := canonical(cwd); err == nil {
			protect = append(protect, guarded{c, "the current folder"})
			if root := moduleRoot(c); root != "" {
				protect = append(protect, guarded{root, "the module root " + filepath.Base(root)})
			}
		}
	}
	if contentDir != "" {
		if c, err := canonical(contentDir); err == nil {
			protect = append(protect, guarded{c, what + " " + contentDir})
			if root := moduleRoot(c); root != "" {
				protect = append(protect, guarded{root, "the module root " + filepath.Base(root)})
			}
		}
	}
	if contentDir != "" {
		if c, err := canonical(contentDir); err == nil && abs != c && within(abs, c) {
			return fmt.Errorf("refusing to build into %s: it is inside %s %s, which the build reads (and serve watches); build next to it instead", out, what, contentDir)
		}
	}
	for _, g := range protect {
		if g.path == abs {
			return fmt.Errorf("refusing to build into %s: it is %s, which the build would replace", out, g.what)
		}
		if within(g.path, abs) {
			return fmt.Errorf("refusing to build into %s: it holds %s, which the build would replace", out, g.what)
		}
	}
	for _, name := range []string{"go.mod", ".git"} {
		if _, err := os.Lstat(filepath.Join(abs, name)); err == nil {
			return fmt.Errorf("refusing to build into %s: it holds %s, so it looks like a project, not a build output", out, name)
		}
	}
	return nil
}

// checkReplaceable reports whether out exists, and refuses it when it is
// not a folder this tool may replace.
func checkReplaceable(out, abs string) (bool, error) {
	st, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !st.IsDir() {
		return false, fmt.Errorf("refusing to build into %s: it is a file, not a folder", out)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return false, err
	}
	if len(entries) == 0 {
		return true, nil
	}
	marker, err := os.ReadFile(filepath.Join(abs, Marker))
	if err != nil {
		return false, fmt.Errorf("refusing to replace %s: it was not written by kflowgen build (no %s file); remove it or choose another --out", out, Marker)
	}
	var listed []string
	for _, l := range strings.Split(string(marker), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			listed = append(listed, l)
		}
	}
	slices.Sort(listed)
	var foreign string
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || foreign != "" {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(abs, p)
		rel = filepath.ToSlash(rel)
		if rel == Marker {
			return nil
		}
		if _, ok := slices.BinarySearch(listed, rel); !ok {
			foreign = rel
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	if foreign != "" {
		return false, fmt.Errorf("refusing to replace %s: it holds %s, which kflowgen build did not write; move it away or choose another --out", out, foreign)
	}
	return true, nil
}

// moduleRoot returns the nearest folder at or above dir holding go.mod, or "".
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
