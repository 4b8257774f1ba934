package ruleset

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

var idPattern = regexp.MustCompile(`^(SO[1-5]\d\d|SK\d{3}|AG\d{3})$`)

// TestRegistry validates the registry: unique, well-formed IDs and names,
// documentation, a Run function, resolvable requirements without cycles.
func TestRegistry(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("empty registry")
	}
	ids, names := map[string]bool{}, map[string]bool{}
	for _, r := range all {
		if !idPattern.MatchString(r.ID) {
			t.Errorf("rule ID %q is not of the form SO1xx..SO5xx, SKnnn or AGnnn", r.ID)
		}
		if ids[r.ID] {
			t.Errorf("duplicate rule ID %s", r.ID)
		}
		ids[r.ID] = true
		if r.Name == "" || names[r.Name] || strings.ToLower(r.Name) != r.Name {
			t.Errorf("%s: name %q is empty, duplicate or not lower-case", r.ID, r.Name)
		}
		names[r.Name] = true
		if len(strings.TrimSpace(r.Doc)) < 40 || r.Summary() == "" {
			t.Errorf("%s: doc too short", r.ID)
		}
		if r.Run == nil && r.Kind != rules.Lint {
			t.Errorf("%s: no Run", r.ID)
		}
		if strings.HasPrefix(r.ID, "SO4") != (r.Kind == rules.Invariant) {
			t.Errorf("%s: SO4xx IDs are exactly the invariants (kind %s)", r.ID, r.Kind)
		}
	}
	// Requirements resolve and form no cycle.
	state := map[string]int{}
	var visit func(id string, path []string)
	visit = func(id string, path []string) {
		switch state[id] {
		case 1:
			t.Fatalf("requirement cycle: %s", strings.Join(append(path, id), " → "))
		case 2:
			return
		}
		state[id] = 1
		r := ByID(id)
		if r == nil {
			t.Fatalf("%s requires unknown rule %s", path[len(path)-1], id)
		}
		for _, req := range r.Requires {
			visit(req, append(path, id))
		}
		state[id] = 2
	}
	for _, r := range all {
		visit(r.ID, nil)
	}
}

func TestResolve(t *testing.T) {
	rs, err := Registry().Resolve([]string{"SO4"})
	want := 0
	for _, r := range All() {
		if strings.HasPrefix(r.ID, "SO4") {
			want++
		}
	}
	if err != nil || len(rs) != want || want < len(rules.Invariants()) {
		t.Fatalf("prefix SO4: %d rules, want %d (%v)", len(rs), want, err)
	}
	if rs, err := Registry().Resolve([]string{"invariant.no-growth", "SO402"}); err != nil || len(rs) != 1 || rs[0].ID != "SO402" {
		t.Fatalf("name and duplicate: %v %v", rs, err)
	}
	if _, err := Registry().Resolve([]string{"SO999"}); err == nil {
		t.Fatal("unknown rule resolved")
	}
	if p, err := Pipeline([]string{"none"}, nil, nil); err != nil || len(p) != 0 {
		t.Fatalf("none: %v %v", p, err)
	}
}

// The registry starts with the catalog rules and their invariants, then
// the tool rules and theirs, in the order pipelines and listings have
// always used; each family declares its settings once.
func TestRegistryOrderOfFamilies(t *testing.T) {
	want := []string{"SO101", "SO102", "SO103", "SO410", "SO411", "SO412", "SO413", "SO414", "SO415", "SO416", "SO417",
		"SO201", "SO202", "SO430", "SO431", "SO432", "SO433", "SO434", "SO435", "SO436"}
	all := All()
	if len(all) < len(want) {
		t.Fatalf("%d rules", len(all))
	}
	for i, id := range want {
		if all[i].ID != id {
			t.Fatalf("rule %d is %s, want %s", i, all[i].ID, id)
		}
	}
	var names []string
	for _, s := range Families() {
		names = append(names, s.Name)
	}
	if len(names) < 2 || names[0] != "catalog" || names[1] != "tools" {
		t.Errorf("family settings %v", names)
	}
}
