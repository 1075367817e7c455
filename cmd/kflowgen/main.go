// Command kflowgen turns Kafka Flow's concept guide — Markdown pages with
// ```kflow scenario fences — into a static site whose figures are
// animations computed at build time by the engine (package sim).
//
//	kflowgen build [--content DIR] [--out DIR]   build the site (default ./public)
//	kflowgen sim FILE [--scenario ID]            print one scenario's trace as JSON
//	kflowgen serve [--content DIR] [--port N]    preview: rebuild on save, reload the browser
//	kflowgen bench [--content DIR]               measure build time, page weight, engine speed
//	kflowgen new DIR                             write a starter content folder
//	kflowgen completion bash|zsh|fish|powershell print a shell completion script
//	kflowgen --version                           print the module and engine versions
//	kflowgen figure FILE [--scenario ID] [--format html|svg --beat N] [-o FILE]
//	                                             export one figure (HTML) or one frame (SVG)
//
// Errors in the user's files are printed one a line as file:line:col:
// message, and the command exits with status 1.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status. Nothing
// in the program writes to os.Stdout or os.Stderr directly, so every command
// can be run in process by tests.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		if strings.HasPrefix(err.Error(), "unknown command") && len(args) > 0 {
			var names []string
			for _, c := range root.Commands() {
				if c.IsAvailableCommand() {
					names = append(names, c.Name())
				}
			}
			err = fmt.Errorf("unknown command %q (commands: %s; see kflowgen --help)", args[0], strings.Join(names, ", "))
			if s := root.SuggestionsFor(args[0]); len(s) > 0 {
				err = fmt.Errorf("unknown command %q (did you mean %q?)", args[0], s[0])
			}
		}
		printErr(stderr, err)
		return 1
	}
	return 0
}

// printErr prints err once: an error list one error a line, anything else
// as "kflowgen: message".
func printErr(w io.Writer, err error) {
	var multi interface{ Unwrap() []error }
	if errors.As(err, &multi) {
		for _, e := range multi.Unwrap() {
			printErr(w, e)
		}
		return
	}
	var pos positioned
	if errors.As(err, &pos) {
		fmt.Fprintln(w, err.Error())
		return
	}
	// A plain error is one line; a name in it (a path from the file
	// system, a flag's value) must not start another.
	fmt.Fprintf(w, "kflowgen: %s\n", sim.EscapeName(err.Error()))
}

// positioned marks errors that already read "file:line:col: message" (or a
// list of them, one a line) and are printed as they are.
type positioned interface {
	error
	positioned()
}

// newRootCmd returns the root command with every subcommand. Each
// subcommand is built by its own newXCmd from an options struct and runs in
// its runX function.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "kflowgen",
		Short: "Build Kafka Flow's animated concept guide",
		Long: "kflowgen builds Kafka Flow's concept guide: Markdown pages whose ```kflow fences\n" +
			"describe small Kafka clusters, simulated beat by beat and drawn as animated figures.",
		SilenceErrors: true,
		SilenceUsage:  true,
		// run words the suggestion itself, on the error's one line.
		DisableSuggestions:         true,
		SuggestionsMinimumDistance: 2,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	// --version prints the module's version (the build info of the
	// binary) and the engine's (sim.EngineVersion).
	root.Version = versionString()
	root.SetVersionTemplate("kflowgen {{.Version}}\n")
	// `kflowgen completion bash|zsh|fish|powershell` is cobra's own
	// completion command; its help says how to load each script.
	root.CompletionOptions.HiddenDefaultCmd = false
	root.AddCommand(
		newBuildCmd(stdout),
		newSimCmd(stdout, stderr),
		newServeCmd(stdout, stderr),
		newBenchCmd(stdout, stderr),
		newNewCmd(stdout),
		newFigureCmd(stdout, stderr),
	)
	// cobra's completion command has no action of its own, so a shell it
	// does not know ("completion tcsh") printed its help and exited 0;
	// it is an error naming the shells it does know.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Args = cobra.ArbitraryArgs // RunE names the shells; cobra's NoArgs said "unknown command"
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			var shells []string
			for _, s := range cmd.Commands() {
				if s.IsAvailableCommand() {
					shells = append(shells, s.Name())
				}
			}
			return fmt.Errorf("completion: no script for the shell %q (expected one of: %s)", args[0], strings.Join(shells, ", "))
		}
	}
	return root
}

// versionString is what --version prints after "kflowgen ": the main
// module's version and the engine's, sim.EngineVersion; see moduleVersion.
func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return moduleVersion(bi) + " (engine " + sim.EngineVersion + ")"
}

// moduleVersion words the main module's version as the Go toolchain
// stamped it into the binary (runtime/debug.ReadBuildInfo; nil when the
// binary has no build info): a tag, or a pseudo-version naming the commit
// ("+dirty" for a modified tree). When the version is "(devel)" it adds
// the settings vcs.revision ("commit <sha>") and vcs.modified
// ("(modified)") when they are there, and otherwise says that no commit
// was stamped and why: go run, -buildvcs=false (on the command line or in
// GOFLAGS, which the binary cannot tell apart: the flag is not among the
// settings recorded) and a linked git worktree
// (whose .git is a file, which the toolchain does not take for a
// repository: golang/go#58218) leave the settings out, and a bare
// "(devel)" read as if it named a build.
func moduleVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "(unknown: the binary carries no build info)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	stamped := false
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			stamped = true
			// A pseudo-version already names the commit.
			if !strings.Contains(v, s.Value[:min(12, len(s.Value))]) {
				v += " commit " + s.Value
			}
		case s.Key == "vcs.modified" && s.Value == "true" && !strings.HasSuffix(v, "+dirty"):
			v += " (modified)"
		}
	}
	if v == "(devel)" && !stamped {
		v = "(devel, no commit stamped: go run, a linked git worktree and -buildvcs=false, also when GOFLAGS holds it (see go env GOFLAGS), leave it out; go build -buildvcs=true ./cmd/kflowgen in a clone stamps it)"
	}
	return v
}
