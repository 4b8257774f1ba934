package output

import "github.com/skillopt/skillopt/internal/reduce"

// Reduction is what Reduce returns in place of an output.
type Reduction struct {
	Text    string // the complete returned text, recovery label included
	Reducer string // "columnar" or the line reducer's name
	Handle  string // the handle of the original
}

// Reduce applies what SO302 and SO301 would do to one tool output (the
// lossless columnar form first, then the format-aware and generic
// reducers) with the triggers and thresholds of s (nil: the defaults). ok
// is false when the output is to be returned unchanged. Nothing is
// archived; the caller stores the original under Handle before returning
// Text.
func Reduce(text string, s *Settings) (Reduction, bool) {
	if s == nil {
		s = Defaults
	}
	if hasHandle(text) || !triggered(text, s) {
		return Reduction{}, false
	}
	h := handleOf(text)
	if out, ok := columnarOf(text, h, s); ok {
		return Reduction{Text: out, Reducer: "columnar", Handle: h}, true
	}
	out, res, ok := reduce.Smart(text, reduceOptions(s), thresholds(s), h)
	if !ok {
		return Reduction{}, false
	}
	return Reduction{Text: out, Reducer: res.Reducer, Handle: h}, true
}
