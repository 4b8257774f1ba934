package rules

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

func TestRegistryRefusesBadRequirements(t *testing.T) {
	run := func(*Pass) error { return nil }
	a := &Rule{ID: "SO101", Name: "catalog.a", Kind: Transform, Doc: "A.", Run: run}
	b := &Rule{ID: "SO102", Name: "catalog.b", Kind: Transform, Doc: "B.", Run: run}
	c := &Rule{ID: "SO103", Name: "catalog.c", Kind: Transform, Doc: "C.", Run: run}
	outside := &Rule{ID: "SO104", Name: "catalog.d", Kind: Transform, Doc: "D.", Run: run}
	for _, tc := range []struct {
		name string
		set  func()
		want string
	}{
		{"missing", func() { c.Requires = []*Rule{outside} }, "SO103 requires SO104, which the registry does not hold"},
		{"nil", func() { c.Requires = []*Rule{nil} }, "SO103 requires nil"},
		{"self", func() { a.Requires = []*Rule{a} }, "requirement cycle SO101 → SO101"},
		{"cycle", func() { a.Requires, b.Requires, c.Requires = []*Rule{c}, []*Rule{a}, []*Rule{b} }, "requirement cycle SO101 → SO103 → SO102 → SO101"},
	} {
		a.Requires, b.Requires, c.Requires = nil, nil, nil
		tc.set()
		_, err := NewRegistry([]*Rule{a, b, c}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestSelectBringsRequirementsFirst(t *testing.T) {
	run := func(*Pass) error { return nil }
	base := &Rule{ID: "SO101", Name: "catalog.base", Kind: Transform, Doc: "Base.", Run: run}
	mid := &Rule{ID: "SO102", Name: "catalog.mid", Kind: Transform, Doc: "Mid.", Requires: []*Rule{base}, Run: run}
	top := &Rule{ID: "SO103", Name: "catalog.top", Kind: Transform, Doc: "Top.", Requires: []*Rule{mid}, Engine: Engine{Opt: true}, Run: run}
	g, err := NewRegistry([]*Rule{base, mid, top}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for refs, want := range map[string]string{
		"SO103":             "SO101,SO102,SO103",
		"SO103,SO101":       "SO101,SO102,SO103",
		"SO102,SO103":       "SO101,SO102,SO103",
		"catalog":           "SO101,SO102", // an opt-in rule is named by its ID only
		"catalog.top,SO102": "SO101,SO102,SO103",
	} {
		rs, err := g.Select(strings.Split(refs, ","), nil, Transform)
		if err != nil || ids(rs) != want {
			t.Errorf("Select(%s) = %s, %v; want %s", refs, ids(rs), err, want)
		}
	}
	l, err := g.Levels(nil, []string{"SO101"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Select([]string{"SO103"}, l, Transform); err == nil || !strings.Contains(err.Error(), "SO102 requires SO101") {
		t.Errorf("requirement turned off: %v", err)
	}
}

// TestResultOf: a rule reads, typed, what a rule it requires exported on
// the same run; the second pass of the exporting rule exports nothing.
func TestResultOf(t *testing.T) {
	type count struct{ passes int }
	passes := 0
	producer := &Rule{ID: "SO101", Name: "test.producer", Kind: Check, Doc: "Producer.", Run: func(p *Pass) error {
		passes++
		p.Export(&count{passes})
		return nil
	}}
	var got *count
	var gotOK, wrongOK bool
	consumer := &Rule{ID: "SO102", Name: "test.consumer", Kind: Check, Doc: "Consumer.", Requires: []*Rule{producer}, Run: func(p *Pass) error {
		got, gotOK = ResultOf[*count](p, producer)
		_, wrongOK = ResultOf[string](p, producer)
		return nil
	}}
	if _, err := Run(read(t, body), []*Rule{producer, consumer}, nil); err != nil {
		t.Fatal(err)
	}
	if !gotOK || got.passes != 1 || wrongOK {
		t.Fatalf("ResultOf = %v, %v (as string: %v); want the first pass's result", got, gotOK, wrongOK)
	}
	// Outside the engine there is no result.
	if _, ok := ResultOf[*count](&Pass{Rule: consumer}, producer); ok {
		t.Error("a pass outside the engine has a result")
	}
	// A rule reads only what it requires.
	defer func() {
		if recover() == nil {
			t.Error("ResultOf of a rule not required did not panic")
		}
	}()
	ResultOf[*count](&Pass{Rule: producer}, consumer)
}

func TestExportSkipsSecondPass(t *testing.T) {
	n := 0
	tr := &Rule{ID: "SO101", Name: "test.shrink", Kind: Transform, Doc: "Shrink.", Engine: Engine{Lossy: true}, Run: func(p *Pass) error {
		n++
		p.Export(n)
		if d := p.Capture.Doc; d.Get(0, "system") != capture.NoNode {
			p.Edit(Edit{Pointer: "/system", NewJSON: []byte(`"s"`)})
		}
		return nil
	}}
	var seen int
	reader := &Rule{ID: "SO102", Name: "test.reader", Kind: Check, Doc: "Reader.", Requires: []*Rule{tr}, Run: func(p *Pass) error {
		seen, _ = ResultOf[int](p, tr)
		return nil
	}}
	res, err := Run(read(t, body), []*Rule{tr, reader}, nil)
	if err != nil || !res.Steps[0].Applied {
		t.Fatalf("%v %+v", err, res)
	}
	if n != 2 || seen != 1 {
		t.Fatalf("passes %d, result seen %d; want 2 passes and the first one's result", n, seen)
	}
}

// TestSeverityResolution: a configured severity wins over the one a
// diagnostic carries, which wins over the rule's default; Info is a
// severity like any other, not "unset".
func TestSeverityResolution(t *testing.T) {
	r := &Rule{ID: "SO101", Name: "test.sev", Kind: Check, Severity: Warning, Doc: "Sev.", Run: func(p *Pass) error {
		p.Reportf("", "default")
		p.Report(Diagnostic{Severity: Info, Message: "explicit info"})
		p.Report(Diagnostic{Severity: Error, Message: "explicit error"})
		return nil
	}}
	for _, tc := range []struct {
		name   string
		levels *Levels
		want   []Severity
	}{
		{"none configured", nil, []Severity{Warning, Info, Error}},
		{"configured info", &Levels{Severity: map[string]Severity{"SO101": Info}}, []Severity{Info, Info, Info}},
		{"configured error", &Levels{Severity: map[string]Severity{"SO101": Error}}, []Severity{Error, Error, Error}},
		{"configured unset", &Levels{Severity: map[string]Severity{"SO101": Unset}}, []Severity{Warning, Info, Error}},
	} {
		res, err := Run(read(t, body), []*Rule{r}, &Env{Levels: tc.levels})
		if err != nil {
			t.Fatal(err)
		}
		var got []Severity
		for _, d := range res.Diagnostics {
			got = append(got, d.Severity)
		}
		if len(got) != 3 || got[0] != tc.want[0] || got[1] != tc.want[1] || got[2] != tc.want[2] {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if Unset.String() != "unset" || Info == Unset {
		t.Error("Info must not be the zero value")
	}
	if _, err := ParseSeverity("unset"); err == nil {
		t.Error("unset is not a severity one can configure")
	}
}

// TestRunChecksKeepsErrors: the driver of check rules returns a rule's
// failure instead of dropping it, and skips rules turned off.
func TestRunChecksKeepsErrors(t *testing.T) {
	ok := &Rule{ID: "SO501", Name: "test.ok", Kind: Check, Severity: Error, Doc: "Ok.", Run: func(p *Pass) error {
		p.Reportf("/model", "found")
		return nil
	}}
	bad := &Rule{ID: "SO502", Name: "test.bad", Kind: Check, Doc: "Bad.", Run: func(*Pass) error { return errors.New("broken") }}
	c := read(t, body)
	diags, err := RunChecks(c, []*Rule{ok}, nil)
	if err != nil || len(diags) != 1 || diags[0].Severity != Error || diags[0].Capture != c.Name {
		t.Fatalf("%v %+v", err, diags)
	}
	var re *RuleError
	if _, err := RunChecks(c, []*Rule{ok, bad}, nil); !errors.As(err, &re) || re.Rule != "SO502" {
		t.Fatalf("failing rule: %v", err)
	}
	off := &Env{Levels: &Levels{Off: map[string]bool{"SO502": true}}}
	if diags, err := RunChecks(c, []*Rule{ok, bad}, off); err != nil || len(diags) != 1 {
		t.Fatalf("a rule turned off ran: %v %v", diags, err)
	}
}

func TestFamilies(t *testing.T) {
	run := func(*Pass) error { return nil }
	a := &Rule{ID: "SO101", Name: "catalog.a", Kind: Transform, Doc: "A.", Run: run}
	b := &Rule{ID: "SO411", Name: "catalog.b", Kind: Invariant, Doc: "B.", Run: run}
	c := &Rule{ID: "SO401", Name: "invariant.c", Kind: Invariant, Doc: "C.", Run: run}
	o := &Rule{ID: "SO102", Name: "catalog.o", Kind: Transform, Doc: "O.", Engine: Engine{Opt: true}, Run: run}
	rs := []*Rule{a, o, b, c}
	g, err := NewRegistry(rs, nil, Family{Name: "invariant", Rules: []*Rule{c, b}}, Family{Name: "odd", Rules: []*Rule{o, a}})
	if err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{"invariant": "SO411,SO401", "Invariant.": "SO411,SO401", "odd": "SO101", "catalog": "SO101,SO411"} {
		if got, err := g.Match(ref); err != nil || ids(got) != want {
			t.Errorf("Match(%q) = %s, %v; want %s", ref, ids(got), err, want)
		}
	}
	if l, _ := g.Levels(map[string]string{"odd": "off"}, nil); !l.Off["SO102"] || !l.Off["SO101"] {
		t.Errorf("a severity reaches the opt-in rules of a family: %v", l.Off)
	}
	if _, err := g.Match("invariants"); err == nil || !strings.Contains(err.Error(), "did you mean invariant?") {
		t.Errorf("typo of a family: %v", err)
	}
	for _, tc := range []struct {
		f    Family
		want string
	}{
		{Family{Name: "Two words", Rules: rs}, "one lower-case word"},
		{Family{Name: "empty"}, "no rules"},
		{Family{Name: "so101", Rules: rs}, "a rule has that name"},
		{Family{Name: "x", Rules: []*Rule{{ID: "SO999"}}}, "SO999 is not in the registry"},
	} {
		if _, err := NewRegistry(rs, nil, tc.f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.f.Name, err, tc.want)
		}
	}
	if _, err := NewRegistry(rs, nil, Family{Name: "x", Rules: rs}, Family{Name: "x", Rules: rs}); err == nil {
		t.Error("a family named twice")
	}
}

// TestSelectRefusesOtherKinds: a reference whose rules are all of kinds the
// selection does not take is an error, not an empty selection.
func TestSelectRefusesOtherKinds(t *testing.T) {
	g := testRegistry(t)
	for _, ref := range []string{"SO401", "invariant", "SK", "skill.name-case"} {
		if _, err := g.Select([]string{"SO101", ref}, nil, Transform, Check); err == nil || !strings.Contains(err.Error(), "names no transform or check rule") {
			t.Errorf("Select(%s): %v", ref, err)
		}
	}
	if rs, err := g.Select([]string{"SO"}, nil, Transform, Check); err != nil || ids(rs) != "SO101,SO201" {
		t.Errorf("a prefix with rules of several kinds: %s, %v", ids(rs), err)
	}
}
