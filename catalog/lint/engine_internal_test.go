package lint

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

// A rule that panics stops the run with an error naming the rule and the
// file it was checking.
func TestSafely(t *testing.T) {
	err := safely(bodyEmpty, "x/SKILL.md", func() { panic("boom") })
	var re *rules.RuleError
	if !errors.As(err, &re) || re.Rule != "SK042" || re.Capture != "x/SKILL.md" || !strings.Contains(err.Error(), "panic: boom") {
		t.Fatalf("got %v", err)
	}
	if err := safely(indexBudget, "", func() { panic("boom") }); err == nil || !strings.HasPrefix(err.Error(), "lint: rule SK058 failed: panic: boom") {
		t.Fatalf("repository rule: %v", err)
	}
	if err := safely(bodyEmpty, "x", func() {}); err != nil {
		t.Fatal(err)
	}
}

// A configured severity replaces the severity a rule reports with.
func TestPassOverride(t *testing.T) {
	info := rules.Info
	p := &Pass{Rule: nameTooLong, override: &info}
	p.Report(rules.Error, "f", 0, 0, "x %d", 1)
	if d := p.diags[0]; d.Severity != rules.Info || d.Rule != "SK012" || d.Line != 1 || d.Column != 1 || d.Message != "x 1" {
		t.Fatalf("%+v", d)
	}
}
