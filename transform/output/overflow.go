package output

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// overflow is SO304.
var overflow = &rules.Rule{
	ID:       "SO304",
	Title:    "Cap oversized results of the configured tools",
	Why:      "Some tools can return far more than any model should read in one go; a hard ceiling with a preview and a handle keeps one runaway result from taking over the context.",
	Since:    rules.FirstVersion,
	Name:     "output.overflow",
	Kind:     rules.Transform,
	Severity: rules.Info,
	// With context_memory off nothing is archived.
	Engine: rules.Engine{Lossy: true},
	Doc: "Results of the configured tools over the overflow ceiling are replaced by a handle, their size and a bounded preview. " +
		"For a tool listed in overflow_tools (\"*\" for every tool; names match without case and after an MCP server prefix), a result of more than the ceiling in UTF-8 bytes " +
		"(overflow_ceiling_bytes, 25,000, or the ceiling of the tier selected by tier: cheap 15,000, balanced 25,000, frontier 50,000) is a hard overflow, evidence or not. " +
		"With context_memory on, the original is archived and the result becomes a note with its byte size and handle followed by its first preview_head_chars and last preview_tail_chars characters. " +
		"With context_memory off, it becomes a request to refine the query, and nothing is archived. Exempt tools, loaded skill files, nested Pi results and results that already carry a handle are left alone. " +
		"With context_memory on, retrieve_output is declared, and the rule waits for the recovery gate, as with SO301; without it each result is replaced on its own turn. " +
		"Context memory holds at most max_entries originals (8) and max_bytes_per_run bytes of them (1,000,000) per conversation, counted over the request's results in order, " +
		"overflow handles already in the history included: a result over the ceiling that does not fit becomes the request to refine the query, unarchived.",
	Options: &overflowOptions{
		CeilingBytes:     25000,
		ContextMemory:    true,
		PreviewHeadChars: 4000,
		PreviewTailChars: 4000,
		Tiers:            map[string]int{"cheap": 15000, "balanced": 25000, "frontier": 50000},
		MaxEntries:       8,
		MaxBytesPerRun:   1000000,
	},
	Reads:  []string{"output.overflow_tools", "output.tier", "output.exempt_tools"},
	Detail: detail,
	Run:    runOverflow,
}

// overflowOptions are SO304's keys of the [output] table.
type overflowOptions struct {
	CeilingBytes     int            `toml:"overflow_ceiling_bytes" doc:"the ceiling in bytes when no tier is selected (at least 1000)"`
	ContextMemory    bool           `toml:"context_memory" doc:"archive the original and show a preview (true) or ask to refine the query (false)"`
	PreviewHeadChars int            `toml:"preview_head_chars" doc:"characters of the preview taken from the start of the result"`
	PreviewTailChars int            `toml:"preview_tail_chars" doc:"characters of the preview taken from the end of the result"`
	Tiers            map[string]int `toml:"tiers" doc:"overflow ceilings in bytes of the tiers cheap, balanced and frontier that output.tier selects (0: overflow_ceiling_bytes)"`
	MaxEntries       int            `toml:"max_entries" doc:"context memory: overflow originals archived per conversation at most (at least 1); later ones ask to refine the query"`
	MaxBytesPerRun   int            `toml:"max_bytes_per_run" doc:"context memory: bytes of overflow originals archived per conversation at most (at least 1000)"`
}

func (*overflowOptions) Section() string { return "output" }

func (o *overflowOptions) Check() []rules.OptionError {
	var errs []rules.OptionError
	add := func(key, format string, args ...any) {
		errs = append(errs, rules.OptionError{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	if o.CeilingBytes < 1000 {
		add("overflow_ceiling_bytes", "%d is below 1000", o.CeilingBytes)
	}
	nonNegative(add, []keyValue{{"preview_head_chars", o.PreviewHeadChars}, {"preview_tail_chars", o.PreviewTailChars}})
	if o.MaxEntries < 1 {
		add("max_entries", "%d is below 1", o.MaxEntries)
	}
	if o.MaxBytesPerRun < 1000 {
		add("max_bytes_per_run", "%d is below 1000", o.MaxBytesPerRun)
	}
	names := make([]string, 0, len(o.Tiers))
	for name := range o.Tiers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		key := "tiers." + name
		switch {
		case !isTier(name):
			add(key, "unknown key (the tiers are cheap, balanced and frontier)")
		case o.Tiers[name] < 0:
			add(key, "%d must not be negative", o.Tiers[name])
		}
	}
	return errs
}

// ceiling returns the overflow ceiling in bytes for tier.
func (o *overflowOptions) ceiling(tier string) int {
	if v := o.Tiers[tier]; tier != "" && v > 0 {
		return v
	}
	return o.CeilingBytes
}

func runOverflow(p *rules.Pass) error {
	opts := p.Options.(*overflowOptions)
	cfg := SettingsOf(p.Env)
	idle := fmt.Sprintf("no result of output.overflow_tools (%s) over the %d-byte ceiling", strings.Join(cfg.OverflowTools, ", "), opts.ceiling(cfg.Tier))
	if opts.ContextMemory {
		return produce(p, idle)
	}
	// Without context memory nothing is archived and no handle is left:
	// each result is judged on its own, the same on every turn.
	p.Idle("%s", idle)
	pl := overflowPlanner(p, opts)
	d := p.Capture.Doc
	for _, r := range passResults(p) {
		for _, t := range r.texts {
			if rep, ok := pl(&r, d.Str(t)); ok {
				p.Edit(rules.Edit{Pointer: d.Pointer(t), NewJSON: quote(rep.out), Message: rep.msg})
			}
		}
	}
	return nil
}

// planOverflow is SO304's planner when it leaves handles (context_memory
// on); nil otherwise.
func planOverflow(p *rules.Pass, o rules.Options) planner {
	opts := o.(*overflowOptions)
	if !opts.ContextMemory {
		return nil
	}
	return overflowPlanner(p, opts)
}

func overflowPlanner(p *rules.Pass, opts *overflowOptions) planner {
	cfg := SettingsOf(p.Env)
	ceiling := opts.ceiling(cfg.Tier)
	mem := memory{max: opts.MaxEntries, maxBytes: opts.MaxBytesPerRun}
	return func(r *toolResult, text string) (replacement, bool) {
		if !toolIn(r.name, cfg.OverflowTools) || r.protected(cfg.ExemptTools) {
			return replacement{}, false
		}
		if n, ok := reduce.OverflowBytes(text); ok && hasHandle(text) {
			mem.add(n) // an entry of an earlier turn
			return replacement{}, false
		}
		if len(text) <= ceiling || hasHandle(text) || reduce.IsOverflow(text) {
			return replacement{}, false
		}
		name := r.name
		if name == "" {
			name = "the tool"
		}
		msg := fmt.Sprintf("overflow %d bytes over a %d-byte ceiling", len(text), ceiling)
		if !opts.ContextMemory {
			return replacement{out: reduce.RefineText(name, len(text), ceiling), msg: msg}, true
		}
		if why := mem.refuse(len(text)); why != "" {
			return replacement{out: reduce.RefineText(name, len(text), ceiling), msg: msg + "; context memory " + why + ", not archived", unkept: true}, true
		}
		out := reduce.OverflowText(name, len(text), ceiling, handleOf(text), text, opts.PreviewHeadChars, opts.PreviewTailChars)
		if len(out) >= len(text) {
			return replacement{}, false
		}
		mem.add(len(text))
		return replacement{out: out, msg: msg}, true
	}
}

// memory counts the originals context memory holds for one conversation,
// in the order its results appear.
type memory struct {
	entries, bytes int
	max, maxBytes  int
}

func (m *memory) add(n int) { m.entries++; m.bytes += n }

// refuse says why an original of n bytes does not fit ("" when it does).
func (m *memory) refuse(n int) string {
	switch {
	case m.entries >= m.max:
		return fmt.Sprintf("holds max_entries (%d) originals", m.max)
	case m.bytes+n > m.maxBytes:
		return fmt.Sprintf("holds %d of max_bytes_per_run (%d) bytes", m.bytes, m.maxBytes)
	}
	return ""
}
