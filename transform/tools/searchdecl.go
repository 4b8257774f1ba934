package tools

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// searchDescription is the description of optimizer_tool_search: what
// it does and, within budget characters, which tools it can load. Names of
// one server are listed once under their prefix ("mcp__github__: create_issue,
// list_issues"), so the model can still spell every exact name.
func searchDescription(deferred []string, budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, searchDescPrefix+"%d available). Query with keywords or an exact tool name; "+
		"results come in pages (pass the returned cursor for more) and every returned tool becomes callable in addition to the current ones.", len(deferred))
	if budget <= 0 || len(deferred) == 0 {
		return b.String()
	}
	b.WriteString(" Available:")
	used, prev := 0, ""
	for i, n := range deferred {
		prefix := toolServerPrefix(n)
		if !strings.HasSuffix(prefix, "__") && !strings.HasSuffix(prefix, ".") {
			prefix = "" // "web_: search" would be ambiguous
		}
		if prefix != prev && (i+1 >= len(deferred) || toolServerPrefix(deferred[i+1]) != prefix) {
			prefix = "" // a lone tool of its prefix is listed whole
		}
		item := n
		sep := ", "
		switch {
		case prefix != "" && prefix == prev:
			item = n[len(prefix):]
		case prefix != "":
			item = prefix + ": " + n[len(prefix):]
			if i > 0 {
				sep = "; "
			}
		case prev != "":
			sep = "; "
		}
		if i == 0 {
			sep = " "
		}
		if used+len(sep)+len(item) > budget {
			fmt.Fprintf(&b, " … and %d more", len(deferred)-i)
			break
		}
		b.WriteString(sep)
		b.WriteString(item)
		used += len(sep) + len(item)
		prev = prefix
	}
	b.WriteByte('.')
	return b.String()
}

// searchDescPrefix starts every description of skillopt's
// optimizer_tool_search; a tool of that name without it is the host's.
const searchDescPrefix = "Find and load tools that are not declared yet ("

func isSearchDesc(desc string) bool { return strings.HasPrefix(desc, searchDescPrefix) }

// searchParams is the parameter schema of optimizer_tool_search.
const searchParams = `{"type":"object","properties":{"query":{"type":"string","description":"Keywords describing the task, or a tool name"},"cursor":{"type":"string","description":"Cursor from the previous page of the same query"}},"required":["query"]}`

// geminiSearchParams is searchParams as a Gemini OpenAPI schema, for
// declarations that use "parameters" rather than "parametersJsonSchema".
const geminiSearchParams = `{"type":"OBJECT","properties":{"query":{"type":"STRING","description":"Keywords describing the task, or a tool name"},"cursor":{"type":"STRING","description":"Cursor from the previous page of the same query"}},"required":["query"]}`

// searchDecl renders optimizer_tool_search in the capture's shape; extra
// members (such as a cache_control moved from a removed tool) are added at
// the end of the declaration object.
func searchDecl(c *capture.Capture, decls []transform.ToolDecl, desc string, extra []byte) []byte {
	spec := capture.ToolSpec{Name: transform.SearchToolName, Description: desc, Parameters: []byte(searchParams)}
	var decl []byte
	if c.Provider == capture.Gemini && geminiUsesParameters(c.Doc, decls) {
		decl = []byte(`{"name":`)
		decl = capture.AppendQuote(decl, transform.SearchToolName)
		decl = append(decl, `,"description":`...)
		decl = capture.AppendQuote(decl, desc)
		decl = append(decl, `,"parameters":`...)
		decl = append(decl, geminiSearchParams...)
		decl = append(decl, '}')
	} else {
		decl = capture.RenderTool(c.Provider, spec)
	}
	if len(extra) > 0 {
		decl = append(decl[:len(decl)-1], ',')
		decl = append(decl, extra...)
		decl = append(decl, '}')
	}
	return decl
}

// geminiUsesParameters reports whether the capture's function declarations
// give OpenAPI "parameters" rather than "parametersJsonSchema".
func geminiUsesParameters(d *capture.Doc, decls []transform.ToolDecl) bool {
	for _, t := range decls {
		if t.Params != capture.NoNode {
			return d.Key(t.Params) == "parameters"
		}
	}
	return false
}

// deferEdits returns the edits of SO201: the kept declarations plus
// optimizer_tool_search, which lists the deferred names.
func (p *Plan) deferEdits(c *capture.Capture) ([]rules.Edit, error) {
	deferred := p.deferredSet()
	desc := searchDescription(p.Listed, p.settings.ListChars)
	search := searchDecl(c, p.decls, desc, transform.MovedCacheControl(c, p.decls, deferred))
	return transform.DeferEdits(c, p.decls, deferred, search)
}
