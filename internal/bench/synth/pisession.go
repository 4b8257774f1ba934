package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// PiSession writes a Pi session file (JSONL, version 3) of turns assistant
// turns: the exchanges Capture replays (tool calls with realistic outputs:
// listings, sources, test runs, logs), each answered by the tool result
// and the user's follow-up, with usage on every assistant message.
func PiSession(turns int) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	line := func(v any) {
		if err := enc.Encode(v); err != nil {
			panic(err) // the values are built here: always encodable
		}
	}
	type m = map[string]any
	line(m{"type": "session", "version": 3, "id": "s-1", "timestamp": "2026-11-30T04:20:18.214Z", "cwd": "/home/dev/ledgerd"})
	id, parent := 0, any(nil)
	entry := func(msg m) {
		id++
		e := m{"type": "message", "id": fmt.Sprintf("e%06d", id), "parentId": parent, "timestamp": "2026-11-30T04:20:18.214Z", "message": msg}
		parent = e["id"]
		line(e)
	}
	entry(m{"role": "user", "content": firstUserMessage, "timestamp": 1767225600000})
	usage := func(i int) m {
		return m{"input": 2000 + 900*i, "output": 120, "cacheRead": 1800 + 900*i, "cacheWrite": 900, "totalTokens": 2120 + 900*i}
	}
	for i := range turns {
		ex := makeExchange(i)
		content := []any{m{"type": "thinking", "thinking": ex.thinking, "thinkingSignature": "c2lnbmF0dXJl"}, m{"type": "text", "text": ex.text}}
		for k, c := range ex.calls {
			content = append(content, m{"type": "toolCall", "id": fmt.Sprintf("toolu_%05d_%d", i, k), "name": c.name, "arguments": c.args})
		}
		entry(m{"role": "assistant", "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "toolUse", "usage": usage(i), "content": content})
		for k, r := range ex.results {
			entry(m{"role": "toolResult", "toolCallId": fmt.Sprintf("toolu_%05d_%d", i, k), "toolName": r.name, "isError": r.isError, "content": []any{m{"type": "text", "text": r.output}}})
		}
		entry(m{"role": "user", "content": ex.followUp})
	}
	return b.Bytes()
}
