// Package ruleset is the one explicit, ordered list of every skillopt rule,
// gathered from the packages that define them, and the lookup of rule
// references (IDs, ID prefixes, names) used by --rules and skillopt.toml.
package ruleset

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
	"github.com/skillopt/skillopt/transform"
)

// All returns every rule in registry order. The order is the default
// execution order of a pipeline.
func All() []*rules.Rule {
	var all []*rules.Rule
	all = append(all, transform.CatalogRules()...)
	all = append(all, transform.ToolRules()...)
	all = append(all, transform.OutputRules()...)
	all = append(all, rules.Invariants()...)
	all = append(all, catalog.LintRules()...)
	return all
}

// Settings is what rules find in rules.Env.Settings: the configuration and
// a way to re-run the pipeline (for the idempotence invariant).
type Settings struct {
	Cfg   *config.Config
	Again rules.Retransform
	// DryRun asks rules not to write anything outside the capture (the
	// archive): measure only reports what would be saved.
	DryRun bool
	// Keeper is where originals go and are read back from: an
	// archive.Memory for commands that write nothing, archive.Off, or nil
	// for the Store at archive.dir.
	Keeper archive.Keeper
}

// Dry reports whether side effects are off.
func (s *Settings) Dry() bool { return s.DryRun }

// Archive returns where originals go (nil: the configured Store).
func (s *Settings) Archive() archive.Keeper { return s.Keeper }

// Config returns the configuration.
func (s *Settings) Config() *config.Config { return s.Cfg }

// Retransform returns the pipeline re-runner.
func (s *Settings) Retransform() rules.Retransform { return s.Again }

// Env builds the engine environment for a pipeline: severity overrides and
// settings from cfg, and schema validation of transformed bodies.
func Env(cfg *config.Config, pipeline []*rules.Rule) *rules.Env {
	env := &rules.Env{Severity: map[string]rules.Severity{}, Validate: validate}
	for id, s := range cfg.Rules.Severity {
		if sev, err := rules.ParseSeverity(s); err == nil {
			if r := ByID(id); r != nil {
				env.Severity[r.ID] = sev
			}
		}
	}
	env.Settings = &Settings{Cfg: cfg, Again: func(c *capture.Capture) (*rules.Result, error) {
		return rules.Run(c, pipeline, env)
	}}
	return env
}

func validate(c *capture.Capture) ([]string, error) {
	errs, err := schemas.ValidateDoc(string(c.Provider), c.Doc)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.String()
	}
	return out, nil
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
// expands to its rules in registry order, opt-in rules excepted. Duplicates are kept once, at
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
				matched = true
				if !r.Opt {
					add(r)
				}
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
