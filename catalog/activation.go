package catalog

import (
	"fmt"
	"slices"
)

// The activation roles of a profile's skills, derived by catalog init
// from their cards: a discipline skill is a habit of evidence,
// verification or safe judgment (its card has the discipline tag); a
// workflow skill is a method of doing a kind of work (every tag of its
// card is an activity, see activityTags); every other skill is a
// specialist, knowledge of a field.
const (
	RoleSpecialist = "specialist"
	RoleWorkflow   = "workflow"
	RoleDiscipline = "discipline"
)

// activityTags are the vocabulary tags that name a kind of work rather
// than a field: a specialist's card names the activity it is used in,
// and its supporting skill is a workflow skill of that activity.
var activityTags = []string{"testing", "debugging", "performance", "refactoring", "code-review", "git", "documentation", "writing", "research", "planning"}

// ProfileActivation is one skill's activation tag: its role and, for a
// specialist, the one workflow skill of a shared activity that the
// legacy prefetch (SO103) may bring in beside it.
type ProfileActivation struct {
	Role    string `json:"role"`
	Support string `json:"support,omitempty"`
}

// DeriveActivation returns the activation tags of every card, offline and
// deterministically: the role from the card's tags, and for a specialist
// whose card names an activity the workflow skill sharing the most of
// its activities (ties by name), if there is one. A discipline skill is
// never anyone's support: a behavioural habit is not universal.
func DeriveActivation(cards map[string]ProfileCard) map[string]ProfileActivation {
	out := make(map[string]ProfileActivation, len(cards))
	var workflows []string
	for name, pc := range cards {
		r := roleOf(pc.Tags)
		out[name] = ProfileActivation{Role: r}
		if r == RoleWorkflow {
			workflows = append(workflows, name)
		}
	}
	slices.Sort(workflows)
	for name, pc := range cards {
		if out[name].Role != RoleSpecialist {
			continue
		}
		best, shared := "", 0
		for _, w := range workflows {
			if n := sharedActivities(pc.Tags, cards[w].Tags); n > shared {
				best, shared = w, n
			}
		}
		if best != "" {
			out[name] = ProfileActivation{Role: RoleSpecialist, Support: best}
		}
	}
	return out
}

func roleOf(tags []string) string {
	if slices.Contains(tags, "discipline") {
		return RoleDiscipline
	}
	for _, t := range tags {
		if !slices.Contains(activityTags, t) {
			return RoleSpecialist
		}
	}
	if len(tags) == 0 {
		return RoleSpecialist
	}
	return RoleWorkflow
}

func sharedActivities(a, b []string) int {
	n := 0
	for _, t := range a {
		if slices.Contains(activityTags, t) && slices.Contains(b, t) {
			n++
		}
	}
	return n
}

// ValidateActivation checks one skill's activation tag against the
// profile: a known role, and a support only on a specialist, naming
// another skill of the profile whose role is workflow.
func (p *Profile) ValidateActivation(name string, a ProfileActivation) error {
	switch a.Role {
	case RoleSpecialist, RoleWorkflow, RoleDiscipline:
	default:
		return fmt.Errorf("role %q is not one of specialist, workflow, discipline", a.Role)
	}
	if a.Support == "" {
		return nil
	}
	switch {
	case a.Role != RoleSpecialist:
		return fmt.Errorf("a %s skill has no supporting skill", a.Role)
	case a.Support == name:
		return fmt.Errorf("supports itself")
	case p.Activation[a.Support].Role != RoleWorkflow:
		return fmt.Errorf("support %q is not a workflow skill of the profile", a.Support)
	}
	return nil
}

// WithSupport returns res with, after each specialist of it, its
// supporting skill when the snapshot holds it and res does not yet,
// cut to limit: the support takes a place of the ordinary prefetch
// budget. It is not recursive (a support brings nothing in), and an
// activation tag that does not validate is ignored.
func (p *Profile) WithSupport(s *Snapshot, res []Result, limit int) []Result {
	if p == nil || len(p.Activation) == 0 {
		return res
	}
	seen := make(map[string]bool, len(res))
	for _, r := range res {
		seen[r.Name] = true
	}
	out := make([]Result, 0, len(res)+1)
	for _, r := range res {
		out = append(out, r)
		a, ok := p.Activation[r.Name]
		if !ok || a.Support == "" || seen[a.Support] || p.ValidateActivation(r.Name, a) != nil {
			continue
		}
		i := s.Lookup(a.Support)
		if i < 0 {
			continue
		}
		seen[a.Support] = true
		sk := s.Skills[i]
		out = append(out, Result{Name: sk.Name, Description: sk.Description, Match: "support", index: i})
	}
	return out[:min(len(out), max(limit, 0))]
}
