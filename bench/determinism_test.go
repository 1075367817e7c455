package bench

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// outputPackages are the packages whose code decides the bytes of a built
// site.
var outputPackages = []string{"../sim", "../sim/scenario", "../svganim", "../site"}

// TestOutputCodeHasNoClockGlobalRandOrFloats reads the non-test source of
// every package on the path from fence to HTML and refuses what would make
// a build depend on the machine or the moment: floating-point types and
// literals (whose printing and rounding invite %v and platform
// differences), the math package, the wall clock (time.Now, time.Since,
// time.Until) and math/rand's global source (only rand.New with an
// explicit seeded source is allowed).
func TestOutputCodeHasNoClockGlobalRandOrFloats(t *testing.T) {
	for _, dir := range outputPackages {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]string{} // local name → import path
			for _, imp := range file.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				name := p[strings.LastIndex(p, "/")+1:]
				if p == "math/rand/v2" {
					name = "rand"
				}
				if imp.Name != nil {
					name = imp.Name.Name
				}
				names[name] = p
				if p == "math" {
					t.Errorf("%s imports math", fset.Position(imp.Pos()))
				}
			}
			ast.Inspect(file, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.Ident:
					if x.Name == "float32" || x.Name == "float64" {
						t.Errorf("%s: %s in output code", fset.Position(x.Pos()), x.Name)
					}
				case *ast.BasicLit:
					if x.Kind == token.FLOAT {
						t.Errorf("%s: floating-point literal %s in output code", fset.Position(x.Pos()), x.Value)
					}
				case *ast.SelectorExpr:
					pkg, ok := x.X.(*ast.Ident)
					if !ok {
						return true
					}
					switch names[pkg.Name] {
					case "time":
						if x.Sel.Name == "Now" || x.Sel.Name == "Since" || x.Sel.Name == "Until" {
							t.Errorf("%s: time.%s in output code", fset.Position(x.Pos()), x.Sel.Name)
						}
					case "math/rand", "math/rand/v2":
						switch x.Sel.Name {
						case "New", "NewPCG", "NewChaCha8", "Rand", "NewSource":
						default:
							t.Errorf("%s: rand.%s uses the global source", fset.Position(x.Pos()), x.Sel.Name)
						}
					}
				}
				return true
			})
		}
		if checked == 0 {
			t.Errorf("%s: no source files found", dir)
		}
	}
}
