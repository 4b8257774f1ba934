package ruleset

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// familyOf says, for every family selector, which rules it must select
// (opt-in rules aside): the tests of every selector CONTRIBUTING.md
// documents.
var familyOf = map[string]func(r *rules.Rule) bool{
	"catalog":   func(r *rules.Rule) bool { return inRange(r.ID, "SO1") || inRange(r.ID, "SO41") },
	"tools":     func(r *rules.Rule) bool { return inRange(r.ID, "SO2") || inRange(r.ID, "SO43") },
	"output":    func(r *rules.Rule) bool { return inRange(r.ID, "SO3") || inRange(r.ID, "SO42") },
	"invariant": func(r *rules.Rule) bool { return r.Kind == rules.Invariant },
	"validity":  func(r *rules.Rule) bool { return inRange(r.ID, "SO5") },
	"lint":      func(r *rules.Rule) bool { return r.Kind == rules.Lint },
	"skill":     func(r *rules.Rule) bool { return inRange(r.ID, "SK") },
	"agent":     func(r *rules.Rule) bool { return inRange(r.ID, "AG") },
}

func inRange(id, prefix string) bool { return strings.HasPrefix(id, prefix) }

// TestFamilySelectors: each family name selects exactly its family, in
// registry order (opt-in rules are named by their ID only), in --rules,
// disable lists and severities alike; the catalog invariants, named
// catalog.*, are invariants too.
func TestFamilySelectors(t *testing.T) {
	for name, in := range familyOf {
		var want, wantAll []string
		for _, r := range All() {
			if in(r) {
				wantAll = append(wantAll, r.ID)
				if !r.Engine.Opt {
					want = append(want, r.ID)
				}
			}
		}
		for _, ref := range []string{name, strings.ToUpper(name), name + "."} {
			got, err := Registry().Match(ref)
			if err != nil || strings.Join(ids(got), ",") != strings.Join(want, ",") {
				t.Errorf("Match(%q) = %v, %v;\nwant %v", ref, ids(got), err, want)
			}
		}
		l, err := Registry().Levels(map[string]string{name: "off"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range wantAll {
			if !l.Off[id] {
				t.Errorf("[rules.severity] %s = \"off\" leaves %s on", name, id)
			}
		}
		if len(l.Off) != len(wantAll) {
			t.Errorf("[rules.severity] %s = \"off\" turns off %d rules, want %d", name, len(l.Off), len(wantAll))
		}
	}
	inv, _ := Registry().Match("invariant")
	if !slices.ContainsFunc(inv, func(r *rules.Rule) bool { return strings.HasPrefix(r.Name, "catalog.") }) {
		t.Error("invariant does not select the catalog.* invariants")
	}
	// The pipeline takes the transforms and checks a family names.
	p, err := Pipeline([]string{"output"}, nil, nil)
	if err != nil || !slices.ContainsFunc(p, func(r *rules.Rule) bool { return strings.HasPrefix(r.Name, "history.") }) {
		t.Errorf("--rules output = %v, %v: want the history rules too", ids(p), err)
	}
}

// TestDocumentedSelectors: the family selectors CONTRIBUTING.md lists are
// the registry's families, and each has its test in familyOf.
func TestDocumentedSelectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The list is the first sentence of the paragraph that starts with
	// "Family selectors:".
	_, list, ok := strings.Cut(string(data), "\nFamily selectors:")
	if !ok {
		t.Fatal(`CONTRIBUTING.md has no paragraph "Family selectors:"`)
	}
	list, _, _ = strings.Cut(list, ".")
	var documented []string
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(list, -1) {
		documented = append(documented, m[1])
	}
	var registered []string
	for _, f := range Registry().Families() {
		registered = append(registered, f.Name)
	}
	slices.Sort(documented)
	slices.Sort(registered)
	if len(documented) == 0 || !slices.Equal(documented, registered) {
		t.Errorf("CONTRIBUTING.md documents the family selectors %v; the registry has %v", documented, registered)
	}
	for _, name := range registered {
		if familyOf[name] == nil {
			t.Errorf("family %s has no test in familyOf", name)
		}
	}
}
