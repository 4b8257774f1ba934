package validity

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// AnthropicPairing checks that tool results answer the tool calls of the
// turn before them.
var AnthropicPairing = &rules.Rule{
	ID:       "SO502",
	Title:    "Anthropic tool results answer the calls before them",
	Why:      "Anthropic rejects a conversation whose tool_use and tool_result blocks do not pair up, which history rewrites and hosts can produce.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-tool-pairing",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Anthropic tool results answer the tool calls of the turn before them. " +
		"Every tool_use block of an assistant message that the conversation continues past has a tool_result with its id in the next message, " +
		"which is a user message; every tool_result answers a tool_use of the assistant message just before it; " +
		"tool_result blocks come first in their message, before any text; " +
		"and no two tool_use blocks of the conversation share an id. Anthropic answers anything else with HTTP 400.",
	Run: runAnthropicPairing,
}

func runAnthropicPairing(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	msgs := elems(d, d.Get(0, "messages"))
	firstUse := map[string]capture.Node{}
	for i, m := range msgs {
		content := d.Get(m, "content")
		switch d.GetStr(m, "role") {
		case "assistant":
			calls := blocksOf(d, content, "tool_use")
			reportDuplicateIDs(p, calls, firstUse)
			if len(calls) == 0 || i+1 >= len(msgs) {
				continue
			}
			next := msgs[i+1]
			answered := map[string]bool{}
			if d.StrIs(d.Get(next, "role"), "user") {
				for _, r := range blocksOf(d, d.Get(next, "content"), "tool_result") {
					answered[d.GetStr(r, "tool_use_id")] = true
				}
			}
			for _, c := range calls {
				if id := d.GetStr(c, "id"); !answered[id] {
					p.Reportf(d.Pointer(c), "tool_use %s has no tool_result in the next message", id)
				}
			}
		case "user":
			results := blocksOf(d, content, "tool_result")
			if len(results) == 0 {
				continue
			}
			asked := map[string]bool{}
			if i > 0 && d.StrIs(d.Get(msgs[i-1], "role"), "assistant") {
				for _, c := range blocksOf(d, d.Get(msgs[i-1], "content"), "tool_use") {
					asked[d.GetStr(c, "id")] = true
				}
			}
			seenOther := false
			for b := range d.Children(content) {
				if !d.StrIs(d.Get(b, "type"), "tool_result") {
					seenOther = true
					continue
				}
				id := d.GetStr(b, "tool_use_id")
				if !asked[id] {
					p.Reportf(d.Pointer(b), "tool_result for %s answers no tool_use of the assistant message before it", id)
				}
				if seenOther {
					p.Reportf(d.Pointer(b), "tool_result must come before the message's other content")
				}
			}
		}
	}
	return nil
}

// reportDuplicateIDs reports a tool_use whose id an earlier tool_use of
// the request already carries ("tool_use ids must be unique", at the later
// block); first maps each id seen so far to its block.
func reportDuplicateIDs(p *rules.Pass, calls []capture.Node, first map[string]capture.Node) {
	d := p.Capture.Doc
	for _, c := range calls {
		id := d.GetStr(c, "id")
		if id == "" {
			continue
		}
		if prev, ok := first[id]; ok {
			p.Reportf(d.Pointer(c), "tool_use id %s is already used at %s; tool_use ids must be unique", id, d.Pointer(prev))
			continue
		}
		first[id] = c
	}
}

// blocksOf returns the content blocks of the given type (content given as
// an array; a string holds none).
func blocksOf(d *capture.Doc, content capture.Node, typ string) []capture.Node {
	var out []capture.Node
	if d.Kind(content) != capture.Array {
		return nil
	}
	for b := range d.Children(content) {
		if d.StrIs(d.Get(b, "type"), typ) {
			out = append(out, b)
		}
	}
	return out
}

// ChatPairing checks that tool messages answer the tool calls of the
// assistant message before them (OpenAI Chat Completions and Mistral).
var ChatPairing = &rules.Rule{
	ID:       "SO503",
	Title:    "Chat tool messages answer the calls before them",
	Why:      "OpenAI Chat and Mistral reject an unanswered tool call or a stray tool message with HTTP 400.",
	Since:    rules.FirstVersion,
	Name:     "request.chat-tool-pairing",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "OpenAI Chat and Mistral tool messages answer the tool calls of the assistant message before them. " +
		"An assistant message with tool_calls that the conversation continues past is followed by one tool message per call id, " +
		"and every tool message's tool_call_id names a call of that assistant message. " +
		"OpenAI answers an unanswered call or a stray tool message with HTTP 400.",
	Run: runChatPairing,
}

func runChatPairing(p *rules.Pass) error {
	if p.Capture.Provider != capture.OpenAIChat && p.Capture.Provider != capture.Mistral {
		return nil
	}
	d := p.Capture.Doc
	msgs := elems(d, d.Get(0, "messages"))
	var open map[string]bool // calls of the last assistant message, until answered
	var asker capture.Node
	for i, m := range msgs {
		switch d.GetStr(m, "role") {
		case "tool":
			id := d.GetStr(m, "tool_call_id")
			if open == nil || !open[id] && !answeredBefore(d, msgs[:i], asker, id) {
				p.Reportf(d.Pointer(m), "tool message for %s answers no tool call of the assistant message before it", id)
				continue
			}
			delete(open, id)
		default:
			reportOpen(p, d, asker, open)
			open = nil
			if d.StrIs(d.Get(m, "role"), "assistant") {
				if calls := d.Get(m, "tool_calls"); d.Len(calls) > 0 {
					open, asker = map[string]bool{}, m
					for c := range d.Children(calls) {
						open[d.GetStr(c, "id")] = true
					}
				}
			}
		}
	}
	// Calls of a final assistant message are not expected to be answered.
	return nil
}

// answeredBefore reports a tool message for id that repeats an answer to a
// call of the same assistant message: not a stray answer, so not reported.
func answeredBefore(d *capture.Doc, before []capture.Node, asker capture.Node, id string) bool {
	if asker == 0 {
		return false
	}
	for c := range d.Children(d.Get(asker, "tool_calls")) {
		if d.StrIs(d.Get(c, "id"), id) {
			return true
		}
	}
	return false
}

func reportOpen(p *rules.Pass, d *capture.Doc, asker capture.Node, open map[string]bool) {
	if len(open) == 0 {
		return
	}
	var ids []string
	for c := range d.Children(d.Get(asker, "tool_calls")) {
		if id := d.GetStr(c, "id"); open[id] {
			ids = append(ids, id)
		}
	}
	p.Reportf(d.Pointer(asker), "tool call(s) %s have no tool message answering them", strings.Join(ids, ", "))
}
