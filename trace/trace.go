// Package trace reads skill executions — auggie router execution traces and
// the skill runs inside Pi session files — and judges their health offline:
// a deterministic classifier with the router's own heuristics plus a few of
// skillopt's (each named and switchable), regression detection against a
// skill's history, per-skill reports, degradation alerts with a cooldown
// state, and count-based retention plans.
//
// The package returns data; rendering and printing belong to the caller.
package trace

import "strings"

// Sources of a run.
const (
	SourceTrace   = "auggie-trace"
	SourceSession = "pi-session"
)

// Run is one skill execution: a whole auggie trace file, or one skill run of
// a Pi session.
type Run struct {
	// File names where the run was read: the trace file, or SESSION#N for
	// the N-th run (1-based) of a Pi session.
	File string
	// Source is SourceTrace or SourceSession.
	Source string
	// Skill is the skill's name.
	Skill string
	// Timestamp is when the run finished, in milliseconds since the Unix
	// epoch (0 when unknown).
	Timestamp int64
	// Model is the model that ran the skill, as recorded.
	Model string
	// Provider is the provider of Model when the record names one: the
	// first segment of a fully qualified provider/vendor/model, or a Pi
	// assistant message's provider. Empty when unknown.
	Provider string
	// Route is the router's execution route; nil when the record has none.
	Route *Route
	// Calls are the tool calls of the run, in order.
	Calls []Call
	// FinalText is the run's final output.
	FinalText string
	// StoppedReason is why the run stopped: completed, timeout,
	// inactivity, aborted or another word (see docs/trace.md for the
	// mapping of Pi stop reasons).
	StoppedReason string
}

// Route is the execution route the router chose for a run.
type Route struct {
	Tier, Complexity, Risk, Reason string
	// Confidence is the router's confidence in the route, 0..1; valid only
	// when HasConfidence is set.
	Confidence    float64
	HasConfidence bool
}

// Call is one tool call of a run.
type Call struct {
	// Index is the 0-based position of the call in its run.
	Index int
	// Server and Tool name the tool (Server is empty for Pi's own tools).
	Server, Tool string
	// Args are the call's arguments as compact JSON; nil when absent.
	Args []byte
	// ResultChars is the size of the recorded result (or its preview) in
	// characters; TotalChars is the full result's size when a truncation
	// note states it, else ResultChars.
	ResultChars, TotalChars int
	// Blocked reports a result withheld by an overflow ceiling.
	Blocked bool
	// IsError reports a result the tool marked as an error.
	IsError bool
	// Timestamp is when the result arrived, in milliseconds (0 when
	// unknown).
	Timestamp int64
}

// Name returns server/tool, or the tool alone when there is no server.
func (c *Call) Name() string {
	if c.Server == "" {
		return c.Tool
	}
	return c.Server + "/" + c.Tool
}

// DurationMs is the time from the first to the last tool call (0 with fewer
// than two calls or when the clock went backwards).
func (r *Run) DurationMs() int64 {
	if len(r.Calls) < 2 {
		return 0
	}
	d := r.Calls[len(r.Calls)-1].Timestamp - r.Calls[0].Timestamp
	if d < 0 {
		return 0
	}
	return d
}

// Clean reports a clean success in the router's sense: stopped as
// completed with a final text that is not blank. Regression detection
// counts runs that are not clean.
func (r *Run) Clean() bool {
	return r.StoppedReason == "completed" && !blank(r.FinalText)
}

// blank reports a text that is empty after trimming the way the router
// trims (JavaScript's String.prototype.trim: Unicode spaces, line
// terminators and the byte-order mark, but not U+0085).
func blank(s string) bool {
	return strings.TrimFunc(s, jsSpace) == ""
}

func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
