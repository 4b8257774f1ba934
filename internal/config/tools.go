package config

import (
	"fmt"
	"math"
)

// Tools tunes the tool-deferral rules (SO2xx) and `skillopt tools`. Its
// keys are documented in template_tools.toml.
type Tools struct {
	// Core tools always stay declared (matched case-insensitively).
	Core []string `toml:"core"`
	// Always lists more tools that always stay declared.
	Always []string `toml:"always"`
	// MinScore is the ranking score the best match must reach for a
	// confident deferral; below it the request fails open.
	MinScore float64 `toml:"min_score"`
	// Relative keeps every tool scoring at least this fraction of the best
	// match as predicted.
	Relative float64 `toml:"relative"`
	// MaxPredicted bounds the predicted tools kept besides the protected
	// ones.
	MaxPredicted int `toml:"max_predicted"`
	// PageSize is the number of results per optimizer_tool_search page.
	PageSize int `toml:"page_size"`
	// ListChars bounds the deferred tool names listed in the search tool's
	// description.
	ListChars int `toml:"list_chars"`
	// MinSaving is the least number of bytes a deferral must save.
	MinSaving int `toml:"min_saving"`
	// Native makes SO201 use the provider's own deferral (defer_loading)
	// on Anthropic Messages and OpenAI Responses, like SO202.
	Native bool `toml:"native"`
	// NativeSearch picks Anthropic's search tool: "bm25" or "regex".
	NativeSearch string `toml:"native_search"`
}

func defaultTools() Tools {
	return Tools{
		Core:         []string{"read", "bash", "edit", "write", "grep", "find", "ls"},
		Always:       []string{},
		MinScore:     2.5,
		Relative:     0.5,
		MaxPredicted: 5,
		PageSize:     5,
		ListChars:    1500,
		MinSaving:    512,
		NativeSearch: "bm25",
	}
}

func (c *Tools) check(add func(key, msg string)) {
	if c.MinScore < 0 || math.IsNaN(c.MinScore) || c.MinScore > 1000 {
		add("tools.min_score", fmt.Sprintf("tools.min_score %v is outside 0..1000", c.MinScore))
	}
	if !(c.Relative > 0 && c.Relative <= 1) {
		add("tools.relative", fmt.Sprintf("tools.relative %v is outside (0, 1]", c.Relative))
	}
	if c.MaxPredicted < 0 || c.MaxPredicted > 100 {
		add("tools.max_predicted", fmt.Sprintf("tools.max_predicted %d is outside 0..100", c.MaxPredicted))
	}
	if c.PageSize < 1 || c.PageSize > 20 {
		add("tools.page_size", fmt.Sprintf("tools.page_size %d is outside 1..20", c.PageSize))
	}
	if c.ListChars < 0 || c.ListChars > 20000 {
		add("tools.list_chars", fmt.Sprintf("tools.list_chars %d is outside 0..20000", c.ListChars))
	}
	if c.MinSaving < 0 {
		add("tools.min_saving", fmt.Sprintf("tools.min_saving %d must not be negative", c.MinSaving))
	}
	if c.NativeSearch != "bm25" && c.NativeSearch != "regex" {
		add("tools.native_search", fmt.Sprintf("tools.native_search %q is not one of bm25, regex", c.NativeSearch))
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"tools.core", c.Core}, {"tools.always", c.Always}} {
		for i, n := range list.names {
			if n == "" {
				add(fmt.Sprintf("%s[%d]", list.key, i), list.key+" must not contain empty names")
			}
		}
	}
}
