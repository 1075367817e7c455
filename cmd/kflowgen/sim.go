package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/spf13/cobra"
)

// simOptions are the arguments of `kflowgen sim`.
type simOptions struct {
	// file is a Markdown page or a bare scenario (YAML) file.
	file string
	// scenarioID picks a fence of a page by its id.
	scenarioID string
	// compare runs the fence's compare run instead of the fence as written.
	compare bool
}

func newSimCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &simOptions{}
	cmd := &cobra.Command{
		Use:   "sim FILE",
		Short: "Print one scenario's trace as JSON",
		Long: "sim runs one scenario through the engine and prints its trace as JSON: the state of every\n" +
			"partition and replica after each beat, each beat's events (kind, text and fields), and every record's fate;\n" +
			"the guide's Trace reference page (trace.html, content/trace.md) describes every field.\n" +
			"FILE is a guide page (.md; choose a fence with --scenario when it has several) or a file\n" +
			"holding one bare scenario (.yaml); one named neither way, such as /dev/stdin, is read as a page\n" +
			"when it has front matter or a ``` fence. FILE may be a pipe: - or /dev/stdin reads the standard input\n" +
			"(cat page.md | kflowgen sim -), whose errors are named stdin:line:col. The fence is run as the build runs it: a failed expect: entry of\n" +
			"either run, or a breach of the engine's invariants, is printed to stderr and exits with 1.\n" +
			"When no file of that name exists, FILE may name a page of the guide built into kflowgen\n" +
			"(kflowgen sim acks.md --scenario acks-one-loss, from any folder); sim says so on stderr.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runSim(o, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&o.scenarioID, "scenario", "", "id of the scenario to run when the page has several")
	cmd.Flags().BoolVar(&o.compare, "compare", false, "run the scenario's compare run (the second of a side-by-side figure's two runs)")
	addScenarioCompletion(cmd)
	return cmd
}

// MaxTraceBytes bounds what kflowgen sim prints for one scenario: its
// trace's JSON, in bytes. A scenario within every limit can describe
// hundreds of megabytes of trace (each beat repeats every partition, group
// member and share-group record); past this, sim says so instead.
const MaxTraceBytes = 64 << 20

// traceLimit is MaxTraceBytes; tests lower it.
var traceLimit int64 = MaxTraceBytes

// runSim parses the chosen fence, runs it as the build does (fence.Run:
// both runs of a fence with compare:, their expect: entries, the engine's
// invariants) and prints the trace asked for.
func runSim(o *simOptions, stdout, stderr io.Writer) error {
	name, sc, err := readFence(o.file, o.scenarioID, o.compare, stderr)
	if err != nil {
		return err
	}
	r := sc.parsed.Run()
	t := r.Trace
	if o.compare {
		t = r.CompareTrace
	}
	if t == nil { // the engine panicked: r.Errors says so
		return positionList(name, r.Errors, sc.pos)
	}
	// Measure the trace first, so that one over the limit prints nothing
	// rather than half a document; then stream it.
	size := &countingWriter{limit: traceLimit}
	if err := writeIndentedJSON(size, t); errors.Is(err, errTooMuch) {
		return fmt.Errorf("%s: the trace of scenario %q is more than %d bytes of JSON, which kflowgen sim does not print: use fewer beats, records, partitions or group members", name, t.ID, traceLimit)
	} else if err != nil {
		return err
	}
	if err := writeIndentedJSON(stdout, t); err != nil {
		return err
	}
	if len(r.Errors) > 0 {
		return positionList(name, r.Errors, sc.pos)
	}
	return nil
}

// readFence reads FILE (a page or a bare scenario; a page of the guide
// built into kflowgen when no such file exists, said on stderr) and picks
// the fence with id want, as sim and figure both do. It returns the name
// errors are positioned in and the chosen fence; with compare, a fence
// without a compare run is an error.
func readFence(file, want string, compare bool, stderr io.Writer) (string, *chosen, error) {
	// A regular file or a pipe ("-", /dev/stdin, a named pipe), at most
	// site.MaxPageBytes of it; a device (/dev/zero, a terminal) is refused.
	src, err := site.ReadInput(file, true)
	if errors.Is(err, fs.ErrNotExist) {
		if b, ok := guidePage(file); ok {
			fmt.Fprintf(stderr, "kflowgen: there is no file %s here: reading the page of the guide built into kflowgen\n", sim.EscapeName(file))
			src, err = b, nil
		} else if strings.EqualFold(filepath.Ext(file), ".md") {
			err = fmt.Errorf("%w; nor is it a page of the guide built into kflowgen, whose pages are %s", err, strings.Join(guidePageNames(), ", "))
		}
	}
	if err != nil {
		return "", nil, err
	}
	name := filepath.ToSlash(file)
	if site.InputName(file) == site.StdinName {
		name = site.StdinName // "-" and /dev/stdin: "stdin:3:7: …"
	}
	sc, err := pickScenario(name, src, want)
	if err != nil {
		return "", nil, err
	}
	if compare && sc.parsed.Compare == nil {
		return "", nil, fmt.Errorf("%s: scenario %q has no compare run", name, sc.parsed.Scenario.ID)
	}
	return name, sc, nil
}

// guidePage returns the page of the embedded guide that name names: a
// page's file ("acks.md") or the same under the repository's content
// folder ("content/acks.md").
func guidePage(name string) ([]byte, bool) {
	p := path.Clean(filepath.ToSlash(name))
	p = strings.TrimPrefix(p, defaultContentDir+"/")
	if !fs.ValidPath(p) || !strings.EqualFold(path.Ext(p), ".md") {
		return nil, false
	}
	b, err := fs.ReadFile(content.FS, p)
	return b, err == nil
}

// guidePageNames lists the embedded guide's pages, as guidePage takes
// them, in lexical order (fs.WalkDir's).
func guidePageNames() []string {
	var names []string
	fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(path.Ext(p), ".md") {
			names = append(names, p)
		}
		return nil
	})
	return names
}

// chosen is a parsed fence and the mapping from its fence-relative
// positions to the file's.
type chosen struct {
	parsed *fence.Parsed
	pos    func(sim.Pos) sim.Pos
}

// pickScenario parses the scenario in src: the whole file, or for a page
// the fence whose id is want (or its only fence). A page is a file named
// .md, or one named otherwise (/dev/stdin, a file without an extension)
// whose text reads as a page (site.LooksLikePage: front matter, a code
// fence); a file named .yaml or .yml is always a bare scenario. A bare
// scenario that does not parse, from a file whose name says neither, is
// also told how it was read.
func pickScenario(name string, src []byte, want string) (*chosen, error) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext != ".md" && (ext == ".yaml" || ext == ".yml" || !site.LooksLikePage(src)) {
		p := fence.Parse(src)
		if len(p.Errors) > 0 {
			errs := positionList(name, p.Errors, samePos)
			if ext == ".yaml" || ext == ".yml" {
				return nil, errs
			}
			return nil, errors.Join(errs, fmt.Errorf("%s was read as one bare scenario, since it has neither front matter nor a ``` fence, as a page has (a file named .md is always read as a page)", name))
		}
		if want != "" && p.Scenario.ID != want {
			return nil, fmt.Errorf("%s holds scenario %q, not %q", name, p.Scenario.ID, want)
		}
		return &chosen{parsed: p, pos: samePos}, nil
	}

	if errs := site.CheckNesting(name, src); errs != nil {
		return nil, siteErrors{errs}
	}
	fences := site.FindFences(src)
	if len(fences) == 0 {
		return nil, fmt.Errorf("%s has no ```kflow fence", name)
	}
	var all sim.ErrorList
	var ids []string
	var found []*chosen
	for _, f := range fences {
		p := fence.Parse(f.Body)
		if len(p.Errors) > 0 {
			all = append(all, positionList(name, p.Errors, f.Pos).ErrorList...)
			continue
		}
		ids = append(ids, p.Scenario.ID)
		if want == "" || p.Scenario.ID == want {
			found = append(found, &chosen{parsed: p, pos: f.Pos})
		}
	}
	switch {
	case want == "" && len(fences) > 1:
		return nil, fmt.Errorf("%s has %d scenarios; choose one with --scenario (ids: %s)", name, len(fences), strings.Join(ids, ", "))
	case len(found) > 1:
		return nil, fmt.Errorf("%s has %d scenarios with id %q; ids must be unique on a page (the build refuses it too)", name, len(found), want)
	case len(found) == 1:
		return found[0], nil
	case len(all) > 0:
		return nil, siteErrors{all}
	default:
		return nil, fmt.Errorf("%s has no scenario with id %q (ids: %s)", name, want, strings.Join(ids, ", "))
	}
}

// positionList turns the parser's fence-relative errors into file errors.
func positionList(name string, errs sim.ErrorList, pos func(sim.Pos) sim.Pos) siteErrors {
	var l sim.ErrorList
	for _, e := range errs {
		l = append(l, sim.Error{File: name, Pos: pos(e.Pos), Msg: e.Msg})
	}
	l.Sort()
	return siteErrors{l}
}

// samePos is the position mapping of a bare scenario file: its text is
// the scenario's.
func samePos(p sim.Pos) sim.Pos { return p }
