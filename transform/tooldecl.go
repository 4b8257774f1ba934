package transform

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// SearchToolName is the name of the search tool SO201 declares in place of
// the tools it defers.
const SearchToolName = "optimizer_tool_search"

// toolDecl is one top-level tool declaration of a capture.
type toolDecl struct {
	Name string
	// Node is the declaration's node; Arr the array holding it (tools, or
	// a Gemini functionDeclarations array).
	Node, Arr int
	// Desc and Params are the description string and parameter schema
	// nodes (-1 when absent).
	Desc, Params int
	// Function is true for ordinary function declarations, the only ones
	// that may be deferred; built-in, server, namespace and MCP entries are
	// always kept as they are.
	Function bool
	// Deferred is true when the declaration carries defer_loading: true.
	Deferred bool
	// Search marks a search tool: optimizer_tool_search or a provider's
	// native tool search.
	Search bool
}

// Bytes returns the size of the declaration as sent.
func (t *toolDecl) Bytes(d *capture.Doc) int {
	n := &d.Nodes[t.Node]
	return int(n.End - n.Start)
}

// toolDecls lists the top-level tool declarations of c in body order. Pi
// message lists without a context object and captures without tools give
// none.
func toolDecls(c *capture.Capture) []toolDecl {
	d := c.Doc
	if d.Kind(0) != capture.Object {
		return nil
	}
	var out []toolDecl
	tools := d.Get(0, "tools")
	switch c.Provider {
	case capture.Gemini:
		for _, t := range toolElems(d, tools) {
			fds := d.GetAny(t, "functionDeclarations", "function_declarations")
			for _, fd := range toolElems(d, fds) {
				if d.Kind(fd) != capture.Object {
					continue
				}
				td := toolDecl{Name: d.GetStr(fd, "name"), Node: fd, Arr: fds, Desc: d.Get(fd, "description"),
					Params: d.GetAny(fd, "parametersJsonSchema", "parameters_json_schema", "parameters")}
				td.Function = td.Name != ""
				td.Search = td.Name == SearchToolName
				out = append(out, td)
			}
		}
		return out
	case capture.PiMessages:
		if d.Get(0, "messages") < 0 {
			return nil
		}
	}
	if d.Kind(tools) != capture.Array {
		return nil
	}
	for t := range d.Children(tools) {
		if d.Kind(t) != capture.Object {
			out = append(out, toolDecl{Node: t, Arr: tools, Desc: -1, Params: -1})
			continue
		}
		td := toolDecl{Node: t, Arr: tools, Desc: -1, Params: -1}
		typ := d.GetStr(t, "type")
		switch c.Provider {
		case capture.Anthropic:
			td.Name = d.GetStr(t, "name")
			td.Desc, td.Params = d.Get(t, "description"), d.Get(t, "input_schema")
			td.Function = td.Name != "" && td.Params >= 0 && (typ == "" || typ == "custom")
			td.Search = strings.HasPrefix(typ, "tool_search_tool_")
		case capture.OpenAIChat, capture.Mistral:
			fn := d.Get(t, "function")
			td.Name = d.GetStr(fn, "name")
			td.Desc, td.Params = d.Get(fn, "description"), d.Get(fn, "parameters")
			td.Function = td.Name != "" && (typ == "" || typ == "function")
			if td.Name == "" {
				td.Name = d.GetStr(d.Get(t, "custom"), "name")
			}
		case capture.OpenAIResponses:
			td.Name = d.GetStr(t, "name")
			td.Desc, td.Params = d.Get(t, "description"), d.Get(t, "parameters")
			td.Function = td.Name != "" && typ == "function"
			td.Search = typ == "tool_search"
		case capture.PiMessages:
			td.Name = d.GetStr(t, "name")
			td.Desc, td.Params = d.Get(t, "description"), d.Get(t, "parameters")
			td.Function = td.Name != ""
		}
		td.Deferred = d.Kind(d.Get(t, "defer_loading")) == capture.True
		td.Search = td.Search || td.Name == SearchToolName
		if td.Name == "" && !td.Function {
			td.Name = typ // {"type":"tool_search"}, {"type":"web_search"}: named by their type
		}
		if td.Search {
			td.Function = false
		}
		out = append(out, td)
	}
	return out
}

// toolElems returns the children of an array, or the node itself when a single
// object stands where an array is expected (Gemini accepts that).
func toolElems(d *capture.Doc, i int) []int {
	switch d.Kind(i) {
	case capture.Array:
		out := make([]int, 0, d.Len(i))
		for c := range d.Children(i) {
			out = append(out, c)
		}
		return out
	case capture.Object:
		return []int{i}
	}
	return nil
}

// toolQueryText returns the genuine human text of the latest message that
// has any: only segments a person typed, never system, injected, assistant
// or tool text.
func toolQueryText(c *capture.Capture) string {
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
			b.WriteString(toolStripOverlay(c.SegmentText(s)))
		}
	}
	return b.String()
}

// toolStripOverlay removes the skill prefetch overlay the catalog rules may
// have appended to the human text (<skill_prefetch …>…</skill_prefetch>):
// skill descriptions are not what the person asked for.
func toolStripOverlay(text string) string {
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

// toolHistoryUse is what the conversation so far says about tools.
type toolHistoryUse struct {
	// Called names every tool the history calls or holds a result of.
	Called map[string]bool
	// Activated names every tool an earlier search activated (results of
	// optimizer_tool_search, tool references, tool search outputs, tools
	// added mid-conversation).
	Activated map[string]bool
}

// toolMaxHistoryScan bounds the nodes examined per history segment, so a huge
// tool result cannot make the scan expensive.
const toolMaxHistoryScan = 1 << 16

// toolHistory reads the tool calls, results and activations of the
// conversation.
func toolHistory(c *capture.Capture) toolHistoryUse {
	d := c.Doc
	h := toolHistoryUse{Called: map[string]bool{}, Activated: map[string]bool{}}
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
		toolSubtree(d, s.Node, func(i int) {
			name, call := toolCallName(d, i)
			if !call {
				return
			}
			h.Called[name] = true
			if name == SearchToolName {
				for _, n := range []int{i, d.ParentOf(i)} {
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
			isSearch := s.Name == SearchToolName
			if s.Name != "" {
				h.Called[s.Name] = true
			}
			toolSubtree(d, s.Node, func(i int) {
				if d.Kind(i) != capture.Object {
					return
				}
				if name := toolResultName(d, i); name != "" {
					h.Called[name] = true
					isSearch = isSearch || name == SearchToolName
				}
				for _, k := range []string{"tool_use_id", "tool_call_id", "call_id", "toolCallId"} {
					if v := d.GetStr(i, k); v != "" && searchCalls[v] {
						isSearch = true
					}
				}
			})
			toolScanActivations(d, s.Node, isSearch, h.Activated)
		case s.Kind == capture.SecTools && s.Msg >= 0:
			// Tools added mid-conversation (tool_addition, additional_tools).
			toolScanActivations(d, s.Node, true, h.Activated)
		}
	}
	return h
}

// toolSubtree calls fn for node n and its descendants, at most toolMaxHistoryScan.
func toolSubtree(d *capture.Doc, n int, fn func(int)) {
	if n < 0 {
		return
	}
	end := min(int(d.Nodes[n].Skip), n+toolMaxHistoryScan)
	for i := n; i < end; i++ {
		fn(i)
	}
}

// toolCallName reports whether node i is a tool call and which tool it calls:
// Anthropic tool_use blocks, Chat and Mistral tool_calls functions, OpenAI
// Responses function calls, Gemini functionCall parts and Pi toolCall
// blocks.
func toolCallName(d *capture.Doc, i int) (string, bool) {
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

// toolResultName returns the tool a result object names, if it does (Pi
// toolResult messages, Gemini functionResponse parts, Chat and Mistral tool
// messages with a name, Responses outputs with a name).
func toolResultName(d *capture.Doc, i int) string {
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

// toolScanActivations adds to act the tools named in the toolSubtree of n as loaded:
// tool_reference objects, tool_search_output and additional_tools lists, and
// — when search is set — the "activated" list of an optimizer_tool_search
// result, given as JSON or as a string holding JSON.
func toolScanActivations(d *capture.Doc, n int, search bool, act map[string]bool) {
	toolSubtree(d, n, func(i int) {
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
				for _, t := range toolElems(d, d.Get(i, "tools")) {
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
				toolAddActivated(d, d.Get(i, "activated"), act)
			}
		case capture.String:
			if !search {
				return
			}
			// A search result travels as text holding the JSON answer.
			s := d.Str(i)
			if j := strings.IndexByte(s, '{'); j >= 0 && strings.Contains(s, `"activated"`) {
				if sub, err := capture.Parse([]byte(strings.TrimSpace(s[j:]))); err == nil && sub.Kind(0) == capture.Object {
					toolAddActivated(sub, sub.Get(0, "activated"), act)
				}
			}
		}
	})
}

func toolAddActivated(d *capture.Doc, arr int, act map[string]bool) {
	if d.Kind(arr) != capture.Array {
		return
	}
	for e := range d.Children(arr) {
		if name := d.Str(e); name != "" {
			act[name] = true
		}
	}
}
