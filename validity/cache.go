package validity

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// CacheBreakpoints checks Anthropic prompt-cache breakpoints.
var CacheBreakpoints = &rules.Rule{
	ID:       "SO506",
	Title:    "At most four cache breakpoints, longer lifetimes first",
	Why:      "Anthropic rejects a request with too many cache_control breakpoints or with lifetimes out of order, and transforms that add breakpoints can cause both.",
	Since:    rules.FirstVersion,
	Name:     "request.cache-breakpoints",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Anthropic requests carry at most four cache_control breakpoints, longer lifetimes first. " +
		"Breakpoints are counted in prefix order (tools, system, messages, including blocks nested in tool results), " +
		"with the top-level cache_control of automatic caching taking one slot; " +
		"a breakpoint with a 1-hour ttl may not come after one with the default 5 minutes. Anthropic answers both with HTTP 400.",
	Run: runCacheBreakpoints,
}

// maxBreakpoints is Anthropic's limit on cache_control blocks per request.
const maxBreakpoints = 4

func runCacheBreakpoints(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	var marks []capture.Node // cache_control nodes in prefix order
	for _, key := range []string{"tools", "system", "messages"} {
		for i, parent := range d.Walk(d.Get(0, key)) {
			if d.IsMember(i) && d.Kind(i) == capture.Object && d.Key(i) == "cache_control" && d.Kind(parent) == capture.Object {
				marks = append(marks, i)
			}
		}
	}
	slots := len(marks)
	if top := d.Get(0, "cache_control"); d.Kind(top) == capture.Object {
		slots++
	}
	if slots > maxBreakpoints {
		extra := marks[max(0, len(marks)-(slots-maxBreakpoints))]
		p.Reportf(d.Pointer(extra), "%d cache_control breakpoints, at most %d are allowed", slots, maxBreakpoints)
	}
	sawShort := capture.NoNode
	for _, m := range marks {
		ttl := strings.TrimSpace(d.GetStr(m, "ttl"))
		switch ttl {
		case "", "5m":
			if sawShort == capture.NoNode {
				sawShort = m
			}
		case "1h":
			if sawShort != capture.NoNode {
				p.Reportf(d.Pointer(m), "a 1h cache breakpoint comes after the 5m one at %s; longer lifetimes must come first", d.Pointer(sawShort))
			}
		}
	}
	return nil
}

// DeferredTools checks deferred tool loading.
var DeferredTools = &rules.Rule{
	ID:       "SO507",
	Title:    "Deferred tools have a search the model can call",
	Why:      "If every tool is deferred, or the search tool itself is, the model has nothing to call to load the rest.",
	Since:    rules.FirstVersion,
	Name:     "request.deferred-tools",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Deferred tools need a search the model can call: a tool search tool that is not deferred itself, or a tool of the client's. " +
		"Tools with defer_loading (Anthropic, OpenAI Responses) are found through a server tool search tool (tool_search_tool_* on Anthropic, tool_search on Responses) " +
		"or through a client-side search, an ordinary tool whose results reference the deferred ones. " +
		"So the server search tool itself is never deferred, and not every tool of a request may be deferred: the model would have nothing to call.",
	Run: runDeferredTools,
}

func runDeferredTools(p *rules.Pass) error {
	var isSearch func(d *capture.Doc, t capture.Node) bool
	switch p.Capture.Provider {
	case capture.Anthropic:
		isSearch = func(d *capture.Doc, t capture.Node) bool {
			return strings.HasPrefix(d.GetStr(t, "type"), "tool_search_tool_")
		}
	case capture.OpenAIResponses:
		isSearch = func(d *capture.Doc, t capture.Node) bool { return d.StrIs(d.Get(t, "type"), "tool_search") }
	default:
		return nil
	}
	d := p.Capture.Doc
	tools := elems(d, d.Get(0, "tools"))
	var deferred []capture.Node
	search := capture.NoNode
	for _, t := range tools {
		dl := d.Kind(d.Get(t, "defer_loading")) == capture.True
		if isSearch(d, t) {
			if search == capture.NoNode {
				search = t
			}
			if dl {
				p.Reportf(d.Pointer(d.Get(t, "defer_loading")), "the tool search tool itself may not be deferred")
			}
			continue
		}
		if dl {
			deferred = append(deferred, t)
		}
	}
	if len(deferred) == 0 {
		return nil
	}
	if search == capture.NoNode && len(deferred) == len(tools) {
		p.Reportf(d.Pointer(d.Get(0, "tools")), "every tool is deferred and there is no tool search tool: the model has nothing to call")
	}
	return nil
}
