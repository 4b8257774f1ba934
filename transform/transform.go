// Package transform holds the transform rules: skill-catalog compaction and
// discovery (SO1xx), tool deferral (SO2xx), and output and history reduction
// (SO3xx). Rules read a capture through their Pass and return edits; they
// never parse files or print.
package transform

import (
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// Configured is what a rule finds in rules.Env.Settings to read the
// configuration.
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
