package capture

import (
	"bytes"
	"fmt"
)

// notRequestHint says what to give skillopt instead of a provider's answer.
const notRequestHint = "skillopt reads the requests sent to a provider; give it the request body, " +
	"a recording with both (`skillopt record`, HAR, claude-trace JSONL), or a host session file"

// notRequest is the error for a provider's answer given as a capture. It
// is ErrNoRequests, so a directory walk notes and skips such a file beside
// the requests while a file named on its own is an input error.
type notRequest struct{ what string }

func (e notRequest) Error() string        { return e.what + ", not a request: " + notRequestHint }
func (e notRequest) Is(target error) bool { return target == ErrNoRequests }

// looksLikeEventStream reports whether data starts as a text/event-stream
// does: a field line ("event:", "data:", "id:", "retry:") or a comment
// (":"), after optional blank lines.
func looksLikeEventStream(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(data) > 0 && data[0] == ':' {
		return true
	}
	for _, f := range []string{"event:", "data:", "id:", "retry:"} {
		if bytes.HasPrefix(data, []byte(f)) {
			return true
		}
	}
	return false
}

// responseKind names the provider response a bare body is, or "" when it
// is not one. Each test is a member no request carries: a response's own
// object type, Anthropic's message type with its stop reason, Gemini's
// candidates, or an error envelope.
func responseKind(d *Doc) string {
	root := Node(0)
	obj := d.GetStr(root, "object")
	switch obj {
	case "response":
		return "an OpenAI Responses response (object \"response\")"
	case "chat.completion", "chat.completion.chunk":
		return fmt.Sprintf("a Chat Completions response (object %q)", obj)
	}
	if d.StrIs(d.Get(root, "type"), "message") && d.StrIs(d.Get(root, "role"), "assistant") &&
		(d.Get(root, "stop_reason") != NoNode || d.Get(root, "usage") != NoNode) {
		return "an Anthropic Messages response (type \"message\", role \"assistant\")"
	}
	if d.Get(root, "candidates") != NoNode && d.Get(root, "contents") == NoNode {
		return "a Gemini generateContent response (top-level candidates)"
	}
	if d.Get(root, "choices") != NoNode && d.Get(root, "messages") == NoNode && d.Get(root, "usage") != NoNode {
		return "a Chat Completions response (top-level choices and usage)"
	}
	if e := d.Get(root, "error"); e != NoNode && d.Kind(e) == Object && d.Get(root, "messages") == NoNode && d.Get(root, "input") == NoNode && d.Get(root, "contents") == NoNode {
		return "a provider's error response (top-level error)"
	}
	return ""
}
