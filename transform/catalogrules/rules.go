// Package catalogrules holds the skill-catalog rules (SO1xx): the compact
// skill index, the tag directory and the opt-in prefetch overlay, the
// invariants that verify their promises (SO41x), their [catalog] settings
// and the catalog replay they add to measure's report. (The skill domain
// itself, parsing, search and browsing, is the catalog package.)
package catalogrules

import "github.com/skillopt/skillopt/rules"

// Rules returns the skill-catalog rules (SO1xx) and their invariants
// (SO41x) in registry order.
func Rules() []*rules.Rule { return declared() }
