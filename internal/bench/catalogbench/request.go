package catalogbench

import (
	"fmt"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
)

// Transformer prepares a request the way `skillopt transform --no-archive
// --rules REFS` does without a skillopt.toml: the configuration as loaded
// when there is no file, the pipeline resolved through the registry, the
// engine environment of internal/ruleset (the provider's schema and every
// SO5xx rule as the guard after each step, the second pass of each rule on
// its own result) with no archive, every capture of the file run through
// rules.Run, and the file rebuilt from the results. The one thing of the
// command it leaves out is process-wide: the garbage-collector limits
// transform sets for its input (see FirstInProcess, which sets them).
type Transformer struct {
	Pipeline []*rules.Rule
	Env      *rules.Env
	opts     capture.Options
}

// NewTransformer resolves refs (rule IDs, prefixes or names) as --rules
// does.
func NewTransformer(refs []string, provider capture.Provider) (*Transformer, error) {
	cfg, err := config.LoadWith("", ruleset.Registry().Binding())
	if err != nil {
		return nil, err
	}
	pipeline, err := ruleset.Pipeline(refs, cfg.Rules.Disable, cfg.Rules.Severity)
	if err != nil {
		return nil, err
	}
	env := ruleset.Env(cfg, pipeline)
	ruleset.SetArchive(env, archive.Off, false)
	return &Transformer{Pipeline: pipeline, Env: env, opts: capture.Options{Provider: provider}}, nil
}

// Transform reads data as the capture file name and returns the file
// transform would write and the result of each capture.
func (t *Transformer) Transform(name string, data []byte) ([]byte, []*rules.Result, error) {
	f, err := capture.Read(name, data, t.opts)
	if err != nil {
		return nil, nil, err
	}
	if len(f.Errs) > 0 {
		return nil, nil, f.Errs[0]
	}
	if len(f.Captures) == 0 {
		return nil, nil, fmt.Errorf("%s: no request in the file", name)
	}
	for _, c := range f.Captures {
		schemas.Preload(string(c.Provider))
	}
	results := make([]*rules.Result, 0, len(f.Captures))
	bodies := make(map[*capture.Capture][]byte, len(f.Captures))
	for _, c := range f.Captures {
		res, err := rules.Run(c, t.Pipeline, t.Env)
		if err != nil {
			return nil, nil, err
		}
		results = append(results, res)
		bodies[res.Original] = res.Final.Body
	}
	return f.Rebuild(bodies), results, nil
}
