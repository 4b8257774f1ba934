package config

// Lint configures the lint rules. Its keys are documented in template_lint.toml.
type Lint struct{}

func defaultLint() Lint { return Lint{} }

func (c *Lint) check() (string, string) { return "", "" }
