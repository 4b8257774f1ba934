package transform

import (
	"fmt"

	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// OverflowOutput is SO304.
var OverflowOutput = &rules.Rule{
	ID:       "SO304",
	Name:     "output.overflow",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Results of the configured tools over the overflow ceiling are replaced by a handle, their size and a bounded preview. " +
		"For a tool listed in overflow_tools (\"*\" for every tool; names match without case and after an MCP server prefix), a result of more than the ceiling in UTF-8 bytes " +
		"(overflow_ceiling_bytes, 25,000, or the ceiling of the tier selected by tier: cheap 15,000, balanced 25,000, frontier 50,000) is a hard overflow, evidence or not. " +
		"With context_memory on, the original is archived and the result becomes a note with its byte size and handle followed by its first preview_head_chars and last preview_tail_chars characters. " +
		"With context_memory off, it becomes a request to refine the query, and nothing is archived. Exempt tools, nested Pi results and results that already carry a handle are left alone.",
	OptionDocs: []rules.OptionDoc{
		{Name: "output.overflow_tools", Default: `["codebase-retrieval"]`, Doc: "tools whose results have a hard ceiling (\"*\": all)"},
		{Name: "output.overflow_ceiling_bytes", Default: "25000", Doc: "the ceiling when no tier is selected"},
		{Name: "output.tier", Default: `""`, Doc: "cheap, balanced or frontier: use that ceiling of [output.tiers]"},
		{Name: "output.context_memory", Default: "true", Doc: "archive and preview (true) or ask to refine the query (false)"},
		{Name: "output.preview_head_chars / preview_tail_chars", Default: "4000 / 4000", Doc: "characters of the preview"},
	},
	Run: runOverflow,
}

func runOverflow(p *rules.Pass) error {
	c := p.Capture
	cfg := cfgOf(p).Output
	if cfg.ContextMemory && !canDeclare(c) {
		return nil
	}
	ceiling := cfg.Ceiling()
	var edits []rules.Edit
	for _, r := range toolResults(c) {
		if r.nested || !toolIn(r.name, cfg.OverflowTools) || exempt(r.name, cfg.ExemptTools) {
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
			if cfg.ContextMemory {
				out = reduce.OverflowText(name, len(text), ceiling, handleOf(text), text, cfg.PreviewHeadChars, cfg.PreviewTailChars)
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
	if cfg.ContextMemory {
		emit(p, edits)
		return nil
	}
	for _, e := range edits {
		p.Edit(e)
	}
	return nil
}
