package config

import (
	"fmt"
	"math"
)

// Output configures the output and history rules (SO301–SO306). Its keys
// are documented in template_output.toml.
type Output struct {
	// SO301: reduction triggers (not caps) and acceptance thresholds.
	TriggerBytes  int     `toml:"trigger_bytes"`
	TriggerLines  int     `toml:"trigger_lines"`
	MinSavedBytes int     `toml:"min_saved_bytes"`
	MinSavedRatio float64 `toml:"min_saved_ratio"`
	HeadLines     int     `toml:"head_lines"`
	TailLines     int     `toml:"tail_lines"`
	ContextLines  int     `toml:"context_lines"`
	MaxLineBytes  int     `toml:"max_line_bytes"`
	// ExemptTools are never reduced, besides skillopt's own resolvers.
	ExemptTools []string `toml:"exempt_tools"`

	// SO303: history deduplication.
	DedupMinBytes     int `toml:"dedup_min_bytes"`
	DedupMaxArtifacts int `toml:"dedup_max_artifacts"`

	// SO304: overflow ceiling with context memory.
	OverflowTools        []string `toml:"overflow_tools"`
	OverflowCeilingBytes int      `toml:"overflow_ceiling_bytes"`
	Tier                 string   `toml:"tier"`
	ContextMemory        bool     `toml:"context_memory"`
	PreviewHeadChars     int      `toml:"preview_head_chars"`
	PreviewTailChars     int      `toml:"preview_tail_chars"`

	// SO305: final-output sanitizer.
	StripToolTraces     bool `toml:"strip_tool_traces"`
	FinalOutputMaxChars int  `toml:"final_output_max_chars"`

	// SO306: head/tail history assembly.
	HistoryStrategy    string `toml:"history_strategy"`
	HeadMessages       int    `toml:"head_messages"`
	TailMessages       int    `toml:"tail_messages"`
	MiddleMode         string `toml:"middle_mode"`
	MaxCharsPerMessage int    `toml:"max_chars_per_message"`
	MaxTotalChars      int    `toml:"max_total_chars"`

	// Tiers are the overflow ceilings selected by Tier.
	Tiers Tiers `toml:"tiers"`
}

// Tiers are per-tier overflow ceilings in bytes; 0 falls back to
// overflow_ceiling_bytes.
type Tiers struct {
	Cheap    int `toml:"cheap"`
	Balanced int `toml:"balanced"`
	Frontier int `toml:"frontier"`
}

func defaultOutput() Output {
	return Output{
		TriggerBytes:         4096,
		TriggerLines:         80,
		MinSavedBytes:        1024,
		MinSavedRatio:        0.25,
		HeadLines:            6,
		TailLines:            6,
		ContextLines:         2,
		MaxLineBytes:         1024,
		ExemptTools:          []string{},
		DedupMinBytes:        1024,
		DedupMaxArtifacts:    128,
		OverflowTools:        []string{"codebase-retrieval"},
		OverflowCeilingBytes: 25000,
		Tier:                 "",
		ContextMemory:        true,
		PreviewHeadChars:     4000,
		PreviewTailChars:     4000,
		StripToolTraces:      true,
		FinalOutputMaxChars:  120000,
		HistoryStrategy:      "recent",
		HeadMessages:         2,
		TailMessages:         12,
		MiddleMode:           "marker",
		MaxCharsPerMessage:   10000,
		MaxTotalChars:        60000,
		Tiers:                Tiers{Cheap: 15000, Balanced: 25000, Frontier: 50000},
	}
}

// Ceiling returns the overflow ceiling in bytes for the configured tier.
func (c *Output) Ceiling() int {
	v := 0
	switch c.Tier {
	case "cheap":
		v = c.Tiers.Cheap
	case "balanced":
		v = c.Tiers.Balanced
	case "frontier":
		v = c.Tiers.Frontier
	}
	if v <= 0 {
		return c.OverflowCeilingBytes
	}
	return v
}

// CheckTier reports whether tier is "" or one of the tier names.
func CheckTier(tier string) error {
	switch tier {
	case "", "cheap", "balanced", "frontier":
		return nil
	}
	return fmt.Errorf("tier %q is not one of cheap, balanced, frontier", tier)
}

func (c *Output) check(add func(key, msg string)) {
	nonNeg := []struct {
		key string
		v   int
	}{
		{"trigger_bytes", c.TriggerBytes}, {"trigger_lines", c.TriggerLines}, {"min_saved_bytes", c.MinSavedBytes},
		{"head_lines", c.HeadLines}, {"tail_lines", c.TailLines}, {"context_lines", c.ContextLines},
		{"max_line_bytes", c.MaxLineBytes}, {"dedup_min_bytes", c.DedupMinBytes}, {"preview_head_chars", c.PreviewHeadChars},
		{"preview_tail_chars", c.PreviewTailChars}, {"final_output_max_chars", c.FinalOutputMaxChars},
		{"head_messages", c.HeadMessages}, {"tail_messages", c.TailMessages},
		{"max_chars_per_message", c.MaxCharsPerMessage}, {"max_total_chars", c.MaxTotalChars},
		{"tiers.cheap", c.Tiers.Cheap}, {"tiers.balanced", c.Tiers.Balanced}, {"tiers.frontier", c.Tiers.Frontier},
	}
	for _, k := range nonNeg {
		if k.v < 0 {
			add("output."+k.key, fmt.Sprintf("output.%s %d must not be negative", k.key, k.v))
		}
	}
	if c.MinSavedRatio < 0 || c.MinSavedRatio >= 1 || math.IsNaN(c.MinSavedRatio) {
		add("output.min_saved_ratio", fmt.Sprintf("output.min_saved_ratio %g is outside 0..1 (exclusive of 1)", c.MinSavedRatio))
	}
	if c.MaxLineBytes > 0 && c.MaxLineBytes < 64 {
		add("output.max_line_bytes", fmt.Sprintf("output.max_line_bytes %d is below 64 (0 turns cutting off)", c.MaxLineBytes))
	}
	if c.ContextLines > 50 {
		add("output.context_lines", fmt.Sprintf("output.context_lines %d is outside 0..50", c.ContextLines))
	}
	if c.DedupMaxArtifacts < 0 || c.DedupMaxArtifacts > 128 {
		add("output.dedup_max_artifacts", fmt.Sprintf("output.dedup_max_artifacts %d is outside 0..128", c.DedupMaxArtifacts))
	}
	if c.OverflowCeilingBytes < 1000 {
		add("output.overflow_ceiling_bytes", fmt.Sprintf("output.overflow_ceiling_bytes %d is below 1000", c.OverflowCeilingBytes))
	}
	if err := CheckTier(c.Tier); err != nil {
		add("output.tier", fmt.Sprintf("output.%v", err))
	}
	if c.HistoryStrategy != "recent" && c.HistoryStrategy != "head-tail" {
		add("output.history_strategy", fmt.Sprintf("output.history_strategy %q is not one of recent, head-tail", c.HistoryStrategy))
	}
	if c.MiddleMode != "marker" && c.MiddleMode != "omit" {
		add("output.middle_mode", fmt.Sprintf("output.middle_mode %q is not one of marker, omit", c.MiddleMode))
	}
	if c.HeadMessages > 1000 {
		add("output.head_messages", fmt.Sprintf("output.head_messages %d is above 1000", c.HeadMessages))
	}
	if c.TailMessages > 1000 {
		add("output.tail_messages", fmt.Sprintf("output.tail_messages %d is above 1000", c.TailMessages))
	}
	for i, t := range c.ExemptTools {
		if t == "" {
			add(fmt.Sprintf("output.exempt_tools[%d]", i), "output.exempt_tools holds an empty tool name")
		}
	}
}
