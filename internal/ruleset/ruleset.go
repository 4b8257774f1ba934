// Package ruleset is the one explicit, ordered list of every skillopt rule,
// gathered from the packages that define them, and the lookup of rule
// references (IDs, ID prefixes, names) used by --rules and skillopt.toml.
package ruleset

import (
	"path/filepath"
	"sync"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/invariant"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
	"github.com/skillopt/skillopt/transform/catalogrules"
	"github.com/skillopt/skillopt/transform/output"
	"github.com/skillopt/skillopt/transform/tools"
	"github.com/skillopt/skillopt/validity"
)

// All returns every rule in registry order. The order is the default
// execution order of a pipeline.
func All() []*rules.Rule {
	var all []*rules.Rule
	all = append(all, catalogrules.Rules()...)
	all = append(all, tools.Rules()...)
	all = append(all, output.Rules()...)
	all = append(all, invariant.Rules()...)
	all = append(all, validity.Rules()...)
	for _, r := range lint.Rules() {
		all = append(all, r.Rule)
	}
	return all
}

// Families returns the settings of every family of rules, in registry
// order.
func Families() []rules.Settings {
	return []rules.Settings{catalogrules.Family, tools.Family, output.Family, lint.Family}
}

// RuleFamilies returns the families a reference selects by name: each
// family's package, every invariant (the engine's and each transform
// family's), and the lint families.
func RuleFamilies() []rules.Family {
	var inv []*rules.Rule
	for _, r := range All() {
		if r.Kind == rules.Invariant {
			inv = append(inv, r)
		}
	}
	return append([]rules.Family{
		{Name: "catalog", Doc: "the skill catalog rules (SO1xx) and their invariants", Rules: catalogrules.Rules()},
		{Name: "tools", Doc: "the tool deferral rules (SO2xx) and their invariants", Rules: tools.Rules()},
		{Name: "output", Doc: "the output and history rules (SO3xx) and their invariants", Rules: output.Rules()},
		{Name: "invariant", Doc: "every invariant: the engine's (SO401–SO405) and each family's", Rules: inv},
		{Name: "validity", Doc: "the request-validity rules (SO5xx)", Rules: validity.Rules()},
	}, lint.RuleFamilies()...)
}

// registry is built once, on first use; the registry test makes sure it
// builds.
var registry = sync.OnceValues(func() (*rules.Registry, error) {
	return rules.NewRegistry(All(), Families(), RuleFamilies()...)
})

// Registry returns the registry of every rule and family settings.
func Registry() *rules.Registry {
	r, err := registry()
	if err != nil {
		panic(err)
	}
	return r
}

// Env builds the engine environment for a pipeline: options and severities
// from cfg, schema validation of transformed bodies, and a re-run of the
// pipeline for the idempotence invariant.
func Env(cfg *config.Config, pipeline []*rules.Rule) *rules.Env {
	levels, err := Registry().Levels(cfg.Rules.Severity, nil)
	if err != nil {
		levels = nil // reported when the configuration was loaded
	}
	env := &rules.Env{Options: cfg.Options, Levels: levels, Archive: archive.Open(cfg.Archive.Dir)}
	env.Validate = func(c *capture.Capture) ([]string, error) { return Validate(c, env) }
	if cfg.Path != "" {
		env.BaseDir = filepath.Dir(cfg.Path)
	}
	env.Again = func(c *capture.Capture) (*rules.Result, error) {
		return rules.Run(c, pipeline, env)
	}
	return env
}

// SetArchive sets where rules keep originals and whether they may write.
func SetArchive(env *rules.Env, k archive.Keeper, dry bool) {
	env.Archive, env.DryRun = k, dry
}

// Validate is what a provider would reject in c: its schema errors and the
// error findings of the request-validity rules (SO5xx) that env leaves on.
// The engine runs it after every transform as a guard.
func Validate(c *capture.Capture, env *rules.Env) ([]string, error) {
	errs, err := schemas.ValidateDoc(string(c.Provider), c.Doc)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.String())
	}
	diags, err := validity.Check(c, env)
	if err != nil {
		return nil, err
	}
	for _, d := range diags {
		if d.Severity == rules.Error {
			out = append(out, d.Pointer+": "+d.Rule+" "+d.Message)
		}
	}
	return out, nil
}

// ByID returns the rule a reference names exactly (ID in any case, or
// name), or nil.
func ByID(ref string) *rules.Rule { return Registry().Lookup(ref) }

// MatchErr returns nil when ref names a rule or a family of rules, else why
// not (with a suggested spelling when one is close).
func MatchErr(ref string) error {
	_, err := Registry().Match(ref)
	return err
}

// Pipeline resolves references to the transform and check rules they name,
// minus the rules disable or [rules.severity] turn off. "none" selects no
// rule.
func Pipeline(refs, disable []string, severity map[string]string) ([]*rules.Rule, error) {
	l, err := Registry().Levels(severity, disable)
	if err != nil {
		return nil, err
	}
	return Registry().Select(refs, l, rules.Transform, rules.Check)
}

// Invariants returns the invariant rules minus those turned off.
func Invariants(disable []string, severity map[string]string) ([]*rules.Rule, error) {
	l, err := Registry().Levels(severity, disable)
	if err != nil {
		return nil, err
	}
	return Registry().OfKind(l, rules.Invariant), nil
}
