package config

// Output configures the output rules. Its keys are documented in template_output.toml.
type Output struct{}

func defaultOutput() Output { return Output{} }

func (c *Output) check() (string, string) { return "", "" }
