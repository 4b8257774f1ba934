package transform

import "github.com/skillopt/skillopt/rules"

// OutputRules returns the output and history rules (SO3xx) in registry order.
func OutputRules() []*rules.Rule { return nil }
