package config

import "github.com/skillopt/skillopt/measure/price"

// PriceTable is the built-in price table with the [prices] overrides of
// the configuration, each naming the file it came from ("skillopt.toml"
// for a configuration read from no file).
func (c *Config) PriceTable() *price.Table {
	var overrides []price.Override
	source := "skillopt.toml"
	if c.Path != "" {
		source = c.Path
	}
	for model, values := range c.Prices {
		overrides = append(overrides, price.Override{Model: model, Values: values, Source: source})
	}
	return price.Builtin().With(overrides)
}
