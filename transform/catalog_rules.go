package transform

import "github.com/skillopt/skillopt/rules"

// CatalogRules returns the skill-catalog rules (SO1xx) in registry order.
func CatalogRules() []*rules.Rule { return nil }
