package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

const body = `{"model":"m","max_tokens":100,"system":"You are helpful.   Padding padding padding.","messages":[{"role":"user","content":"hi"}]}`

func read(t *testing.T, data string) *capture.Capture {
	t.Helper()
	f, err := capture.Read("t.json", []byte(data), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// editRule returns a transform rule that makes the given edits.
func editRule(id string, edits ...Edit) *Rule {
	return &Rule{ID: id, Name: "test." + id, Kind: Transform, Doc: "Test rule.", Engine: Engine{Lossy: true}, Run: func(p *Pass) error {
		for _, e := range edits {
			p.Edit(e)
		}
		return nil
	}}
}

func TestRunNoRulesIsIdentity(t *testing.T) {
	c := read(t, body)
	res, err := Run(c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed() || string(res.Final.Body) != body {
		t.Fatal("no rules changed the body")
	}
}

func TestRunAppliesShrinkingEdit(t *testing.T) {
	c := read(t, body)
	res, err := Run(c, []*Rule{editRule("T1", Edit{Pointer: "/system", NewJSON: []byte(`"Short."`)})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(body, `"You are helpful.   Padding padding padding."`, `"Short."`, 1)
	if string(res.Final.Body) != want {
		t.Fatalf("got %s\nwant %s", res.Final.Body, want)
	}
	if !res.Steps[0].Applied || len(res.Changes()) != 1 || res.Changes()[0].Pointer != "/system" {
		t.Fatalf("unexpected steps %+v", res.Steps)
	}
}

func TestRunDropsGrowth(t *testing.T) {
	c := read(t, body)
	res, err := Run(c, []*Rule{editRule("T1", Edit{Pointer: "/model", NewJSON: []byte(`"a much longer model name"`)})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed() || res.Steps[0].Applied || !strings.Contains(res.Steps[0].Dropped, "not smaller") {
		t.Fatalf("growth was not dropped: %+v", res.Steps[0])
	}
}

func TestRunDropsNonIdempotent(t *testing.T) {
	c := read(t, body)
	// Each pass shortens the system text by one more character.
	r := &Rule{ID: "T2", Kind: Transform, Doc: "Test.", Engine: Engine{Lossy: true}, Run: func(p *Pass) error {
		s := p.Capture.Doc.GetStr(0, "system")
		p.Edit(Edit{Pointer: "/system", NewJSON: capture.Quote(s[:len(s)-1])})
		return nil
	}}
	res, err := Run(c, []*Rule{r}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed() || !strings.Contains(res.Steps[0].Dropped, "second pass") {
		t.Fatalf("non-idempotent transform kept: %+v", res.Steps[0])
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Severity != Error {
		t.Fatalf("want one error diagnostic, got %+v", res.Diagnostics)
	}
}

func TestRunDropsInvalidResult(t *testing.T) {
	c := read(t, body)
	env := &Env{Validate: func(c *capture.Capture) ([]string, error) {
		if strings.Contains(string(c.Body), `"max_tokens":1,`) {
			return []string{"/max_tokens: too small"}, nil
		}
		return nil, nil
	}}
	res, err := Run(c, []*Rule{editRule("T3", Edit{Pointer: "/max_tokens", NewJSON: []byte(`1`)})}, env)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed() || !strings.Contains(res.Steps[0].Dropped, "the provider would reject the result: /max_tokens: too small") {
		t.Fatalf("invalid result kept: %+v", res.Steps[0])
	}
}

func TestApplyRejectsOverlap(t *testing.T) {
	c := read(t, body)
	cases := map[string][]Edit{
		"nested":    {{Pointer: "/messages", NewJSON: []byte(`[]`)}, {Pointer: "/messages/0/content", NewJSON: []byte(`""`)}},
		"same":      {{Pointer: "/model", NewJSON: []byte(`"a"`)}, {Pointer: "/model", NewJSON: []byte(`"b"`)}},
		"bad json":  {{Pointer: "/model", NewJSON: []byte(`"a" "b"`)}},
		"bad ptr":   {{Pointer: "/nope", NewJSON: []byte(`1`)}},
		"no slash":  {{Pointer: "model", NewJSON: []byte(`1`)}},
		"index oob": {{Pointer: "/messages/3", NewJSON: []byte(`1`)}},
	}
	for name, edits := range cases {
		if _, _, err := Apply(c, edits); err == nil {
			t.Errorf("%s: edits accepted", name)
		}
	}
	// A new value that is not one JSON value is named, whichever way the
	// edits would have gone.
	for _, edits := range [][]Edit{cases["bad json"], {{Rule: "T", Pointer: "/messages", Append: true, NewJSON: []byte(`{"a":`)}}} {
		if _, _, err := Apply(c, edits); err == nil || !strings.Contains(err.Error(), "new value is not one JSON value") {
			t.Errorf("%s: error %v", edits[0].NewJSON, err)
		}
	}
}

func TestRunReportsPanic(t *testing.T) {
	c := read(t, body)
	r := &Rule{ID: "T4", Kind: Transform, Doc: "Test.", Run: func(p *Pass) error { panic("boom") }}
	_, err := Run(c, []*Rule{r}, nil)
	var re *RuleError
	if !errors.As(err, &re) || re.Rule != "T4" || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("want RuleError naming T4, got %v", err)
	}
}

func mustWith(t *testing.T, c *capture.Capture, b string) *capture.Capture {
	t.Helper()
	n, err := c.WithBody([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestApplyAppendAndInsert(t *testing.T) {
	c := read(t, `{"model":"m","max_tokens":5,"tools":[],"messages":[{"role":"user","content":"hi"}]}`)
	edits := []Edit{
		{Pointer: "/tools", Append: true, NewJSON: []byte(`{"name":"a"}`)},
		{Pointer: "/tools", Append: true, NewJSON: []byte(`{"name":"b"}`)},
		{Pointer: "", Insert: "system", NewJSON: []byte(`"s"`)},
		{Pointer: "/messages/0/content", NewJSON: []byte(`"x"`)},
	}
	next, changes, err := Apply(c, edits)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","max_tokens":5,"tools":[{"name":"a"},{"name":"b"}],"messages":[{"role":"user","content":"x"}],"system":"s"}`
	if string(next.Body) != want {
		t.Fatalf("got  %s\nwant %s", next.Body, want)
	}
	if d, err := capture.Parse(next.Body); err != nil || !slices.Equal(next.Doc.Nodes, d.Nodes) {
		t.Fatalf("the spliced index is not the parse's (%v)", err)
	}
	// Appended elements are named by the index they got, each its own.
	if changes[0].Pointer != "/tools/0" || changes[1].Pointer != "/tools/1" || changes[3].Pointer != "/system" {
		t.Fatalf("changes %+v", changes)
	}
	// Into an array that has elements, after the last one.
	c2 := read(t, `{"model":"m","max_tokens":5,"tools":[{"name":"x"},{"name":"y"}],"messages":[{"role":"user","content":"hi"}]}`)
	if _, ch, err := Apply(c2, edits[:2]); err != nil || ch[0].Pointer != "/tools/2" || ch[1].Pointer != "/tools/3" {
		t.Fatalf("changes %+v, %v", ch, err)
	}
	// Appending into an array that another edit replaces is nesting.
	if _, _, err := Apply(c, []Edit{{Pointer: "/tools", Append: true, NewJSON: []byte(`1`)}, {Pointer: "/tools", NewJSON: []byte(`[]`)}}); err == nil {
		t.Fatal("append inside a replaced array accepted")
	}
	if _, _, err := Apply(c, []Edit{{Pointer: "", Insert: "model", NewJSON: []byte(`1`)}}); err == nil {
		t.Fatal("duplicate member inserted")
	}
	if _, _, err := Apply(c, []Edit{{Pointer: "/model", Append: true, NewJSON: []byte(`1`)}}); err == nil {
		t.Fatal("append to a string accepted")
	}
}

func TestAdditiveRuleMayGrowWithinOriginal(t *testing.T) {
	c := read(t, body)
	shrink := editRule("T1", Edit{Pointer: "/system", NewJSON: []byte(`"S"`)})
	grow := &Rule{ID: "T5", Kind: Transform, Engine: Engine{Additive: true, Lossy: true}, Doc: "Test.", Run: func(p *Pass) error {
		if p.Capture.Doc.GetStr(0, "model") == "m" {
			p.Edit(Edit{Pointer: "/model", NewJSON: []byte(`"m+overlay"`)})
		}
		return nil
	}}
	res, err := Run(c, []*Rule{shrink, grow}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Steps[1].Applied || len(res.Final.Body) >= len(c.Body) {
		t.Fatalf("additive step not applied within the original size: %+v", res.Steps[1])
	}
	// Alone it would make the request larger than captured: dropped.
	res, _ = Run(c, []*Rule{grow}, nil)
	if res.Steps[0].Applied {
		t.Fatal("additive growth beyond the original accepted")
	}
}

// A capture that is already invalid still gets transformed, as long as the
// transform adds no problem of its own.
func TestRunKeepsResultWithOldProblemsOnly(t *testing.T) {
	c := read(t, body)
	env := &Env{Validate: func(c *capture.Capture) ([]string, error) {
		out := []string{"/messages/0: a problem the capture had"}
		if strings.Contains(string(c.Body), `"max_tokens":1,`) {
			out = append(out, "/max_tokens: too small")
		}
		return out, nil
	}}
	res, err := Run(c, []*Rule{editRule("T3", Edit{Pointer: "/max_tokens", NewJSON: []byte(`1`)})}, env)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed() || !strings.Contains(res.Steps[0].Dropped, "/max_tokens: too small") {
		t.Fatalf("new problem not caught: %+v", res.Steps[0])
	}
	// The old problem alone does not drop a step: the capture as read is
	// validated when the result has problems.
	res, err = Run(c, []*Rule{editRule("T1", Edit{Pointer: "/system", NewJSON: []byte(`"Short."`)})}, env)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Steps[0].Applied {
		t.Fatalf("a problem the capture had dropped the step: %+v", res.Steps[0])
	}
	if got := newProblem([]string{"/a/1: x", "/b: y"}, []string{"/a/0: x", "/c: y"}); got != "" {
		t.Errorf("moved problems reported as new: %q", got)
	}
	if got := newProblem([]string{"/a: x"}, []string{"/a: x", "/b: x"}); got != "/b: x" {
		t.Errorf("a second occurrence is new: %q", got)
	}
}

func TestStepIdleAndAfter(t *testing.T) {
	c := read(t, body)
	idle := &Rule{ID: "T1", Name: "test.idle", Kind: Transform, Doc: "Test rule.", Run: func(p *Pass) error {
		p.Idle("no %s here", "catalog")
		return nil
	}}
	// A reason given by a rule that then edits is not kept.
	busy := &Rule{ID: "T2", Name: "test.busy", Kind: Transform, Doc: "Test rule.", Engine: Engine{Lossy: true}, Run: func(p *Pass) error {
		p.Idle("nothing to do")
		p.Edit(Edit{Pointer: "/system", NewJSON: []byte(`"Short."`)})
		return nil
	}}
	res, err := Run(c, []*Rule{idle, busy}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s0, s1 := res.Steps[0], res.Steps[1]
	if s0.Idle != "no catalog here" || s0.Applied || s0.After != c {
		t.Fatalf("idle step %+v", s0)
	}
	if s1.Idle != "" || !s1.Applied || s1.After != res.Final {
		t.Fatalf("applied step %+v", s1)
	}
}

// The capture as read is validated only when a result has a problem to
// compare: a valid result needs no comparison, and the capture is
// validated at most once per run.
func TestRunValidatesOriginalOnDemand(t *testing.T) {
	c := read(t, body)
	var calls []string
	env := &Env{Validate: func(v *capture.Capture) ([]string, error) {
		calls = append(calls, string(v.Body))
		if strings.Contains(string(v.Body), `"max_tokens":1,`) {
			return []string{"/max_tokens: too small"}, nil
		}
		return nil, nil
	}}
	shrink := editRule("T1", Edit{Pointer: "/system", NewJSON: []byte(`"Short."`)})
	res, err := Run(c, []*Rule{shrink}, env)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Steps[0].Applied || len(calls) != 1 || calls[0] == body {
		t.Fatalf("valid result: %d validations (%q), step %+v", len(calls), calls, res.Steps[0])
	}
	calls = nil
	bad := editRule("T3", Edit{Pointer: "/max_tokens", NewJSON: []byte(`1`)})
	bad2 := editRule("T4", Edit{Pointer: "/max_tokens", NewJSON: []byte(`1`)}, Edit{Pointer: "/system", NewJSON: []byte(`"S."`)})
	res, err = Run(c, []*Rule{bad, bad2}, env)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed() || res.Steps[0].Applied || res.Steps[1].Applied {
		t.Fatalf("invalid results kept: %+v", res.Steps)
	}
	originals := 0
	for _, b := range calls {
		if b == body {
			originals++
		}
	}
	if originals != 1 || len(calls) != 3 {
		t.Fatalf("%d validations, %d of the capture as read; want 3 and 1", len(calls), originals)
	}
}

// String edits take the short way (the index derived, not parsed); it
// must give what the general splice gives: the body, its index, the
// changes in body order and the values replaced.
func TestApplyStringsMatchesSplice(t *testing.T) {
	const doc = `{"model":"m","system":[{"type":"text","text":"A long system prompt, long enough."}],"messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"text","text":"the latest"}]}]}`
	c := read(t, doc)
	for name, edits := range map[string][]Edit{
		"one":           {{Rule: "T", Pointer: "/system/0/text", NewJSON: []byte(`"Short."`)}},
		"two, reversed": {{Rule: "T", Pointer: "/messages/1/content/0/text", NewJSON: []byte(`"the latest\n\n<overlay é=\"1\">\u00e9</overlay>"`)}, {Rule: "T", Pointer: "/model", NewJSON: []byte(`"a longer model name"`)}},
		"escapes":       {{Rule: "T", Pointer: "/messages/0/content", NewJSON: []byte(`"tab\tquote\"slash\\"`)}},
	} {
		next, changes, removed, ok := applyStrings(c, edits)
		if !ok {
			t.Fatalf("%s: string edits not taken the short way", name)
		}
		want, wchanges, wremoved, err := applySplice(c, edits)
		if err != nil {
			t.Fatal(err)
		}
		if string(next.Body) != string(want.Body) || !slices.Equal(next.Doc.Nodes, want.Doc.Nodes) {
			t.Errorf("%s: body or index differs from the splice's", name)
		}
		if !slices.Equal(changes, wchanges) || len(removed) != len(wremoved) {
			t.Errorf("%s: changes %+v, want %+v", name, changes, wchanges)
		}
		for i := range removed {
			if removed[i].node != wremoved[i].node || string(removed[i].text) != string(wremoved[i].text) {
				t.Errorf("%s: removed %d differs", name, i)
			}
		}
	}
	// Edits the short way cannot take go the general way, with its errors.
	for name, edits := range map[string][]Edit{
		"not a string node": {{Pointer: "/messages/0", NewJSON: []byte(`"x"`)}},
		"not one value":     {{Pointer: "/model", NewJSON: []byte(`"a","b"`)}},
		"same node twice":   {{Pointer: "/model", NewJSON: []byte(`"a"`)}, {Pointer: "/model", NewJSON: []byte(`"b"`)}},
		"bad pointer":       {{Pointer: "/nope", NewJSON: []byte(`"x"`)}},
	} {
		if _, _, _, ok := applyStrings(c, edits); ok {
			t.Errorf("%s: taken the short way", name)
		}
	}
	if _, _, err := Apply(c, []Edit{{Pointer: "/model", NewJSON: []byte(`"a" "b"`)}}); err == nil {
		t.Error("two values accepted as an edit")
	}
}

// RunChecks reuses one pass for its rules: each rule starts with no
// findings and every finding of every rule is returned, in order.
func TestRunChecksKeepsEachRulesFindings(t *testing.T) {
	c := read(t, body)
	check := func(id string, n int) *Rule {
		return &Rule{ID: id, Kind: Check, Severity: Warning, Doc: "Test.", Run: func(p *Pass) error {
			if got := len(p.Diagnostics()); got != 0 {
				t.Errorf("%s starts with %d findings of another rule", id, got)
			}
			for i := range n {
				p.Reportf("/model", "%s finding %d", id, i)
			}
			return nil
		}}
	}
	diags, err := RunChecks(c, []*Rule{check("T1", 2), check("T2", 0), check("T3", 1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Rule+": "+d.Message)
	}
	want := []string{"T1: T1 finding 0", "T1: T1 finding 1", "T3: T3 finding 0"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestBatchVerifierPrepare: a cross-capture invariant's Run finds what
// its Prepare made of the result, prepared apart or as it is added, and
// a panic in Prepare is the rule's error.
func TestBatchVerifierPrepare(t *testing.T) {
	c := read(t, body)
	res := &Result{Original: c, Final: c}
	var seen []any
	r := &Rule{ID: "T9", Kind: Invariant, Doc: "Test.", Engine: Engine{Cross: true, Prepare: func(r *Result) any { return r.Original.Name + " prepared" }},
		Run: func(p *Pass) error { seen = append(seen, p.Prepared); return nil }}
	v := NewBatchVerifier([]*Rule{r}, &Env{})
	prep, err := v.Prepare(res)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.AddPrepared(res, prep); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Add(res); err != nil {
		t.Fatal(err)
	}
	want := c.Name + " prepared"
	if len(seen) != 2 || seen[0] != want || seen[1] != want {
		t.Fatalf("Run saw %v", seen)
	}
	boom := &Rule{ID: "T10", Kind: Invariant, Doc: "Test.", Engine: Engine{Cross: true, Prepare: func(*Result) any { panic("boom") }}, Run: func(*Pass) error { return nil }}
	_, err = NewBatchVerifier([]*Rule{boom}, &Env{}).Prepare(res)
	var re *RuleError
	if !errors.As(err, &re) || re.Rule != "T10" || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("want a RuleError naming T10, got %v", err)
	}
}
