package capture

import "sort"

// A provider's prompt cache compares requests as the provider renders them:
// the tool declarations, then the system instructions, then the messages,
// whatever the order of the members in the JSON body. Prompt is a request
// in that order, cut into blocks (a tool declaration, a system block, a
// message or a content block).

// PromptBlock is one unit of a request's prompt.
type PromptBlock struct {
	Node       Node
	Start, End int // the block's span in the body
	// Mark names the block's role in the prompt ("message user", …); a
	// cache compares it with the bytes, so that the same text under
	// another role or at another level is another block.
	Mark string
	// Cuts are the spans of cache_control members inside the block, in
	// order: they only steer the cache and are not compared.
	Cuts [][2]int
	// TTL is "5m" or "1h" for an explicit cache breakpoint on the block.
	TTL string
	// Output says the block replays the model's own output.
	Output bool
}

// Prompt is one request as a prompt cache sees it.
type Prompt struct {
	Blocks []PromptBlock
	// Auto: a request-level cache_control (Anthropic's automatic
	// breakpoint at the end of the prompt).
	Auto bool
	// Keyed: the request carries a prompt cache key.
	Keyed bool
}

// Prompt cuts the request into blocks in the order its provider's prompt
// cache reads them.
func (c *Capture) Prompt() Prompt {
	var l Prompt
	d := c.Doc
	if d == nil || len(d.Nodes) == 0 {
		return l
	}
	add := func(node Node, mark string, output bool) {
		if node == NoNode {
			return
		}
		n := &d.Nodes[node]
		b := PromptBlock{Node: node, Start: int(n.Start), End: int(n.End), Mark: mark, Output: output}
		b.Cuts, b.TTL = cacheControls(d, node)
		l.Blocks = append(l.Blocks, b)
	}
	root := Node(0)
	switch c.Provider {
	case Anthropic:
		for t := range d.Children(d.Get(root, "tools")) {
			add(t, "tool", false)
		}
		if s := d.Get(root, "system"); d.Kind(s) == Array {
			for b := range d.Children(s) {
				add(b, "system", false)
			}
		} else {
			add(s, "system", false)
		}
		for m := range d.Children(d.Get(root, "messages")) {
			role := d.GetStr(m, "role")
			content := d.Get(m, "content")
			mark := "message " + role
			if d.Kind(content) != Array {
				add(m, mark, role == "assistant")
				continue
			}
			first := true
			for b := range d.Children(content) {
				add(b, mark, role == "assistant")
				if first {
					mark, first = "", false
				}
			}
			if first {
				add(m, mark, role == "assistant")
			}
		}
		l.Auto = d.Get(root, "cache_control") != NoNode
	case OpenAIChat, Mistral:
		for _, key := range []string{"tools", "functions"} {
			for t := range d.Children(d.Get(root, key)) {
				add(t, "tool", false)
			}
		}
		for m := range d.Children(d.Get(root, "messages")) {
			add(m, "message", d.GetStr(m, "role") == "assistant")
		}
		l.Keyed = d.Kind(d.Get(root, "prompt_cache_key")) == String
	case OpenAIResponses:
		for t := range d.Children(d.Get(root, "tools")) {
			add(t, "tool", false)
		}
		if s := d.Get(root, "instructions"); d.Kind(s) == String {
			add(s, "system", false)
		}
		in := d.Get(root, "input")
		if d.Kind(in) == Array {
			for it := range d.Children(in) {
				add(it, "item", responsesOutput(d, it))
			}
		} else {
			add(in, "message user", false)
		}
		l.Keyed = d.Kind(d.Get(root, "prompt_cache_key")) == String
	case Gemini:
		for t := range d.Children(d.Get(root, "tools")) {
			if decls := d.Get(t, "functionDeclarations"); d.Kind(decls) == Array {
				for f := range d.Children(decls) {
					add(f, "tool", false)
				}
				continue
			}
			add(t, "tool", false)
		}
		add(d.GetAny(root, "systemInstruction", "system_instruction"), "system", false)
		for m := range d.Children(d.Get(root, "contents")) {
			add(m, "content", d.GetStr(m, "role") == "model")
		}
	case PiMessages:
		switch d.Kind(root) {
		case Array:
			for e := range d.Children(root) {
				add(e, "entry", piOutput(d, e))
			}
		case Object:
			if d.Get(root, "role") != NoNode {
				add(root, "entry", piOutput(d, root))
				break
			}
			for t := range d.Children(d.Get(root, "tools")) {
				add(t, "tool", false)
			}
			add(d.Get(root, "systemPrompt"), "system", false)
			for m := range d.Children(d.Get(root, "messages")) {
				add(m, "entry", piOutput(d, m))
			}
		}
	}
	l.Auto = l.Auto || c.hostMarksEnd(l)
	return l
}

// responsesOutput reports an input item of a Responses body that replays
// model output.
func responsesOutput(d *Doc, it Node) bool {
	if d.GetStr(it, "role") == "assistant" {
		return true
	}
	switch d.GetStr(it, "type") {
	case "reasoning", "function_call", "custom_tool_call", "web_search_call", "file_search_call", "computer_call", "code_interpreter_call":
		return true
	}
	return false
}

// piOutput reports a Pi message or session entry holding an assistant
// message.
func piOutput(d *Doc, e Node) bool {
	if m := d.Get(e, "message"); m != NoNode {
		e = m
	}
	return d.GetStr(e, "role") == "assistant"
}

// cacheControls returns the spans of the cache_control members inside node
// (each with its separating comma, so that what is left reads as the same
// JSON without the member) and the lifetime of a cache_control member of
// node itself ("" when it has none).
func cacheControls(d *Doc, node Node) (cuts [][2]int, ttl string) {
	if k := d.Kind(node); k != Object && k != Array {
		return nil, ""
	}
	src := d.Src
	check := func(m Node) {
		if !d.IsMember(m) || !d.keyIs(m, "cache_control") {
			return
		}
		ks, _ := d.KeySpan(m)
		end := int(d.Nodes[m].End)
		start := ks
		// Take the comma before the member, or else the one after it.
		i := ks - 1
		for i >= 0 && isJSONSpace(src[i]) {
			i--
		}
		if i >= 0 && src[i] == ',' {
			start = i
		} else {
			j := end
			for j < len(src) && isJSONSpace(src[j]) {
				j++
			}
			if j < len(src) && src[j] == ',' {
				j++
				for j < len(src) && isJSONSpace(src[j]) {
					j++
				}
				end = j
			}
		}
		cuts = append(cuts, [2]int{start, end})
	}
	for m := range d.Children(node) {
		check(m)
		if d.IsMember(m) && d.keyIs(m, "cache_control") && d.Kind(m) == Object {
			ttl = "5m"
			if d.StrIs(d.Get(m, "ttl"), "1h") {
				ttl = "1h"
			}
		}
	}
	for m, parent := range d.Walk(node) {
		if parent != node {
			check(m)
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i][0] < cuts[j][0] })
	// A member nested in another cut member is inside its span already.
	out := cuts[:0]
	for _, c := range cuts {
		if len(out) > 0 && c[0] < out[len(out)-1][1] {
			continue
		}
		out = append(out, c)
	}
	return out, ttl
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
