package tools

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/transform"
)

// queryText returns the genuine human text of the latest message that
// has any: only segments a person typed, never system, injected, assistant
// or tool text.
func queryText(c *capture.Capture) string {
	segs := c.Segments()
	last := -1
	for _, s := range segs {
		if s.Prov == capture.ProvHuman && s.Msg > last {
			last = s.Msg
		}
	}
	if last < 0 {
		return ""
	}
	var b strings.Builder
	for _, s := range segs {
		if s.Prov == capture.ProvHuman && s.Msg == last {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(stripOverlay(c.SegmentText(s)))
		}
	}
	return b.String()
}

// firstQueryText returns the genuine human text of the earliest message
// that has any: what the person started the conversation with. It is the
// same on every turn of the conversation.
func firstQueryText(c *capture.Capture) string {
	segs := c.Segments()
	first := -1
	for _, s := range segs {
		if s.Prov == capture.ProvHuman && s.Msg >= 0 && (first < 0 || s.Msg < first) {
			first = s.Msg
		}
	}
	if first < 0 {
		return ""
	}
	var b strings.Builder
	for _, s := range segs {
		if s.Prov == capture.ProvHuman && s.Msg == first {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(stripOverlay(c.SegmentText(s)))
		}
	}
	return b.String()
}

// stripOverlay removes the skill prefetch overlay the catalog rules may
// have appended to the human text (<skill_prefetch …>…</skill_prefetch>):
// skill descriptions are not what the person asked for.
func stripOverlay(text string) string {
	const open, closing = "<skill_prefetch", "</skill_prefetch>"
	for {
		i := strings.Index(text, open)
		if i < 0 {
			return text
		}
		j := strings.Index(text[i:], closing)
		if j < 0 {
			return strings.TrimRight(text[:i], " \n")
		}
		text = strings.TrimRight(text[:i], " \n") + text[i+j+len(closing):]
	}
}

// historyUse is what the conversation so far says about tools.
type historyUse struct {
	// Called names every tool the history calls or holds a result of.
	Called map[string]bool
	// Activated names every tool an earlier search activated (results of
	// optimizer_tool_search, tool references, tool search outputs, tools
	// added mid-conversation).
	Activated map[string]bool
}

// maxHistoryScan bounds the nodes examined per history segment, so a huge
// tool result cannot make the scan expensive.
const maxHistoryScan = 1 << 16

// history reads the tool calls, results and activations of the
// conversation.
func history(c *capture.Capture) historyUse {
	d := c.Doc
	h := historyUse{Called: map[string]bool{}, Activated: map[string]bool{}}
	segs := c.Segments()
	// Call IDs of optimizer_tool_search calls, to find their results.
	searchCalls := map[string]bool{}
	for _, s := range segs {
		if s.Kind != capture.SecToolCalls {
			continue
		}
		if s.Name != "" {
			h.Called[s.Name] = true
		}
		subtree(d, s.Node, func(i capture.Node) {
			name, call := callName(d, i)
			if !call {
				return
			}
			h.Called[name] = true
			if name == transform.SearchToolName {
				for _, n := range []capture.Node{i, d.ParentOf(i)} {
					for _, k := range []string{"id", "call_id", "toolCallId"} {
						if v := d.GetStr(n, k); v != "" {
							searchCalls[v] = true
						}
					}
				}
			}
		})
	}
	for _, s := range segs {
		switch {
		case s.Kind == capture.SecToolResults:
			isSearch := s.Name == transform.SearchToolName
			if s.Name != "" {
				h.Called[s.Name] = true
			}
			subtree(d, s.Node, func(i capture.Node) {
				if d.Kind(i) != capture.Object {
					return
				}
				if name := resultName(d, i); name != "" {
					h.Called[name] = true
					isSearch = isSearch || name == transform.SearchToolName
				}
				for _, k := range []string{"tool_use_id", "tool_call_id", "call_id", "toolCallId"} {
					if v := d.GetStr(i, k); v != "" && searchCalls[v] {
						isSearch = true
					}
				}
			})
			scanActivations(d, s.Node, isSearch, h.Activated)
		case s.Kind == capture.SecTools && s.Msg >= 0:
			// Tools added mid-conversation (tool_addition, additional_tools).
			scanActivations(d, s.Node, true, h.Activated)
		}
	}
	return h
}

// subtree calls fn for node n and its descendants, at most maxHistoryScan.
func subtree(d *capture.Doc, n capture.Node, fn func(capture.Node)) {
	if n == capture.NoNode {
		return
	}
	end := min(d.Nodes[n].Skip, n+maxHistoryScan)
	for i := n; i < end; i++ {
		fn(i)
	}
}

// callName reports whether node i is a tool call and which tool it calls:
// Anthropic tool_use blocks, Chat and Mistral tool_calls functions, OpenAI
// Responses function calls, Gemini functionCall parts and Pi toolCall
// blocks.
func callName(d *capture.Doc, i capture.Node) (string, bool) {
	if d.Kind(i) != capture.Object {
		return "", false
	}
	switch d.GetStr(i, "type") {
	case "tool_use", "server_tool_use", "mcp_tool_use", "toolCall", "function_call", "custom_tool_call":
		name := d.GetStr(i, "name")
		return name, name != ""
	}
	switch d.Key(i) {
	case "function", "function_call", "functionCall":
		name := d.GetStr(i, "name")
		return name, name != ""
	}
	return "", false
}

// resultName returns the tool a result object names, if it does (Pi
// toolResult messages, Gemini functionResponse parts, Chat and Mistral tool
// messages with a name, Responses outputs with a name).
func resultName(d *capture.Doc, i capture.Node) string {
	if n := d.GetStr(i, "toolName"); n != "" {
		return n
	}
	switch d.Key(i) {
	case "functionResponse", "function_response":
		return d.GetStr(i, "name")
	}
	if d.GetStr(i, "role") == "tool" || strings.HasSuffix(d.GetStr(i, "type"), "_output") {
		return d.GetStr(i, "name")
	}
	return ""
}

// scanActivations adds to act the tools named in the subtree of n as loaded:
// tool_reference objects, tool_search_output and additional_tools lists, and
// — when search is set — the "activated" list of an optimizer_tool_search
// result, given as JSON or as a string holding JSON.
func scanActivations(d *capture.Doc, n capture.Node, search bool, act map[string]bool) {
	subtree(d, n, func(i capture.Node) {
		switch d.Kind(i) {
		case capture.Object:
			switch d.GetStr(i, "type") {
			case "tool_reference":
				if name := d.GetStr(i, "tool_name"); name != "" {
					act[name] = true
				} else if name := d.GetStr(i, "name"); name != "" {
					act[name] = true
				}
			case "tool_search_output", "additional_tools":
				for _, t := range transform.ToolElems(d, d.Get(i, "tools")) {
					if name := d.GetStr(t, "name"); name != "" {
						act[name] = true
					}
				}
			case "tool_addition":
				if name := d.GetStr(d.Get(i, "tool"), "name"); name != "" {
					act[name] = true
				}
			}
			if search {
				addActivated(d, d.Get(i, "activated"), act)
			}
		case capture.String:
			if !search {
				return
			}
			// A search result travels as text holding the JSON answer.
			s := d.Str(i)
			if j := strings.IndexByte(s, '{'); j >= 0 && strings.Contains(s, `"activated"`) {
				if sub, err := capture.Parse([]byte(strings.TrimSpace(s[j:]))); err == nil && sub.Kind(0) == capture.Object {
					addActivated(sub, sub.Get(0, "activated"), act)
				}
			}
		}
	})
}

func addActivated(d *capture.Doc, arr capture.Node, act map[string]bool) {
	if d.Kind(arr) != capture.Array {
		return
	}
	for e := range d.Children(arr) {
		if name := d.Str(e); name != "" {
			act[name] = true
		}
	}
}

// startedByInjected says what started the conversation's latest turn when
// it was not a person: the latest message that starts a turn (not an
// assistant message, not a tool result) holds injected text only, such as
// a Pi custom message an extension sent. "" when a person did, or when
// there is no such message.
func startedByInjected(c *capture.Capture) string {
	type turn struct {
		human, injected, results bool
		source                   string
	}
	turns := map[int]*turn{}
	last := -1
	for _, s := range c.Segments() {
		if s.Msg < 0 {
			continue
		}
		t := turns[s.Msg]
		if t == nil {
			t = &turn{}
			turns[s.Msg] = t
		}
		switch {
		case s.Kind == capture.SecToolResults:
			t.results = true
		case s.Prov == capture.ProvHuman:
			t.human = true
		case s.Prov == capture.ProvInjected:
			t.injected = true
			if t.source == "" {
				t.source = s.Source
			}
		}
		if (t.human || t.injected) && !t.results && s.Msg > last {
			last = s.Msg
		}
	}
	t := turns[last]
	if t == nil || t.human || !t.injected || t.results {
		return ""
	}
	if t.source != "" {
		return "injected text (" + t.source + ")"
	}
	return "injected text"
}
