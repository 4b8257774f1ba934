package tools

import (
	"fmt"
	"math"

	"github.com/skillopt/skillopt/rules"
)

// Settings are the [tools] keys the tool-deferral rules share with
// `skillopt tools search`.
type Settings struct {
	Core         []string `toml:"core" doc:"Tools that always stay declared, matched case-insensitively (Pi's built-in tools by default). Tools the conversation already called, and tools an earlier optimizer_tool_search activated, always stay declared too."`
	Always       []string `toml:"always" doc:"More tools that always stay declared."`
	MinScore     float64  `toml:"min_score" doc:"Confidence: tool deferral defers only when the best-ranked tool for the human text it ranks (see selection) scores at least this much (BM25F; roughly one specific word in a tool's name, or two in its description) or is named exactly. Otherwise the request fails open: every tool stays and nothing is added."`
	Relative     float64  `toml:"relative" doc:"Tools scoring at least this fraction of the best match are predicted and stay declared (0 < relative <= 1), at most max_predicted of them."`
	MaxPredicted int      `toml:"max_predicted" doc:"Most predicted tools kept besides the protected ones (0..100)."`
	PageSize     int      `toml:"page_size" doc:"Results per optimizer_tool_search page (1..20)."`
	ListChars    int      `toml:"list_chars" doc:"Characters of deferred tool names listed in the search tool's description (0..20000)."`
	MinSaving    int      `toml:"min_saving" doc:"Defer only when it saves at least this many bytes."`
	NativeSearch string   `toml:"native_search" doc:"Anthropic's tool search tool for native deferral: \"bm25\" or \"regex\"."`
	MinHeadShare float64  `toml:"min_head_share" doc:"Defer only when the bytes it saves are at least this share of the cached head it changes: the tool declarations from the first one it changes on, and the system prompt after them. A provider keys its prompt cache by prefix, not by conversation, so every conversation with the same tools and system prompt reads that head from one cache entry; a conversation whose tools are deferred differently writes its own. At 0.9 the first turn of such a conversation pays that back (Anthropic bills a write at 1.25 and a read at 0.1 times the input price, so the write it saves must be at least 1.15/1.25 of the head it no longer reads; on OpenAI, 0.9). 0 defers whatever the head (0..1)."`
	Selection    string   `toml:"selection" doc:"\"conversation\": decide once per conversation, from its first human text, so that every turn declares the same tools and the provider's prompt cache keeps them (tools the model activates or calls are added). \"request\": decide on every request from the latest human text, as the seed extension does before each agent run; a new human turn may then change the tools, and with them the cached prefix."`
}

// Section is the table of skillopt.toml the settings live in.
func (*Settings) Section() string { return "tools" }

// Check reports values out of range.
func (s *Settings) Check() []rules.OptionError {
	var out []rules.OptionError
	add := func(key, format string, args ...any) {
		out = append(out, rules.OptionError{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	if s.MinScore < 0 || math.IsNaN(s.MinScore) || s.MinScore > 1000 {
		add("min_score", "%v is outside 0..1000", s.MinScore)
	}
	if !(s.Relative > 0 && s.Relative <= 1) {
		add("relative", "%v is outside (0, 1]", s.Relative)
	}
	if s.MaxPredicted < 0 || s.MaxPredicted > 100 {
		add("max_predicted", "%d is outside 0..100", s.MaxPredicted)
	}
	if s.PageSize < 1 || s.PageSize > 20 {
		add("page_size", "%d is outside 1..20", s.PageSize)
	}
	if s.ListChars < 0 || s.ListChars > 20000 {
		add("list_chars", "%d is outside 0..20000", s.ListChars)
	}
	if s.MinSaving < 0 {
		add("min_saving", "%d must not be negative", s.MinSaving)
	}
	if !(s.MinHeadShare >= 0 && s.MinHeadShare <= 1) {
		add("min_head_share", "%v is outside 0..1", s.MinHeadShare)
	}
	if s.NativeSearch != "bm25" && s.NativeSearch != "regex" {
		add("native_search", "%q is not one of bm25, regex", s.NativeSearch)
	}
	if s.Selection != "conversation" && s.Selection != "request" {
		add("selection", "%q is not one of conversation, request", s.Selection)
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"core", s.Core}, {"always", s.Always}} {
		for i, n := range list.names {
			if n == "" {
				add(fmt.Sprintf("%s[%d]", list.key, i), "names must not be empty")
			}
		}
	}
	return out
}

// Defaults are the settings without a skillopt.toml.
var Defaults = &Settings{
	Core:         []string{"read", "bash", "edit", "write", "grep", "find", "ls"},
	Always:       []string{},
	MinScore:     2.5,
	Relative:     0.5,
	MaxPredicted: 5,
	PageSize:     5,
	ListChars:    1500,
	MinSaving:    512,
	MinHeadShare: 0.5,
	NativeSearch: "bm25",
	Selection:    "conversation",
}

// Family declares the settings for the registry.
var Family = rules.Settings{
	Name:    "tools",
	Doc:     "Tool deferral (SO2xx) and `skillopt tools search`.",
	Options: Defaults,
}

// SettingsOf returns the settings a pass runs with.
func SettingsOf(e *rules.Env) *Settings { return e.OptionsOf(Defaults).(*Settings) }

// FromSet returns the configured settings of a command (the defaults for a
// nil set).
func FromSet(s *rules.Set) *Settings { return rules.Get(s, Defaults) }
