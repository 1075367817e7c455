package sim

import (
	"go/ast"
	"go/parser"
	"go/token"
	iofs "io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReadersUseTheRecord walks every Go file of the module outside sim/
// (the renderer, the site, serve, bench, cmd) and fails where one reads an
// event or a message by its kind word instead of sim's constants, or
// parses a member's number back out of its name: the trace records kinds
// as Kind and MessageKind constants and members' numbers
// (MemberLife.Number), so nothing outside the engine needs either.
//
// Flagged: a string literal equal to a kind that contains "-" (no other
// word looks like "consumer-leave"), anywhere; a literal equal to any kind
// compared with a .Kind field, as a case of a switch on one, or converted
// to sim.Kind or sim.MessageKind; and, outside tests, a strings call that
// trims a prefix ending in "-" off a name (strings.TrimPrefix(name,
// group+"-") and the like) or splits at "-".
func TestReadersUseTheRecord(t *testing.T) {
	kinds := map[string]bool{}
	for _, s := range kindFields {
		kinds[string(s.kind)] = true
	}
	for _, s := range messageFields {
		kinds[string(s.kind)] = true
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != ".." && (path == filepath.Join("..", "sim") || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		for _, bad := range kindReads(f, kinds, !strings.HasSuffix(path, "_test.go")) {
			t.Errorf("%s: %s", fset.Position(bad.Pos()), describeRead(bad))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files outside sim/", checked)
	}
}

// kindReads returns the nodes of f that read a kind word or, when names is
// set (code, not tests, whose ids may have dashes of their own), parse a
// member name (see TestReadersUseTheRecord).
func kindReads(f *ast.File, kinds map[string]bool, names bool) []ast.Node {
	var out []ast.Node
	lit := func(e ast.Expr) (string, bool) {
		bl, ok := e.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(bl.Value)
		return s, err == nil
	}
	isKindField := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Kind"
	}
	isKind := func(e ast.Expr) bool {
		s, ok := lit(e)
		return ok && kinds[s]
	}
	// splitsAtDash: a prefix built as group + "-", or (bare) a lone "-"
	// to split at; a bare "-" trimmed off is a sign, not a name.
	splitsAtDash := func(e ast.Expr, bare bool) bool {
		if s, ok := lit(e); ok && s == "-" {
			return bare
		}
		b, ok := e.(*ast.BinaryExpr)
		if !ok || b.Op != token.ADD {
			return false
		}
		s, ok := lit(b.Y)
		return ok && strings.HasSuffix(s, "-")
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if s, ok := lit(n); ok && kinds[s] && strings.Contains(s, "-") {
				out = append(out, n)
			}
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) &&
				(isKindField(n.X) && isKind(n.Y) || isKindField(n.Y) && isKind(n.X)) {
				out = append(out, n)
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && isKindField(n.Tag) {
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						if isKind(e) {
							out = append(out, e)
						}
					}
				}
			}
		case *ast.CallExpr:
			fun, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, _ := fun.X.(*ast.Ident)
			switch {
			case pkg != nil && pkg.Name == "sim" && (fun.Sel.Name == "Kind" || fun.Sel.Name == "MessageKind"):
				if len(n.Args) == 1 && isKind(n.Args[0]) {
					out = append(out, n)
				}
			case names && pkg != nil && pkg.Name == "strings":
				switch fun.Sel.Name {
				case "TrimPrefix", "CutPrefix", "HasPrefix", "Cut", "Split", "SplitN", "SplitAfter", "Index", "LastIndex":
					bare := fun.Sel.Name != "TrimPrefix" && fun.Sel.Name != "CutPrefix" && fun.Sel.Name != "HasPrefix"
					for _, a := range n.Args[1:] {
						if splitsAtDash(a, bare) {
							out = append(out, n)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// describeRead says what a flagged node does wrong.
func describeRead(n ast.Node) string {
	if c, ok := n.(*ast.CallExpr); ok {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.X.(*ast.Ident).Name == "strings" {
			return "parses a name at \"-\": read the member's number from the trace (sim.MemberLife.Number)"
		}
	}
	return "reads an event or message kind by its word: use sim's Kind and MessageKind constants"
}
