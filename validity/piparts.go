package validity

import (
	"slices"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// PiMessageParts checks the content block types of Pi messages.
var PiMessageParts = &rules.Rule{
	ID:       "SO518",
	Title:    "Pi messages hold the blocks their role allows",
	Why:      "Pi converts a message list into a provider request by the types of its messages; a block in the wrong role produces a request whose meaning at the provider is undefined.",
	Since:    rules.FirstVersion,
	Name:     "request.pi-message-parts",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Pi's message types fix which content blocks each role holds: " +
		"a user message is a string or text and image blocks; an assistant message is text, thinking and toolCall blocks; " +
		"a toolResult message is text and image blocks; a custom message is a string or text and image blocks. " +
		"Pi converts a list into a provider request by those types, so a block of another type (a toolCall in a user message, an image in an assistant message) " +
		"is not what Pi sends, and what it becomes at the provider is undefined. " +
		"Source: Pi's session format (packages/ai/src/types.ts UserMessage, AssistantMessage, ToolResultMessage; packages/coding-agent/src/core/messages.ts CustomMessage), " +
		"as documented in docs/session-format.md of the @mariozechner/pi-coding-agent package (https://github.com/badlogic/pi-mono).",
	Run: runPiMessageParts,
}

// piParts are the block types each Pi role's content may hold.
var piParts = map[string][]string{
	"user":       {"text", "image"},
	"assistant":  {"text", "thinking", "toolCall"},
	"toolResult": {"text", "image"},
	"custom":     {"text", "image"},
}

func runPiMessageParts(p *rules.Pass) error {
	if p.Capture.Provider != capture.PiMessages {
		return nil
	}
	d := p.Capture.Doc
	list := capture.Node(0)
	if d.Kind(0) == capture.Object {
		list = d.Get(0, "messages")
	}
	for m := range d.Children(list) {
		if d.Get(m, "role") == capture.NoNode && d.StrIs(d.Get(m, "type"), "message") {
			m = d.Get(m, "message") // a session entry
		}
		role := d.GetStr(m, "role")
		allowed, ok := piParts[role]
		if !ok {
			continue
		}
		content := d.Get(m, "content")
		if d.Kind(content) != capture.Array {
			continue // string or missing: the schema judges it
		}
		for b := range d.Children(content) {
			t := d.Get(b, "type")
			if d.Kind(t) != capture.String || slices.Contains(allowed, d.Str(t)) {
				continue
			}
			p.Reportf(d.Pointer(t), "%q block in a message of role %s, whose content is %s blocks", d.Str(t), role, strings.Join(allowed, " or "))
		}
	}
	return nil
}
