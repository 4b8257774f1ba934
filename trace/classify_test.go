package trace

import (
	"reflect"
	"strings"
	"testing"
)

// calls returns n distinct tool calls one second apart.
func calls(n int) []Call {
	out := make([]Call, n)
	for i := range out {
		out[i] = Call{Index: i, Server: "auggie", Tool: "codebase-retrieval", Args: []byte(`{"query":"q` + strings.Repeat("x", i) + `"}`), Timestamp: int64(1000 * i)}
	}
	return out
}

func run(mod func(r *Run)) *Run {
	r := &Run{Skill: "refactor", StoppedReason: "completed", FinalText: "Renamed the helper.", Calls: calls(3),
		Route: &Route{Tier: "balanced", Confidence: 0.8, HasConfidence: true}, Model: "augment/anthropic/claude", Provider: "augment"}
	if mod != nil {
		mod(r)
	}
	return r
}

func names(v Verdict) []string {
	var out []string
	for _, s := range v.Signals {
		out = append(out, s.Name)
	}
	return out
}

var allOff = map[string]bool{SigLooping: true, SigToolErrors: true, SigOverflow: true, SigModel: true}

// TestClassifyRouterSignals covers every threshold of the router's
// heuristics, with skillopt's own signals off.
func TestClassifyRouterSignals(t *testing.T) {
	at := func(prefix int, s string) string { return strings.Repeat("a", prefix) + s }
	tests := []struct {
		name    string
		mod     func(r *Run)
		outcome Outcome
		conf    float64
		signals []string
	}{
		{"clean success", nil, Success, 0.9, nil},
		{"20 calls is not high", func(r *Run) { r.Calls = calls(20) }, Success, 0.9, nil},
		{"21 calls is high", func(r *Run) { r.Calls = calls(21) }, Failure, 0.6, []string{SigHighToolCalls}},
		{"confidence 0.5 is not low", func(r *Run) { r.Route.Confidence = 0.5 }, Success, 0.9, nil},
		{"confidence 0.49 is low", func(r *Run) { r.Route.Confidence = 0.49 }, Failure, 0.6, []string{SigLowConfidence}},
		{"no confidence recorded", func(r *Run) { r.Route.Confidence, r.Route.HasConfidence = 0, false }, Success, 0.9, nil},
		{"no route", func(r *Run) { r.Route = nil }, Success, 0.9, nil},
		{"timeout", func(r *Run) { r.StoppedReason = "timeout" }, Failure, 0.6, []string{SigTimeout}},
		{"inactivity", func(r *Run) { r.StoppedReason = "inactivity" }, Failure, 0.6, []string{SigInactivity}},
		{"aborted", func(r *Run) { r.StoppedReason = "aborted" }, Failure, 0.6, []string{SigAborted}},
		{"other stop reason, text", func(r *Run) { r.StoppedReason = "length" }, Unknown, 0.3, nil},
		{"empty text", func(r *Run) { r.FinalText = "" }, Failure, 0.6, []string{SigEmptyOutput}},
		{"blank text", func(r *Run) { r.FinalText = " \n\t\u00a0\u2028\ufeff" }, Failure, 0.6, []string{SigEmptyOutput}},
		{"U+0085 is not trimmed", func(r *Run) { r.FinalText = "\u0085" }, Success, 0.9, nil},
		{"marker at the start", func(r *Run) { r.FinalText = "Error: no module" }, Failure, 0.6, []string{SigErrorMarkers}},
		{"marker ending at character 200", func(r *Run) { r.FinalText = at(195, "error") }, Failure, 0.6, []string{SigErrorMarkers}},
		{"marker starting at character 197", func(r *Run) { r.FinalText = at(196, "error") }, Success, 0.9, nil},
		{"window counts characters, not bytes", func(r *Run) { r.FinalText = strings.Repeat("é", 194) + "FAILED" }, Failure, 0.6, []string{SigErrorMarkers}},
		{"exception in capitals", func(r *Run) { r.FinalText = "An EXCEPTION was thrown" }, Failure, 0.6, []string{SigErrorMarkers}},
		{"two signals", func(r *Run) { r.StoppedReason, r.FinalText = "timeout", "" }, Failure, 0.75, []string{SigTimeout, SigEmptyOutput}},
		{"three signals", func(r *Run) { r.StoppedReason, r.FinalText, r.Calls = "timeout", "", calls(21) }, Failure, 0.9,
			[]string{SigTimeout, SigEmptyOutput, SigHighToolCalls}},
		{"four signals", func(r *Run) {
			r.StoppedReason, r.FinalText, r.Calls, r.Route.Confidence = "aborted", "", calls(30), 0.1
		}, Failure, 0.9, []string{SigAborted, SigEmptyOutput, SigHighToolCalls, SigLowConfidence}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Classify(run(tc.mod), Options{Disabled: allOff})
			if v.Outcome != tc.outcome || v.Confidence != tc.conf || !reflect.DeepEqual(names(v), tc.signals) {
				t.Errorf("got %s %.2f %v, want %s %.2f %v", v.Outcome, v.Confidence, names(v), tc.outcome, tc.conf, tc.signals)
			}
		})
	}
}

func TestSignalLabels(t *testing.T) {
	v := Classify(run(func(r *Run) {
		r.StoppedReason, r.FinalText, r.Calls, r.Route.Confidence = "timeout", "failed: exception, then an error", calls(28), 0.42
	}), Options{Disabled: allOff})
	want := []string{
		"timeout — the run hit its time limit",
		"error markers in output (error, failed, exception)",
		"high tool-call count (28 calls, threshold 20)",
		"low route confidence (0.42, threshold 0.5)",
	}
	if !reflect.DeepEqual(v.Labels(), want) {
		t.Errorf("labels\n got %q\nwant %q", v.Labels(), want)
	}
	prefixes := []string{"timeout", "error markers in output", "high tool-call count", "low route confidence"}
	for i, s := range v.Signals {
		if s.Prefix() != prefixes[i] {
			t.Errorf("prefix of %q = %q, want %q", s.Label, s.Prefix(), prefixes[i])
		}
	}
}

func TestClassifyOwnSignals(t *testing.T) {
	same := func(n int) []Call {
		out := calls(n)
		for i := range out {
			out[i].Args = []byte(`{"query":"same"}`)
		}
		return out
	}
	errs := func(n, failed int) []Call {
		out := calls(n)
		for i := range failed {
			out[i].IsError = true
		}
		return out
	}
	tests := []struct {
		name    string
		mod     func(r *Run)
		opts    Options
		signals []string
	}{
		{"2 identical calls in a row", func(r *Run) { r.Calls = append(same(2), calls(1)...) }, Options{}, nil},
		{"3 identical calls in a row", func(r *Run) { r.Calls = same(3) }, Options{}, []string{SigLooping}},
		{"identical calls split by another", func(r *Run) {
			c := same(4)
			c[2].Args = []byte(`{"query":"other"}`)
			r.Calls = c
		}, Options{}, nil},
		{"same arguments, other tool", func(r *Run) {
			c := same(3)
			c[1].Tool = "apply-diff"
			r.Calls = c
		}, Options{}, nil},
		{"same arguments, other server", func(r *Run) {
			c := same(3)
			c[1].Server = "context-memory"
			r.Calls = c
		}, Options{}, nil},
		{"looping disabled", func(r *Run) { r.Calls = same(5) }, Options{Disabled: map[string]bool{SigLooping: true}}, nil},
		{"3 calls, all failed", func(r *Run) { r.Calls = errs(3, 3) }, Options{}, nil},
		{"4 calls, 2 failed", func(r *Run) { r.Calls = errs(4, 2) }, Options{}, []string{SigToolErrors}},
		{"4 calls, 1 failed", func(r *Run) { r.Calls = errs(4, 1) }, Options{}, nil},
		{"5 calls, 2 failed", func(r *Run) { r.Calls = errs(5, 2) }, Options{}, nil},
		{"5 calls, 3 failed", func(r *Run) { r.Calls = errs(5, 3) }, Options{}, []string{SigToolErrors}},
		{"tool errors disabled", func(r *Run) { r.Calls = errs(4, 4) }, Options{Disabled: map[string]bool{SigToolErrors: true}}, nil},
		{"one blocked result", func(r *Run) { r.Calls[1].Blocked = true }, Options{}, []string{SigOverflow}},
		{"overflow disabled", func(r *Run) { r.Calls[1].Blocked = true }, Options{Disabled: map[string]bool{SigOverflow: true}}, nil},
		{"empty allow-list allows all", nil, Options{}, nil},
		{"provider allowed", nil, Options{AllowedProviders: []string{"bedrock", "augment"}}, nil},
		{"provider not allowed", nil, Options{AllowedProviders: []string{"bedrock"}}, []string{SigModel}},
		{"provider unknown", func(r *Run) { r.Provider = "" }, Options{AllowedProviders: []string{"bedrock"}}, nil},
		{"model check disabled", nil, Options{AllowedProviders: []string{"bedrock"}, Disabled: map[string]bool{SigModel: true}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Classify(run(tc.mod), tc.opts)
			if !reflect.DeepEqual(names(v), tc.signals) {
				t.Errorf("signals %v, want %v (%q)", names(v), tc.signals, v.Labels())
			}
			if len(tc.signals) > 0 && v.Outcome != Failure {
				t.Errorf("outcome %s, want %s", v.Outcome, Failure)
			}
		})
	}
	v := Classify(run(func(r *Run) { r.Calls = errs(5, 3) }), Options{})
	if got, want := v.Labels()[0], "tool error rate (3 of 5 calls failed, 60%, threshold 50% of at least 4 calls)"; got != want {
		t.Errorf("label %q, want %q", got, want)
	}
}

func TestCheckDisabled(t *testing.T) {
	got, err := CheckDisabled([]string{"looping", " overflow-blocked", ""})
	if err != nil || !got[SigLooping] || !got[SigOverflow] || len(got) != 2 {
		t.Errorf("CheckDisabled = %v, %v", got, err)
	}
	for _, bad := range []string{"timeout", "loop"} {
		if _, err := CheckDisabled([]string{bad}); err == nil {
			t.Errorf("CheckDisabled(%q) accepted a signal that cannot be disabled", bad)
		}
	}
}

func TestJudgeHistory(t *testing.T) {
	fail := Verdict{Failure, []Signal{{SigTimeout, "timeout — the run hit its time limit"}}, 0.6}
	const C, N = true, false
	tests := []struct {
		name    string
		v       Verdict
		clean   bool
		history []bool
		window  int
		want    Judgement
		streak  int
	}{
		{"three in a row after a clean run", fail, N, []bool{N, N, C}, 10, Regression, 3},
		{"two in a row after a clean run", fail, N, []bool{N, C, N, N}, 10, NoRegression, 0},
		{"no clean run before", fail, N, []bool{N, N, N, N}, 10, NoRegression, 0},
		{"no history", fail, N, nil, 10, NoRegression, 0},
		{"the run itself is clean", fail, C, []bool{N, N, C}, 10, NoRegression, 0},
		{"clean run is the last in the window", fail, N, []bool{N, N, N, C}, 4, Regression, 4},
		{"clean run just outside the window", fail, N, []bool{N, N, N, C}, 3, NoRegression, 0},
		{"older runs past the window are ignored", fail, N, []bool{N, N, C, N, N}, 3, Regression, 3},
		{"a success is no regression", Verdict{Success, nil, 0.9}, C, []bool{N, N, C}, 10, NoRegression, 0},
		{"unknown is no regression", Verdict{Unknown, nil, 0.3}, N, []bool{N, N, C}, 10, NoRegression, 0},
		{"default window", fail, N, []bool{N, N, N, N, N, N, N, N, N, C}, 0, Regression, 10},
		{"default window, clean run eleventh", fail, N, []bool{N, N, N, N, N, N, N, N, N, N, C}, 0, NoRegression, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, n := JudgeHistory(tc.v, tc.clean, tc.history, tc.window)
			if got != tc.want || n != tc.streak {
				t.Errorf("got %s %d, want %s %d", got, n, tc.want, tc.streak)
			}
			if len(tc.v.Signals) > 1 || tc.v.Outcome == Failure && tc.v.Confidence != 0.6 {
				t.Errorf("input verdict modified: %+v", tc.v)
			}
		})
	}
}

// TestHistoriesKeepVerdicts: grouping runs into histories judges their
// history and leaves each run's own verdict as Summarize made it.
func TestHistoriesKeepVerdicts(t *testing.T) {
	mk := func(ts int64, clean bool) Summary {
		v := Verdict{Failure, []Signal{{SigTimeout, "timeout"}}, 0.6}
		if clean {
			v = Verdict{Success, nil, 0.9}
		}
		return Summary{File: "f", Skill: "s", Timestamp: ts, Clean: clean, Verdict: v, History: NoRegression}
	}
	in := []Summary{mk(1, true), mk(2, false), mk(3, false), mk(4, false)}
	hs := Histories(in, 0)
	newest := hs[0].Runs[0]
	if newest.Verdict.Outcome != Failure || newest.Verdict.Confidence != 0.6 || len(newest.Verdict.Signals) != 1 {
		t.Errorf("own verdict changed: %+v", newest.Verdict)
	}
	if newest.History != Regression || newest.Streak != 3 {
		t.Errorf("history %s %d, want %s 3", newest.History, newest.Streak, Regression)
	}
	if r := hs[0].Runs[1]; r.History != NoRegression {
		t.Errorf("second run: history %s", r.History)
	}
}

func TestPrefix(t *testing.T) {
	for label, want := range map[string]string{
		"timeout — the run hit its time limit":          "timeout",
		"high tool-call count (28 calls, threshold 20)": "high tool-call count",
		"plain":   "plain",
		"(odd)":   "(odd)",
		" — dash": " — dash",
	} {
		if got := (Signal{Label: label}).Prefix(); got != want {
			t.Errorf("Prefix(%q) = %q, want %q", label, got, want)
		}
	}
}
