package output

import (
	"fmt"
	"math"

	"github.com/skillopt/skillopt/rules"
)

// Settings are the keys of the [output] table that several output rules,
// their invariants or commands read (`skillopt sanitize`, `skillopt bench
// output`, the --tier flag). Keys only one rule reads live in that rule's
// own options.
type Settings struct {
	TriggerBytes  int      `toml:"trigger_bytes" doc:"tool results of at least this many UTF-8 bytes are reduced (a trigger, not a cap: protected evidence is always kept)"`
	TriggerLines  int      `toml:"trigger_lines" doc:"… or of at least this many lines"`
	MinSavedBytes int      `toml:"min_saved_bytes" doc:"a reduction, recovery label included, must save at least this many bytes"`
	MinSavedRatio float64  `toml:"min_saved_ratio" doc:"… and at least this share of the original (0 to below 1)"`
	HeadLines     int      `toml:"head_lines" doc:"lines kept at the start of output no format reducer recognises"`
	TailLines     int      `toml:"tail_lines" doc:"lines kept at the end of output no format reducer recognises"`
	ContextLines  int      `toml:"context_lines" doc:"lines kept around each error line (at most 50)"`
	MaxLineBytes  int      `toml:"max_line_bytes" doc:"longer lines that are not evidence are cut in the middle (0: never; else at least 64)"`
	ExemptTools   []string `toml:"exempt_tools" doc:"tools whose results are never changed, besides skill_search, optimizer_tool_search and retrieve_output"`
	OverflowTools []string `toml:"overflow_tools" doc:"tools whose results over the overflow ceiling are replaced by a handle and a preview (\"*\": every tool); the other output rules leave them alone"`
	Tier          string   `toml:"tier" doc:"\"\", \"cheap\", \"balanced\" or \"frontier\": the overflow ceiling of that tier in output.tiers (the --tier flag sets it too)"`
	// The recovery gate (recovery.go).
	BreakEvenTurns int `toml:"break_even_turns" doc:"later turns whose saving may pay for declaring retrieve_output in the middle of a conversation (0: the request that declares it must save more than re-writing the cached prefix costs, so no conversation gets dearer)"`
	// SO305 and `skillopt sanitize`.
	StripToolTraces     bool `toml:"strip_tool_traces" doc:"remove tool-trace fences and JSON-RPC or tool-call envelope lines from assistant text"`
	FinalOutputMaxChars int  `toml:"final_output_max_chars" doc:"cap on each assistant text in characters, truncation marker included (0: none)"`
}

// Section is the table of skillopt.toml the settings live in.
func (*Settings) Section() string { return "output" }

// Defaults are the settings when skillopt.toml says nothing.
var Defaults = &Settings{
	TriggerBytes:        4096,
	TriggerLines:        80,
	MinSavedBytes:       1024,
	MinSavedRatio:       0.25,
	HeadLines:           6,
	TailLines:           6,
	ContextLines:        2,
	MaxLineBytes:        1024,
	ExemptTools:         []string{},
	OverflowTools:       []string{"codebase-retrieval"},
	Tier:                "",
	BreakEvenTurns:      0,
	StripToolTraces:     true,
	FinalOutputMaxChars: 120000,
}

// Family declares the settings of the output and history rules.
var Family = rules.Settings{
	Name:    "output",
	Doc:     "Tool-output reduction, history deduplication and assembly, and the final-output sanitizer (SO3xx).",
	Options: Defaults,
}

// SettingsOf returns the settings a pass runs with.
func SettingsOf(e *rules.Env) *Settings { return e.OptionsOf(Defaults).(*Settings) }

// FromSet returns the configured settings of s (the defaults for a nil
// set).
func FromSet(s *rules.Set) *Settings { return rules.Get(s, Defaults) }

// tierNames are the overflow tiers, cheapest first.
var tierNames = []string{"cheap", "balanced", "frontier"}

// CheckTier reports whether tier is "" or one of the tier names.
func CheckTier(tier string) error {
	if tier == "" || isTier(tier) {
		return nil
	}
	return fmt.Errorf("tier %q is not one of cheap, balanced, frontier", tier)
}

func isTier(name string) bool {
	for _, t := range tierNames {
		if name == t {
			return true
		}
	}
	return false
}

// Check reports values out of range.
func (s *Settings) Check() []rules.OptionError {
	var errs []rules.OptionError
	add := func(key, format string, args ...any) {
		errs = append(errs, rules.OptionError{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	nonNegative(add, []keyValue{
		{"trigger_bytes", s.TriggerBytes}, {"trigger_lines", s.TriggerLines}, {"min_saved_bytes", s.MinSavedBytes},
		{"head_lines", s.HeadLines}, {"tail_lines", s.TailLines}, {"context_lines", s.ContextLines},
		{"max_line_bytes", s.MaxLineBytes}, {"final_output_max_chars", s.FinalOutputMaxChars}, {"break_even_turns", s.BreakEvenTurns},
	})
	if s.MinSavedRatio < 0 || s.MinSavedRatio >= 1 || math.IsNaN(s.MinSavedRatio) {
		add("min_saved_ratio", "%g is outside 0..1 (exclusive of 1)", s.MinSavedRatio)
	}
	if s.MaxLineBytes > 0 && s.MaxLineBytes < 64 {
		add("max_line_bytes", "%d is below 64 (0 turns cutting off)", s.MaxLineBytes)
	}
	if s.ContextLines > 50 {
		add("context_lines", "%d is outside 0..50", s.ContextLines)
	}
	if CheckTier(s.Tier) != nil {
		add("tier", "%q is not one of cheap, balanced, frontier", s.Tier)
	}
	for i, t := range s.ExemptTools {
		if t == "" {
			add(fmt.Sprintf("exempt_tools[%d]", i), "empty tool name")
		}
	}
	return errs
}

type keyValue struct {
	key string
	v   int
}

func nonNegative(add func(key, format string, args ...any), kvs []keyValue) {
	for _, k := range kvs {
		if k.v < 0 {
			add(k.key, "%d must not be negative", k.v)
		}
	}
}
