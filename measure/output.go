package measure

import "github.com/skillopt/skillopt/rules"

// OutputReport details what the output rules do to a capture.
type OutputReport struct{}

// outputReport returns the output detail of a pipeline result, or nil.
func outputReport(res *rules.Result, opts Options) *OutputReport { return nil }
