package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/internal/testfs"
	"github.com/skillopt/skillopt/rules"
)

// lintCaseRoot holds one folder per lint rule, one folder per case:
//
//	testdata/rules/<ID>/<case>/tree.txtar  the files to lint (see writeTree),
//	                                        with "args PATH...",
//	                                        "ambient PATH..." and
//	                                        "unsafe-fixes" directives
//	testdata/rules/<ID>/<case>/want.txt    every diagnostic and the counts
//	testdata/rules/<ID>/<case>/fixed.txtar optional: the files of the tree
//	                                        after --fix (the files it holds
//	                                        are compared), which a second
//	                                        --fix must leave alone
//
// A tree may hold a skillopt.toml, which is used as the configuration.
// Cases named valid* must not report the rule; the others must. go test
// ./catalog/lint -update rewrites want.txt.
var lintCaseRoot = filepath.Join("..", "..", "testdata", "rules")

func TestLintRuleCases(t *testing.T) {
	ids := map[string]bool{}
	for _, lr := range lint.Rules() {
		r := lr.Rule
		ids[r.ID] = true
		cases, _ := filepath.Glob(filepath.Join(lintCaseRoot, r.ID, "*"))
		if len(cases) == 0 {
			t.Errorf("%s has no cases", r.ID)
		}
		hasValid, hasInvalid := false, false
		for _, dir := range cases {
			if _, err := os.Stat(filepath.Join(dir, "tree.txtar")); err != nil {
				t.Errorf("%s: no tree.txtar", dir)
				continue
			}
			valid := strings.HasPrefix(filepath.Base(dir), "valid")
			hasValid = hasValid || valid
			hasInvalid = hasInvalid || !valid
			t.Run(r.ID+"/"+filepath.Base(dir), func(t *testing.T) { runLintCase(t, r, dir, valid) })
		}
		if !hasInvalid {
			t.Errorf("%s has no case that reports it", r.ID)
		}
		if !hasValid && r.ID != "SK059" {
			t.Errorf("%s has no valid case", r.ID)
		}
	}
}

func runLintCase(t *testing.T, r *rules.Rule, dir string, valid bool) {
	ar, err := txtar.ParseFile(filepath.Join(dir, "tree.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	directives := testfs.WriteTree(t, root, ar)
	args := []string{root}
	var ambient []string
	unsafe := false
	for _, d := range directives {
		f := strings.Fields(d)
		switch f[0] {
		case "unsafe-fixes":
			unsafe = true
		case "args":
			args = nil
			for _, a := range f[1:] {
				args = append(args, filepath.Join(root, filepath.FromSlash(a)))
			}
		case "ambient":
			for _, a := range f[1:] {
				ambient = append(ambient, filepath.Join(root, filepath.FromSlash(a)))
			}
		default:
			t.Fatalf("unknown directive %q", d)
		}
	}
	cfgPath := ""
	if _, err := os.Stat(filepath.Join(root, "skillopt.toml")); err == nil {
		cfgPath = filepath.Join(root, "skillopt.toml")
	}
	opts := lint.Options{Paths: args, Ambient: ambient}
	rep, err := run(t, load(t, cfgPath), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fixed.txtar")); err == nil {
		defer checkFixes(t, dir, root, ar, rep, lint.FixOptions{Unsafe: unsafe}, func() *lint.Report {
			rep, err := run(t, load(t, cfgPath), opts)
			if err != nil {
				t.Fatal(err)
			}
			return rep
		})
	}
	got := renderReport(rep, root)
	fired := false
	for _, d := range rep.Diagnostics {
		fired = fired || d.Rule == r.ID
	}
	if valid && fired {
		t.Errorf("valid case reports %s:\n%s", r.ID, got)
	}
	if !valid && !fired {
		t.Errorf("case does not report %s:\n%s", r.ID, got)
	}
	golden.Check(t, filepath.Join(dir, "want.txt"), []byte(got))
}

// renderReport prints a report with the temporary root stripped from paths.
func renderReport(rep *lint.Report, root string) string {
	var b strings.Builder
	for _, d := range rep.Diagnostics {
		fmt.Fprintf(&b, "%s:%d:%d: %s %s: %s\n", d.File, d.Line, d.Column, d.Rule, d.Severity, d.Message)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(&b, "error: %v\n", e)
	}
	fmt.Fprintf(&b, "skills %d, agents %d, suppressed %d\n", rep.Skills, rep.Agents, rep.Suppressed)
	s := strings.ReplaceAll(b.String(), root+string(filepath.Separator), "")
	return strings.ReplaceAll(s, root, ".")
}

// checkFixes applies the fixes of a case's report to its tree, compares the
// files with fixed.txtar (-update rewrites it), and checks that linting
// the fixed tree again offers nothing more to fix.
func checkFixes(t *testing.T, dir, root string, tree *txtar.Archive, rep *lint.Report, o lint.FixOptions, relint func() *lint.Report) {
	t.Helper()
	fixes, err := rep.Fixes(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixes {
		if err := os.WriteFile(f.Path, f.After, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := filepath.Join(dir, "fixed.txtar")
	if golden.Update() {
		out := &txtar.Archive{Comment: []byte("# The tree after lint --fix.\n")}
		for _, f := range tree.Files {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Name)))
			if err != nil {
				t.Fatal(err)
			}
			out.Files = append(out.Files, txtar.File{Name: f.Name, Data: data})
		}
		if err := os.WriteFile(want, txtar.Format(out), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		ar, err := txtar.ParseFile(want)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Name)))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(f.Data) {
				t.Errorf("%s after --fix:\n%s\nwant (fixed.txtar):\n%s", f.Name, got, f.Data)
			}
		}
	}
	again, err := relint().Fixes(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range again {
		t.Errorf("a second --fix changes %s:\n%s", f.Path, f.After)
	}
}
