// Package transform is the machinery the transform rule families share:
// the tool declarations of a request read in each provider's shape, and the
// edits that rewrite them byte for byte. The families live in sub-packages:
// transform/catalog (skill catalog, SO1xx), transform/tools (tool deferral,
// SO2xx) and the output and history rules (SO3xx). Rules read a capture
// through their Pass and return edits; they never parse files or print.
package transform

import (
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// Configured is what a rule not yet given typed settings finds in
// rules.Env.Settings to read the configuration.
type Configured interface {
	Config() *config.Config
}

// cfgOf returns the configuration a pass runs with (the defaults when the
// environment carries none).
func cfgOf(p *rules.Pass) *config.Config {
	if p.Env != nil {
		if c, ok := p.Env.Settings.(Configured); ok && c.Config() != nil {
			return c.Config()
		}
	}
	return config.Default()
}
