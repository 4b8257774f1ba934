package trace

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Outcome is the verdict on one run, judged on its own: the same in every
// view of the run, whatever other runs of its skill were read.
type Outcome string

// The outcomes, in report order.
const (
	Success Outcome = "success"
	Failure Outcome = "likely-failure"
	Unknown Outcome = "unknown"
)

// Outcomes lists every outcome in report order.
var Outcomes = []Outcome{Success, Failure, Unknown}

// Judgement is what the earlier runs of a skill say of one run: the
// history-based judgement, kept apart from the run's own Outcome.
type Judgement string

// The judgements.
const (
	// NoRegression: the run continues no regression (or was judged
	// without its history).
	NoRegression Judgement = "none"
	// Regression: the run is a likely failure that continues a regression
	// (see JudgeHistory).
	Regression Judgement = "likely-regression"
)

// Signal names. The router's signals come first; skillopt's own follow and
// can each be disabled (see Optional).
const (
	SigTimeout       = "timeout"
	SigInactivity    = "inactivity"
	SigAborted       = "aborted"
	SigEmptyOutput   = "empty-output"
	SigErrorMarkers  = "error-markers"
	SigHighToolCalls = "high-tool-calls"
	SigLowConfidence = "low-route-confidence"

	SigLooping    = "looping"
	SigToolErrors = "tool-errors"
	SigOverflow   = "overflow-blocked"
	SigModel      = "model-not-allowed"
)

// Optional lists skillopt's own signals, each of which can be disabled;
// with all of them disabled the verdicts are the router's.
var Optional = []string{SigLooping, SigToolErrors, SigOverflow, SigModel}

// Thresholds. The first group is the router's, the second skillopt's.
const (
	// HighToolCalls: more calls than this is a signal (this many is not).
	HighToolCalls = 20
	// LowConfidence: a route confidence below this is a signal.
	LowConfidence = 0.5
	// MarkerWindow is how many leading characters of the final text are
	// searched for error markers.
	MarkerWindow = 200
	// RegressionRun is how many consecutive runs that are not clean make a
	// failure a regression.
	RegressionRun = 3
	// DefaultWindow is how many earlier runs of a skill regression
	// detection and alerts look back on.
	DefaultWindow = 10

	// LoopRepeat: the same tool with identical arguments this many times in
	// a row is a signal.
	LoopRepeat = 3
	// ErrorRateCalls and ErrorRate: at least this many calls of which at
	// least this share failed is a signal.
	ErrorRateCalls = 4
	ErrorRate      = 0.5
)

// Signal is one reason to doubt a run: a stable name and a label, a short
// prefix (what is aggregated) and a detail, "high tool-call count (28
// calls, threshold 20)".
type Signal struct {
	Name  string
	Label string
}

var prefixEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` —|\s\(`) })

// Prefix returns the label up to " —" or " (": the part reports count.
func (s Signal) Prefix() string {
	if loc := prefixEnd().FindStringIndex(s.Label); loc != nil && loc[0] > 0 {
		return s.Label[:loc[0]]
	}
	return s.Label
}

// Verdict is the classification of one run.
type Verdict struct {
	Outcome    Outcome
	Signals    []Signal
	Confidence float64
}

// Labels returns the signal labels.
func (v Verdict) Labels() []string {
	out := make([]string, len(v.Signals))
	for i, s := range v.Signals {
		out[i] = s.Label
	}
	return out
}

// Options tune classification.
type Options struct {
	// Disabled names Optional signals not to raise.
	Disabled map[string]bool
	// AllowedProviders is the provider allow-list for model-not-allowed;
	// empty allows every provider.
	AllowedProviders []string
	// Window is how many earlier runs regression detection looks back on
	// (DefaultWindow when 0).
	Window int
}

// CheckDisabled validates names given to disable signals.
func CheckDisabled(names []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		ok := false
		for _, o := range Optional {
			ok = ok || o == n
		}
		if !ok {
			return nil, fmt.Errorf("unknown signal %q (can be disabled: %s)", n, strings.Join(Optional, ", "))
		}
		out[n] = true
	}
	return out, nil
}

// Classify judges one run on its own, without its history: the router's
// signals (stop reason timeout, inactivity or aborted; a blank final text;
// error, failed or exception in the first 200 characters of the final text;
// more than 20 tool calls; a route confidence below 0.5) and skillopt's
// enabled ones. Any signal makes a likely failure, with confidence 0.6,
// 0.75 or 0.9 for one, two or more signals; no signal and a clean run is a
// success (0.9); anything else is unknown (0.3).
func Classify(r *Run, o Options) Verdict {
	var sig signals
	routerSignals(&sig, r)
	ownSignals(&sig, r, o)
	switch {
	case len(sig) >= 3:
		return Verdict{Failure, sig, 0.9}
	case len(sig) == 2:
		return Verdict{Failure, sig, 0.75}
	case len(sig) == 1:
		return Verdict{Failure, sig, 0.6}
	case r.Clean():
		return Verdict{Success, nil, 0.9}
	}
	return Verdict{Unknown, nil, 0.3}
}

// signals are the signals of one run, in the order they are looked for.
type signals []Signal

func (s *signals) add(name, format string, args ...any) {
	*s = append(*s, Signal{name, fmt.Sprintf(format, args...)})
}

// routerSignals adds the signals the router itself looks for.
func routerSignals(sig *signals, r *Run) {
	switch r.StoppedReason {
	case "timeout":
		sig.add(SigTimeout, "timeout — the run hit its time limit")
	case "inactivity":
		sig.add(SigInactivity, "inactivity — the model stopped calling tools")
	case "aborted":
		sig.add(SigAborted, "aborted — the run was cancelled")
	}
	if blank(r.FinalText) {
		sig.add(SigEmptyOutput, "empty output — the final text is blank")
	}
	if found := errorMarkers(r.FinalText); len(found) > 0 {
		sig.add(SigErrorMarkers, "error markers in output (%s)", strings.Join(found, ", "))
	}
	if n := len(r.Calls); n > HighToolCalls {
		sig.add(SigHighToolCalls, "high tool-call count (%d calls, threshold %d)", n, HighToolCalls)
	}
	if r.Route != nil && r.Route.HasConfidence && r.Route.Confidence < LowConfidence {
		sig.add(SigLowConfidence, "low route confidence (%.2f, threshold %s)", r.Route.Confidence, strconv.FormatFloat(LowConfidence, 'f', -1, 64))
	}
}

// ownSignals adds skillopt's signals that o does not disable.
func ownSignals(sig *signals, r *Run, o Options) {
	if !o.Disabled[SigLooping] {
		if name, n := longestRepeat(r.Calls); n >= LoopRepeat {
			sig.add(SigLooping, "repeated tool call (%s %d times in a row with identical arguments, threshold %d)", name, n, LoopRepeat)
		}
	}
	failed, blocked := 0, 0
	for i := range r.Calls {
		if r.Calls[i].IsError {
			failed++
		}
		if r.Calls[i].Blocked {
			blocked++
		}
	}
	if n := len(r.Calls); !o.Disabled[SigToolErrors] && n >= ErrorRateCalls && float64(failed) >= ErrorRate*float64(n) {
		sig.add(SigToolErrors, "tool error rate (%d of %d calls failed, %d%%, threshold %d%% of at least %d calls)",
			failed, n, pct(failed, n), int(ErrorRate*100), ErrorRateCalls)
	}
	if !o.Disabled[SigOverflow] && blocked > 0 {
		sig.add(SigOverflow, "overflow blocked (%d of %d results over the overflow ceiling)", blocked, len(r.Calls))
	}
	if !o.Disabled[SigModel] && len(o.AllowedProviders) > 0 && r.Provider != "" && !slices.Contains(o.AllowedProviders, r.Provider) {
		sig.add(SigModel, "model not allowed (provider %q of %s is not in the allow-list: %s)", r.Provider, r.Model, strings.Join(o.AllowedProviders, ", "))
	}
}

var markers = []string{"error", "failed", "exception"}

// errorMarkers returns the markers found, case-insensitively, in the first
// MarkerWindow characters of text.
func errorMarkers(text string) []string {
	head := text
	n := 0
	for i := range text {
		if n == MarkerWindow {
			head = text[:i]
			break
		}
		n++
	}
	head = strings.ToLower(head)
	var found []string
	for _, m := range markers {
		if strings.Contains(head, m) {
			found = append(found, m)
		}
	}
	return found
}

// longestRepeat finds the longest stretch of consecutive calls of one tool
// with identical arguments.
func longestRepeat(calls []Call) (string, int) {
	best, bestName, n := 0, "", 0
	for i := range calls {
		if i > 0 && calls[i].Server == calls[i-1].Server && calls[i].Tool == calls[i-1].Tool && bytes.Equal(calls[i].Args, calls[i-1].Args) {
			n++
		} else {
			n = 1
		}
		if n > best {
			best, bestName = n, calls[i].Name()
		}
	}
	return bestName, best
}

// pct is 100·a/b rounded half up, as the router rounds percentages.
func pct(a, b int) int {
	if b == 0 {
		return 0
	}
	return (200*a + b) / (2 * b)
}

// JudgeHistory judges a run against the runs of its skill before it: a
// likely failure is a likely regression when the run and the runs just
// before it make at least RegressionRun consecutive runs that are not
// clean, and a clean run exists among the window runs before it. clean
// tells whether the run itself is clean; history holds the cleanliness of
// the earlier runs of the same skill, newest first. It returns the
// judgement and the number of consecutive runs that are not clean, ending
// with this one (0 when the judgement is NoRegression). The run's own
// verdict is left as it is.
func JudgeHistory(v Verdict, clean bool, history []bool, window int) (Judgement, int) {
	if v.Outcome != Failure {
		return NoRegression, 0
	}
	if window <= 0 {
		window = DefaultWindow
	}
	h := history[:min(window, len(history))]
	prior := false
	for _, c := range h {
		prior = prior || c
	}
	if !prior {
		return NoRegression, 0
	}
	n := 0
	for _, c := range append([]bool{clean}, h...) {
		if c {
			break
		}
		n++
	}
	if n < RegressionRun {
		return NoRegression, 0
	}
	return Regression, n
}
