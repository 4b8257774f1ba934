package tools

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// Rules returns the tool-deferral rules (SO2xx) and their invariants
// (SO43x) in registry order.
func Rules() []*rules.Rule { return declared() }

// FailOpenPrefix starts the message of the diagnostic a tool rule reports
// when weak, empty or unrelated signal makes it keep every tool.
const FailOpenPrefix = "fail open: "

// readsSettings lists the [tools] keys both deferral rules read.
var readsSettings = []string{"tools.core", "tools.always", "tools.min_score", "tools.relative", "tools.max_predicted",
	"tools.page_size", "tools.list_chars", "tools.min_saving", "tools.min_head_share", "tools.native_search", "tools.selection"}

// deferOptions are SO201's own keys.
type deferOptions struct {
	Native bool `toml:"native" doc:"SO201 uses the providers' own deferral (defer_loading plus their tool search tool) on Anthropic Messages and OpenAI Responses, as SO202 does."`
}

func (*deferOptions) Section() string { return "tools" }

// Defer is SO201.
var Defer = &rules.Rule{
	ID:       "SO201",
	Title:    "Defer the tool schemas a request does not need",
	Why:      "Tool schemas are often the largest part of an agent's request, and most tools go unused in a given conversation. Deferring them behind a search tool removes those bytes while keeping every tool one search away, and it fails open whenever the signal is weak.",
	Since:    rules.FirstVersion,
	Name:     "tools.defer",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Defers tool schemas the request does not need behind one optimizer_tool_search declaration. " +
		"Core tools (tools.core, Pi's read, bash, edit, write, grep, find and ls by default, and Pi's own tool_search always), tools.always, every tool the conversation already called and every tool an earlier search activated stay declared, byte-identical. " +
		"The other function declarations are ranked against genuine human text only (never system, injected, assistant or tool text): by default (tools.selection = \"conversation\") the conversation's first human text, so that every turn makes the same decision and declares the same tools with the same bytes, and the provider's prompt cache keeps them; " +
		"with tools.selection = \"request\" the latest human text of each request, as the seed extension decides before each agent run (a turn a custom message started, not a person, then fails open). " +
		"Ranking is BM25F over the tool name, description and a bounded walk of the parameter schema (property names, descriptions, enum values), plus a boost for a tool named exactly. " +
		"The request is confident when the best tool scores at least tools.min_score or is named exactly; tools within tools.relative of the best score (at most tools.max_predicted) are predicted and kept, the rest are removed and optimizer_tool_search is added in the provider's shape: a bounded, paginated keyword search whose results are activated in addition to the tools already declared. " +
		"Empty, weak or unrelated signal fails open: every tool stays, nothing is added, and an info diagnostic says so. A request whose deferral could not save tools.min_saving bytes is left alone, and so is one whose saving is less than tools.min_head_share (0.5) of the tool declarations and system prompt it changes, from the first changed tool on: a provider keys its prompt cache by prefix, not by conversation, so every conversation with the same tools and system prompt reads that head from one entry, and one that declares other tools writes its own; below half the head, a new conversation pays that back only after a dozen turns or more (on Claude Code traffic, where the system prompt and the kept tools outweigh the deferred ones five to one, after about 55). " +
		"Built-in, server, namespace and MCP tool entries, and the tools other skillopt rules declare (skill_search, retrieve_output), are never removed. " +
		"optimizer_tool_search goes last, or on Anthropic in front of the last tool that carries a cache_control breakpoint, and names the tools the decision deferred (with a per-conversation selection also those activated since, so that it does not change). " +
		"A request that already has a tool named optimizer_tool_search which skillopt did not declare is left alone. " +
		"With tools.native = true, Anthropic Messages and OpenAI Responses captures use the providers' own deferral as SO202 does.",
	Options: &deferOptions{},
	// With native set, deferred definitions stay on the wire as with
	// SO202; otherwise what the model sees shrinks with the body.
	// Deferred schemas leave the request; the search tool names them.
	Engine: rules.Engine{Size: visibleSize, Lossy: true},
	Reads:  readsSettings,
	Run:    func(p *rules.Pass) error { return runDefer(p, p.Options.(*deferOptions).Native) },
}

// NativeDefer is SO202.
var NativeDefer = &rules.Rule{
	ID:       "SO202",
	Title:    "Defer tool schemas with the provider's own mechanism",
	Why:      "Anthropic and OpenAI Responses can load deferred tool definitions on demand themselves, which keeps the tools' bytes out of what the model reads without a client-side search tool. It is opt-in because the body on the wire grows.",
	Since:    rules.FirstVersion,
	Name:     "tools.native-defer",
	Kind:     rules.Transform,
	Severity: rules.Info,
	// Judged by what the model sees: the deferred definitions stay on the
	// wire.
	Engine: rules.Engine{Opt: true, Size: visibleSize, Lossy: true},
	Doc: "Defers tool schemas with the provider's own mechanism where there is one (opt-in: selected only by its ID or name). " +
		"The same per-request decision as SO201 picks the tools to defer; on Anthropic Messages they get defer_loading: true and the tool search tool tool_search_tool_bm25_20251119 (or the regex variant, tools.native_search) is added, " +
		"on OpenAI Responses they get defer_loading: true and {\"type\":\"tool_search\"} is added. The provider then loads deferred definitions on demand; kept tools are untouched and the search tool itself is never deferred. " +
		"Deferred definitions still travel on the wire, so the body grows while the schema the model sees shrinks (skillopt measure reports both); the rule is accepted when the model-visible bytes shrink. " +
		"Gemini, Mistral, OpenAI Chat Completions and Pi contexts have no native deferral and get SO201's optimizer_tool_search instead. Weak signal fails open as in SO201.",
	Reads: readsSettings,
	Run:   func(p *rules.Pass) error { return runDefer(p, true) },
}

// visibleSize is the size of a body as the model sees it: deferred tool
// definitions the provider does not show count for what it shows of them
// (nothing, or a name and description). Without deferred definitions it is
// the body's size.
func visibleSize(c *capture.Capture) int {
	ts := SchemaOf(c)
	return len(c.Body) - ts.WireBytes + ts.VisibleBytes
}

// The tool_deferral detail projects both rules, so it is attached once
// their values exist.
func init() { Defer.Detail, NativeDefer.Detail = detail, detail }

// nativeProvider reports whether the provider has a native deferral.
func nativeProvider(p capture.Provider) bool {
	return p == capture.Anthropic || p == capture.OpenAIResponses
}

func runDefer(p *rules.Pass, native bool) error {
	plan, edits, msg := deferral(p.Capture, SettingsOf(p.Env), native)
	if msg != "" {
		p.Reportf("/tools", "%s", msg)
	}
	switch {
	case len(edits) > 0:
	case plan.FailOpen != "":
		p.Idle("fail open: %s", plan.FailOpen)
	case plan.Skip != "":
		p.Idle("%s", plan.Skip)
	case msg != "":
		p.Idle("%s", msg)
	}
	for _, e := range edits {
		p.Edit(e)
	}
	return nil
}

// deferral is the whole of SO201 (native false, unless its option native
// is set) or SO202 (native true) on one capture: the plan, the edits, and
// the message to report ("" when there is nothing to say).
func deferral(c *capture.Capture, s *Settings, native bool) (*Plan, []rules.Edit, string) {
	plan := Decide(c, s)
	if plan.FailOpen != "" {
		return plan, nil, fmt.Sprintf("%s%s; all %d tools kept", FailOpenPrefix, plan.FailOpen, len(plan.Tools))
	}
	if !plan.Deferring() {
		return plan, nil, ""
	}
	d := c.Doc
	if native && nativeProvider(c.Provider) {
		edits, err := transform.NativeEdits(c, plan.decls, plan.deferredSet(), s.NativeSearch)
		if err != nil {
			return plan, nil, fmt.Sprintf("not deferring: %v", err)
		}
		before := 0
		for _, t := range plan.decls {
			before += t.Bytes(d)
		}
		after := before
		for _, n := range plan.Deferred {
			t := toolDeclByName(plan.decls, n)
			after -= t.Bytes(d)
			if c.Provider == capture.OpenAIResponses {
				// Responses still shows a deferred function's name and
				// description.
				after += len(d.Raw(d.Get(t.Node, "name"))) + len(d.Raw(t.Desc))
			}
		}
		return plan, edits, fmt.Sprintf("deferred %d of %d tools natively (model-visible tool schema %d → %d bytes); kept: %s",
			len(plan.Deferred), len(plan.Tools), before, after, strings.Join(plan.Kept, ", "))
	}
	edits, err := plan.deferEdits(c)
	if err != nil {
		return plan, nil, fmt.Sprintf("not deferring: %v", err)
	}
	tools := d.Get(0, "tools")
	old := int(d.Nodes[tools].End - d.Nodes[tools].Start)
	saved := old - len(edits[0].NewJSON)
	if saved < s.MinSaving {
		plan.undefer(fmt.Sprintf("saving %d bytes is less than min_saving %d", saved, s.MinSaving))
		return plan, nil, fmt.Sprintf("not deferring: it would save %d bytes, less than min_saving %d", saved, s.MinSaving)
	}
	if head := cachedHead(c, d.Raw(tools), edits[0].NewJSON); float64(saved) < s.MinHeadShare*float64(head) {
		plan.undefer(fmt.Sprintf("saving %d bytes is less than min_head_share %s of the %d-byte cached head it changes", saved, units.Fixed(s.MinHeadShare, 2), head))
		return plan, nil, fmt.Sprintf("not deferring: it would save %d bytes, less than min_head_share %s of the %d bytes of tools and system prompt from the first changed tool on, which other conversations with the same tools read from the provider's cache", saved, units.Fixed(s.MinHeadShare, 2), head)
	}
	return plan, edits, fmt.Sprintf("deferred %d of %d tools behind %s; kept: %s", len(plan.Deferred), len(plan.Tools), transform.SearchToolName, strings.Join(plan.Kept, ", "))
}

func toolDeclByName(decls []transform.ToolDecl, name string) *transform.ToolDecl {
	for i := range decls {
		if decls[i].Name == name {
			return &decls[i]
		}
	}
	panic(fmt.Sprintf("no declaration %q", name))
}

// cachedHead is the part of the prompt a provider caches ahead of the
// messages that deferral changes: the tool declarations from the first
// byte the new ones differ on, and the system prompt, which every provider
// caches after the tools.
func cachedHead(c *capture.Capture, old, new []byte) int {
	n := 0
	for n < len(old) && n < len(new) && old[n] == new[n] {
		n++
	}
	head := len(old) - n
	for _, sg := range c.Segments() {
		if sg.Prov == capture.ProvSystem {
			head += sg.End - sg.Start
		}
	}
	return head
}
