package validity

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// ResponsesPairing checks function call outputs and replayed calls of the
// OpenAI Responses API.
var ResponsesPairing = &rules.Rule{
	ID:       "SO504",
	Title:    "Responses call outputs answer calls of the input",
	Why:      "OpenAI Responses rejects call outputs without their call and replayed calls without their reasoning item, both easy to produce when trimming a history.",
	Since:    rules.FirstVersion,
	Name:     "request.responses-call-pairing",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "OpenAI Responses function call outputs answer calls of the input, and replayed calls keep their reasoning. " +
		"Without previous_response_id or conversation (which keep earlier items on the server), " +
		"every function_call_output and custom_tool_call_output has a call_id of a function_call or custom_tool_call before it. " +
		"When the input replays reasoning items, a function_call replayed with its id (fc_…) keeps the reasoning item of its turn: " +
		"OpenAI answers \"provided without its required 'reasoning' item\" with HTTP 400 otherwise.",
	Run: runResponsesPairing,
}

func runResponsesPairing(p *rules.Pass) error {
	if p.Capture.Provider != capture.OpenAIResponses {
		return nil
	}
	d := p.Capture.Doc
	input := d.Get(0, "input")
	if d.Kind(input) != capture.Array {
		return nil
	}
	items := elems(d, input)
	serverState := d.Get(0, "previous_response_id") != capture.NoNode && d.Kind(d.Get(0, "previous_response_id")) == capture.String ||
		d.Get(0, "conversation") != capture.NoNode && d.Kind(d.Get(0, "conversation")) != capture.Null
	calls := map[string]bool{}
	reasoning := false
	for _, it := range items {
		if d.StrIs(d.Get(it, "type"), "reasoning") {
			reasoning = true
		}
	}
	for k, it := range items {
		switch d.GetStr(it, "type") {
		case "function_call", "custom_tool_call":
			calls[d.GetStr(it, "call_id")] = true
			if reasoning && d.Kind(d.Get(it, "id")) == capture.String && !turnHasReasoning(d, items[:k]) {
				p.Reportf(d.Pointer(it), "function_call %s is replayed without the reasoning item of its turn", d.GetStr(it, "id"))
			}
		case "function_call_output", "custom_tool_call_output":
			if id := d.GetStr(it, "call_id"); !serverState && !calls[id] {
				p.Reportf(d.Pointer(it), "output for call %s answers no call before it in the input", id)
			}
		}
	}
	return nil
}

// turnHasReasoning looks back from a call over the items of its turn — the
// output items of one response: reasoning, calls, assistant messages,
// server tool items — for a reasoning item. A user, developer or system
// message, or the client's output for a call, starts another turn.
func turnHasReasoning(d *capture.Doc, before []capture.Node) bool {
	for k := len(before) - 1; k >= 0; k-- {
		it := before[k]
		typ := d.GetStr(it, "type")
		switch role := d.GetStr(it, "role"); {
		case typ == "reasoning":
			return true
		case role == "user" || role == "developer" || role == "system" || clientOutputs[typ]:
			return false
		}
	}
	return false
}

// clientOutputs are the items a client sends in answer to a call.
var clientOutputs = map[string]bool{
	"function_call_output": true, "custom_tool_call_output": true, "computer_call_output": true,
	"local_shell_call_output": true, "shell_call_output": true, "apply_patch_call_output": true,
	"mcp_approval_response": true,
}

// GeminiTurns checks the order of Gemini function-calling turns.
var GeminiTurns = &rules.Rule{
	ID:       "SO505",
	Title:    "Gemini function-call turns are in order and answered",
	Why:      "Gemini rejects function calls and responses that are out of turn or incompletely answered.",
	Since:    rules.FirstVersion,
	Name:     "request.gemini-function-turns",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Gemini function-call turns come after a user turn or a function response turn, and are answered in full. " +
		"A model turn with functionCall parts follows a user turn (which may hold functionResponse parts), not another model turn or nothing; " +
		"the turn after it, when there is one, holds as many functionResponse parts as it has functionCall parts; " +
		"and a turn of functionResponse parts follows a turn of functionCall parts. Gemini answers each with HTTP 400.",
	Run: runGeminiTurns,
}

func runGeminiTurns(p *rules.Pass) error {
	if p.Capture.Provider != capture.Gemini {
		return nil
	}
	d := p.Capture.Doc
	contents := elems(d, d.Get(geminiRoot(d), "contents"))
	prevCalls := 0
	for i, c := range contents {
		calls, responses := 0, 0
		for _, part := range elems(d, d.Get(c, "parts")) {
			if d.GetAny(part, "functionCall", "function_call") != capture.NoNode {
				calls++
			}
			if d.GetAny(part, "functionResponse", "function_response") != capture.NoNode {
				responses++
			}
		}
		if calls > 0 && (i == 0 || d.StrIs(d.Get(contents[i-1], "role"), "model")) {
			p.Reportf(d.Pointer(c), "a function call turn must come right after a user turn or a function response turn")
		}
		if responses > 0 && prevCalls == 0 {
			p.Reportf(d.Pointer(c), "functionResponse parts answer no functionCall of the turn before")
		} else if prevCalls > 0 && responses != prevCalls {
			p.Reportf(d.Pointer(c), "%d functionResponse part(s) answer %d functionCall part(s) of the turn before", responses, prevCalls)
		}
		prevCalls = calls
	}
	return nil
}
