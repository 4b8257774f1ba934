package validity

import (
	"bytes"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// ResponsesItems checks the items an OpenAI Responses input replays.
var ResponsesItems = &rules.Rule{
	ID:       "SO523",
	Title:    "Responses input items are unique and keep their pairs",
	Why:      "OpenAI Responses rejects duplicated item ids and reasoning items without their output item, both of which merged or trimmed histories produce.",
	Since:    rules.FirstVersion,
	Name:     "request.responses-input-items",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "OpenAI Responses input items appear once each, and a replayed reasoning item keeps the item it produced. " +
		"An item id (rs_…, msg_…, fc_…) given twice in input is answered with HTTP 400 \"Duplicate item found with id …\", " +
		"which merged or re-numbered histories produce; " +
		"a reasoning item with an id must be followed by the output item of its turn (an assistant message, a call), " +
		"not by a user message, a call output or the end of the input: \"Item 'rs_…' of type 'reasoning' was provided without its required following item\". " +
		"Only requests to OpenAI's own endpoint (or none) are checked. " +
		"Source: OpenAI's documented errors, as reported in earendil-works/pi#5151, continuedev/continue#10200 (duplicates) and continuedev/continue#8933, openai/openai-agents-js#326 (reasoning).",
	Run: runResponsesItems,
}

func runResponsesItems(p *rules.Pass) error {
	if p.Capture.Provider != capture.OpenAIResponses {
		return nil
	}
	if _, ok := openAIServer(p.Capture); !ok {
		return nil
	}
	d := p.Capture.Doc
	input := d.Get(0, "input")
	if d.Kind(input) != capture.Array {
		return nil
	}
	items := elems(d, input)
	seen := map[string]capture.Node{}
	for k, it := range items {
		typ := d.GetStr(it, "type")
		id := d.Get(it, "id")
		if typ != "item_reference" && d.Kind(id) == capture.String && d.Str(id) != "" {
			if first, dup := seen[d.Str(id)]; dup {
				p.Reportf(d.Pointer(id), "item id %s appears twice in input (first at %s)", shorten(d.Str(id)), d.Pointer(first))
			} else {
				seen[d.Str(id)] = id
			}
		}
		if typ == "reasoning" && d.Kind(id) == capture.String {
			next := capture.NoNode
			if k+1 < len(items) {
				next = items[k+1]
			}
			if !producedItem(d, next) {
				p.Reportf(d.Pointer(it), "reasoning item %s is not followed by the item it produced", shorten(d.Str(id)))
			}
		}
	}
	return nil
}

// producedItem reports an item a response outputs after its reasoning: an
// assistant message, a call, another reasoning item. A user, system or
// developer message, a client's output for a call or nothing is not one.
func producedItem(d *capture.Doc, it capture.Node) bool {
	if it == capture.NoNode {
		return false
	}
	typ := d.GetStr(it, "type")
	if clientOutputs[typ] || typ == "item_reference" {
		return false
	}
	switch d.GetStr(it, "role") {
	case "user", "system", "developer":
		return false
	}
	return true
}

// OpenAIParamDeps checks parameters of OpenAI requests that need or
// exclude another.
var OpenAIParamDeps = &rules.Rule{
	ID:       "SO524",
	Title:    "OpenAI parameters come with the ones they need",
	Why:      "Some OpenAI parameters are rejected without their companion, for example parallel_tool_calls once every tool was removed, so the request fails.",
	Since:    rules.FirstVersion,
	Name:     "request.openai-param-dependencies",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "OpenAI parameters that need another are sent with it. On Chat Completions: " +
		"parallel_tool_calls and tool_choice are only allowed when tools are specified (\"'parallel_tool_calls' is only allowed when 'tools' are specified\"), " +
		"which a request whose tools were all removed still violates; tool_choice \"none\" is not checked; " +
		"response_format json_object needs the word \"json\" somewhere in the messages (\"'messages' must contain the word 'json' in some form\"); " +
		"top_logprobs needs logprobs:true, and stream_options needs stream:true. " +
		"On Responses, previous_response_id and conversation exclude each other, and stream_options needs stream:true there too. " +
		"Only requests to OpenAI's own endpoint (or none) are checked. " +
		"Sources: https://platform.openai.com/docs/api-reference/chat/create (top_logprobs, stream_options), " +
		"https://platform.openai.com/docs/api-reference/responses/create (previous_response_id, stream_options); " +
		"OpenAI's documented errors as reported in Upsonic/Upsonic#323, camel-ai/camel#3706 (parallel_tool_calls), writer/writer-framework#1013 (tool_choice), " +
		"mem0ai/mem0#3559, meta-llama/PurpleLlama#94 (json_object).",
	Run: runOpenAIParamDeps,
}

func runOpenAIParamDeps(p *rules.Pass) error {
	if _, ok := openAIServer(p.Capture); !ok {
		return nil
	}
	d := p.Capture.Doc
	if p.Capture.Provider == capture.OpenAIResponses {
		prev, conv := d.Get(0, "previous_response_id"), d.Get(0, "conversation")
		if present(d, prev) && present(d, conv) {
			p.Reportf(d.Pointer(conv), "conversation cannot be used together with previous_response_id")
		}
		if so := d.Get(0, "stream_options"); present(d, so) && d.Kind(d.Get(0, "stream")) != capture.True {
			p.Reportf(d.Pointer(so), "stream_options is only allowed with stream: true")
		}
		return nil
	}
	tools := d.Get(0, "tools")
	noTools := d.Kind(tools) != capture.Array || d.Len(tools) == 0
	if ptc := d.Get(0, "parallel_tool_calls"); noTools && present(d, ptc) {
		p.Reportf(d.Pointer(ptc), "parallel_tool_calls is only allowed when tools are specified")
	}
	if tc := d.Get(0, "tool_choice"); noTools && present(d, tc) && !d.StrIs(tc, "none") {
		p.Reportf(d.Pointer(tc), "tool_choice is only allowed when tools are specified")
	}
	if tl := d.Get(0, "top_logprobs"); present(d, tl) && d.Kind(d.Get(0, "logprobs")) != capture.True {
		p.Reportf(d.Pointer(tl), "top_logprobs requires logprobs: true")
	}
	if so := d.Get(0, "stream_options"); present(d, so) && d.Kind(d.Get(0, "stream")) != capture.True {
		p.Reportf(d.Pointer(so), "stream_options is only allowed with stream: true")
	}
	if rf := d.Get(0, "response_format"); d.StrIs(d.Get(rf, "type"), "json_object") && !messagesMention(d, d.Get(0, "messages"), "json") {
		p.Reportf(d.Pointer(d.Get(rf, "type")), "response_format json_object needs the word \"json\" in the messages")
	}
	return nil
}

// messagesMention reports whether the text of any message contains word,
// ignoring case: a string content or the text of its parts.
func messagesMention(d *capture.Doc, msgs capture.Node, word string) bool {
	w := []byte(word)
	has := func(i capture.Node) bool {
		return d.Kind(i) == capture.String && bytes.Contains(bytes.ToLower([]byte(d.Str(i))), w)
	}
	for _, m := range elems(d, msgs) {
		c := d.Get(m, "content")
		if has(c) {
			return true
		}
		for part := range d.Children(c) {
			if d.Kind(part) == capture.Object && has(d.Get(part, "text")) {
				return true
			}
		}
	}
	return false
}
