// Package rulegen writes a rule family's registry list from the family's
// own source. A rule is a package-level variable whose value holds a
// rules.Rule literal with a string ID; the generated file lists every such
// variable in ID order, so that adding a rule means writing its file and
// its test cases and regenerating, never editing a list by hand. (Clippy
// keeps its lint list the same way; go vet and staticcheck keep theirs by
// hand.)
//
// The generator reads source with go/parser rather than importing the
// family, so it still runs when the list it replaces no longer compiles
// (a rule renamed or removed). internal/archtest runs it for every family
// and compares with the committed file; `go test ./internal/archtest
// -update` rewrites them.
package rulegen

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// File is the name of the generated file in each family's folder.
const File = "rules_gen.go"

// Family describes one family's generated list.
type Family struct {
	// Dir is the family's package folder.
	Dir string
	// Elem is the list's element type as the package spells it:
	// "*rules.Rule", or "*Rule" where the package wraps rules.Rule.
	Elem string
	// Prefixes orders IDs by their letter prefix first (lint: "SK" before
	// "AG"); IDs whose prefix is not listed come after, by ID. Empty means
	// plain ID order.
	Prefixes []string
}

// Rule is one declared rule.
type Rule struct {
	ID, Var string
	Pos     token.Position
}

// Declared returns the rules declared in the non-test Go files of dir,
// in the family's order. Two variables with one ID, or a rule literal
// whose ID is not a string literal, are errors.
func Declared(f Family) ([]Rule, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(f.Dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []Rule
	seen := map[string]Rule{}
	for _, name := range names {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") || base == File {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		found, err := fileRules(fset, file)
		if err != nil {
			return nil, err
		}
		for _, r := range found {
			if prev, ok := seen[r.ID]; ok {
				return nil, fmt.Errorf("%s: rule %s is declared twice (%s at %s)", r.Pos, r.ID, prev.Var, prev.Pos)
			}
			seen[r.ID] = r
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Rule) int {
		return cmp.Or(cmp.Compare(rank(f.Prefixes, a.ID), rank(f.Prefixes, b.ID)), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

// rank is the position of id's prefix in prefixes, or len(prefixes).
func rank(prefixes []string, id string) int {
	for i, p := range prefixes {
		if strings.HasPrefix(id, p) {
			return i
		}
	}
	return len(prefixes)
}

// fileRules finds the package-level variables of file whose value holds a
// rule literal.
func fileRules(fset *token.FileSet, file *ast.File) ([]Rule, error) {
	var out []Rule
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, val := range vs.Values {
				if i >= len(vs.Names) {
					break
				}
				id, pos, err := ruleID(val)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", fset.Position(pos), err)
				}
				if id != "" {
					out = append(out, Rule{ID: id, Var: vs.Names[i].Name, Pos: fset.Position(vs.Names[i].Pos())})
				}
			}
		}
	}
	return out, nil
}

// ruleID returns the ID of the first rules.Rule literal within expr that
// sets one, or "" when there is none.
func ruleID(expr ast.Expr) (id string, pos token.Pos, err error) {
	ast.Inspect(expr, func(n ast.Node) bool {
		if id != "" || err != nil {
			return false
		}
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isRuleType(lit.Type) {
			return true
		}
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if key, ok := kv.Key.(*ast.Ident); !ok || key.Name != "ID" {
				continue
			}
			bl, ok := kv.Value.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				err, pos = fmt.Errorf("a rule's ID must be a string literal"), kv.Value.Pos()
				return false
			}
			id, err = strconv.Unquote(bl.Value)
			pos = bl.Pos()
			return false
		}
		return true
	})
	return id, pos, err
}

// isRuleType reports whether t is rules.Rule (the framework's type,
// wherever the family embeds or wraps it).
func isRuleType(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Rule" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "rules"
}

// Source returns the generated file for f.
func Source(f Family) ([]byte, error) {
	rs, err := Declared(f)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("%s: no rule is declared", f.Dir)
	}
	pkg, err := packageName(f.Dir)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/rulegen from this package's rule declarations; DO NOT EDIT.\n")
	b.WriteString("// go test ./internal/archtest -update rewrites it.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	if strings.Contains(f.Elem, "rules.") {
		b.WriteString("import \"github.com/skillopt/skillopt/rules\"\n\n")
	}
	b.WriteString("// declared returns a new list of the rules this package declares, in\n// registry order.\n")
	fmt.Fprintf(&b, "func declared() []%s {\n\treturn []%s{\n", f.Elem, f.Elem)
	for _, r := range rs {
		fmt.Fprintf(&b, "\t\t%s, // %s\n", r.Var, r.ID)
	}
	b.WriteString("\t}\n}\n")
	return format.Source(b.Bytes())
}

// packageName reads the package clause of a non-test file in dir.
func packageName(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == File {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err != nil {
			return "", err
		}
		return f.Name.Name, nil
	}
	return "", fmt.Errorf("%s: no Go file", dir)
}
