package ruleset

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/rules"
)

// caseRoot holds one folder per rule ID, one folder per case below it.
var caseRoot = filepath.Join("..", "..", "testdata", "rules")

// TestEveryRuleHasCases: each rule in the registry has at least one test
// case folder, and no folder names an unknown rule.
func TestEveryRuleHasCases(t *testing.T) {
	for _, r := range All() {
		if r.Kind == rules.Invariant {
			continue // invariants are tested in package rules and on every case below
		}
		cases, _ := filepath.Glob(filepath.Join(caseRoot, r.ID, "*"))
		if len(cases) == 0 {
			t.Errorf("%s has no test cases under testdata/rules/%s", r.ID, r.ID)
		}
	}
	dirs, _ := os.ReadDir(caseRoot)
	for _, d := range dirs {
		if ByID(d.Name()) == nil {
			t.Errorf("testdata/rules/%s names no rule", d.Name())
		}
	}
}

// TestRuleCases runs every capture case of every transform and check rule:
//
//	testdata/rules/<ID>/<case>/input.json   the capture (or input.jsonl, input.har)
//	testdata/rules/<ID>/<case>/skillopt.toml optional configuration
//	testdata/rules/<ID>/<case>/input.json.golden  the file after the rule
//	testdata/rules/<ID>/<case>/want.txt      steps and diagnostics
//
// and checks every invariant on each result. go test ./internal/ruleset
// -update rewrites the golden files.
//
// A rule's cases must prove it works: at least one where it fires (a
// transform is applied, a check reports) and one where it stands aside.
func TestRuleCases(t *testing.T) {
	for _, r := range All() {
		if r.Kind != rules.Transform && r.Kind != rules.Check {
			continue
		}
		cases, _ := filepath.Glob(filepath.Join(caseRoot, r.ID, "*"))
		var tally caseTally
		total := 0
		for _, dir := range cases {
			input := firstExisting(dir, "input.json", "input.jsonl", "input.har")
			if input == "" {
				continue // not a capture case (e.g. a skill tree for lint rules)
			}
			total++
			t.Run(r.ID+"/"+filepath.Base(dir), func(t *testing.T) {
				tally.ran++
				fired, aside := runCase(t, r, dir, input)
				tally.fired = tally.fired || fired
				tally.aside = tally.aside || aside
			})
		}
		// Judged only when every case of the rule ran (not under -run).
		if total > 0 && tally.ran == total {
			if !tally.fired {
				t.Errorf("%s: no case under testdata/rules/%s where it fires (%s)", r.ID, r.ID, firesMeans(r))
			}
			if !tally.aside {
				t.Errorf("%s: no case under testdata/rules/%s where it stands aside", r.ID, r.ID)
			}
		}
	}
}

// caseTally is what the cases of one rule showed.
type caseTally struct {
	ran          int
	fired, aside bool
}

func firesMeans(r *rules.Rule) string {
	if r.Kind == rules.Transform {
		return "a step applied"
	}
	return "a diagnostic reported"
}

// fires reports whether r fired on one capture's result: its step was
// applied (a transform) or it reported (a check).
func fires(r *rules.Rule, res *rules.Result) bool {
	if r.Kind == rules.Transform {
		for _, s := range res.Steps {
			if s.Rule == r && s.Applied {
				return true
			}
		}
		return false
	}
	for _, d := range res.Diagnostics {
		if d.Rule == r.ID {
			return true
		}
	}
	return false
}

func firstExisting(dir string, names ...string) string {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// runCase runs one case and reports whether the rule fired on one of its
// captures and stood aside on one.
func runCase(t *testing.T, r *rules.Rule, dir, input string) (fired, aside bool) {
	cfg := config.Default()
	if data, err := os.ReadFile(filepath.Join(dir, "skillopt.toml")); err == nil {
		if err := config.DecodeWith("skillopt.toml", data, cfg, Registry().Binding()); err != nil {
			t.Fatal(err)
		}
		cfg.Path = filepath.Join(dir, "skillopt.toml")
	}
	cfg.Archive.Dir = t.TempDir()
	f, err := capture.ReadFile(input, nil, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Rules a rule requires run before it.
	pipeline, err := Registry().Resolve([]string{r.ID})
	if err != nil {
		t.Fatal(err)
	}
	env := Env(cfg, pipeline)
	invariants, _ := Invariants(nil, nil)
	var report strings.Builder
	bodies := map[*capture.Capture][]byte{}
	var batch []*rules.Result
	for _, c := range f.Captures {
		res, err := rules.Run(c, pipeline, env)
		if err != nil {
			fmt.Fprintf(&report, "%s: error: %v\n", filepath.Base(c.Name), err)
			continue
		}
		batch = append(batch, res)
		bodies[c] = res.Final.Body
		if fires(r, res) {
			fired = true
		} else {
			aside = true
		}
		for _, s := range res.Steps {
			switch {
			case s.Applied:
				fmt.Fprintf(&report, "%s: %s applied: %d → %d bytes\n", filepath.Base(c.Name), s.Rule.ID, s.BytesBefore, s.BytesAfter)
			case s.Dropped != "":
				fmt.Fprintf(&report, "%s: %s dropped: %s\n", filepath.Base(c.Name), s.Rule.ID, s.Dropped)
			default:
				fmt.Fprintf(&report, "%s: %s unchanged\n", filepath.Base(c.Name), s.Rule.ID)
			}
		}
		var lines []string
		for _, d := range res.Diagnostics {
			lines = append(lines, fmt.Sprintf("%s: %s %s %s: %s", filepath.Base(c.Name), d.Rule, d.Severity, d.Pointer, d.Message))
		}
		sort.Strings(lines)
		for _, l := range lines {
			report.WriteString(l + "\n")
		}
		diags, err := rules.Verify(res, invariants, env)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diags {
			if d.Severity == rules.Error {
				t.Errorf("invariant %s broken: %s", d.Rule, d.Message)
			}
		}
	}
	if diags, err := rules.VerifyBatch(batch, invariants, env); err != nil || len(diags) > 0 {
		t.Errorf("cross-capture invariants: %v %v", diags, err)
	}
	got := f.Rebuild(bodies)
	golden.Check(t, input+".golden", got)
	golden.Check(t, filepath.Join(dir, "want.txt"), []byte(report.String()))
	return fired, aside
}
