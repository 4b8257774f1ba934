package transform

import "github.com/skillopt/skillopt/rules"

// ToolRules returns the tool-deferral rules (SO2xx) in registry order.
func ToolRules() []*rules.Rule { return nil }
