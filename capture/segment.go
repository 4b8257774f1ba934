package capture

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"io"
	"slices"
	"strings"
	"sync/atomic"
)

// Section is the kind of content a segment holds; measure reports bytes per
// section.
type Section string

// The section kinds.
const (
	SecSystem      Section = "system"
	SecCatalog     Section = "skill-catalog"
	SecTools       Section = "tools"
	SecHuman       Section = "human"
	SecAssistant   Section = "assistant"
	SecThinking    Section = "thinking"
	SecToolCalls   Section = "tool-calls"
	SecToolResults Section = "tool-results"
	SecMedia       Section = "media"
	SecOther       Section = "other"
)

// Sections lists every section kind in report order.
var Sections = []Section{SecSystem, SecCatalog, SecTools, SecHuman, SecAssistant, SecThinking, SecToolCalls, SecToolResults, SecMedia, SecOther}

// Provenance says who authored a segment's content. Only ProvHuman text is
// genuine human input that may drive a query or receive an overlay.
type Provenance string

// The provenances.
const (
	ProvHuman     Provenance = "human"     // typed by the person
	ProvSystem    Provenance = "system"    // system or developer instructions
	ProvInjected  Provenance = "injected"  // user-role text an agent or extension inserted
	ProvAssistant Provenance = "assistant" // model output replayed as history
	ProvTool      Provenance = "tool"      // tool output or tool schema
	ProvMedia     Provenance = "media"     // images, documents, audio
	ProvOther     Provenance = "other"
)

// Segment is one contiguous byte range of a body with a section kind and a
// provenance. Segments of a body never overlap; bytes outside every segment
// (keys, punctuation, parameters) belong to SecOther.
type Segment struct {
	Kind       Section
	Prov       Provenance
	Node       Node // the node whose subtree holds the segment
	Start, End int  // byte span in the body; may be a part of a string node
	Msg        int  // ordinal of the message the segment belongs to, -1 if none
	Name       string
	// Source names where injected text came from (e.g. a Pi custom type or
	// a wrapper tag), when known.
	Source string
}

// Partial reports whether the segment covers only part of its node.
func (s *Segment) Partial(d *Doc) bool {
	n := &d.Nodes[s.Node]
	return s.Start != int(n.Start) || s.End != int(n.End)
}

// Bytes returns the segment's bytes.
func (s *Segment) Bytes(d *Doc) []byte { return d.Src[s.Start:s.End] }

// Segments returns the capture's segments in body order, computing them once.
func (c *Capture) Segments() []Segment {
	if c.segs == nil {
		c.segs = BuildSegments(c.Doc, c.Provider)
	}
	return c.segs
}

// BuildSegments labels the body of a given provider shape.
func BuildSegments(d *Doc, p Provider) []Segment {
	a := adapter{d: d}
	switch p {
	case Anthropic:
		a.anthropic()
	case OpenAIChat, Mistral:
		a.chat()
	case OpenAIResponses:
		a.responses()
	case Gemini:
		a.gemini()
	case PiMessages:
		a.pi()
	}
	a.splitCatalogs()
	// A list is in body order when the body's members come in the order
	// its adapter visits them; otherwise it is a few sorted runs.
	byStart := func(x, y Segment) int { return cmp.Compare(x.Start, y.Start) }
	if !slices.IsSortedFunc(a.segs, byStart) {
		a.segs = sortedByStart(a.segs)
	}
	if a.segs == nil {
		a.segs = []Segment{}
	}
	return a.segs
}

// sortedByStart returns segs in a new list, stably sorted by start. The
// adapters list a request's parts in their own order (system, tools,
// messages), each part in body order: a few sorted runs, merged here by
// taking the earliest head each time, ties to the earlier run. Many runs
// are sorted by position instead. Either way each segment moves once: a
// segment is large, and holds pointers the collector must see moved.
func sortedByStart(segs []Segment) []Segment {
	var heads []int // the start of each run
	for i := range segs {
		if i == 0 || segs[i].Start < segs[i-1].Start {
			heads = append(heads, i)
		}
	}
	out := make([]Segment, 0, len(segs))
	if len(heads) > 8 {
		order := make([]int32, len(segs))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(x, y int32) int { return cmp.Compare(segs[x].Start, segs[y].Start) })
		for _, k := range order {
			out = append(out, segs[k])
		}
		return out
	}
	ends := make([]int, len(heads))
	for r := range heads {
		ends[r] = len(segs)
		if r+1 < len(heads) {
			ends[r] = heads[r+1]
		}
	}
	for len(out) < len(segs) {
		best := -1
		for r, h := range heads {
			if h < ends[r] && (best < 0 || segs[h].Start < segs[heads[best]].Start) {
				best = r
			}
		}
		out = append(out, segs[heads[best]])
		heads[best]++
	}
	return out
}

type adapter struct {
	d    *Doc
	segs []Segment
	msg  int
}

func (a *adapter) add(kind Section, prov Provenance, node Node, name string) {
	if node == NoNode {
		return
	}
	n := &a.d.Nodes[node]
	a.segs = append(a.segs, Segment{Kind: kind, Prov: prov, Node: node, Start: int(n.Start), End: int(n.End), Msg: a.msg, Name: name})
}

// message adds the segments of one message. Each block is labelled by
// label; when every block gets the same label the whole message object
// becomes one segment, so wrapper keys are attributed to its content.
func (a *adapter) message(m Node, blocks []Node, label func(b Node) (Section, Provenance, string)) {
	start := len(a.segs)
	for _, b := range blocks {
		k, p, name := label(b)
		if k == "" {
			continue
		}
		a.add(k, p, b, name)
		if p == ProvInjected {
			// For injected text the label's third value names its source.
			last := &a.segs[len(a.segs)-1]
			last.Source, last.Name = name, ""
		}
	}
	added := a.segs[start:]
	if len(added) == 0 || len(added) != len(blocks) {
		return
	}
	for _, s := range added[1:] {
		if s.Kind != added[0].Kind || s.Prov != added[0].Prov {
			return
		}
	}
	whole := added[0]
	whole.Node = m
	n := &a.d.Nodes[m]
	whole.Start, whole.End = int(n.Start), int(n.End)
	if len(added) > 1 {
		whole.Name = ""
	}
	a.segs = append(a.segs[:start], whole)
}

// elems returns the children of an array node, or the node itself when it is
// a single object given where an array is expected (Gemini tolerates that).
func (a *adapter) elems(i Node) []Node {
	switch a.d.Kind(i) {
	case Array:
		var out []Node
		for c := range a.d.Children(i) {
			out = append(out, c)
		}
		return out
	case None:
		return nil
	}
	return []Node{i}
}

// ---- human vs injected user text ----------------------------------------

// injectedMarkers are prefixes (after leading whitespace) of user-role text
// that an agent host inserted rather than a person typed.
var injectedMarkers = []struct{ prefix, source string }{
	{"<system-reminder>", "system-reminder"},
	{"<command-name>", "command-name"},
	{"<command-message>", "command-message"},
	{"<local-command-stdout>", "local-command-stdout"},
	{"<environment_context>", "environment_context"},
	{"<user_instructions>", "user_instructions"},
	{"# AGENTS.md instructions for", "agents-md"},
	{"The following is a summary of a branch that this conversation came back from:", "pi-branch-summary"},
	{"The conversation history before this point was compacted into the following summary:", "pi-compaction-summary"},
	{"Ran `", "pi-bash-execution"},
}

// userTextProv classifies the string node s of a user-role message.
func (a *adapter) userTextProv(s Node) (Provenance, string) {
	if a.d.Kind(s) != String {
		return ProvHuman, ""
	}
	text := strings.TrimLeft(a.d.StrPrefix(s, 512), " \t\r\n")
	for _, m := range injectedMarkers {
		if strings.HasPrefix(text, m.prefix) {
			return ProvInjected, m.source
		}
	}
	return ProvHuman, ""
}

// userText labels user-role text: human, or injected context (counted as
// system, since a person did not type it).
func (a *adapter) userText(s Node) (Section, Provenance, string) {
	if p, src := a.userTextProv(s); p == ProvInjected {
		return SecSystem, ProvInjected, src
	}
	return SecHuman, ProvHuman, ""
}

// ---- Anthropic Messages --------------------------------------------------

func (a *adapter) anthropic() {
	d := a.d
	a.msg = -1
	if s := d.Get(0, "system"); s != NoNode {
		if d.Kind(s) == Array {
			for _, b := range a.elems(s) {
				a.add(SecSystem, ProvSystem, b, "")
			}
		} else {
			a.add(SecSystem, ProvSystem, s, "")
		}
	}
	a.tools(d.Get(0, "tools"), "name")
	a.anthropicMessages(d.Get(0, "messages"))
}

func (a *adapter) anthropicMessages(msgs Node) {
	d := a.d
	for i, m := range a.elems(msgs) {
		a.msg = i
		role := d.GetStr(m, "role")
		content := d.Get(m, "content")
		if d.Kind(content) == String {
			a.message(m, []Node{content}, func(b Node) (Section, Provenance, string) {
				switch role {
				case "user":
					return a.userText(b)
				case "assistant":
					return SecAssistant, ProvAssistant, ""
				case "system":
					return SecSystem, ProvSystem, ""
				}
				return SecOther, ProvOther, ""
			})
			continue
		}
		a.message(m, a.elems(content), func(b Node) (Section, Provenance, string) {
			t := d.GetStr(b, "type")
			switch t {
			case "text":
				switch role {
				case "user":
					return a.userText(d.Get(b, "text"))
				case "assistant":
					return SecAssistant, ProvAssistant, ""
				}
				return SecSystem, ProvSystem, ""
			case "image", "document", "container_upload":
				return SecMedia, ProvMedia, ""
			case "thinking", "redacted_thinking":
				return SecThinking, ProvAssistant, ""
			case "tool_use", "server_tool_use", "mcp_tool_use":
				return SecToolCalls, ProvAssistant, d.GetStr(b, "name")
			case "tool_result", "mcp_tool_result", "search_result":
				return SecToolResults, ProvTool, ""
			case "mid_conv_system":
				return SecSystem, ProvSystem, ""
			case "tool_addition", "tool_reference":
				return SecTools, ProvSystem, ""
			}
			if strings.HasSuffix(t, "_tool_result") {
				return SecToolResults, ProvTool, ""
			}
			return SecOther, ProvOther, ""
		})
	}
}

// tools adds one segment per element of a tools array; nameKey locates the
// tool's name ("name", or "function.name" style via nested lookups).
func (a *adapter) tools(tools Node, nameKeys ...string) {
	a.msg = -1
	for _, t := range a.elems(tools) {
		a.add(SecTools, ProvTool, t, a.toolName(t, nameKeys...))
	}
}

func (a *adapter) toolName(t Node, nameKeys ...string) string {
	d := a.d
	for _, k := range nameKeys {
		if n := d.Get(t, k); n != NoNode && d.Kind(n) == String {
			return d.Str(n)
		}
	}
	for _, wrap := range []string{"function", "custom"} {
		if n := d.Get(d.Get(t, wrap), "name"); n != NoNode {
			return d.Str(n)
		}
	}
	if typ := d.GetStr(t, "type"); typ != "" {
		return typ
	}
	return ""
}

// ---- OpenAI Chat Completions and Mistral ---------------------------------

func (a *adapter) chat() {
	d := a.d
	a.tools(d.Get(0, "tools"))
	a.tools(d.Get(0, "functions"), "name")
	for i, m := range a.elems(d.Get(0, "messages")) {
		a.msg = i
		role := d.GetStr(m, "role")
		var blocks []Node
		content := d.Get(m, "content")
		if d.Kind(content) == Array {
			blocks = a.elems(content)
		} else if d.Kind(content) == String {
			blocks = []Node{content}
		}
		for _, k := range []string{"reasoning_content", "reasoning", "reasoning_details", "thinking"} {
			if r := d.Get(m, k); r != NoNode && d.Kind(r) != Null {
				blocks = append(blocks, r)
			}
		}
		toolCalls := d.Get(m, "tool_calls")
		blocks = append(blocks, a.elems(toolCalls)...)
		if fc := d.Get(m, "function_call"); fc != NoNode && d.Kind(fc) == Object {
			blocks = append(blocks, fc)
		}
		a.message(m, blocks, func(b Node) (Section, Provenance, string) {
			if d.IsChild(toolCalls, b) || d.Key(b) == "function_call" {
				return SecToolCalls, ProvAssistant, a.toolName(b)
			}
			switch d.Key(b) {
			case "reasoning_content", "reasoning", "reasoning_details", "thinking":
				return SecThinking, ProvAssistant, ""
			}
			switch role {
			case "system", "developer":
				return SecSystem, ProvSystem, ""
			case "tool", "function":
				return SecToolResults, ProvTool, ""
			}
			t := d.GetStr(b, "type")
			switch t {
			case "image_url", "input_audio", "file", "document_url", "audio":
				return SecMedia, ProvMedia, ""
			case "thinking":
				return SecThinking, ProvAssistant, ""
			}
			text := b
			if d.Kind(b) == Object {
				text = d.Get(b, "text")
			}
			switch role {
			case "user":
				if text == NoNode {
					return SecOther, ProvOther, ""
				}
				return a.userText(text)
			case "assistant":
				return SecAssistant, ProvAssistant, ""
			}
			return SecOther, ProvOther, ""
		})
	}
}

// ---- OpenAI Responses ----------------------------------------------------

func (a *adapter) responses() {
	d := a.d
	a.msg = -1
	if ins := d.Get(0, "instructions"); ins != NoNode && d.Kind(ins) == String {
		a.add(SecSystem, ProvSystem, ins, "")
	}
	a.tools(d.Get(0, "tools"), "name")
	input := d.Get(0, "input")
	if d.Kind(input) == String {
		a.msg = 0
		k, p, _ := a.userText(input)
		a.add(k, p, input, "")
		return
	}
	for i, it := range a.elems(input) {
		a.msg = i
		t := d.GetStr(it, "type")
		role := d.GetStr(it, "role")
		switch {
		case t == "" || t == "message":
			content := d.Get(it, "content")
			blocks := []Node{content}
			if d.Kind(content) == Array {
				blocks = a.elems(content)
			}
			a.message(it, blocks, func(b Node) (Section, Provenance, string) {
				switch role {
				case "system", "developer":
					return SecSystem, ProvSystem, ""
				case "assistant":
					if d.StrIs(d.Get(b, "type"), "reasoning_text") {
						return SecThinking, ProvAssistant, ""
					}
					return SecAssistant, ProvAssistant, ""
				}
				bt := d.GetStr(b, "type")
				switch bt {
				case "input_image", "input_file", "input_audio":
					return SecMedia, ProvMedia, ""
				}
				text := b
				if d.Kind(b) == Object {
					text = d.Get(b, "text")
				}
				if role == "user" && text != NoNode {
					return a.userText(text)
				}
				return SecOther, ProvOther, ""
			})
		case t == "reasoning":
			a.add(SecThinking, ProvAssistant, it, "")
		case t == "additional_tools":
			a.add(SecTools, ProvSystem, it, "")
		case strings.HasSuffix(t, "_output") || t == "tool_search_output" || t == "mcp_list_tools" || t == "mcp_approval_response":
			a.add(SecToolResults, ProvTool, it, d.GetStr(it, "name"))
		case strings.HasSuffix(t, "_call") || t == "mcp_approval_request":
			a.add(SecToolCalls, ProvAssistant, it, d.GetStr(it, "name"))
		default:
			a.add(SecOther, ProvOther, it, "")
		}
	}
}

// ---- Gemini --------------------------------------------------------------

func (a *adapter) gemini() {
	d := a.d
	a.msg = -1
	if si := d.GetAny(0, "systemInstruction", "system_instruction"); si != NoNode {
		a.add(SecSystem, ProvSystem, si, "")
	}
	for _, t := range a.elems(d.Get(0, "tools")) {
		decls := d.GetAny(t, "functionDeclarations", "function_declarations")
		if decls == NoNode {
			a.add(SecTools, ProvTool, t, a.geminiToolKey(t))
			continue
		}
		if d.Len(t) > 1 {
			// Built-in tools beside the declarations stay with the wrapper.
			for m := range d.Children(t) {
				if m != decls {
					a.add(SecTools, ProvTool, m, d.Key(m))
				}
			}
		}
		for _, fd := range a.elems(decls) {
			a.add(SecTools, ProvTool, fd, d.GetStr(fd, "name"))
		}
	}
	for i, c := range a.elems(d.Get(0, "contents")) {
		a.msg = i
		role := d.GetStr(c, "role")
		parts := a.elems(d.Get(c, "parts"))
		a.message(c, parts, func(p Node) (Section, Provenance, string) {
			switch {
			case d.GetAny(p, "functionCall", "function_call") != NoNode:
				return SecToolCalls, ProvAssistant, d.GetStr(d.GetAny(p, "functionCall", "function_call"), "name")
			case d.GetAny(p, "executableCode", "executable_code") != NoNode:
				return SecToolCalls, ProvAssistant, "code_execution"
			case d.GetAny(p, "functionResponse", "function_response", "codeExecutionResult", "code_execution_result", "toolResponse", "tool_response") != NoNode:
				return SecToolResults, ProvTool, d.GetStr(d.GetAny(p, "functionResponse", "function_response"), "name")
			case d.GetAny(p, "toolCall", "tool_call") != NoNode:
				return SecToolCalls, ProvAssistant, ""
			case d.GetAny(p, "inlineData", "inline_data", "fileData", "file_data") != NoNode:
				return SecMedia, ProvMedia, ""
			}
			text := d.Get(p, "text")
			if d.Kind(p) == String {
				text = p
			}
			if th := d.Get(p, "thought"); d.Kind(th) == True {
				return SecThinking, ProvAssistant, ""
			}
			if text == NoNode {
				return SecOther, ProvOther, ""
			}
			if role == "model" {
				return SecAssistant, ProvAssistant, ""
			}
			return a.userText(text)
		})
	}
}

func (a *adapter) geminiToolKey(t Node) string {
	for m := range a.d.Children(t) {
		return a.d.Key(m)
	}
	return ""
}

// ---- Pi messages, contexts and sessions ----------------------------------

func (a *adapter) pi() {
	d := a.d
	a.msg = -1
	root := Node(0)
	switch d.Kind(root) {
	case Array:
		a.piMessages(a.elems(root))
	case Object:
		if d.Get(root, "role") != NoNode {
			a.piMessages([]Node{root})
			return
		}
		if sp := d.Get(root, "systemPrompt"); sp != NoNode {
			a.add(SecSystem, ProvSystem, sp, "")
		}
		a.tools(d.Get(root, "tools"), "name")
		a.piMessages(a.elems(d.Get(root, "messages")))
	}
}

func (a *adapter) piMessages(msgs []Node) {
	d := a.d
	for i, m := range msgs {
		a.msg = i
		if t := d.GetStr(m, "type"); t != "" && d.Get(m, "role") == NoNode {
			// A session entry.
			switch t {
			case "message":
				a.piMessage(d.Get(m, "message"))
			case "custom_message":
				a.addSourced(SecSystem, ProvInjected, m, d.GetStr(m, "customType"))
			case "branch_summary", "compaction":
				a.addSourced(SecSystem, ProvInjected, m, "pi-"+t)
			default:
				a.add(SecOther, ProvOther, m, "")
			}
			continue
		}
		a.piMessage(m)
	}
}

func (a *adapter) addSourced(kind Section, prov Provenance, node Node, source string) {
	a.add(kind, prov, node, "")
	if len(a.segs) > 0 && node != NoNode {
		a.segs[len(a.segs)-1].Source = source
	}
}

func (a *adapter) piMessage(m Node) {
	d := a.d
	if m == NoNode {
		return
	}
	role := d.GetStr(m, "role")
	switch role {
	case "toolResult":
		a.add(SecToolResults, ProvTool, m, d.GetStr(m, "toolName"))
		return
	case "bashExecution":
		a.addSourced(SecToolResults, ProvInjected, m, "pi-bash-execution")
		return
	case "custom", "hookMessage":
		a.addSourced(SecSystem, ProvInjected, m, d.GetStr(m, "customType"))
		return
	case "branchSummary", "compactionSummary":
		a.addSourced(SecSystem, ProvInjected, m, "pi-"+role)
		return
	case "user", "assistant":
	default:
		a.add(SecOther, ProvOther, m, "")
		return
	}
	content := d.Get(m, "content")
	blocks := []Node{content}
	if d.Kind(content) == Array {
		blocks = a.elems(content)
	}
	a.message(m, blocks, func(b Node) (Section, Provenance, string) {
		switch d.GetStr(b, "type") {
		case "image":
			return SecMedia, ProvMedia, ""
		case "thinking":
			return SecThinking, ProvAssistant, ""
		case "toolCall":
			return SecToolCalls, ProvAssistant, d.GetStr(b, "name")
		}
		if role == "assistant" {
			return SecAssistant, ProvAssistant, ""
		}
		text := b
		if d.Kind(b) == Object {
			text = d.Get(b, "text")
		}
		if text == NoNode {
			return SecOther, ProvOther, ""
		}
		return a.userText(text)
	})
}

// StablePrefix returns the bytes that stay the same from request to request
// when nothing but the conversation changes: system and developer
// instructions, the skill catalog and the tool declarations, in body order.
func (c *Capture) StablePrefix() []byte {
	var b bytes.Buffer
	c.WriteStablePrefix(&b)
	return b.Bytes()
}

// WriteStablePrefix writes the stable prefix to w (a hash, typically)
// without assembling it, and returns its length.
func (c *Capture) WriteStablePrefix(w io.Writer) int {
	n := 0
	for _, s := range c.Segments() {
		switch {
		case s.Kind == SecCatalog, s.Kind == SecTools && s.Msg < 0, s.Kind == SecSystem && s.Prov == ProvSystem:
			m, _ := w.Write(s.Bytes(c.Doc))
			n += m
		}
	}
	return n
}

// SystemPrefix returns the system and developer text and the skill catalog
// (no tool declarations), in body order.
func (c *Capture) SystemPrefix() []byte {
	var out []byte
	for _, s := range c.Segments() {
		if s.Kind == SecCatalog || s.Kind == SecSystem && s.Prov == ProvSystem {
			out = append(out, s.Bytes(c.Doc)...)
		}
	}
	return out
}

// CatalogBytes returns the bytes of every native skill catalog, in order.
func (c *Capture) CatalogBytes() []byte {
	var out []byte
	c.WriteCatalog(func(b []byte) { out = append(out, b...) })
	return out
}

type catalogSum struct {
	sum [16]byte
	ok  bool
}

// catalogSeeds key CatalogDigest: drawn at start-up, so that catalogs cannot
// be crafted to collide.
var catalogSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// CatalogDigest identifies the capture's native skill catalogs within this
// process: 128 bits of keyed hash over each catalog segment's length and raw
// bytes. Two captures of one process have the same digest when their
// catalogs are byte for byte the same. ok is false when the capture has no
// catalog. It is computed once per capture and is safe for concurrent use.
func (c *Capture) CatalogDigest() (sum [16]byte, ok bool) {
	if cs := c.catalogSum.Load(); cs != nil {
		return cs.sum, cs.ok
	}
	var parts [][]byte
	for _, s := range c.Segments() {
		if s.Kind == SecCatalog {
			parts = append(parts, s.Bytes(c.Doc))
		}
	}
	cs := lastCatalog.digest(parts)
	c.catalogSum.Store(cs)
	return cs.sum, cs.ok
}

// digestCatalog hashes the catalog segments parts. Both hashes read one
// chunk after the other, so each chunk is read from memory once.
func digestCatalog(parts [][]byte) *catalogSum {
	var h [2]maphash.Hash
	for i := range h {
		h[i].SetSeed(catalogSeeds[i])
	}
	var n [8]byte
	cs := &catalogSum{ok: len(parts) > 0}
	for _, b := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		for i := range h {
			h[i].Write(n[:])
		}
		for len(b) > 0 {
			chunk := b[:min(len(b), digestChunk)]
			for i := range h {
				h[i].Write(chunk)
			}
			b = b[len(chunk):]
		}
	}
	if cs.ok {
		binary.LittleEndian.PutUint64(cs.sum[:8], h[0].Sum64())
		binary.LittleEndian.PutUint64(cs.sum[8:], h[1].Sum64())
	}
	return cs
}

// digestChunk is how much of a catalog both hashes read in turn: small
// enough to stay in the processor's cache between them.
const digestChunk = 32 << 10

// lastCatalog is the latest catalog digested. A session sends one catalog
// on every request, and comparing the bytes with a copy of the last ones is
// exact and cheaper than hashing them again; but copying a catalog costs
// more than hashing it, so the copy is made only once a catalog has come
// twice (same digest), never for a capture read alone or for a directory
// of different catalogs.
var lastCatalog catalogMemo

type catalogMemo struct {
	last atomic.Pointer[memoEntry]
}

// memoEntry is immutable once published.
type memoEntry struct {
	parts [][]byte // copies; nil until the catalog has come twice
	sum   *catalogSum
}

// digest returns the digest of parts, from the memo when they are the
// last catalog's bytes.
func (m *catalogMemo) digest(parts [][]byte) *catalogSum {
	if len(parts) == 0 {
		return &catalogSum{}
	}
	e := m.last.Load()
	if e != nil && e.parts != nil && equalParts(e.parts, parts) {
		return e.sum
	}
	cs := digestCatalog(parts)
	switch {
	case e != nil && e.sum.sum == cs.sum && e.parts == nil:
		// The second time: worth a copy to compare the next ones with.
		cp := make([][]byte, len(parts))
		for i, b := range parts {
			cp[i] = bytes.Clone(b)
		}
		m.last.Store(&memoEntry{parts: cp, sum: cs})
	case e == nil || e.sum.sum != cs.sum:
		m.last.Store(&memoEntry{sum: cs})
	}
	return cs
}

func equalParts(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// WriteCatalog passes the raw bytes of each skill-catalog segment to w, in
// order, without copying them.
func (c *Capture) WriteCatalog(w func([]byte)) {
	for _, s := range c.Segments() {
		if s.Kind == SecCatalog {
			w(s.Bytes(c.Doc))
		}
	}
}
