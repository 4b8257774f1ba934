package output

import (
	"fmt"

	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// smart is SO301.
var smart = &rules.Rule{
	ID:       "SO301",
	Name:     "output.smart",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Large tool results are reduced to their protected evidence, with the exact original archived behind a handle. " +
		"A tool result of at least trigger_bytes UTF-8 bytes or trigger_lines lines (triggers, not caps) goes to the first format-aware reducer that recognises it " +
		"(go test, pytest and unittest, node/TAP/jest, cargo and rustc, compiler diagnostics, git log and diff stat, ls -l listings, package lists, logs), else to the generic one. " +
		"Error and failure lines, stack frames, file:line references, exit codes, failing test names, test summaries and expected/actual lines are kept verbatim with context; " +
		"the rest is replaced by markers that count the elided lines and name their line numbers, and a recovery label naming the handle and retrieve_output is appended. " +
		"The reduction is returned only if the complete text, label included, saves at least min_saved_bytes and min_saved_ratio; the thresholds are checked before the archive write, and when the write fails the original stays. " +
		"Error results (is_error, isError, a non-zero exit code) are reduced too: their evidence is kept, their noise is not. " +
		"Loaded skill files (a read of a SKILL.md or of a file inside a catalogued skill's folder), content a provider's server produced (Anthropic server and MCP tool results in assistant turns), " +
		"results of skill_search, optimizer_tool_search, retrieve_output, exempt_tools and overflow_tools, nested Pi results, results that already carry a handle, " +
		"and JSON arrays that SO302 converts are left alone. With the archive on, a request that declares tools gets retrieve_output from the first turn on, " +
		"reduced or not, with the same bytes and in front of Anthropic's last tool cache breakpoint (a fixed declaration, judged at conversation level); " +
		"without tool declarations it comes with the first reduction and counts against its saving. A tool of the host named retrieve_output stops the rule.",
	Reads: []string{
		"output.trigger_bytes", "output.trigger_lines", "output.min_saved_bytes", "output.min_saved_ratio",
		"output.head_lines", "output.tail_lines", "output.context_lines", "output.max_line_bytes",
		"output.exempt_tools", "output.overflow_tools",
	},
	Declares: []string{retrieveTool},
	Detail:   detail,
	Run:      runSmart,
}

func runSmart(p *rules.Pass) error {
	c := p.Capture
	cfg := SettingsOf(p.Env)
	decl := declaration(p, archiving(p))
	if !decl.usable(p) {
		p.Idle("retrieve_output cannot be declared in this request")
		return nil
	}
	opts, th := reduceOptions(cfg), thresholds(cfg)
	var edits []rules.Edit
	for _, r := range passResults(p) {
		if r.protected(cfg.ExemptTools) || toolIn(r.name, cfg.OverflowTools) {
			continue
		}
		for _, t := range r.texts {
			text := c.Doc.Str(t)
			if !triggered(text, cfg) || hasHandle(text) || columnarCandidate(text, cfg) {
				continue
			}
			out, res, ok := reduce.Smart(text, opts, th, handleOf(text))
			if !ok {
				continue
			}
			ptr := c.Doc.Pointer(t)
			if _, err := keep(p, text); err != nil {
				kept(p, ptr, "original", err)
				continue
			}
			edits = append(edits, rules.Edit{Pointer: ptr, NewJSON: quote(out),
				Message: fmt.Sprintf("%s reduced %d → %d bytes", res.Reducer, len(text), len(out))})
		}
	}
	p.Idle("no tool result of output.trigger_bytes (%d) or trigger_lines (%d) that a reducer shortens enough", cfg.TriggerBytes, cfg.TriggerLines)
	emit(p, decl, edits)
	return nil
}

// columnarCandidate reports whether SO302 would convert text, so SO301
// leaves it to that lossless form.
func columnarCandidate(text string, cfg *Settings) bool {
	_, ok := columnarOf(text, handleOf(text), cfg)
	return ok
}
