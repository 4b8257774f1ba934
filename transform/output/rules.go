package output

import "github.com/skillopt/skillopt/rules"

// Rules returns the output and history rules (SO3xx) in registry order,
// followed by their invariants (SO420–SO425).
func Rules() []*rules.Rule { return declared() }
