package lint_test

import (
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
)

// load reads a configuration as the command does (path "" for the
// defaults), with the tables the rules declare.
func load(t testing.TB, path string) *config.Config {
	t.Helper()
	cfg, err := config.LoadWith(path, ruleset.Registry().Binding())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// run lints as `skillopt lint` does: settings, rule options and
// severities from cfg, resolved by the registry.
func run(t testing.TB, cfg *config.Config, opts lint.Options) (*lint.Report, error) {
	t.Helper()
	levels, err := lint.Levels(ruleset.Registry(), lint.FromSet(cfg.Options), cfg.Rules.Severity, cfg.Rules.Disable)
	if err != nil {
		t.Fatal(err)
	}
	opts.Config, opts.Levels, opts.ConfigFile, opts.Locate = cfg.Options, levels, cfg.Path, cfg.Position
	return lint.Run(opts)
}
