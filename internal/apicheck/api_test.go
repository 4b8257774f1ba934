// Package apicheck holds a test of the module's public API: no exported
// identifier of a public package mentions a type of an internal package,
// so the public packages are usable from outside the module.
package apicheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPublicAPIUsesNoInternalTypes(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (strings.HasPrefix(base, ".") || base == "testdata" || base == "internal" || base == "cmd") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		checked++
		checkFile(t, rel, p)
		return nil
	})
	if checked < 20 {
		t.Fatalf("only %d files checked", checked)
	}
}

// checkFile reports exported declarations whose types name an import from
// an internal package.
func checkFile(t *testing.T, rel, path string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	internal := map[string]string{}
	for _, im := range f.Imports {
		ip, _ := strconv.Unquote(im.Path.Value)
		if !strings.Contains(ip, "/internal/") {
			continue
		}
		name := ip[strings.LastIndex(ip, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		internal[name] = ip
	}
	if len(internal) == 0 {
		return
	}
	report := func(what string, n ast.Node) {
		ast.Inspect(n, func(x ast.Node) bool {
			if sel, ok := x.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" {
					t.Errorf("%s: %s uses %s.%s (from %s)", fset.Position(sel.Pos()), what, id.Name, sel.Sel.Name, internal[id.Name])
				}
			}
			return true
		})
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv)) {
				report("func "+d.Name.Name, d.Type)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						exportedParts(s.Type, func(n ast.Node) { report("type "+s.Name.Name, n) })
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && s.Type != nil {
							report("var "+n.Name, s.Type)
						}
					}
				}
			}
		}
	}
}

// exportedParts calls f for what of a type declaration is public: the
// exported fields of a struct, the methods of an interface, or the type.
func exportedParts(typ ast.Expr, f func(ast.Node)) {
	switch t := typ.(type) {
	case *ast.StructType:
		for _, fld := range t.Fields.List {
			for _, n := range fld.Names {
				if n.IsExported() {
					f(fld.Type)
					break
				}
			}
			if len(fld.Names) == 0 {
				f(fld.Type) // embedded
			}
		}
	default:
		f(t)
	}
}

func exportedRecv(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	t := fl.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}
