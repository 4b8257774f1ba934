package validity

import (
	"slices"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// AnthropicMaxTokens checks max_tokens against the model's output cap.
var AnthropicMaxTokens = &rules.Rule{
	ID:       "SO511",
	Title:    "max_tokens within the model's output limit",
	Why:      "Anthropic rejects a max_tokens above what the model can produce, so a configuration copied from a larger model fails every request.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-max-tokens",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Anthropic rejects a max_tokens above the model's maximum output " +
		"(\"max_tokens: N > M, which is the maximum allowed number of output tokens for <model>\"). " +
		"The caps come from the model pages: 128K for Claude Opus 4.6 to 4.8 and Sonnet 4.6, 64K for Opus 4.5, Sonnet 4.5, Haiku 4.5, Sonnet 4 and Sonnet 3.7, " +
		"32K for Opus 4 and 4.1, 8,192 for the Claude 3.5 models. An output beta (anthropic-beta output-…) raises the cap, so the rule stands aside then; " +
		"models not in the table get no finding. " +
		"Sources: https://platform.claude.com/docs/en/about-claude/models/overview, https://platform.claude.com/docs/en/models/opus-4-6/overview.",
	Run: runAnthropicMaxTokens,
}

func runAnthropicMaxTokens(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	m := antModelOf(p.Capture)
	if m == nil || m.maxOutput == 0 || betaHeader(p.Capture, "output-") {
		return nil
	}
	d := p.Capture.Doc
	mt := d.Get(0, "max_tokens")
	if v, ok := number(d, mt); ok && v > float64(m.maxOutput) {
		p.Reportf(d.Pointer(mt), "max_tokens %s is above %d, the most %s may produce", fmtNum(v), m.maxOutput, m.name)
	}
	return nil
}

// AnthropicThinkingMode checks thinking.type against the modes the model
// supports.
var AnthropicThinkingMode = &rules.Rule{
	ID:       "SO512",
	Title:    "A thinking mode the model accepts",
	Why:      "Each Claude model accepts only some thinking types, and a configuration carried over from another model fails with HTTP 400.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-thinking-mode",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Each Claude model rejects some thinking.type values with HTTP 400. " +
		"Claude Opus 4.7 and later reject manual extended thinking (\"enabled\" with budget_tokens; the error starts \"thinking.type.enabled is not supported\"); " +
		"Claude Fable 5 and Mythos 5 reject \"enabled\" and \"disabled\", Mythos Preview rejects \"disabled\"; " +
		"Claude Opus 4.5, Sonnet 4.5, Haiku 4.5 and Opus 4.1 reject \"adaptive\"; " +
		"the Claude 3 and 3.5 models (Opus 3, Sonnet 3, Haiku 3, Sonnet 3.5, Haiku 3.5) have no extended thinking and reject \"enabled\" and \"adaptive\". Models not in the table get no finding. " +
		"Sources: https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting (thinking support and rejected configurations by model), " +
		"https://platform.claude.com/docs/en/build-with-claude/extended-thinking (supported models: Claude Sonnet 3.7 and the Claude 4 models and later).",
	Run: runAnthropicThinkingMode,
}

func runAnthropicThinkingMode(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	m := antModelOf(p.Capture)
	if m == nil {
		return nil
	}
	d := p.Capture.Doc
	t := d.Get(d.Get(0, "thinking"), "type")
	if typ := d.Str(t); t != capture.NoNode && slices.Contains(m.rejectsThinking, typ) {
		p.Reportf(d.Pointer(t), "%s does not accept thinking.type %q", m.name, typ)
	}
	return nil
}

// AnthropicSampling checks the sampling parameters the model accepts.
var AnthropicSampling = &rules.Rule{
	ID:       "SO513",
	Title:    "Sampling parameters the model accepts",
	Why:      "Newer Claude models reject combinations or values of temperature, top_p and top_k that older ones took, so requests written for those fail.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-sampling",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Newer Claude models restrict the sampling parameters. " +
		"On Claude Sonnet 4.5, Haiku 4.5, Opus 4.1, 4.5 and 4.6 and Sonnet 4.6, temperature and top_p may not both be set " +
		"(\"temperature and top_p cannot both be specified for this model\"). " +
		"Claude Opus 4.7 and later (and the Claude 5 models) removed them: a temperature other than the default 1, a top_p below its default or any top_k is a 400. " +
		"Models not in the table get no finding. " +
		"Sources: https://platform.claude.com/docs/en/about-claude/models/migrating-to-claude-4 (use temperature or top_p, not both), " +
		"https://platform.claude.com/docs/en/about-claude/models/migration-guide#migrating-to-claude-opus-4-7 (sampling parameters removed).",
	Run: runAnthropicSampling,
}

func runAnthropicSampling(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	m := antModelOf(p.Capture)
	if m == nil {
		return nil
	}
	d := p.Capture.Doc
	temp, topP, topK := d.Get(0, "temperature"), d.Get(0, "top_p"), d.Get(0, "top_k")
	set := func(i capture.Node) bool { return i != capture.NoNode && d.Kind(i) != capture.Null }
	switch {
	case m.noSampling:
		if v, ok := number(d, temp); ok && v != 1 {
			p.Reportf(d.Pointer(temp), "%s does not accept temperature (only the default 1)", m.name)
		}
		if v, ok := number(d, topP); ok && v < 0.99 {
			p.Reportf(d.Pointer(topP), "%s does not accept top_p", m.name)
		}
		if set(topK) {
			p.Reportf(d.Pointer(topK), "%s does not accept top_k", m.name)
		}
	case m.oneSampler:
		if set(temp) && set(topP) {
			p.Reportf(d.Pointer(topP), "temperature and top_p may not both be set for %s", m.name)
		}
	}
	return nil
}

// AnthropicFinalAssistant checks a conversation that ends with an
// assistant message (a prefill).
var AnthropicFinalAssistant = &rules.Rule{
	ID:       "SO514",
	Title:    "A final assistant message the model accepts",
	Why:      "Prefill is rejected on the newest Claude models and trailing white space on the others, so a conversation ending in an assistant message can fail.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-final-assistant",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "A final assistant message prefills the response, and Anthropic limits it. " +
		"Claude Opus 4.6, Sonnet 4.6 and later models do not support prefill: the conversation must end with a user message " +
		"(\"This model does not support assistant message prefill\"). " +
		"Nor does a request with structured outputs (output_config.format, or the beta output_format): " +
		"\"When using output format, pre-filling the assistant response is not supported\". " +
		"On the models that do, the prefill may not end with white space (\"final assistant content cannot end with trailing whitespace\"). " +
		"Sources: https://platform.claude.com/docs/en/about-claude/models/migration-guide (prefill removal), " +
		"https://platform.claude.com/docs/en/build-with-claude/prompt-engineering/prefill-claudes-response (no trailing white space).",
	Run: runAnthropicFinalAssistant,
}

func runAnthropicFinalAssistant(p *rules.Pass) error {
	// A request rebuilt from a session file ends with the response to its
	// last turn, which was not sent.
	if p.Capture.Provider != capture.Anthropic || p.Capture.Session != nil {
		return nil
	}
	d := p.Capture.Doc
	msgs := elems(d, d.Get(0, "messages"))
	if len(msgs) == 0 {
		return nil
	}
	last := msgs[len(msgs)-1]
	if !d.StrIs(d.Get(last, "role"), "assistant") {
		return nil
	}
	if m := antModelOf(p.Capture); m != nil && m.noPrefill {
		p.Reportf(d.Pointer(last), "%s does not support prefill: the conversation must end with a user message", m.name)
		return nil
	}
	if f := structuredFormat(d); f != capture.NoNode {
		p.Reportf(d.Pointer(last), "a prefill is not supported with structured outputs (%s): the conversation must end with a user message", d.Pointer(f))
		return nil
	}
	content := d.Get(last, "content")
	text := content
	if d.Kind(content) == capture.Array {
		text = d.Elem(content, d.Len(content)-1)
		if !d.StrIs(d.Get(text, "type"), "text") {
			return nil
		}
		text = d.Get(text, "text")
	}
	if d.Kind(text) != capture.String {
		return nil
	}
	if s := d.Str(text); s != "" && strings.TrimRight(s, " \t\r\n\f\v") != s {
		p.Reportf(d.Pointer(text), "the final assistant message ends with white space")
	}
	return nil
}

// structuredFormat returns the node of the request's structured-output
// format (output_config.format, or the beta's top-level output_format), or
// capture.NoNode when it asks for none.
func structuredFormat(d *capture.Doc) capture.Node {
	if f := d.Get(d.Get(0, "output_config"), "format"); f != capture.NoNode && d.Kind(f) == capture.Object {
		return f
	}
	if f := d.Get(0, "output_format"); f != capture.NoNode && d.Kind(f) == capture.Object {
		return f
	}
	return capture.NoNode
}
