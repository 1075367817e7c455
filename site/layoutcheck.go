package site

import (
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"text/template/parse"
	"unicode/utf8"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/svganim"
)

// assetRef matches where a template loads a shared asset:
// {{.Assets}}site.css (layoutData.Assets is the path to AssetDir).
var assetRef = regexp.MustCompile(`\{\{-?\s*\.Assets\s*-?\}\}([^"'\s<>{}]+)`)

// checkTemplates reports, at the template's line and column, what would
// make every page of the site broken without a word: an asset that
// layout.html or index.html loads ({{.Assets}}NAME) and that the site does
// not write (a templates folder given with --templates that lacks
// site.css, say), and a layout.html that never writes a page's Content,
// so that every page would be built empty. files are the site's files,
// the assets among them. dir names the templates folder in the errors.
//
// warnings are what builds a working site that is not what its author
// wants: a layout.html that never loads stepper.js or kf-words.js, on a
// site with figures (figures says so), whose figures then stand still at
// their poster beat.
func checkTemplates(tfs fs.FS, tmpl *template.Template, files []File, dir string, figures bool) (errs, warnings sim.ErrorList) {
	if dir == "" {
		dir = "templates"
	}
	have := map[string]bool{}
	for _, f := range files {
		have[f.Path] = true
	}
	for _, name := range []string{"layout.html", "index.html"} {
		src, err := fs.ReadFile(tfs, name)
		if err != nil {
			continue // ParseFS read it; a file gone since is not this check's
		}
		loads := map[string]bool{}
		for _, m := range assetRef.FindAllSubmatchIndex(src, -1) {
			asset := string(src[m[2]:m[3]])
			loads[asset] = true
			if have[path.Join(AssetDir, asset)] {
				continue
			}
			errs = append(errs, sim.Error{File: path.Join(dir, name), Pos: offsetPos(src, m[0]), Msg: fmt.Sprintf(
				"this template loads %s from %s/, which the site does not have: put %s in the templates folder beside %s (kflowgen's own templates/ folder has one), or remove the reference",
				sim.EscapeName(asset), AssetDir, sim.EscapeName(asset), name)})
		}
		if name == "layout.html" && figures {
			for _, script := range []string{svganim.StepperFile, svganim.WordsFile} {
				if !loads[script] {
					warnings = append(warnings, sim.Error{File: path.Join(dir, name), Pos: sim.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf(
						"this layout never loads %s, so the figures stand still at their poster beat: add <script src=\"{{.Assets}}%s\" defer></script> to its <head> (kflowgen's own layout.html loads it)",
						script, script)})
				}
			}
		}
	}
	if !writesContent(tmpl, "layout.html", map[string]bool{}) {
		errs = append(errs, sim.Error{File: path.Join(dir, "layout.html"), Pos: sim.Pos{Line: 1, Col: 1},
			Msg: "this layout never writes a page's text ({{.Content}}), so every page would be built without it: put {{.Content}} where the page goes"})
	}
	errs.Sort()
	return errs, warnings
}

// offsetPos is the line and column (in characters) of byte off of src.
func offsetPos(src []byte, off int) sim.Pos {
	pos := sim.Pos{Line: 1, Col: 1}
	for _, b := range src[:off] {
		if b == '\n' {
			pos.Line, pos.Col = pos.Line+1, 1
		}
	}
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	pos.Col = utf8.RuneCount(src[start:off]) + 1
	return pos
}

// writesContent reports whether template name of t, or one it calls,
// mentions .Content (or $.Content) anywhere: a layout that does not has
// no place for the page.
func writesContent(t *template.Template, name string, seen map[string]bool) bool {
	if seen[name] {
		return false
	}
	seen[name] = true
	tt := t.Lookup(name)
	if tt == nil || tt.Tree == nil || tt.Tree.Root == nil {
		return false
	}
	found := false
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		if found || n == nil {
			return
		}
		switch n := n.(type) {
		case *parse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c)
				}
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
			found = found || writesContent(t, n.Name, seen)
		case *parse.PipeNode:
			if n != nil {
				for _, c := range n.Cmds {
					walk(c)
				}
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.FieldNode:
			found = len(n.Ident) > 0 && n.Ident[0] == "Content"
		case *parse.VariableNode:
			found = len(n.Ident) > 1 && n.Ident[1] == "Content"
		case *parse.ChainNode:
			walk(n.Node)
			found = found || len(n.Field) > 0 && n.Field[0] == "Content"
		}
	}
	walk(tt.Tree.Root)
	return found
}
