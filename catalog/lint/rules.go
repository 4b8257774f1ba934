package lint

import (
	"strings"
	"sync"

	"github.com/skillopt/skillopt/rules"
)

// Rules returns the skill (SKnnn) and agent-definition (AGnnn) rules in
// registry order.
func Rules() []*Rule { return append([]*Rule(nil), all()...) }

var all = sync.OnceValue(func() []*Rule {
	rs := declared()
	// Every rule runs through rules.Call; its Run hands it the unit.
	for _, r := range rs {
		r.Rule.Run = r.run
	}
	return rs
})

// RuleFamilies are the families of the lint rules: lint (every one),
// skill (SKnnn, skill files and trees) and agent (AGnnn, agent
// definitions).
func RuleFamilies() []rules.Family {
	var every, skill, agent []*rules.Rule
	for _, r := range all() {
		every = append(every, r.Rule)
		if strings.HasPrefix(r.ID, "AG") {
			agent = append(agent, r.Rule)
		} else {
			skill = append(skill, r.Rule)
		}
	}
	return []rules.Family{
		{Name: "lint", Doc: "every skill and agent-definition rule", Rules: every},
		{Name: "skill", Doc: "skill files and skill trees (SKnnn)", Rules: skill},
		{Name: "agent", Doc: "agent definitions and their loadouts (AGnnn)", Rules: agent},
	}
}

// registry resolves the rule references of suppressions with the same
// resolver every command uses, over the lint rules alone.
var registry = sync.OnceValues(func() (*rules.Registry, error) {
	rs := make([]*rules.Rule, 0, len(all()))
	for _, r := range all() {
		rs = append(rs, r.Rule)
	}
	return rules.NewRegistry(rs, []rules.Settings{Family}, RuleFamilies()...)
})
