package config

// Tools configures the tools rules. Its keys are documented in template_tools.toml.
type Tools struct{}

func defaultTools() Tools { return Tools{} }

func (c *Tools) check() (string, string) { return "", "" }
