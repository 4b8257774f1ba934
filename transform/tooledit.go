package transform

import (
	"errors"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// MovedCacheControl returns the member `"cache_control":…` of the last
// deferred Anthropic declaration that carries a prompt-cache breakpoint
// (nil when none does): removing that declaration would move the end of
// the cached prefix, so the declaration that replaces the removed ones
// takes the breakpoint over.
func MovedCacheControl(c *capture.Capture, decls []ToolDecl, deferred map[string]bool) []byte {
	if c.Provider != capture.Anthropic {
		return nil
	}
	d := c.Doc
	var extra []byte
	for _, t := range decls {
		if cc := d.Get(t.Node, "cache_control"); cc != capture.NoNode && deferred[t.Name] {
			extra = append(capture.Quote("cache_control"), ':')
			extra = append(extra, d.Raw(cc)...)
		}
	}
	return extra
}

// DeferEdits returns the edit that replaces the capture's tool
// declarations by the ones not deferred (their exact original bytes, in
// order) plus search, one declaration rendered in the capture's shape. The
// search declaration goes last, or on Anthropic in front of the last kept
// tool that carries a cache_control breakpoint, so that the cached prefix
// still ends after the whole tools array.
func DeferEdits(c *capture.Capture, decls []ToolDecl, deferred map[string]bool, search []byte) ([]rules.Edit, error) {
	d := c.Doc
	if c.Provider == capture.Gemini {
		return geminiDeferEdits(c, deferred, search)
	}
	tools := d.Get(0, "tools")
	if d.Kind(tools) != capture.Array {
		return nil, errors.New("tools is not an array")
	}
	bp := lastToolBreakpoint(c)
	var parts [][]byte
	at := -1
	for _, t := range decls {
		if deferred[t.Name] {
			continue
		}
		if t.Node == bp {
			at = len(parts)
		}
		parts = append(parts, d.Raw(t.Node))
	}
	if at < 0 {
		parts = append(parts, search)
	} else {
		parts = append(parts[:at], append([][]byte{search}, parts[at:]...)...)
	}
	return []rules.Edit{{Pointer: d.Pointer(tools), NewJSON: joinLike(d, tools, parts), Message: "defer tools behind " + SearchToolName}}, nil
}

// geminiDeferEdits rebuilds the Gemini tools value: each functionDeclarations
// list keeps its undeferred declarations, the first one also receives the
// search declaration, and a tool object left with nothing is dropped.
// Built-in tools and other members stay byte-identical.
func geminiDeferEdits(c *capture.Capture, deferred map[string]bool, search []byte) ([]rules.Edit, error) {
	d := c.Doc
	tools := d.Get(0, "tools")
	var parts [][]byte
	added := false
	for _, t := range ToolElems(d, tools) {
		fds := d.GetAny(t, "functionDeclarations", "function_declarations")
		if fds == capture.NoNode {
			parts = append(parts, d.Raw(t))
			continue
		}
		var kept [][]byte
		for _, fd := range ToolElems(d, fds) {
			if !deferred[d.GetStr(fd, "name")] {
				kept = append(kept, d.Raw(fd))
			}
		}
		if !added {
			kept = append(kept, search)
			added = true
		}
		var list []byte
		switch {
		case d.Kind(fds) == capture.Array:
			list = joinLike(d, fds, kept)
		case len(kept) == 1 && string(kept[0]) == string(d.Raw(fds)):
			list = d.Raw(fds)
		default:
			list = joinLike(d, capture.NoNode, kept)
		}
		if len(kept) == 0 && d.Len(t) == 1 {
			continue // nothing left in this tool object
		}
		n := &d.Nodes[fds]
		obj := append([]byte{}, d.Src[d.Nodes[t].Start:n.Start]...)
		obj = append(obj, list...)
		obj = append(obj, d.Src[n.End:d.Nodes[t].End]...)
		parts = append(parts, obj)
	}
	if !added {
		return nil, errors.New("no functionDeclarations list to hold the search tool")
	}
	var value []byte
	if d.Kind(tools) == capture.Array {
		value = joinLike(d, tools, parts)
	} else if len(parts) == 1 {
		value = parts[0]
	} else {
		return nil, errors.New("tools is a single object")
	}
	return []rules.Edit{{Pointer: d.Pointer(tools), NewJSON: value, Message: "defer tools behind " + SearchToolName}}, nil
}

// joinLike renders parts as a JSON array written the way array arr is
// (its opening, separator and closing whitespace), compact when arr < 0 or
// has too few elements to show a style.
func joinLike(d *capture.Doc, arr capture.Node, parts [][]byte) []byte {
	open, sep, closing := "[", ",", "]"
	if arr != capture.NoNode {
		var first, second, last = capture.NoNode, capture.NoNode, capture.NoNode
		for e := range d.Children(arr) {
			switch {
			case first == capture.NoNode:
				first = e
			case second == capture.NoNode:
				second = e
			}
			last = e
		}
		n := &d.Nodes[arr]
		if first != capture.NoNode {
			open = string(d.Src[n.Start:d.Nodes[first].Start])
			closing = string(d.Src[d.Nodes[last].End:n.End])
		}
		if second != capture.NoNode {
			sep = string(d.Src[d.Nodes[first].End:d.Nodes[second].Start])
		} else if len(open) > 1 {
			sep = "," + open[1:] // one element: indent the next like it
		}
	}
	if len(parts) == 0 {
		return []byte("[]")
	}
	size := len(open) + len(closing)
	for _, p := range parts {
		size += len(p) + len(sep)
	}
	out := make([]byte, 0, size)
	out = append(out, open...)
	for i, p := range parts {
		if i > 0 {
			out = append(out, sep...)
		}
		out = append(out, p...)
	}
	return append(out, closing...)
}

// NativeEdits marks every deferred declaration defer_loading: true and adds
// the provider's tool search tool (Anthropic Messages, OpenAI Responses;
// on Anthropic the variant anthropicSearch names, "bm25" or "regex").
// Kept declarations are untouched; a deferred Anthropic declaration that
// carries a cache breakpoint hands it to the search tool, since a deferred
// definition is not part of the cached prompt.
func NativeEdits(c *capture.Capture, decls []ToolDecl, deferred map[string]bool, anthropicSearch string) ([]rules.Edit, error) {
	d := c.Doc
	tools := d.Get(0, "tools")
	if d.Kind(tools) != capture.Array {
		return nil, errors.New("tools is not an array")
	}
	var edits []rules.Edit
	var cache []byte
	for _, t := range decls {
		if !deferred[t.Name] {
			continue
		}
		if cc := d.Get(t.Node, "cache_control"); cc != capture.NoNode && c.Provider == capture.Anthropic {
			cache = d.Raw(cc)
			decl := withoutMember(d, t.Node, cc)
			decl = append(decl[:len(decl)-1], `,"defer_loading":true}`...)
			edits = append(edits, rules.Edit{Pointer: d.Pointer(t.Node), NewJSON: decl, Message: "defer " + t.Name})
			continue
		}
		edits = append(edits, rules.Edit{Pointer: d.Pointer(t.Node), Insert: "defer_loading", NewJSON: []byte("true"), Message: "defer " + t.Name})
	}
	var search []byte
	switch c.Provider {
	case capture.Anthropic:
		kind := anthropicSearch
		search = []byte(`{"type":"tool_search_tool_` + kind + `_20251119","name":"tool_search_tool_` + kind + `"`)
		if cache != nil {
			search = append(search, `,"cache_control":`...)
			search = append(search, cache...)
		}
		search = append(search, '}')
	case capture.OpenAIResponses:
		search = []byte(`{"type":"tool_search"}`)
	default:
		return nil, errors.New("no native tool search for " + string(c.Provider))
	}
	edits = append(edits, rules.Edit{Pointer: d.Pointer(tools), Append: true, NewJSON: search, Message: "add the provider's tool search"})
	return edits, nil
}

// withoutMember returns the bytes of object obj without member value node m
// (and its key and one adjoining comma).
func withoutMember(d *capture.Doc, obj capture.Node, m capture.Node) []byte {
	var prev, next = capture.NoNode, capture.NoNode
	seen := false
	for e := range d.Children(obj) {
		switch {
		case e == m:
			seen = true
		case !seen:
			prev = e
		case next == capture.NoNode:
			next = e
		}
	}
	src := d.Src
	o, mm := &d.Nodes[obj], &d.Nodes[m]
	keyStart := func(i capture.Node) uint32 { s, _ := d.KeySpan(i); return uint32(s) }
	var cutFrom, cutTo uint32
	switch {
	case prev != capture.NoNode: // drop ",<key>:<value>" after the previous member
		cutFrom, cutTo = d.Nodes[prev].End, mm.End
	case next != capture.NoNode: // first member: drop "<key>:<value>," up to the next key
		cutFrom, cutTo = keyStart(m), keyStart(next)
	default: // the only member
		cutFrom, cutTo = keyStart(m), mm.End
	}
	out := append([]byte{}, src[o.Start:cutFrom]...)
	return append(out, src[cutTo:o.End]...)
}
