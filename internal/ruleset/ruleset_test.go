package ruleset

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/invariant"
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
		if r.Run == nil {
			t.Errorf("%s: no Run", r.ID)
		}
		if strings.HasPrefix(r.ID, "SO4") != (r.Kind == rules.Invariant) {
			t.Errorf("%s: SO4xx IDs are exactly the invariants (kind %s)", r.ID, r.Kind)
		}
	}
	// Requirements resolve and form no cycle: NewRegistry refuses both
	// (tested in package rules); here the real registry builds.
	if _, err := registry(); err != nil {
		t.Fatal(err)
	}
}

// TestPipelineSelectsRequirements: a rule selected alone brings what it
// requires, before it, and a requirement turned off is an error.
func TestPipelineSelectsRequirements(t *testing.T) {
	for _, r := range All() {
		if len(r.Requires) == 0 || (r.Kind != rules.Transform && r.Kind != rules.Check) {
			continue
		}
		p, err := Pipeline([]string{r.ID}, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		pos := map[*rules.Rule]int{}
		for i, q := range p {
			pos[q] = i + 1
		}
		for _, q := range r.Requires {
			if pos[q] == 0 || pos[q] > pos[r] {
				t.Errorf("Pipeline([%s]) = %v: want %s before %s", r.ID, ids(p), q.ID, r.ID)
			}
		}
		if _, err := Pipeline([]string{r.ID}, []string{r.Requires[0].ID}, nil); err == nil {
			t.Errorf("%s with %s disabled: no error", r.ID, r.Requires[0].ID)
		}
	}
	// The one requirement of today, spelled out.
	p, err := Pipeline([]string{"SO103"}, nil, nil)
	if err != nil || len(p) != 2 || p[0].ID != "SO101" || p[1].ID != "SO103" {
		t.Fatalf("Pipeline([SO103]) = %v, %v; want [SO101 SO103]", ids(p), err)
	}
}

func ids(rs []*rules.Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

func TestResolve(t *testing.T) {
	rs, err := Registry().Resolve([]string{"SO4"})
	want := 0
	for _, r := range All() {
		if strings.HasPrefix(r.ID, "SO4") {
			want++
		}
	}
	if err != nil || len(rs) != want || want < len(invariant.Rules()) {
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
