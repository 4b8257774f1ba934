package lint_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/rules"
)

// TestEveryFindingHasARule: each kind of loadout finding is reported by
// exactly one AG rule, as an error when fatal and with the rule's own
// severity for notes.
func TestEveryFindingHasARule(t *testing.T) {
	seen := map[string]catalog.FindingKind{}
	for k := catalog.AgentFrontmatterInvalid; k <= catalog.SelectedSkillLong; k++ {
		for _, fatal := range []bool{true, false} {
			lo := &catalog.Loadout{Findings: []catalog.Finding{{Kind: k, Fatal: fatal, File: "a.md", Line: 2, Col: 3, Message: "m"}}}
			ds := lint.LoadoutDiagnostics(lo)
			if len(ds) != 1 {
				t.Fatalf("kind %d: %d diagnostics", k, len(ds))
			}
			d := ds[0]
			if !strings.HasPrefix(d.Rule, "AG") || d.File != "a.md" || d.Line != 2 || d.Column != 3 || d.Message != "m" {
				t.Errorf("kind %d: %+v", k, d)
			}
			if prev, ok := seen[d.Rule]; ok && prev != k {
				t.Errorf("%s reports both kind %d and kind %d", d.Rule, prev, k)
			}
			seen[d.Rule] = k
			if fatal && d.Severity != rules.Error {
				t.Errorf("kind %d: fatal finding is %s", k, d.Severity)
			}
		}
	}
	if len(seen) != 13 {
		t.Errorf("%d AG rules report findings, want 13", len(seen))
	}
}

// TestLoadoutDiagnostics: the diagnostics of a resolved loadout keep the
// order of its findings and the severities lint gives them.
func TestLoadoutDiagnostics(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "private", "a", "SKILL.md"), "---\nname: a\n---\n")
	a := catalog.ParseAgent(filepath.Join(dir, "agent.md"), []byte("---\nskills: [later, a]\nskillPath: [private, gone]\n---\n"))
	lo := catalog.ResolveLoadout(a, catalog.LoadoutOptions{})
	var got []string
	for _, d := range lint.LoadoutDiagnostics(lo) {
		got = append(got, fmt.Sprintf("%s %s %d:%d", d.Rule, d.Severity, d.Line, d.Column))
	}
	want := "AG006 error 3:22 AG010 info 2:10 AG009 error 2:17"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}
