package transform

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// SearchToolName is the name of the search tool SO201 declares in place of
// the tools it defers.
const SearchToolName = "optimizer_tool_search"

// ToolDecl is one top-level tool declaration of a capture, in whichever
// shape its provider writes it.
type ToolDecl struct {
	Name string
	// Node is the declaration's node; Arr the array holding it (tools, or
	// a Gemini functionDeclarations array).
	Node capture.Node
	Arr  capture.Node
	// Desc and Params are the description string and parameter schema
	// nodes (capture.NoNode when absent).
	Desc   capture.Node
	Params capture.Node
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
func (t *ToolDecl) Bytes(d *capture.Doc) int {
	n := &d.Nodes[t.Node]
	return int(n.End - n.Start)
}

// ToolDecls lists the top-level tool declarations of c in body order. Pi
// message lists without a context object and captures without tools give
// none.
func ToolDecls(c *capture.Capture) []ToolDecl {
	d := c.Doc
	if d.Kind(0) != capture.Object {
		return nil
	}
	var out []ToolDecl
	tools := d.Get(0, "tools")
	switch c.Provider {
	case capture.Gemini:
		for _, t := range ToolElems(d, tools) {
			fds := d.GetAny(t, "functionDeclarations", "function_declarations")
			for _, fd := range ToolElems(d, fds) {
				if d.Kind(fd) != capture.Object {
					continue
				}
				td := ToolDecl{Name: d.GetStr(fd, "name"), Node: fd, Arr: fds, Desc: d.Get(fd, "description"),
					Params: d.GetAny(fd, "parametersJsonSchema", "parameters_json_schema", "parameters")}
				td.Function = td.Name != ""
				td.Search = td.Name == SearchToolName
				out = append(out, td)
			}
		}
		return out
	case capture.PiMessages:
		if d.Get(0, "messages") == capture.NoNode {
			return nil
		}
	}
	if d.Kind(tools) != capture.Array {
		return nil
	}
	for t := range d.Children(tools) {
		if d.Kind(t) != capture.Object {
			out = append(out, ToolDecl{Node: t, Arr: tools, Desc: capture.NoNode, Params: capture.NoNode})
			continue
		}
		td := ToolDecl{Node: t, Arr: tools, Desc: capture.NoNode, Params: capture.NoNode}
		typ := d.GetStr(t, "type")
		switch c.Provider {
		case capture.Anthropic:
			td.Name = d.GetStr(t, "name")
			td.Desc, td.Params = d.Get(t, "description"), d.Get(t, "input_schema")
			td.Function = td.Name != "" && td.Params != capture.NoNode && (typ == "" || typ == "custom")
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

// ToolElems returns the children of an array, or the node itself when a single
// object stands where an array is expected (Gemini accepts that).
func ToolElems(d *capture.Doc, i capture.Node) []capture.Node {
	switch d.Kind(i) {
	case capture.Array:
		out := make([]capture.Node, 0, d.Len(i))
		for c := range d.Children(i) {
			out = append(out, c)
		}
		return out
	case capture.Object:
		return []capture.Node{i}
	}
	return nil
}

// Presence says whether a request already declares a tool of skillopt's
// name, and whose declaration it is.
type Presence int

// The presences.
const (
	// Absent: no tool of that name.
	Absent Presence = iota
	// Ours: skillopt's own declaration, from an earlier pass.
	Ours
	// Foreign: a tool of the host that happens to have the name. A rule
	// that would declare the name does not apply: its text would point the
	// model at a tool that does something else.
	Foreign
)

// DeclaredAs reports whether c declares a tool named name, and whether it
// is skillopt's own: ours reports that for a description.
func DeclaredAs(c *capture.Capture, name string, ours func(desc string) bool) Presence {
	d := c.Doc
	for _, t := range ToolDecls(c) {
		if t.Name != name {
			continue
		}
		if d.Kind(t.Desc) == capture.String && ours(d.Str(t.Desc)) {
			return Ours
		}
		return Foreign
	}
	// Declarations ToolDecls does not read (a Pi context's are the host's
	// own): a name alone is enough to stay away from it.
	for _, n := range c.ToolNames() {
		if n == name {
			return Foreign
		}
	}
	return Absent
}

// Declare returns the edit that adds spec to the tools of c, in its
// provider's shape and where the provider's prompt cache still covers the
// whole tools array: on Anthropic, in front of the last tool that carries a
// cache_control breakpoint (a declaration after it would sit outside the
// cached prefix); elsewhere at the end.
func Declare(c *capture.Capture, spec capture.ToolSpec) (rules.Edit, error) {
	ins, err := c.ToolInsertion(spec)
	if err != nil {
		return rules.Edit{}, err
	}
	e := rules.Edit{Pointer: ins.Pointer, Append: ins.Append, Insert: ins.Insert, NewJSON: ins.JSON, Message: "declare " + spec.Name}
	if bp := lastToolBreakpoint(c); bp != capture.NoNode && ins.Append && ins.Pointer == "/tools" {
		e.Pointer, e.Append, e.Before = c.Doc.Pointer(bp), false, true
	}
	return e, nil
}

// lastToolBreakpoint returns the last element of an Anthropic tools array
// that carries cache_control, or capture.NoNode.
func lastToolBreakpoint(c *capture.Capture) capture.Node {
	if c.Provider != capture.Anthropic {
		return capture.NoNode
	}
	d := c.Doc
	last := capture.NoNode
	for t := range d.Children(d.Get(0, "tools")) {
		if d.Kind(d.Get(t, "cache_control")) == capture.Object {
			last = t
		}
	}
	return last
}
