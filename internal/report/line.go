package report

import "slices"

// Line is one input's result in the jsonl format: the input's fields and
// its diagnostics, sorted and without duplicates as in a whole report.
type Line struct {
	Input
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// NewLine is the line of one input and its diagnostics.
func NewLine(in Input, diags []Diagnostic) Line {
	return Line{Input: in, Diagnostics: Sorted(diags)}
}

// CrossLine is the line of the diagnostics found across inputs (check's
// stable-prefix and conversation invariants), written after every input's.
type CrossLine struct {
	Cross []Diagnostic `json:"cross_capture"`
}

// Sorted is diags as Finish leaves them: UTF-16 columns equal to the
// code-point ones dropped, sorted, exact duplicates dropped; never nil.
func Sorted(diags []Diagnostic) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		if d.Column16 == d.Column {
			d.Column16 = 0
		}
		out = append(out, d)
	}
	slices.SortStableFunc(out, compare)
	return slices.Compact(out)
}
