package validity

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// Rules returns the family in registry order.
func Rules() []*rules.Rule { return declared() }

// Check runs every rule of the family on c through the rules driver and
// returns their findings, for validate and for the engine's guard.
// Severities are the rules' own unless env says otherwise. A rule that
// fails is a *rules.RuleError.
func Check(c *capture.Capture, env *rules.Env) ([]rules.Diagnostic, error) {
	return rules.RunChecks(c, Rules(), env)
}

// walk helpers over the index

// children returns the elements of an array node, or the node itself when
// it is a single object standing for a one-element array (Gemini).
func elems(d *capture.Doc, i capture.Node) []capture.Node {
	switch d.Kind(i) {
	case capture.Array:
		var out []capture.Node
		for c := range d.Children(i) {
			out = append(out, c)
		}
		return out
	case capture.Object:
		return []capture.Node{i}
	}
	return nil
}
