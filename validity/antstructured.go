package validity

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// AnthropicStructuredOutput checks where Anthropic accepts structured
// outputs: on the models that have them, and without citations.
var AnthropicStructuredOutput = &rules.Rule{
	ID:       "SO529",
	Title:    "Anthropic structured outputs where they are accepted",
	Why:      "Anthropic rejects a structured-output format together with document citations, and older Claude models have no structured outputs at all, so the request fails.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-structured-output",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "A structured-output format (output_config.format, or the beta's output_format) is only sent where Anthropic accepts it. " +
		"It does not go with citations: a request that also enables citations on a document (documents in tool results count too) is answered with HTTP 400. " +
		"And only the models with structured outputs take it: Claude Opus 4.5 and later, Sonnet 4.5 and later and Haiku 4.5; " +
		"Claude Opus 4, Sonnet 4, Sonnet 3.7 and the Claude 3 and 3.5 models have none. " +
		"Models not in the table get no model finding. " +
		"Sources: https://platform.claude.com/docs/en/build-with-claude/structured-outputs (the models it is available on; citations are incompatible), " +
		"as also reported in anthropics/claude-code#19417 and agno-agi/agno#7513.",
	Run: runAnthropicStructuredOutput,
}

func runAnthropicStructuredOutput(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	f := structuredFormat(d)
	if f == capture.NoNode {
		return nil
	}
	if m := antModelOf(p.Capture); m != nil && m.noStructuredOutput {
		p.Reportf(d.Pointer(f), "%s does not support structured outputs", m.name)
		return nil
	}
	for _, doc := range documentsOf(d) {
		if citationsOn(d, doc) {
			p.Reportf(d.Pointer(d.Get(doc, "citations")), "citations cannot be enabled together with a structured-output format (%s)", d.Pointer(f))
		}
	}
	return nil
}
