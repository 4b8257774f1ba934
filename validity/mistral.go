package validity

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// MistralMessages checks the message order and tool-call ids Mistral
// requires.
var MistralMessages = &rules.Rule{
	ID:       "SO527",
	Title:    "Mistral role order and tool-call ids",
	Why:      "Mistral rejects tool-call ids of another provider's form and messages out of its role order, which conversations moved from another provider carry.",
	Since:    rules.FirstVersion,
	Name:     "request.mistral-messages",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Mistral messages follow its role order, and its tool-call ids are nine letters or digits. " +
		"Tool-call ids (tool_calls[].id and tool_call_id) are exactly 9 characters of a-z, A-Z, 0-9 " +
		"(\"Tool call id was call_… but must be a-z, A-Z, 0-9, with a length of 9\", code 3280), so ids minted by another provider fail; " +
		"a user message never directly follows a tool message: an assistant message comes between (\"Unexpected role 'user' after role 'tool'\", code 3230); " +
		"a system message never directly follows an assistant message (\"Unexpected role 'system' after role 'assistant'\"); " +
		"and the last message is a user or tool message, or an assistant message with prefix:true " +
		"(\"Expected last role User or Tool (or Assistant with prefix True) for serving\"). " +
		"Source: Mistral's documented errors, as reported in jackmpcollins/magentic#276, editor-code-assistant/eca#233 (ids), " +
		"datapizza-labs/datapizza-ai#98, avante-corp/avante.nvim#2695, swarmauri/swarmauri-sdk#162 (order) and 0xPlaygrounds/rig#708 (last role); " +
		"https://docs.mistral.ai/api/ (AssistantMessage.prefix).",
	Run: runMistralMessages,
}

func runMistralMessages(p *rules.Pass) error {
	if p.Capture.Provider != capture.Mistral {
		return nil
	}
	d := p.Capture.Doc
	msgs := elems(d, d.Get(0, "messages"))
	prevRole := ""
	reported := map[string]bool{} // an id is reported once, where it first appears
	for _, m := range msgs {
		role := d.GetStr(m, "role")
		if role == "user" && prevRole == "tool" {
			p.Reportf(d.Pointer(m), "a user message cannot directly follow a tool message: an assistant message must come between")
		}
		if role == "system" && prevRole == "assistant" {
			p.Reportf(d.Pointer(m), "a system message cannot directly follow an assistant message")
		}
		for c := range d.Children(d.Get(m, "tool_calls")) {
			checkMistralID(p, d, d.Get(c, "id"), reported)
		}
		if role == "tool" {
			checkMistralID(p, d, d.Get(m, "tool_call_id"), reported)
		}
		prevRole = role
	}
	if len(msgs) > 0 {
		last := msgs[len(msgs)-1]
		switch role := d.GetStr(last, "role"); {
		case role == "user", role == "tool":
		case role == "assistant" && d.Kind(d.Get(last, "prefix")) == capture.True:
		default:
			p.Reportf(d.Pointer(last), "the last message is %s: Mistral expects user or tool, or assistant with prefix: true", role)
		}
	}
	return nil
}

// checkMistralID reports a tool-call id that is not 9 ASCII letters or
// digits, once per id.
func checkMistralID(p *rules.Pass, d *capture.Doc, id capture.Node, reported map[string]bool) {
	if d.Kind(id) != capture.String || reported[d.Str(id)] {
		return
	}
	s := d.Str(id)
	ok := len(s) == 9
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	if !ok {
		reported[s] = true
		p.Reportf(d.Pointer(id), "tool call id %q must be 9 characters of a-z, A-Z, 0-9", shorten(s))
	}
}
