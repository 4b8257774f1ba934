package lint_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/rules"
)

var update = flag.Bool("update", false, "rewrite the want.txt files of lint rule cases")

// lintCaseRoot holds one folder per lint rule, one folder per case:
//
//	testdata/rules/<ID>/<case>/tree.txtar  the files to lint (see writeTree),
//	                                        with "args PATH..." and
//	                                        "ambient PATH..." directives
//	testdata/rules/<ID>/<case>/want.txt    every diagnostic and the counts
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
	directives := writeTree(t, root, ar)
	args := []string{root}
	var ambient []string
	for _, d := range directives {
		f := strings.Fields(d)
		switch f[0] {
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
	rep, err := run(t, load(t, cfgPath), lint.Options{Paths: args, Ambient: ambient})
	if err != nil {
		t.Fatal(err)
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
	want := filepath.Join(dir, "want.txt")
	if *update {
		if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("%v (go test ./catalog/lint -update writes it)", err)
	}
	if string(data) != got {
		t.Errorf("report differs from want.txt:\n%s", got)
	}
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
