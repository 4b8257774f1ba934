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
	d := c.Doc
	if d == nil || len(d.Nodes) == 0 {
		return Prompt{}
	}
	b := promptBuilder{d: d}
	switch c.Provider {
	case Anthropic:
		b.anthropic()
	case OpenAIChat, Mistral:
		b.chat()
	case OpenAIResponses:
		b.responses()
	case Gemini:
		b.gemini()
	case PiMessages:
		b.pi()
	}
	b.p.Auto = b.p.Auto || c.hostMarksEnd(b.p)
	return b.p
}

// promptBuilder collects the blocks of one request's prompt, one method per
// provider shape; the root is node 0.
type promptBuilder struct {
	d *Doc
	p Prompt
}

// add appends node as a block with its role mark (nothing when the request
// lacks the node).
func (b *promptBuilder) add(node Node, mark string, output bool) {
	if node == NoNode {
		return
	}
	n := &b.d.Nodes[node]
	pb := PromptBlock{Node: node, Start: int(n.Start), End: int(n.End), Mark: mark, Output: output}
	pb.Cuts, pb.TTL = cacheControls(b.d, node)
	b.p.Blocks = append(b.p.Blocks, pb)
}

// tools adds each element of the root's array member key as a tool block.
func (b *promptBuilder) tools(key string) {
	for t := range b.d.Children(b.d.Get(0, key)) {
		b.add(t, "tool", false)
	}
}

// anthropic reads a Messages body: tools, system (a string or blocks), then
// each message, cut into its content blocks when content is an array (only
// the first block carries the message's mark; a message with an empty
// content array is one block).
func (b *promptBuilder) anthropic() {
	d := b.d
	b.tools("tools")
	if s := d.Get(0, "system"); d.Kind(s) == Array {
		for blk := range d.Children(s) {
			b.add(blk, "system", false)
		}
	} else {
		b.add(s, "system", false)
	}
	for m := range d.Children(d.Get(0, "messages")) {
		role := d.GetStr(m, "role")
		content := d.Get(m, "content")
		mark := "message " + role
		if d.Kind(content) != Array {
			b.add(m, mark, role == "assistant")
			continue
		}
		first := true
		for blk := range d.Children(content) {
			b.add(blk, mark, role == "assistant")
			if first {
				mark, first = "", false
			}
		}
		if first {
			b.add(m, mark, role == "assistant")
		}
	}
	b.p.Auto = d.Get(0, "cache_control") != NoNode
}

// chat reads a chat completions body (OpenAI or Mistral): tools and the
// older functions, then each message whole.
func (b *promptBuilder) chat() {
	d := b.d
	b.tools("tools")
	b.tools("functions")
	for m := range d.Children(d.Get(0, "messages")) {
		b.add(m, "message", d.GetStr(m, "role") == "assistant")
	}
	b.p.Keyed = d.Kind(d.Get(0, "prompt_cache_key")) == String
}

// responses reads a Responses body: tools, the instructions string, then the
// input items (or the input string as one user message).
func (b *promptBuilder) responses() {
	d := b.d
	b.tools("tools")
	if s := d.Get(0, "instructions"); d.Kind(s) == String {
		b.add(s, "system", false)
	}
	in := d.Get(0, "input")
	if d.Kind(in) == Array {
		for it := range d.Children(in) {
			b.add(it, "item", responsesOutput(d, it))
		}
	} else {
		b.add(in, "message user", false)
	}
	b.p.Keyed = d.Kind(d.Get(0, "prompt_cache_key")) == String
}

// gemini reads a generateContent body: each function declaration of the
// tools (a tool without declarations is one block), the system instruction
// in either spelling, then the contents.
func (b *promptBuilder) gemini() {
	d := b.d
	for t := range d.Children(d.Get(0, "tools")) {
		if decls := d.Get(t, "functionDeclarations"); d.Kind(decls) == Array {
			for f := range d.Children(decls) {
				b.add(f, "tool", false)
			}
			continue
		}
		b.add(t, "tool", false)
	}
	b.add(d.GetAny(0, "systemInstruction", "system_instruction"), "system", false)
	for m := range d.Children(d.Get(0, "contents")) {
		b.add(m, "content", d.GetStr(m, "role") == "model")
	}
}

// pi reads a Pi body: a list of messages or session entries, one message,
// or an LLM context (tools, systemPrompt, messages).
func (b *promptBuilder) pi() {
	d := b.d
	switch d.Kind(0) {
	case Array:
		for e := range d.Children(0) {
			b.add(e, "entry", piOutput(d, e))
		}
	case Object:
		if d.Get(0, "role") != NoNode {
			b.add(0, "entry", piOutput(d, 0))
			return
		}
		b.tools("tools")
		b.add(d.Get(0, "systemPrompt"), "system", false)
		for m := range d.Children(d.Get(0, "messages")) {
			b.add(m, "entry", piOutput(d, m))
		}
	}
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
