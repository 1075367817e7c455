package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/spf13/cobra"
)

// buildOptions are the flags of `kflowgen build`.
type buildOptions struct {
	// contentDir is the folder of Markdown pages; "" means ./content when
	// it exists, else the guide embedded in the binary.
	contentDir string
	// outDir receives the site.
	outDir string
	// templatesDir is the folder of layouts and assets; "" means
	// ./templates when it holds layout.html, else the built-in ones (as
	// serve chooses them, so that build writes what serve previewed).
	templatesDir string
	// cpuProfile, when set, receives a pprof CPU profile of the build
	// (go tool pprof FILE).
	cpuProfile string
}

// defaultContentDir is the content folder used when --content is not given
// and it exists.
const defaultContentDir = "content"

func newBuildCmd(stdout io.Writer) *cobra.Command {
	o := &buildOptions{}
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Build the guide into a static site",
		Long: "build turns every Markdown page of the content folder into a page of a static site,\n" +
			"running each ```kflow scenario through the engine and drawing it as an animated figure.\n" +
			"Without --content it reads ./content, or the guide built into kflowgen when there is none.\n" +
			"Without --templates it uses ./templates when that holds layout.html (as serve does), else\n" +
			"the built-in templates. The output folder is replaced whole, and only when the build succeeded.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBuild(o, stdout, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.contentDir, "content", "", "folder of Markdown pages (default ./content if it exists, else the built-in guide)")
	f.StringVar(&o.outDir, "out", "public", "output folder, replaced on success")
	f.StringVar(&o.templatesDir, "templates", "", "folder of layouts and assets (default ./templates if it holds layout.html, else the built-in ones)")
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the build to this file")
	return cmd
}

// runBuild builds the site and prints a one-line summary, and on stderr a
// warning when the site was written but a folder of kflowgen's own could
// not be removed (site.LeftoverError).
func runBuild(o *buildOptions, stdout, stderr io.Writer) (err error) {
	tuneGC()
	stop, err := startCPUProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); err == nil {
			err = serr
		}
	}()
	src, dir, err := contentSource(o.contentDir)
	if err != nil {
		return err
	}
	tdir, err := templatesSource(o.templatesDir)
	if err != nil {
		return err
	}
	if err := site.CheckOutputDir(o.outDir, dir, tdir); err != nil {
		return err // before the build, which would be thrown away
	}
	opts := site.Options{Content: src, ContentName: contentName(o.contentDir)}
	if tdir != "" {
		opts.Templates, opts.TemplatesName = os.DirFS(tdir), filepath.ToSlash(filepath.Clean(tdir))
	}
	if dir == "" {
		// Said before the build, so that a reader who expected their own
		// pages knows at once why the summary counts the guide's.
		fmt.Fprintf(stdout, "there is no ./%s folder here: building the guide built into kflowgen (--content DIR builds your own pages)\n", defaultContentDir)
	}
	s, err := site.Build(opts, o.outDir, dir)
	var left *site.LeftoverError
	if errors.As(err, &left) && s != nil {
		fmt.Fprintf(stderr, "kflowgen: warning: %s\n", sim.EscapeName(left.Error()))
	} else if err != nil {
		return wrapSiteErr(err)
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(stderr, "kflowgen: warning: %s\n", w.Error())
	}
	// Frames as site.MaxFrames counts them (both runs of a side-by-side
	// figure), so that the summary and the limit's message agree.
	n := 0
	for _, f := range s.Figures {
		n += f.Frames
	}
	frames := ""
	if len(s.Figures) > 0 {
		frames = " (" + count(n, "frame") + ")"
	}
	// s.Pages leaves out the home page (index.md, or a generated contents
	// page without one), which every build writes.
	files := ""
	if len(s.Static) > 0 {
		files = ", and " + count(len(s.Static), "file") + " kept with the pages,"
	}
	fmt.Fprintf(stdout, "built the home page and %s with %s%s%s into %s\n", count(len(s.Pages), "page"), count(len(s.Figures), "figure"), frames, files, o.outDir)
	return nil
}

// count writes n and the noun, in the plural unless n is 1: "1 page",
// "0 figures", "12 frames".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// contentSource opens the content: the folder given, ./content when it
// exists, or the embedded guide. dir is the folder on disk ("" when
// embedded), which the output folder must never replace.
func contentSource(flag string) (fsys fs.FS, dir string, err error) {
	dir = flag
	if dir == "" {
		st, err := os.Stat(defaultContentDir)
		if err != nil || !st.IsDir() {
			return content.FS, "", nil
		}
		dir = defaultContentDir
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, "", fmt.Errorf("content folder %s: %w", slashDir(dir), errors.Unwrap(err))
	}
	if !st.IsDir() {
		return nil, "", fmt.Errorf("content folder %s is not a folder", dir)
	}
	return os.DirFS(dir), dir, nil
}

// contentName is how error messages name the content folder: as the user
// typed it, or "content".
func contentName(flag string) string {
	if flag == "" {
		return defaultContentDir
	}
	return filepath.ToSlash(filepath.Clean(flag))
}

// siteErrors marks a sim.ErrorList as already positioned.
type siteErrors struct{ sim.ErrorList }

func (siteErrors) positioned() {}

// wrapSiteErr marks positioned errors so that printErr prints them as they
// are.
func wrapSiteErr(err error) error {
	var l sim.ErrorList
	if errors.As(err, &l) {
		return siteErrors{l}
	}
	return err
}

// Garbage collection for a build, one burst of allocation that ends with
// the process. A small site is built without collecting at all: nothing is
// collected until the heap reaches buildFirstCollection, which the guide
// (about 62 MB allocated in all) never does, and a collection while it is
// built cost more processor than the fresh pages it saves (`kflowgen bench
// --against-hugo`, two cores, guide: 117 ms of processor time instead of
// 129 ms with GOGC=400, 150 ms with Go's 100; 16.8k page faults instead of
// 14.8k). From the first collection on, the heap may grow by 400% rather
// than Go's 100%, but is collected as often as it takes to stay under
// buildMemoryLimit: 1,000 pages took 14.3 s of processor time instead of
// 20.3 s, peaking at 740 MB instead of 640 MB. GOGC and GOMEMLIMIT, when
// set, win (GOGC alone keeps Go's own memory limit).
const (
	buildFirstCollection = 256 << 20 // bytes
	buildGCPercent       = 400
	buildMemoryLimit     = 768 << 20 // bytes
)

func tuneGC() {
	gogc, limit := os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == ""
	if !gogc || !limit {
		if gogc {
			debug.SetGCPercent(buildGCPercent)
		}
		if limit {
			debug.SetMemoryLimit(buildMemoryLimit)
		}
		return
	}
	// No collection but the one the limit calls for; once one has run
	// (the cleanup of an object nothing reaches runs after the first
	// collection that finds it), the percent and the full limit take over.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(buildFirstCollection)
	runtime.AddCleanup(new(gcSentinel), func(struct{}) {
		debug.SetGCPercent(buildGCPercent)
		debug.SetMemoryLimit(buildMemoryLimit)
	}, struct{}{})
}

// gcSentinel is the object tuneGC watches for the first collection; its
// pointer keeps it out of the allocator's tiny blocks, whose objects are
// freed only together.
type gcSentinel struct{ _ *byte }
