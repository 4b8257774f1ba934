package transform

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
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
		if d.Get(0, "messages") < 0 {
			return nil
		}
	}
	if d.Kind(tools) != capture.Array {
		return nil
	}
	for t := range d.Children(tools) {
		if d.Kind(t) != capture.Object {
			out = append(out, ToolDecl{Node: t, Arr: tools, Desc: -1, Params: -1})
			continue
		}
		td := ToolDecl{Node: t, Arr: tools, Desc: -1, Params: -1}
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

// ToolElems returns the children of an array, or the node itself when a single
// object stands where an array is expected (Gemini accepts that).
func ToolElems(d *capture.Doc, i int) []int {
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
