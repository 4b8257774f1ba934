package rules

import (
	"strings"
	"testing"
)

func testRegistry(t *testing.T) *Registry {
	t.Helper()
	run := func(*Pass) error { return nil }
	rs := []*Rule{
		{ID: "SO101", Name: "catalog.compact-index", Kind: Transform, Doc: "Compact.", Run: run},
		{ID: "SO103", Name: "catalog.prefetch", Kind: Transform, Doc: "Prefetch.", Engine: Engine{Opt: true}, Run: run},
		{ID: "SO201", Name: "tools.defer", Kind: Transform, Doc: "Defer.", Run: run},
		{ID: "SO401", Name: "invariant.shape", Kind: Invariant, Severity: Error, Doc: "Shape.", Run: run},
		{ID: "SK013", Name: "skill.name-case", Kind: Lint, Severity: Warning, Doc: "Case.", Run: run},
		{ID: "SK014", Name: "skill.name-chars", Kind: Lint, Severity: Error, Doc: "Chars.", Run: run},
	}
	g, err := NewRegistry(rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func ids(rs []*Rule) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, ",")
}

func TestMatchReferenceForms(t *testing.T) {
	g := testRegistry(t)
	for ref, want := range map[string]string{
		"SO101": "SO101", "so101": "SO101", "catalog.compact-index": "SO101", "Catalog.Compact-Index": "SO101",
		"SO1": "SO101", "so1": "SO101", "SO": "SO101,SO201,SO401", "catalog": "SO101", "catalog.": "SO101",
		"SO103": "SO103", "catalog.prefetch": "SO103", "tools.defer": "SO201", "SK01": "SK013,SK014", "sk": "SK013,SK014",
		"skill": "SK013,SK014",
	} {
		rs, err := g.Match(ref)
		if err != nil || ids(rs) != want {
			t.Errorf("Match(%q) = %s, %v; want %s", ref, ids(rs), err, want)
		}
	}
	_, err := g.Match("tools.defr")
	var ue *UnknownRuleError
	if err == nil || !strings.Contains(err.Error(), "did you mean tools.defer?") {
		t.Errorf("typo: %v %T", err, ue)
	}
	if _, err := g.Match("catalo"); err == nil {
		t.Error("a name prefix must end at a dot")
	}
}

func TestLevels(t *testing.T) {
	g := testRegistry(t)
	l, err := g.Levels(map[string]string{"SO2": "off", "so1": "warning", "catalog.prefetch": "info", "sk": "info", "SK014": "ERROR"}, []string{"invariant"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"SO101": "warning", "SO103": "info", "SO201": "off", "SO401": "off", "SK013": "info", "SK014": "error"}
	for _, r := range g.rules {
		s, on := l.Level(r)
		got := s.String()
		if !on {
			got = "off"
		}
		if got != want[r.ID] {
			t.Errorf("%s: %s, want %s", r.ID, got, want[r.ID])
		}
	}
	if _, err := g.Levels(map[string]string{"SO9": "off"}, nil); err == nil {
		t.Error("unknown reference accepted")
	}
	if _, err := g.Levels(map[string]string{"SO1": "loud"}, nil); err == nil {
		t.Error("unknown level accepted")
	}
	sel, err := g.Select([]string{"SO1", "SO2", "SO103"}, l, Transform)
	if err != nil || ids(sel) != "SO101,SO103" {
		t.Errorf("select %s %v", ids(sel), err)
	}
}

func TestRegistryValidates(t *testing.T) {
	run := func(*Pass) error { return nil }
	for name, rs := range map[string][]*Rule{
		"bad id":        {{ID: "X1", Name: "a.b", Doc: "d", Run: run}},
		"bad name":      {{ID: "SO101", Name: "Compact", Doc: "d", Run: run}},
		"duplicate id":  {{ID: "SO101", Name: "a.b", Doc: "d", Run: run}, {ID: "SO101", Name: "a.c", Doc: "d", Run: run}},
		"duplicate nm":  {{ID: "SO101", Name: "a.b", Doc: "d", Run: run}, {ID: "SO102", Name: "a.b", Doc: "d", Run: run}},
		"no doc":        {{ID: "SO101", Name: "a.b", Run: run}},
		"no run":        {{ID: "SO101", Name: "a.b", Doc: "d"}},
		"options clash": {{ID: "SO101", Name: "a.b", Doc: "d", Run: run, Options: &demoOptions{}}, {ID: "SO102", Name: "a.c", Doc: "d", Run: run, Options: &badOptions{}}},
		"reads unknown": {{ID: "SO101", Name: "a.b", Doc: "d", Run: run, Options: &demoOptions{}}, {ID: "SO102", Name: "a.c", Doc: "d", Run: run, Reads: []string{"demo.budgets"}}},
		"reads no tbl":  {{ID: "SO101", Name: "a.b", Doc: "d", Run: run, Options: &demoOptions{}}, {ID: "SO102", Name: "a.c", Doc: "d", Run: run, Reads: []string{"budget"}}},
	} {
		if _, err := NewRegistry(rs, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A rule may read another owner's declared key.
	if _, err := NewRegistry([]*Rule{{ID: "SO101", Name: "a.b", Doc: "d", Run: run, Options: &demoOptions{}}, {ID: "SO102", Name: "a.c", Doc: "d", Run: run, Reads: []string{"demo.budget"}}}, nil); err != nil {
		t.Errorf("reading a declared key: %v", err)
	}
}
