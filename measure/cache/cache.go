// Package cache predicts how a provider's prompt cache splits the input
// tokens of one request of a conversation into tokens read from the cache,
// tokens written to it and tokens billed at the plain input price.
//
// Every provider caches a prefix of the prompt: the tool declarations, the
// system instructions, then the messages, each request compared with the
// ones before it. The providers differ in what they compare, where a cached
// prefix may end and what it costs; each is a row of one table (Lookup).
// The facts and their sources are listed in docs/measure.md.
//
// A prediction is an estimate: it assumes every earlier request of the
// conversation reached the same cache in time, and it sees the prompt as
// skillopt counts it, not as the provider tokenizes it.
package cache

import (
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/measure/price"
)

// Kind is how a provider decides what is cached.
type Kind string

// The kinds of cache.
const (
	// Explicit caches the prefix up to breakpoints the request marks
	// (Anthropic's cache_control), at block boundaries only.
	Explicit Kind = "explicit"
	// Prefix caches every request's prefix on its own; a later request
	// reads the longest prefix it shares with an earlier one (OpenAI,
	// Gemini, Mistral).
	Prefix Kind = "prefix"
	// Units stores whole requests as prefix units; a later request reads a
	// unit only when it starts with all of it (DeepSeek).
	Units Kind = "units"
	// None caches nothing.
	None Kind = "none"
)

// Model is one provider's cache, for one family of models.
type Model struct {
	Vendor string `json:"vendor"`
	// Family names the row that matched ("claude-sonnet-4-6", "gpt", …).
	Family string `json:"family"`
	Kind   Kind   `json:"kind"`
	// MinTokens is the shortest prefix that is cached at all.
	MinTokens int `json:"min_tokens"`
	// Step is the granularity of a hit beyond MinTokens (OpenAI: 128);
	// 0 or 1 means any length.
	Step int `json:"step,omitempty"`
	// MaxBreakpoints bounds the explicit breakpoints one request may set.
	MaxBreakpoints int `json:"max_breakpoints,omitempty"`
	// Lookback is how many block boundaries before a breakpoint are
	// checked for an earlier entry (Explicit only).
	Lookback int `json:"lookback_blocks,omitempty"`
	// KeyRequired: only requests that carry a cache key are cached
	// (Mistral's prompt_cache_key).
	KeyRequired bool `json:"key_required,omitempty"`
	// BillsWrites: writing to the cache costs more than plain input
	// (Anthropic; OpenAI from GPT-5.6). Elsewhere the tokens a request
	// adds to the cache are billed, and reported, as uncached.
	BillsWrites bool `json:"bills_writes"`
	// Source is the documentation the row follows; Checked is when it was
	// last compared with it.
	Source  string `json:"source"`
	Checked string `json:"checked,omitempty"`
}

// checked is when the rows were last compared with their sources.
const checked = "2026-12-01"

// The documentation each row follows (see docs/measure.md).
const (
	SourceAnthropic = "https://platform.claude.com/docs/en/build-with-claude/prompt-caching"
	SourceOpenAI    = "https://developers.openai.com/api/docs/guides/prompt-caching"
	SourceGemini    = "https://ai.google.dev/gemini-api/docs/caching"
	SourceDeepSeek  = "https://api-docs.deepseek.com/guides/kv_cache"
	SourceMistral   = "https://docs.mistral.ai/studio-api/conversations/advanced/prompt-caching"
)

// row is a table entry: the models it covers by name.
type row struct {
	vendor string
	// names are model names or name prefixes ending in "*"; empty is the
	// vendor's default row.
	names []string
	model Model
}

func anthropic(family string, min int) Model {
	return Model{Vendor: "anthropic", Family: family, Kind: Explicit, MinTokens: min, MaxBreakpoints: 4, Lookback: 20, BillsWrites: true, Source: SourceAnthropic, Checked: checked}
}

// table lists the rows; within a vendor the first row whose name matches
// wins, and the row without names matches every other model.
var table = []row{
	{"anthropic", []string{"claude-opus-5"}, anthropic("claude-opus-5", 512)},
	{"anthropic", []string{"claude-opus-4-8", "claude-sonnet-5"}, anthropic("claude-opus-4-8, claude-sonnet-5", 1024)},
	{"anthropic", []string{"claude-opus-4-7"}, anthropic("claude-opus-4-7", 2048)},
	{"anthropic", []string{"claude-opus-4-6", "claude-opus-4-5", "claude-haiku-4-5"}, anthropic("claude-opus-4-5/4-6, claude-haiku-4-5", 4096)},
	{"anthropic", []string{"claude-sonnet-4-6"}, anthropic("claude-sonnet-4-6", 2048)},
	{"anthropic", []string{"claude-sonnet-4-5", "claude-sonnet-4", "claude-opus-4-1", "claude-opus-4", "claude-3-7-sonnet"}, anthropic("claude-sonnet-4/4-5, claude-opus-4/4-1, claude-3-7-sonnet", 1024)},
	{"anthropic", []string{"claude-3-5-haiku", "claude-3-haiku"}, anthropic("claude-3-haiku, claude-3-5-haiku", 2048)},
	{"anthropic", nil, anthropic("claude", 1024)},

	{"openai", []string{"gpt-5.6*", "gpt-5.7*", "gpt-5.8*", "gpt-5.9*", "gpt-6*", "gpt-7*"}, Model{Vendor: "openai", Family: "gpt-5.6+", Kind: Prefix, MinTokens: 1024, Step: 128, BillsWrites: true, Source: SourceOpenAI, Checked: checked}},
	{"openai", nil, Model{Vendor: "openai", Family: "gpt", Kind: Prefix, MinTokens: 1024, Step: 128, Source: SourceOpenAI, Checked: checked}},

	{"gemini", []string{"gemini-2.5-pro*", "gemini-2.5-flash*"}, Model{Vendor: "gemini", Family: "gemini-2.5", Kind: Prefix, MinTokens: 2048, Source: SourceGemini, Checked: checked}},
	// Newer models (3.x and later) are listed at 4,096; models before 2.5
	// have no implicit cache (see gemini below).
	{"gemini", nil, Model{Vendor: "gemini", Family: "gemini-3+", Kind: Prefix, MinTokens: 4096, Source: SourceGemini, Checked: checked}},

	{"deepseek", nil, Model{Vendor: "deepseek", Family: "deepseek", Kind: Units, Source: SourceDeepSeek, Checked: checked}},

	{"mistral", nil, Model{Vendor: "mistral", Family: "mistral", Kind: Prefix, KeyRequired: true, Source: SourceMistral, Checked: checked}},
}

// NoCache is the model of an endpoint whose cache is not documented.
func NoCache(vendor string) Model {
	return Model{Vendor: vendor, Family: "none", Kind: None}
}

// Lookup returns the cache model of a vendor ("anthropic", "openai",
// "gemini", "deepseek", "mistral") for a model name. Unknown vendors get
// NoCache.
func Lookup(vendor, model string) Model {
	if vendor == "gemini" && !geminiCaches(model) {
		m := NoCache(vendor)
		m.Family = "gemini-before-2.5"
		m.Source = SourceGemini
		return m
	}
	name := strings.ToLower(model)
	for _, r := range table {
		if r.vendor != vendor {
			continue
		}
		if r.names == nil {
			return r.model
		}
		for _, n := range r.names {
			if price.Matches(n, name) {
				return r.model
			}
		}
	}
	return NoCache(vendor)
}

// geminiCaches reports whether a Gemini model has implicit caching: 2.5
// and later. A name without a version ("gemini-pro-latest") is taken to be
// a current model.
func geminiCaches(model string) bool {
	name := strings.ToLower(model)
	name = strings.TrimPrefix(name, "models/")
	rest, ok := strings.CutPrefix(name, "gemini-")
	if !ok {
		return true
	}
	ver, _, _ := strings.Cut(rest, "-")
	major, minor, _ := strings.Cut(ver, ".")
	ma, err := strconv.Atoi(major)
	if err != nil {
		return true
	}
	mi, _ := strconv.Atoi(minor)
	return ma > 2 || ma == 2 && mi >= 5
}

// Breakpoint is an explicit cache breakpoint: the block that carries it and
// its lifetime ("5m" or "1h").
type Breakpoint struct {
	Block int
	TTL   string
}

// Turn is one request as a cache sees it: its prompt in consecutive blocks
// (tool declarations, system blocks, message blocks, in that order).
type Turn struct {
	// Model is the model the request names; caches are per model.
	Model string
	// Ends[i] is the token count of the prompt through block i.
	Ends []int
	// Breakpoints are the explicit breakpoints in block order.
	Breakpoints []Breakpoint
	// Auto is a request-level breakpoint on the last block (Anthropic's
	// automatic caching).
	Auto bool
	// Keyed: the request carries a cache key.
	Keyed bool
	// Output[i]: block i replays the model's own output of an earlier
	// turn.
	Output []bool
	// PrevShared is the token count this request shares with the one
	// before it, -1 for the first.
	PrevShared int

	// entries memoises Model.entries, which every later request of a
	// long conversation asks for.
	entries []int
	marked  bool
}

// Tokens is the prompt's token count.
func (t *Turn) Tokens() int {
	if len(t.Ends) == 0 {
		return 0
	}
	return t.Ends[len(t.Ends)-1]
}

// Shared is what the current request shares with an earlier one: the
// number of leading blocks that are identical, and the identical tokens
// (at least the tokens of those blocks; more when the next block starts
// the same).
type Shared struct {
	Blocks int
	Tokens int
}

// Split is a prediction: the prompt's tokens read from the cache, written
// to it (Write1h of them with a one-hour lifetime) and not cached.
type Split struct {
	Read     int `json:"cached"`
	Write    int `json:"written"`
	Write1h  int `json:"written_1h,omitempty"`
	Uncached int `json:"uncached"`
}

// Predict splits cur's prompt given the earlier requests of the
// conversation (oldest first) and what cur shares with each of them
// (shared[j] for earlier[j]).
func (m Model) Predict(cur Turn, earlier []Turn, shared []Shared) Split {
	var s Split
	switch m.Kind {
	case Explicit:
		s = m.explicit(cur, earlier, shared)
	case Prefix:
		s = m.prefix(cur, earlier, shared)
	case Units:
		s = m.units(cur, earlier, shared)
	default:
		s = Split{Uncached: cur.Tokens()}
	}
	if !m.BillsWrites {
		s.Uncached += s.Write
		s.Write, s.Write1h = 0, 0
	}
	return s
}

// breakpoints returns the breakpoints a request sets, at most
// MaxBreakpoints of them, the automatic one last.
func (m Model) breakpoints(t Turn) []Breakpoint {
	bps := t.Breakpoints
	if m.MaxBreakpoints > 0 && len(bps) > m.MaxBreakpoints {
		bps = bps[:m.MaxBreakpoints]
	}
	if t.Auto && len(t.Ends) > 0 {
		last := len(t.Ends) - 1
		if len(bps) == 0 || bps[len(bps)-1].Block != last {
			bps = append(append([]Breakpoint(nil), bps...), Breakpoint{Block: last, TTL: "5m"})
		}
	}
	return bps
}

// entries returns the blocks at which a request leaves a cache entry: its
// breakpoints whose prefix is long enough to be cached.
func (m Model) entries(t Turn) []int {
	var out []int
	for _, bp := range m.breakpoints(t) {
		if bp.Block >= 0 && bp.Block < len(t.Ends) && t.Ends[bp.Block] >= m.MinTokens {
			out = append(out, bp.Block)
		}
	}
	return out
}

func (m Model) explicit(cur Turn, earlier []Turn, shared []Shared) Split {
	total := cur.Tokens()
	bps := m.breakpoints(cur)
	read := 0
	for j := range earlier {
		e := &earlier[j]
		if e.Model != cur.Model {
			continue
		}
		if !e.marked {
			e.entries, e.marked = m.entries(*e), true
		}
		for _, b := range e.entries {
			if b >= shared[j].Blocks || b >= len(cur.Ends) {
				continue
			}
			// A hit is found only at a block boundary within the
			// lookback window of one of this request's breakpoints.
			for _, bp := range bps {
				if bp.Block >= b && bp.Block-b < max(m.Lookback, 1) {
					read = max(read, cur.Ends[b])
				}
			}
		}
	}
	write, write1h := 0, 0
	for _, bp := range bps {
		if bp.Block < 0 || bp.Block >= len(cur.Ends) || cur.Ends[bp.Block] < m.MinTokens {
			continue
		}
		end := cur.Ends[bp.Block]
		write = max(write, end-read)
		if bp.TTL == "1h" {
			write1h = max(write1h, end-read)
		}
	}
	return Split{Read: read, Write: write, Write1h: write1h, Uncached: total - read - write}
}

// round cuts a prefix length down to one the cache can hold.
func (m Model) round(n int) int {
	if n < m.MinTokens || n <= 0 {
		return 0
	}
	if m.Step > 1 {
		return m.MinTokens + (n-m.MinTokens)/m.Step*m.Step
	}
	return n
}

func (m Model) prefix(cur Turn, earlier []Turn, shared []Shared) Split {
	total := cur.Tokens()
	if m.KeyRequired && !cur.Keyed || m.round(total) == 0 {
		return Split{Uncached: total}
	}
	best := 0
	for j, e := range earlier {
		if e.Model != cur.Model || m.KeyRequired && !e.Keyed {
			continue
		}
		best = max(best, min(shared[j].Tokens, m.round(e.Tokens())))
	}
	read := m.round(best)
	write := max(m.round(total)-read, 0)
	return Split{Read: read, Write: write, Uncached: total - read - write}
}

func (m Model) units(cur Turn, earlier []Turn, shared []Shared) Split {
	total := cur.Tokens()
	read := 0
	hit := func(n int) {
		if n >= m.MinTokens && n <= total {
			read = max(read, n)
		}
	}
	for j, e := range earlier {
		if e.Model != cur.Model {
			continue
		}
		s := shared[j].Tokens
		// A unit ends where the earlier request's input ended …
		if et := e.Tokens(); et > 0 && s >= et {
			hit(et)
			// … and where its output ended: the blocks that replay it
			// follow directly.
			k := len(e.Ends)
			end := -1
			for k < len(cur.Output) && k < len(cur.Ends) && cur.Output[k] {
				end = cur.Ends[k]
				k++
			}
			if end > 0 {
				hit(end)
			}
		}
		// A prefix the earlier request shared with the one before it was
		// stored as a unit of its own.
		if e.PrevShared > 0 && s >= e.PrevShared {
			hit(e.PrevShared)
		}
	}
	return Split{Read: read, Write: total - read}
}
