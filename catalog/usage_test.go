package catalog

import (
	"math"
	"testing"
	"time"
)

func TestDecayUsage(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	u := DecayUsage([]Use{
		{Skill: "a", At: now},
		{Skill: "a", At: now.Add(-UsageHalfLife)},
		{Skill: "b", At: now.Add(-2 * UsageHalfLife)},
		{Skill: "c"},                         // no time: counts 1
		{Skill: "d", At: now.Add(time.Hour)}, // after now: counts 1
	}, now)
	for name, want := range map[string]float64{"a": 1.5, "b": 0.25, "c": 1, "d": 1, "e": 0} {
		if got := u[name]; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

// TestSearchUsage: usage reorders skills that match nearly as well as the
// best, never a weaker match above a much better one, and brings in no
// skill the query does not find.
func TestSearchUsage(t *testing.T) {
	skills := []Skill{
		{Name: "notes-helper", Description: "Write release notes from commits."},
		{Name: "notes-assistant", Description: "Write release notes from merged commits."},
		{Name: "changelog", Description: "Keep a changelog of commits."},
		{Name: "slides", Description: "Make slide decks with release dates."},
		{Name: "sql-review", Description: "Review SQL queries."},
		{Name: "k8s", Description: "Deploy to Kubernetes."},
		{Name: "pdf", Description: "Fill PDF forms."},
	}
	s := NewSnapshot(skills, Options{})
	q := "write release notes from commits"
	plain := s.Search(q, 10)
	if len(plain) < 2 || plain[1].Score < usageGate {
		t.Fatalf("want two near-equal matches: %+v", plain)
	}
	second := plain[1].Name
	used := s.SearchUsage(q, 10, Usage{second: 1, "sql-review": 5})
	if used[0].Name != second {
		t.Errorf("usage did not lift %s: %+v", second, used)
	}
	for _, r := range used {
		if r.Name == "sql-review" {
			t.Errorf("usage brought in a skill the query does not find: %+v", used)
		}
	}
	if len(used) != len(plain) {
		t.Errorf("usage changed the results: %d, want %d", len(used), len(plain))
	}
	// A weak match stays below the best however much it is used.
	for _, r := range plain {
		if r.Score < 0.6 {
			if got := s.SearchUsage(q, 10, Usage{r.Name: 100}); got[0].Name == r.Name {
				t.Errorf("%s (score %v) lifted to the top by usage", r.Name, r.Score)
			}
		}
	}
	if got := s.SearchUsage(q, 10, nil); len(got) != len(plain) || got[0] != plain[0] {
		t.Errorf("no usage: %+v, want %+v", got, plain)
	}
}
