package config

import "fmt"

// Catalog tunes the skill-catalog rules and commands.
type Catalog struct {
	// BudgetChars is the soft character budget shared by every compact
	// skill index of one request.
	BudgetChars int `toml:"budget_chars"`
	// Exclude lists skill names that are never eligible.
	Exclude []string `toml:"exclude"`
	// Critical and Always are skill names shown as hints.
	Critical []string `toml:"critical"`
	Always   []string `toml:"always"`
	// Profile is the card profile file (tag directory mode).
	Profile string `toml:"profile"`
	// Fallback says what SO102 does when the tag directory cannot be used:
	// "compact" (SO101's index) or "native" (leave the catalog).
	Fallback string `toml:"fallback"`
	// Skills lists skill folders for catalog commands and loading.
	Skills []string `toml:"skills"`
	// PrefetchLimit bounds the skills SO103 appends.
	PrefetchLimit int `toml:"prefetch_limit"`
}

func defaultCatalog() Catalog {
	return Catalog{BudgetChars: 12000, Fallback: "compact", PrefetchLimit: 3}
}

func (c *Catalog) check(add func(key, msg string)) {
	if c.BudgetChars < 0 {
		add("catalog.budget_chars", fmt.Sprintf("catalog.budget_chars %d must not be negative", c.BudgetChars))
	}
	if c.Fallback != "compact" && c.Fallback != "native" {
		add("catalog.fallback", fmt.Sprintf("catalog.fallback %q is not one of compact, native", c.Fallback))
	}
	if c.PrefetchLimit < 0 || c.PrefetchLimit > 20 {
		add("catalog.prefetch_limit", fmt.Sprintf("catalog.prefetch_limit %d is outside 0..20", c.PrefetchLimit))
	}
}
