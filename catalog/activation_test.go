package catalog

import (
	"reflect"
	"testing"
)

// TestDeriveActivation: roles from the cards' tags, and a specialist's
// support is the workflow skill sharing the most activities, ties by name.
func TestDeriveActivation(t *testing.T) {
	cards := map[string]ProfileCard{
		"sql-review":  {Tags: []string{"database", "code-review", "testing"}},
		"k8s":         {Tags: []string{"containers"}},
		"reviewer":    {Tags: []string{"code-review", "testing"}},
		"test-runner": {Tags: []string{"testing"}},
		"a-tester":    {Tags: []string{"testing", "debugging"}},
		"verify":      {Tags: []string{"discipline", "testing"}},
	}
	got := DeriveActivation(cards)
	want := map[string]ProfileActivation{
		"sql-review":  {Role: RoleSpecialist, Support: "reviewer"},
		"k8s":         {Role: RoleSpecialist},
		"reviewer":    {Role: RoleWorkflow},
		"test-runner": {Role: RoleWorkflow},
		"a-tester":    {Role: RoleWorkflow},
		"verify":      {Role: RoleDiscipline},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	p := &Profile{Cards: cards, Activation: got}
	for _, c := range []struct {
		name string
		a    ProfileActivation
		ok   bool
	}{
		{"sql-review", ProfileActivation{Role: RoleSpecialist, Support: "reviewer"}, true},
		{"sql-review", ProfileActivation{Role: "expert"}, false},
		{"reviewer", ProfileActivation{Role: RoleWorkflow, Support: "test-runner"}, false},
		{"sql-review", ProfileActivation{Role: RoleSpecialist, Support: "sql-review"}, false},
		{"sql-review", ProfileActivation{Role: RoleSpecialist, Support: "verify"}, false},
	} {
		if err := p.ValidateActivation(c.name, c.a); (err == nil) != c.ok {
			t.Errorf("%s %+v: %v", c.name, c.a, err)
		}
	}
}

// TestWithSupport: a ranked specialist brings its support within the
// limit, once, not recursively; an invalid tag brings nothing.
func TestWithSupport(t *testing.T) {
	s := NewSnapshot([]Skill{
		{Name: "sql-review", Description: "Review SQL migrations."},
		{Name: "reviewer", Description: "Review code."},
		{Name: "k8s", Description: "Deploy to Kubernetes."},
	}, Options{})
	p := &Profile{Activation: map[string]ProfileActivation{
		"sql-review": {Role: RoleSpecialist, Support: "reviewer"},
		"reviewer":   {Role: RoleWorkflow},
		"k8s":        {Role: RoleSpecialist, Support: "k8s"},
	}}
	names := func(rs []Result) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return out
	}
	res := []Result{{Name: "sql-review"}, {Name: "k8s"}}
	if got := names(p.WithSupport(s, res, 3)); !reflect.DeepEqual(got, []string{"sql-review", "reviewer", "k8s"}) {
		t.Errorf("limit 3: %v", got)
	}
	if got := names(p.WithSupport(s, res, 2)); !reflect.DeepEqual(got, []string{"sql-review", "reviewer"}) {
		t.Errorf("limit 2: %v", got)
	}
	if got := names((*Profile)(nil).WithSupport(s, res, 2)); !reflect.DeepEqual(got, []string{"sql-review", "k8s"}) {
		t.Errorf("no profile: %v", got)
	}
}
