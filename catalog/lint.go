package catalog

import "github.com/skillopt/skillopt/rules"

// LintRules returns the skill (SKxxx) and agent-definition (AGxxx) lint
// rules in registry order.
func LintRules() []*rules.Rule { return nil }
