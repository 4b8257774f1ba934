package lint

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

// A rule that panics stops the run with an error naming the rule and the
// file it was checking.
func TestRuleFailureNamesFile(t *testing.T) {
	boom := &Rule{Rule: &rules.Rule{ID: "SK042", Name: "body-empty", Kind: rules.Lint, Doc: "Boom."},
		Skill: func(*Pass, *Skill) { panic("boom") }, Repo: func(*Pass, *Repo) { panic("boom") }}
	boom.Rule.Run = boom.run
	_ = all() // sets the Run of every rule
	x := &run{env: &rules.Env{}}
	_, err := x.check([]*active{{Rule: boom}}, "x/SKILL.md", unit{skill: &Skill{}})
	var re *rules.RuleError
	if !errors.As(err, &re) || re.Rule != "SK042" || re.Capture != "x/SKILL.md" || !strings.Contains(err.Error(), "panic: boom") {
		t.Fatalf("got %v", err)
	}
	boom.ID = "SK058"
	if _, err := x.check([]*active{{Rule: boom}}, "", unit{repo: &Repo{}}); err == nil || !strings.HasPrefix(err.Error(), "lint: rule SK058 failed: panic: boom") {
		t.Fatalf("repository rule: %v", err)
	}
	if _, err := x.check([]*active{{Rule: bodyEmpty}}, "x", unit{repo: &Repo{}}); err != nil {
		t.Fatal(err)
	}
}

// A configured severity replaces the severity a rule reports with.
func TestPassOverride(t *testing.T) {
	p := newPass(nameTooLong, nil, nil, &rules.Levels{Severity: map[string]rules.Severity{"SK012": rules.Info}})
	p.Report(rules.Error, "f", 0, 0, "x %d", 1)
	if d := p.Diagnostics()[0]; d.Severity != rules.Info || d.Rule != "SK012" || d.Line != 1 || d.Column != 1 || d.Message != "x 1" {
		t.Fatalf("%+v", d)
	}
	p = newPass(nameTooLong, nil, nil, nil)
	p.Report(rules.Info, "f", 2, 3, "y")
	if d := p.Diagnostics()[0]; d.Severity != rules.Info {
		t.Fatalf("an explicit info is kept, not taken for unset: %+v", d)
	}
}
