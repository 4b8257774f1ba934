// Package ruleset is the one explicit, ordered list of every skillopt rule,
// gathered from the packages that define them, and the lookup of rule
// references (IDs, ID prefixes, names) used by --rules and skillopt.toml.
package ruleset

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/rules"
)

// All returns every rule in registry order. The order is the default
// execution order of a pipeline.
func All() []*rules.Rule {
	var all []*rules.Rule
	all = append(all, rules.Invariants()...)
	return all
}

// ByID returns the rule with the given ID or name, or nil.
func ByID(ref string) *rules.Rule {
	for _, r := range All() {
		if strings.EqualFold(r.ID, ref) || r.Name == ref {
			return r
		}
	}
	return nil
}

// Known reports whether ref names a rule or is an ID prefix of at least one.
func Known(ref string) bool {
	rs, err := Resolve([]string{ref})
	return err == nil && len(rs) > 0
}

// Resolve turns references into rules, in the order given; an ID prefix
// expands to its rules in registry order. Duplicates are kept once, at
// their first position. An unknown reference is an error.
func Resolve(refs []string) ([]*rules.Rule, error) {
	var out []*rules.Rule
	seen := map[string]bool{}
	add := func(r *rules.Rule) {
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	for _, ref := range refs {
		ref = strings.TrimSpace(ref)
		if ref == "" {
			continue
		}
		if r := ByID(ref); r != nil {
			add(r)
			continue
		}
		matched := false
		for _, r := range All() {
			if strings.HasPrefix(strings.ToUpper(r.ID), strings.ToUpper(ref)) {
				add(r)
				matched = true
			}
		}
		if !matched {
			return nil, fmt.Errorf("unknown rule %q (see `skillopt rules`)", ref)
		}
	}
	return out, nil
}

// Pipeline resolves references to the transform and check rules they name,
// dropping disabled ones. "none" selects no rule.
func Pipeline(refs, disable []string) ([]*rules.Rule, error) {
	if len(refs) == 1 && strings.EqualFold(strings.TrimSpace(refs[0]), "none") {
		return nil, nil
	}
	rs, err := Resolve(refs)
	if err != nil {
		return nil, err
	}
	off, err := Resolve(disable)
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, r := range off {
		skip[r.ID] = true
	}
	var out []*rules.Rule
	for _, r := range rs {
		if !skip[r.ID] && r.Kind != rules.Invariant {
			out = append(out, r)
		}
	}
	return out, nil
}

// Invariants returns the invariant rules, minus disabled ones.
func Invariants(disable []string) ([]*rules.Rule, error) {
	off, err := Resolve(disable)
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, r := range off {
		skip[r.ID] = true
	}
	var out []*rules.Rule
	for _, r := range All() {
		if r.Kind == rules.Invariant && !skip[r.ID] {
			out = append(out, r)
		}
	}
	return out, nil
}
