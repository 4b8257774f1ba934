package output

import (
	"fmt"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// sanitize is SO305.
var sanitize = &rules.Rule{
	ID:       "SO305",
	Title:    "Strip internal tool traces from assistant text",
	Why:      "Tool-call envelopes and internal trace blocks pasted into assistant text are noise the provider already has in structured form; removing them and capping the text keeps the history smaller and cleaner.",
	Since:    rules.FirstVersion,
	Name:     "output.sanitize",
	Kind:     rules.Transform,
	Severity: rules.Info,
	// Internal traces and text over the cap are dropped, not archived.
	Engine: rules.Engine{Lossy: true},
	Doc: "Assistant text loses internal tool traces and is capped in length. " +
		"In every assistant text of the history (not thinking, not tool calls), fenced blocks labelled tool_use, tool_result, mcp, codebase-retrieval, auggie, scratchpad or internal " +
		"(any case, - and _ interchangeable) are removed, as are bare lines that are a JSON-RPC message or a tool-call envelope ({\"jsonrpc\":…}, {\"tool_use_id\":…}, {\"tool_call_id\":…}). " +
		"Ordinary code fences (go, json, sh, …) and bare {\"type\":…} lines stay. The text is then capped at final_output_max_chars characters with a truncation marker counted inside the budget. " +
		"Removed traces are internal by design and are not archived. `skillopt sanitize` applies the same sanitizer to plain text.",
	Reads:  []string{"output.strip_tool_traces", "output.final_output_max_chars"},
	Detail: detail,
	Run:    runSanitize,
}

// sanitizeOptions returns the sanitizer options of s.
func sanitizeOptions(s *Settings) reduce.SanitizeOptions {
	return reduce.SanitizeOptions{StripTraces: s.StripToolTraces, MaxChars: s.FinalOutputMaxChars}
}

func runSanitize(p *rules.Pass) error {
	c := p.Capture
	d := c.Doc
	opts := sanitizeOptions(SettingsOf(p.Env))
	p.Idle("no assistant text with tool traces to strip or over output.final_output_max_chars")
	for _, s := range c.Segments() {
		if s.Kind != capture.SecAssistant || s.Prov != capture.ProvAssistant {
			continue
		}
		for i, parent := range d.Walk(s.Node) {
			if d.Kind(i) != capture.String || !assistantTextKey(d, i, parent) {
				continue
			}
			text := d.Str(i)
			res := reduce.Sanitize(text, opts)
			if res.Text == text {
				continue
			}
			p.Edit(rules.Edit{Pointer: d.Pointer(i), NewJSON: quote(res.Text),
				Message: fmt.Sprintf("%d trace section(s) removed, truncated %v", res.RemovedSections, res.Truncated)})
		}
	}
	return nil
}

// assistantTextKey reports whether string node i is prose an assistant
// wrote: a "text" member, or a message's "content" string.
func assistantTextKey(d *capture.Doc, i capture.Node, parent capture.Node) bool {
	switch d.Key(i) {
	case "text":
		return true
	case "content":
		return d.Get(parent, "role") != capture.NoNode
	}
	// Gemini parts and Mistral/chat content arrays may hold bare strings.
	return false
}
