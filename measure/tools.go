package measure

import "github.com/skillopt/skillopt/rules"

// ToolReport details what the tools rules do to a capture.
type ToolReport struct{}

// toolReport returns the tools detail of a pipeline result, or nil.
func toolReport(res *rules.Result, opts Options) *ToolReport { return nil }
