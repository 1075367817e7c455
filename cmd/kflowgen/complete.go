package main

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/kafkaflow/kflowgen/content"
	"github.com/kafkaflow/kflowgen/fence"
	"github.com/kafkaflow/kflowgen/site"
	"github.com/spf13/cobra"
)

// Shell completion for sim and figure (cobra's, loaded with `kflowgen
// completion SHELL`): FILE completes to the Markdown and YAML files and
// the folders under what is typed, then to the pages of the built-in guide
// (which both read when no such file exists); --scenario completes to the
// ids of the scenarios in the FILE given, each with its title.

// addScenarioCompletion registers both completions on cmd, whose FILE is
// its one argument and which has a --scenario flag.
func addScenarioCompletion(cmd *cobra.Command) {
	cmd.ValidArgsFunction = completeScenarioFile
	cmd.RegisterFlagCompletionFunc("scenario", completeScenarioID)
}

// completeScenarioFile completes FILE.
func completeScenarioFile(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	directive := cobra.ShellCompDirectiveNoFileComp
	var out []string
	local := map[string]bool{}
	dir, base := path.Split(filepath.ToSlash(toComplete))
	entries, _ := os.ReadDir(filepath.FromSlash(cmp.Or(dir, ".")))
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(cmp.Or(dir, "."), name)); err == nil {
				isDir = fi.IsDir()
			}
		}
		switch ext := strings.ToLower(path.Ext(name)); {
		case isDir:
			out = append(out, dir+name+"/")
			directive |= cobra.ShellCompDirectiveNoSpace
		case ext == ".md" || ext == ".yaml" || ext == ".yml":
			out = append(out, dir+name)
			local[dir+name] = true
		}
	}
	for _, p := range guidePageNames() {
		if strings.HasPrefix(p, toComplete) && !local[p] {
			out = append(out, p+"\t"+guideTitle(p)+" (built-in guide)")
		}
	}
	return out, directive
}

// completeScenarioID completes --scenario with the ids of FILE's
// scenarios, in page order; a fence that does not parse has no id to
// offer and is left out.
func completeScenarioID(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	file := args[0]
	src, err := site.ReadInput(file, false)
	if errors.Is(err, fs.ErrNotExist) {
		if b, ok := guidePage(file); ok {
			src, err = b, nil
		}
	}
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var bodies [][]byte
	if !strings.EqualFold(filepath.Ext(file), ".md") {
		bodies = [][]byte{src}
	} else if site.CheckNesting(file, src) == nil {
		for _, f := range site.FindFences(src) {
			bodies = append(bodies, f.Body)
		}
	}
	var out []string
	for _, b := range bodies {
		p := fence.Parse(b)
		if len(p.Errors) > 0 || !strings.HasPrefix(p.Scenario.ID, toComplete) {
			continue
		}
		c := p.Scenario.ID
		if p.Scenario.Title != "" {
			c += "\t" + p.Scenario.Title
		}
		out = append(out, c)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// guideTitle is the title: line of a built-in guide page's front matter,
// as written ("" when there is none).
func guideTitle(p string) string {
	b, _ := fs.ReadFile(content.FS, p)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 0; sc.Scan() && n < 20; n++ {
		if t, ok := strings.CutPrefix(sc.Text(), "title: "); ok {
			return strings.Trim(strings.TrimSpace(t), `"'`)
		}
		if n > 0 && strings.TrimSpace(sc.Text()) == "---" {
			break
		}
	}
	return ""
}
