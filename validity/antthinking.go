package validity

import (
	"strconv"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// AnthropicThinking checks the parameters that extended and adaptive
// thinking constrain.
var AnthropicThinking = &rules.Rule{
	ID:       "SO509",
	Title:    "Thinking parameters that Anthropic allows",
	Why:      "With extended or adaptive thinking on, Anthropic rejects some budgets, tool choices and sampling values with HTTP 400; catching them offline saves a failed request.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-thinking",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Anthropic rejects parameters that thinking does not allow. " +
		"With thinking.type \"enabled\", budget_tokens is less than max_tokens (unless the interleaved-thinking beta is on, which lets the budget exceed it), " +
		"and tool_choice may only be auto or none: any and tool force tool use, which manual extended thinking does not support (nor does adaptive thinking on the models that say so). " +
		"With thinking on (enabled or adaptive), temperature may only be 1, top_k may not be set and top_p stays between 0.95 and 1. " +
		"Sources: https://platform.claude.com/docs/en/build-with-claude/extended-thinking (budget below max_tokens; feature compatibility), " +
		"https://platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows (tool choice), " +
		"the API's error \"temperature may only be set to 1 when thinking is enabled or in adaptive mode\".",
	Run: runAnthropicThinking,
}

// thinkingType returns the request's thinking.type ("" when absent).
func thinkingType(d *capture.Doc) string {
	return d.GetStr(d.Get(0, "thinking"), "type")
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func runAnthropicThinking(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	th := d.Get(0, "thinking")
	typ := thinkingType(d)
	if typ != "enabled" && typ != "adaptive" {
		return nil
	}
	m := antModelOf(p.Capture)
	if typ == "enabled" {
		b := d.Get(th, "budget_tokens")
		budget, okB := number(d, b)
		maxTok, okM := number(d, d.Get(0, "max_tokens"))
		if okB && okM && budget >= maxTok && !betaHeader(p.Capture, "interleaved-thinking") {
			p.Reportf(d.Pointer(b), "thinking.budget_tokens %s is not less than max_tokens %s", fmtNum(budget), fmtNum(maxTok))
		}
	}
	tc := d.Get(0, "tool_choice")
	if forced := d.GetStr(tc, "type"); (forced == "any" || forced == "tool") && (typ == "enabled" || m != nil && m.noForcedToolAdaptive) {
		p.Reportf(d.Pointer(d.Get(tc, "type")), "tool_choice %q forces tool use, which thinking (%s) does not allow: use auto or none", forced, typ)
	}
	if m != nil && m.noSampling {
		return nil // SO513 reports the sampling parameters the model dropped
	}
	if t := d.Get(0, "temperature"); d.Kind(t) == capture.Number {
		if v, _ := number(d, t); v != 1 {
			p.Reportf(d.Pointer(t), "temperature %s with thinking %s: it may only be 1", fmtNum(v), typ)
		}
	}
	if k := d.Get(0, "top_k"); k != capture.NoNode && d.Kind(k) != capture.Null {
		p.Reportf(d.Pointer(k), "top_k may not be set with thinking %s", typ)
	}
	if tp := d.Get(0, "top_p"); d.Kind(tp) == capture.Number {
		if v, _ := number(d, tp); v < 0.95 || v > 1 {
			p.Reportf(d.Pointer(tp), "top_p %s with thinking %s: it must be between 0.95 and 1", fmtNum(v), typ)
		}
	}
	return nil
}

// AnthropicThinkingHistory checks thinking blocks against the thinking
// configuration of the request that carries them.
var AnthropicThinkingHistory = &rules.Rule{
	ID:       "SO510",
	Title:    "Thinking blocks of the continued turn are kept",
	Why:      "Anthropic rejects a tool-result request whose assistant turn lost its thinking block, which a history rewrite can easily drop.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-thinking-history",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Anthropic checks the thinking blocks of the assistant turn a request continues. " +
		"With manual extended thinking (thinking.type \"enabled\"), a request that answers tool calls (its last message holds tool_result blocks) " +
		"continues an assistant turn whose first message must begin with the thinking or redacted_thinking block the model produced; " +
		"a history rewrite that drops it gets \"a final assistant message must start with a thinking block\". " +
		"With thinking off, a final assistant message may not contain thinking blocks " +
		"(\"When thinking is disabled, an assistant message in the final position cannot contain thinking\"). " +
		"With thinking enabled, a final assistant message (a prefill) also begins with a thinking block; " +
		"and no assistant message may end with a thinking block (\"The final block in an assistant message cannot be thinking\"). " +
		"Sources: https://platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows (pass thinking blocks back unmodified; one thinking configuration per assistant turn) " +
		"and the API errors quoted there and in public reports.",
	Run: runAnthropicThinkingHistory,
}

func isThinkingBlock(d *capture.Doc, b capture.Node) bool {
	t := d.GetStr(b, "type")
	return t == "thinking" || t == "redacted_thinking"
}

func runAnthropicThinkingHistory(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	msgs := elems(d, d.Get(0, "messages"))
	if len(msgs) == 0 {
		return nil
	}
	last := msgs[len(msgs)-1]
	reportThinkingLast(p, msgs)
	switch typ := thinkingType(d); typ {
	case "enabled":
		if d.StrIs(d.Get(last, "role"), "assistant") {
			reportPrefillWithoutThinking(p, last)
			return nil
		}
		start := capture.NoNode
		for i := len(msgs) - 1; i >= 1; i -= 2 {
			u, a := msgs[i], msgs[i-1]
			if !d.StrIs(d.Get(u, "role"), "user") || len(blocksOf(d, d.Get(u, "content"), "tool_result")) == 0 || !d.StrIs(d.Get(a, "role"), "assistant") {
				break
			}
			start = a
		}
		if start == capture.NoNode {
			return nil
		}
		content := d.Get(start, "content")
		first := d.Elem(content, 0)
		if d.Kind(content) == capture.Array && first != capture.NoNode && isThinkingBlock(d, first) {
			return nil
		}
		at := start
		if first != capture.NoNode {
			at = first
		}
		p.Reportf(d.Pointer(at), "with thinking enabled, the assistant message whose tool calls the request answers must begin with a thinking or redacted_thinking block")
	case "", "disabled":
		if p.Capture.Session != nil {
			return nil // a host's session file does not hold the thinking configuration
		}
		if !d.StrIs(d.Get(last, "role"), "assistant") {
			return nil
		}
		for b := range d.Children(d.Get(last, "content")) {
			if isThinkingBlock(d, b) {
				p.Reportf(d.Pointer(b), "thinking is off, and the final assistant message holds a %s block", d.GetStr(b, "type"))
				break
			}
		}
	}
	return nil
}

// reportThinkingLast reports an assistant message whose last block is a
// thinking block: Anthropic answers "The final block in an assistant
// message cannot be `thinking`". The last message of a request rebuilt
// from a session file is the response to that turn and was never sent.
func reportThinkingLast(p *rules.Pass, msgs []capture.Node) {
	d := p.Capture.Doc
	for i, m := range msgs {
		if i == len(msgs)-1 && p.Capture.Session != nil {
			break
		}
		content := d.Get(m, "content")
		if !d.StrIs(d.Get(m, "role"), "assistant") || d.Kind(content) != capture.Array || d.Len(content) == 0 {
			continue
		}
		if b := d.Elem(content, d.Len(content)-1); isThinkingBlock(d, b) {
			p.Reportf(d.Pointer(b), "an assistant message may not end with a %s block; a text or tool_use block must follow it", d.GetStr(b, "type"))
		}
	}
}

// reportPrefillWithoutThinking reports a final assistant message that,
// with thinking enabled, does not begin with a thinking block. A model
// that takes no prefill at all is left to SO514, which names the cause.
func reportPrefillWithoutThinking(p *rules.Pass, last capture.Node) {
	if p.Capture.Session != nil {
		return
	}
	if m := antModelOf(p.Capture); m != nil && m.noPrefill {
		return
	}
	d := p.Capture.Doc
	content := d.Get(last, "content")
	first := d.Elem(content, 0)
	if d.Kind(content) == capture.Array && first != capture.NoNode && isThinkingBlock(d, first) {
		return
	}
	at := last
	if first != capture.NoNode {
		at = first
	}
	p.Reportf(d.Pointer(at), "with thinking enabled, a final assistant message (a prefill) must begin with a thinking or redacted_thinking block")
}
