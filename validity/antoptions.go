package validity

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// AnthropicExclusiveOptions checks Anthropic options that exclude each
// other across a request: citations on some documents only, and a web
// search or web fetch tool given both domain lists.
var AnthropicExclusiveOptions = &rules.Rule{
	ID:       "SO519",
	Title:    "Anthropic options that exclude each other",
	Why:      "Anthropic rejects a request that enables citations on some documents but not all, or a web search or web fetch tool with both an allow-list and a block-list.",
	Since:    rules.FirstVersion,
	Name:     "request.anthropic-exclusive-options",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Some Anthropic options hold for the whole request or exclude each other. " +
		"Citations are enabled on every document of a request or on none: a request may not mix documents with citations.enabled true and documents without it " +
		"(documents in tool results count too). " +
		"A web_search or web_fetch tool takes allowed_domains or blocked_domains, not both. " +
		"Sources: https://platform.claude.com/docs/en/build-with-claude/citations (\"citations must be enabled on all or none of the documents within a request\"), " +
		"the API reference's WebSearchTool schemas (\"Cannot be used alongside allowed_domains\") and, for web fetch, " +
		"https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-fetch-tool (domain filtering), as the Anthropic client of LangChain.js documents it (WebFetch20250910Options: \"Cannot be used alongside blockedDomains\").",
	Run: runAnthropicExclusiveOptions,
}

func runAnthropicExclusiveOptions(p *rules.Pass) error {
	if p.Capture.Provider != capture.Anthropic {
		return nil
	}
	d := p.Capture.Doc
	reportMixedCitations(p, documentsOf(d))
	for _, t := range elems(d, d.Get(0, "tools")) {
		typ := d.GetStr(t, "type")
		what := "web search"
		switch {
		case strings.HasPrefix(typ, "web_search_"):
		case strings.HasPrefix(typ, "web_fetch_"):
			what = "web fetch"
		default:
			continue
		}
		if allowed, blocked := d.Get(t, "allowed_domains"), d.Get(t, "blocked_domains"); allowed != capture.NoNode && blocked != capture.NoNode &&
			d.Kind(allowed) != capture.Null && d.Kind(blocked) != capture.Null {
			p.Reportf(d.Pointer(blocked), "a %s tool takes allowed_domains or blocked_domains, not both", what)
		}
	}
	return nil
}

// documentsOf returns the document blocks of the messages, those inside
// tool results included, in order.
func documentsOf(d *capture.Doc) []capture.Node {
	var out []capture.Node
	var walk func(content capture.Node, depth int)
	walk = func(content capture.Node, depth int) {
		if d.Kind(content) != capture.Array {
			return
		}
		for b := range d.Children(content) {
			switch d.GetStr(b, "type") {
			case "document":
				out = append(out, b)
			case "tool_result":
				if depth == 0 {
					walk(d.Get(b, "content"), depth+1)
				}
			}
		}
	}
	for _, m := range elems(d, d.Get(0, "messages")) {
		walk(d.Get(m, "content"), 0)
	}
	return out
}

// reportMixedCitations reports, when documents disagree on citations, each
// document that differs from the first one that enables them.
func reportMixedCitations(p *rules.Pass, docs []capture.Node) {
	d := p.Capture.Doc
	first := capture.NoNode
	for _, doc := range docs {
		if citationsOn(d, doc) {
			first = doc
			break
		}
	}
	if first == capture.NoNode {
		return
	}
	for _, doc := range docs {
		if !citationsOn(d, doc) {
			p.Reportf(d.Pointer(doc), "citations are enabled on %s but not on this document; enable them on every document of the request or on none", d.Pointer(first))
		}
	}
}

func citationsOn(d *capture.Doc, doc capture.Node) bool {
	return d.Kind(d.Get(d.Get(doc, "citations"), "enabled")) == capture.True
}
