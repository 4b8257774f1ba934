package output

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// toolResult is one tool result of a capture, located in its provider's
// shape: where its text lives, which tool produced it, and the flags that
// decide what the output rules may do with it.
type toolResult struct {
	node   capture.Node   // the result block, item, part or message
	texts  []capture.Node // the string nodes holding its text, in order
	name   string         // the tool's name ("" when unknown)
	isErr  bool           // is_error, isError, a non-zero exit code, response.error
	media  bool           // holds images, documents or other non-text content
	nested bool           // a nested Pi result (parentToolCallId): never changed
	// skill says the result is a skill file the model loaded: a read of a
	// SKILL.md or of a file inside a catalogued skill's folder. The model
	// asked for those instructions; no output rule shortens them.
	skill bool
}

// protected reports whether no output rule may change the result: nested
// Pi results, loaded skill files and the results of exempt tools.
func (r *toolResult) protected(exemptTools []string) bool {
	return r.nested || r.skill || exempt(r.name, exemptTools)
}

// toolResults finds every tool result of c through its segments and reads
// each in the shape of c's provider. Results appear in body order.
func toolResults(c *capture.Capture) []toolResult { return resultsWith(c, c) }

// passResults is toolResults of a pass's capture; the skill folders come
// from the catalog as captured (an earlier rule may have compacted it).
func passResults(p *rules.Pass) []toolResult {
	if p.Original != nil {
		return resultsWith(p.Capture, p.Original)
	}
	return toolResults(p.Capture)
}

// resultsWith is toolResults with the skill catalog read from cat.
func resultsWith(c, cat *capture.Capture) []toolResult {
	names := callNames(c)
	var skills *skillFiles
	var out []toolResult
	seen := map[capture.Node]bool{}
	add := func(r toolResult) {
		if !seen[r.node] {
			seen[r.node] = true
			out = append(out, r)
		}
	}
	for _, s := range c.Segments() {
		if s.Kind != capture.SecToolResults {
			continue
		}
		for _, n := range resultNodes(c, s.Node) {
			if r, ok := readResult(c, n, names); ok {
				if skills == nil {
					skills = newSkillFiles(c, cat)
				}
				r.skill = skills.loaded(c, n)
				add(r)
			}
		}
	}
	return out
}

// resultNodes returns the result units inside the subtree of a tool-results
// segment (a segment may be one block or a whole message of them).
func resultNodes(c *capture.Capture, node capture.Node) []capture.Node {
	d := c.Doc
	switch c.Provider {
	case capture.Anthropic:
		// Only the client's tool_result blocks, which user turns carry.
		// Server tools' results (web_search_tool_result, mcp_tool_result, …)
		// sit in assistant turns: the provider produced them, and replays
		// them as they are.
		if d.StrIs(d.Get(node, "type"), "tool_result") {
			if msg := d.ParentOf(d.ParentOf(node)); msg != capture.NoNode && d.StrIs(d.Get(msg, "role"), "assistant") {
				return nil
			}
			return []capture.Node{node}
		}
		if d.StrIs(d.Get(node, "role"), "assistant") {
			return nil
		}
		var out []capture.Node
		for b := range d.Children(d.Get(node, "content")) {
			if d.StrIs(d.Get(b, "type"), "tool_result") {
				out = append(out, b)
			}
		}
		return out
	case capture.Gemini:
		if d.GetAny(node, "functionResponse", "function_response") != capture.NoNode {
			return []capture.Node{node}
		}
		var out []capture.Node
		parts := d.Get(node, "parts")
		if d.Kind(parts) == capture.Object {
			parts = capture.NoNode
			if d.GetAny(d.Get(node, "parts"), "functionResponse", "function_response") != capture.NoNode {
				return []capture.Node{d.Get(node, "parts")}
			}
		}
		for p := range d.Children(parts) {
			if d.GetAny(p, "functionResponse", "function_response") != capture.NoNode {
				out = append(out, p)
			}
		}
		return out
	}
	// Chat, Mistral, Responses and Pi: the result is the message or item
	// that holds the segment.
	anc := append(d.Ancestors(node), node)
	for k := len(anc) - 1; k > 0; k-- {
		n := anc[k]
		if d.Get(n, "role") != capture.NoNode || d.Get(n, "type") != capture.NoNode && c.Provider == capture.OpenAIResponses && d.Get(n, "call_id") != capture.NoNode {
			return []capture.Node{n}
		}
	}
	return []capture.Node{node}
}

// readResult reads one result unit.
func readResult(c *capture.Capture, n capture.Node, names map[string]string) (toolResult, bool) {
	d := c.Doc
	r := toolResult{node: n}
	switch c.Provider {
	case capture.Anthropic:
		r.name = names[d.GetStr(n, "tool_use_id")]
		r.isErr = d.Kind(d.Get(n, "is_error")) == capture.True
		r.texts, r.media = textBlocks(d, d.Get(n, "content"))
	case capture.OpenAIChat, capture.Mistral:
		if d.GetStr(n, "role") != "tool" && d.GetStr(n, "role") != "function" {
			return r, false
		}
		r.name = d.GetStr(n, "name")
		if r.name == "" {
			r.name = names[d.GetStr(n, "tool_call_id")]
		}
		r.texts, r.media = textBlocks(d, d.Get(n, "content"))
	case capture.OpenAIResponses:
		switch d.GetStr(n, "type") {
		case "function_call_output", "custom_tool_call_output":
		default:
			return r, false
		}
		r.name = d.GetStr(n, "name")
		if r.name == "" {
			r.name = names[d.GetStr(n, "call_id")]
		}
		r.texts, r.media = textBlocks(d, d.Get(n, "output"))
	case capture.Gemini:
		fr := d.GetAny(n, "functionResponse", "function_response")
		if fr == capture.NoNode {
			return r, false
		}
		r.name = d.GetStr(fr, "name")
		resp := d.Get(fr, "response")
		if d.Kind(resp) == capture.Object {
			for m := range d.Children(resp) {
				if d.Kind(m) == capture.String {
					r.texts = append(r.texts, m)
				}
			}
			if e := d.Get(resp, "error"); e != capture.NoNode && d.Kind(e) != capture.Null && d.Kind(e) != capture.False {
				r.isErr = true
			}
		}
		if d.Len(d.Get(fr, "parts")) > 0 {
			r.media = true
		}
	case capture.PiMessages:
		switch d.GetStr(n, "role") {
		case "toolResult":
			r.name = d.GetStr(n, "toolName")
			r.isErr = d.Kind(d.Get(n, "isError")) == capture.True
			r.nested = d.Get(n, "parentToolCallId") != capture.NoNode || d.Get(d.Get(n, "details"), "parentToolCallId") != capture.NoNode
			r.texts, r.media = textBlocks(d, d.Get(n, "content"))
		case "bashExecution":
			if d.Kind(d.Get(n, "excludeFromContext")) == capture.True {
				return r, false
			}
			r.name = "bash"
			if ec := d.Get(n, "exitCode"); d.Kind(ec) == capture.Number && string(d.Raw(ec)) != "0" {
				r.isErr = true
			}
			if o := d.Get(n, "output"); d.Kind(o) == capture.String {
				r.texts = []capture.Node{o}
			}
		default:
			return r, false
		}
	default:
		return r, false
	}
	return r, true
}

// textBlocks returns the string nodes of a content value that is a string
// or an array of text blocks, and whether it holds anything but text.
func textBlocks(d *capture.Doc, content capture.Node) ([]capture.Node, bool) {
	switch d.Kind(content) {
	case capture.String:
		return []capture.Node{content}, false
	case capture.Array:
		var texts []capture.Node
		media := false
		for b := range d.Children(content) {
			switch {
			case d.Kind(b) == capture.String:
				texts = append(texts, b)
			case d.Kind(b) == capture.Object:
				t := d.GetStr(b, "type")
				if tx := d.Get(b, "text"); d.Kind(tx) == capture.String && (t == "text" || t == "input_text" || t == "output_text" || t == "") {
					texts = append(texts, tx)
				} else {
					media = true
				}
			default:
				media = true
			}
		}
		return texts, media
	}
	return nil, content != capture.NoNode && d.Kind(content) != capture.Null
}

// callNames maps tool-call IDs to tool names, from the calls in the
// capture's history.
func callNames(c *capture.Capture) map[string]string {
	return byCallID(c, func(d *capture.Doc, call capture.Node, fn capture.Node) (string, bool) {
		name := d.GetStr(call, "name")
		if name == "" && fn != capture.NoNode {
			name = d.GetStr(fn, "name")
		}
		return name, name != ""
	})
}

// byCallID maps the ID of every tool call in the capture's history (its
// "id" and its "call_id") to what value derives from the call object and
// its "function" member (NoNode when absent); the first call of an ID wins,
// and calls value rejects are left out.
func byCallID(c *capture.Capture, value func(d *capture.Doc, call, fn capture.Node) (string, bool)) map[string]string {
	d := c.Doc
	out := map[string]string{}
	for _, s := range c.Segments() {
		if s.Kind != capture.SecToolCalls {
			continue
		}
		for i := s.Node; i < d.Nodes[s.Node].Skip; i++ {
			if d.Kind(i) != capture.Object {
				continue
			}
			v, ok := value(d, i, d.Get(i, "function"))
			if !ok {
				continue
			}
			for _, k := range []string{"id", "call_id"} {
				if id := d.GetStr(i, k); id != "" {
					if _, seen := out[id]; !seen {
						out[id] = v
					}
				}
			}
		}
	}
	return out
}

// builtinExempt are skillopt's own resolvers: reducing their results would
// put a second handle where the original was just asked for.
var builtinExempt = []string{"skill_search", "optimizer_tool_search", retrieveTool}

// exempt reports whether results of the named tool are never changed.
func exempt(name string, extra []string) bool {
	for _, n := range builtinExempt {
		if toolIs(name, n) {
			return true
		}
	}
	for _, n := range extra {
		if toolIs(name, n) {
			return true
		}
	}
	return false
}

// toolIs reports whether a tool name is want, ignoring case and an MCP
// server prefix ("auggie/codebase-retrieval", "mcp__auggie__…").
func toolIs(name, want string) bool {
	if want == "*" {
		return true
	}
	if strings.EqualFold(name, want) {
		return true
	}
	if len(name) > len(want) && strings.EqualFold(name[len(name)-len(want):], want) {
		switch sep := name[:len(name)-len(want)]; {
		case strings.HasSuffix(sep, "/"), strings.HasSuffix(sep, "__"), strings.HasSuffix(sep, "."), strings.HasSuffix(sep, ":"):
			return true
		}
	}
	return false
}

func toolIn(name string, list []string) bool {
	for _, n := range list {
		if toolIs(name, n) {
			return true
		}
	}
	return false
}
