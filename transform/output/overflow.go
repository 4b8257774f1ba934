package output

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// overflow is SO304.
var overflow = &rules.Rule{
	ID:       "SO304",
	Name:     "output.overflow",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Results of the configured tools over the overflow ceiling are replaced by a handle, their size and a bounded preview. " +
		"For a tool listed in overflow_tools (\"*\" for every tool; names match without case and after an MCP server prefix), a result of more than the ceiling in UTF-8 bytes " +
		"(overflow_ceiling_bytes, 25,000, or the ceiling of the tier selected by tier: cheap 15,000, balanced 25,000, frontier 50,000) is a hard overflow, evidence or not. " +
		"With context_memory on, the original is archived and the result becomes a note with its byte size and handle followed by its first preview_head_chars and last preview_tail_chars characters. " +
		"With context_memory off, it becomes a request to refine the query, and nothing is archived. Exempt tools, loaded skill files, nested Pi results and results that already carry a handle are left alone. " +
		"With context_memory on, a request that declares one of overflow_tools gets retrieve_output from the first turn on, as by SO301.",
	Options: &overflowOptions{
		CeilingBytes:     25000,
		ContextMemory:    true,
		PreviewHeadChars: 4000,
		PreviewTailChars: 4000,
		Tiers:            map[string]int{"cheap": 15000, "balanced": 25000, "frontier": 50000},
	},
	Reads:    []string{"output.overflow_tools", "output.tier", "output.exempt_tools"},
	Declares: []string{retrieveTool},
	Detail:   detail,
	Run:      runOverflow,
}

// overflowOptions are SO304's keys of the [output] table.
type overflowOptions struct {
	CeilingBytes     int            `toml:"overflow_ceiling_bytes" doc:"the ceiling in bytes when no tier is selected (at least 1000)"`
	ContextMemory    bool           `toml:"context_memory" doc:"archive the original and show a preview (true) or ask to refine the query (false)"`
	PreviewHeadChars int            `toml:"preview_head_chars" doc:"characters of the preview taken from the start of the result"`
	PreviewTailChars int            `toml:"preview_tail_chars" doc:"characters of the preview taken from the end of the result"`
	Tiers            map[string]int `toml:"tiers" doc:"overflow ceilings in bytes of the tiers cheap, balanced and frontier that output.tier selects (0: overflow_ceiling_bytes)"`
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
	c := p.Capture
	opts := p.Options.(*overflowOptions)
	cfg := SettingsOf(p.Env)
	var decl retrieveDecl
	if opts.ContextMemory {
		decl = declaration(p, archiving(p) && declaresOverflowTool(c, cfg.OverflowTools))
		if !decl.usable(p) {
			p.Idle("retrieve_output cannot be declared in this request")
			return nil
		}
	}
	ceiling := opts.ceiling(cfg.Tier)
	p.Idle("no result of output.overflow_tools (%s) over the %d-byte ceiling", strings.Join(cfg.OverflowTools, ", "), ceiling)
	var edits []rules.Edit
	for _, r := range passResults(p) {
		if !toolIn(r.name, cfg.OverflowTools) || r.protected(cfg.ExemptTools) {
			continue
		}
		for _, t := range r.texts {
			text := c.Doc.Str(t)
			if len(text) <= ceiling || hasHandle(text) || reduce.IsOverflow(text) {
				continue
			}
			ptr := c.Doc.Pointer(t)
			name := r.name
			if name == "" {
				name = "the tool"
			}
			var out string
			if opts.ContextMemory {
				out = reduce.OverflowText(name, len(text), ceiling, handleOf(text), text, opts.PreviewHeadChars, opts.PreviewTailChars)
				if len(out) >= len(text) {
					continue
				}
				if _, err := keep(p, text); err != nil {
					kept(p, ptr, "original", err)
					continue
				}
			} else {
				out = reduce.RefineText(name, len(text), ceiling)
			}
			edits = append(edits, rules.Edit{Pointer: ptr, NewJSON: quote(out), Message: fmt.Sprintf("overflow %d bytes over a %d-byte ceiling", len(text), ceiling)})
		}
	}
	if opts.ContextMemory {
		emit(p, decl, edits)
		return nil
	}
	for _, e := range edits {
		p.Edit(e)
	}
	return nil
}

// declaresOverflowTool reports whether c declares a tool whose results
// SO304 may replace: only then does the rule need retrieve_output from the
// first turn on.
func declaresOverflowTool(c *capture.Capture, tools []string) bool {
	for _, n := range c.ToolNames() {
		if toolIn(n, tools) {
			return true
		}
	}
	return false
}
