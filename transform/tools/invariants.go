package tools

import (
	"bytes"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// toolDiff compares the tool declarations of a result with the original's.
type toolDiff struct {
	orig, final *capture.Capture
	od, fd      []transform.ToolDecl
	// byName indexes the final declarations.
	byName map[string]*transform.ToolDecl
	// removed: original function declarations no longer declared;
	// natively: declarations the result marks defer_loading that the
	// original did not.
	removed, natively []string
}

func toolDiffOf(res *rules.Result) *toolDiff {
	t := &toolDiff{orig: res.Original, final: res.Final, od: transform.ToolDecls(res.Original), fd: transform.ToolDecls(res.Final), byName: map[string]*transform.ToolDecl{}}
	for i := range t.fd {
		t.byName[t.fd[i].Name] = &t.fd[i]
	}
	for i := range t.od {
		o := &t.od[i]
		f, ok := t.byName[o.Name]
		switch {
		case !ok && o.Name != "":
			t.removed = append(t.removed, o.Name)
		case ok && f.Deferred && !o.Deferred:
			t.natively = append(t.natively, o.Name)
		}
	}
	return t
}

// unchanged reports whether the tools value is byte-identical.
func (t *toolDiff) unchanged() bool {
	return bytes.Equal(toolsRawValue(t.orig), toolsRawValue(t.final))
}

func toolsRawValue(c *capture.Capture) []byte {
	if c.Doc.Kind(0) != capture.Object {
		return nil
	}
	return c.Doc.Raw(c.Doc.Get(0, "tools"))
}

// declared reports whether the result declares name as callable right now
// (present and not deferred).
func (t *toolDiff) declared(name string) bool {
	f, ok := t.byName[name]
	return ok && !f.Deferred
}

// sameDecl reports whether the final declaration f is the original o,
// byte for byte.
func (t *toolDiff) sameDecl(o, f *transform.ToolDecl) bool {
	return bytes.Equal(t.orig.Doc.Raw(o.Node), t.final.Doc.Raw(f.Node))
}

// toolsKept is SO430.
var toolsKept = &rules.Rule{
	ID:       "SO430",
	Title:    "Core, configured and built-in tools stay declared",
	Why:      "An agent relies on its core tools in every turn; deferring or altering one would make the simplest step cost a search, or fail.",
	Since:    rules.FirstVersion,
	Name:     "invariant.tools-kept",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Reads:    []string{"tools.core", "tools.always"},
	Doc: "Core, configured and built-in tools stay declared, byte-identical. " +
		"Every tool named in tools.core or tools.always, and every tool entry that is not a plain function declaration (provider built-ins, server tools, namespaces, MCP servers), must still be declared after transformation with exactly its original bytes and without being deferred, " +
		"so the tools an agent relies on in every turn are never one search away.",
	Run: func(p *rules.Pass) error {
		t := toolDiffOf(p.Result)
		if t.unchanged() {
			return nil
		}
		s := SettingsOf(p.Env)
		core, always := toolLowerSet(s.Core), toolLowerSet(s.Always)
		for i := range t.od {
			o := &t.od[i]
			why := ""
			switch {
			case o.Search:
				continue
			case !o.Function:
				why = "built-in tool"
			case core[strings.ToLower(o.Name)]:
				why = "core tool"
			case always[strings.ToLower(o.Name)]:
				why = "configured tool"
			default:
				continue
			}
			f, ok := t.byName[o.Name]
			switch {
			case !ok:
				p.Reportf("/tools", "%s %q is no longer declared", why, o.Name)
			case f.Deferred && !o.Deferred:
				p.Reportf(t.final.Doc.Pointer(f.Node), "%s %q is deferred", why, o.Name)
			case !t.sameDecl(o, f):
				p.Reportf(t.final.Doc.Pointer(f.Node), "%s %q changed its declaration", why, o.Name)
			}
		}
		return nil
	},
}

// toolsAbsent is SO431.
var toolsAbsent = &rules.Rule{
	ID:       "SO431",
	Title:    "Deferred tools are really gone, and nothing is added silently",
	Why:      "A deferral that leaves a schema elsewhere in the body saves nothing, and a declaration added without notice would change what the model can call.",
	Since:    rules.FirstVersion,
	Name:     "invariant.tools-absent",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "Inactive tool schemas are absent from the transformed request and nothing is added silently. " +
		"Each original declaration is either kept byte-identical, removed entirely (its schema appears nowhere in the body), or — for provider-native deferral — kept with defer_loading: true and otherwise unchanged. " +
		"No tool is declared twice, and the only declarations the original did not have are the search tool and the tools other skillopt rules declare (skill_search, retrieve_output).",
	Run: func(p *rules.Pass) error {
		t := toolDiffOf(p.Result)
		if t.unchanged() {
			return nil
		}
		orig := map[string]*transform.ToolDecl{}
		count := map[string]int{}
		for i := range t.od {
			orig[t.od[i].Name] = &t.od[i]
			count[t.od[i].Name]++
		}
		seen := map[string]int{}
		for i := range t.fd {
			f := &t.fd[i]
			seen[f.Name]++
			if seen[f.Name] > count[f.Name] && seen[f.Name] > 1 {
				p.Reportf(t.final.Doc.Pointer(f.Node), "tool %q is declared %d times", f.Name, seen[f.Name])
			}
			o, ok := orig[f.Name]
			switch {
			case !ok && (f.Search || toolOwned(f.Name)):
				// The search tool, or a tool another skillopt rule declares.
			case !ok:
				p.Reportf(t.final.Doc.Pointer(f.Node), "tool %q was not declared in the original request", f.Name)
			case f.Deferred && !o.Deferred:
				if !toolSameButDeferred(t.orig.Doc, o.Node, t.final.Doc, f.Node) {
					p.Reportf(t.final.Doc.Pointer(f.Node), "deferred tool %q changed more than its defer_loading flag", f.Name)
				}
			case !t.sameDecl(o, f):
				p.Reportf(t.final.Doc.Pointer(f.Node), "tool %q changed its declaration", f.Name)
			}
		}
		for _, name := range t.removed {
			o := orig[name]
			raw := t.orig.Doc.Raw(o.Node)
			if len(raw) >= 64 && bytes.Contains(t.final.Body, raw) {
				p.Reportf("", "the schema of removed tool %q is still in the body", name)
			}
		}
		return nil
	},
}

// toolSameButDeferred reports whether object b is object a plus defer_loading:
// true (a cache_control member may have moved away).
func toolSameButDeferred(da *capture.Doc, a capture.Node, db *capture.Doc, b capture.Node) bool {
	for m := range da.Children(a) {
		k := da.Key(m)
		if k == "cache_control" {
			continue
		}
		if !bytes.Equal(da.Raw(m), db.Raw(db.Get(b, k))) {
			return false
		}
	}
	for m := range db.Children(b) {
		if k := db.Key(m); k != "defer_loading" && k != "cache_control" && da.Get(a, k) == capture.NoNode {
			return false
		}
	}
	return db.Kind(db.Get(b, "defer_loading")) == capture.True
}

// searchPresent is SO432.
var searchPresent = &rules.Rule{
	ID:       "SO432",
	Title:    "A search tool is there while tools are deferred",
	Why:      "Without a search tool, or with one that cannot find a deferred tool by its exact name, a deferred tool is lost rather than deferred.",
	Since:    rules.FirstVersion,
	Name:     "invariant.tool-search-present",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Reads:    readsSettings,
	Doc: "A search tool is declared while deferred tools remain, and every deferred tool can be found with it. " +
		"When declarations were removed, optimizer_tool_search must be declared; when they were marked defer_loading, the provider's tool search (or optimizer_tool_search) must be. The search tool itself is never deferred, and it is not added when nothing is deferred. " +
		"Each deferred tool must come back on the first result page when its exact name is the query.",
	Run: func(p *rules.Pass) error {
		t := toolDiffOf(p.Result)
		if t.unchanged() {
			return nil
		}
		var own, native *transform.ToolDecl
		for i := range t.fd {
			f := &t.fd[i]
			if !f.Search {
				continue
			}
			if f.Deferred {
				p.Reportf(t.final.Doc.Pointer(f.Node), "search tool %q is itself deferred", f.Name)
			}
			if f.Name == transform.SearchToolName {
				own = f
			} else {
				native = f
			}
		}
		hadSearch := false
		for _, o := range t.od {
			hadSearch = hadSearch || o.Search
		}
		switch {
		case len(t.removed) > 0 && own == nil:
			p.Reportf("/tools", "%d tools were removed but %s is not declared", len(t.removed), transform.SearchToolName)
		case len(t.natively) > 0 && own == nil && native == nil:
			p.Reportf("/tools", "%d tools are deferred but no tool search is declared", len(t.natively))
		case len(t.removed) == 0 && len(t.natively) == 0 && !hadSearch && (own != nil || native != nil):
			p.Reportf("/tools", "a search tool was added although nothing is deferred")
		}
		if len(t.removed) > 0 && own != nil {
			plan := Decide(t.orig, SettingsOf(p.Env))
			plan.Deferred = t.removed
			for _, name := range t.removed {
				page, err := plan.Search(name, "")
				if err != nil {
					return err
				}
				if len(page.Tools) == 0 || !toolContainsName(page.Activated, name) {
					p.Reportf("/tools", "deferred tool %q is not found by searching its exact name", name)
				}
			}
		}
		return nil
	},
}

func toolContainsName(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// activationAdditive is SO433.
var activationAdditive = &rules.Rule{
	ID:       "SO433",
	Title:    "Activated tools stay declared",
	Why:      "A tool the model already loaded through search must stay callable; taking it away again would strand the conversation.",
	Since:    rules.FirstVersion,
	Name:     "invariant.tool-activation-additive",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Reads:    readsSettings,
	Doc: "Tools activated by earlier searches stay declared, and activation only ever adds. " +
		"Every tool the history shows as loaded (an optimizer_tool_search result's activated list, a tool_reference, a tool_search_output, tools added mid-conversation) must remain declared and callable. " +
		"The first result page for the latest human text activates only deferred tools of the original request, in addition to every tool already declared.",
	Run: func(p *rules.Pass) error {
		t := toolDiffOf(p.Result)
		if t.unchanged() {
			return nil
		}
		h := history(t.orig)
		for _, o := range t.od {
			if h.Activated[o.Name] && !o.Deferred && !t.declared(o.Name) {
				p.Reportf("/tools", "tool %q was activated by an earlier search but is no longer declared", o.Name)
			}
		}
		if len(t.removed) == 0 {
			return nil
		}
		plan := Decide(t.orig, SettingsOf(p.Env))
		plan.Deferred = t.removed
		page, err := plan.Search(queryText(t.orig), "")
		if err != nil {
			return err
		}
		page.AddDeclared(t.orig, t.final)
		removed := plan.deferredSet()
		for _, n := range page.Activated {
			if !removed[n] {
				p.Reportf("/tools", "a search page activates %q, which is not a deferred tool of the original request", n)
			}
		}
		active := map[string]bool{}
		for _, n := range page.Active {
			active[n] = true
		}
		for _, f := range t.fd {
			if !f.Search && !f.Deferred && !active[f.Name] {
				p.Reportf("/tools", "activating a search page would drop declared tool %q", f.Name)
			}
		}
		return nil
	},
}

// callsDeclared is SO434.
var callsDeclared = &rules.Rule{
	ID:       "SO434",
	Title:    "Tools the conversation called keep their declaration",
	Why:      "A tool loop in progress needs the declarations of the tools it calls; deferring one would leave the model unable to continue.",
	Since:    rules.FirstVersion,
	Name:     "invariant.tool-calls-declared",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "Every tool the conversation has called keeps its declaration. " +
		"A tool call or tool result in the history whose tool the original request declared must still find that declaration, not deferred, so an in-progress tool loop is never stranded.",
	Run: func(p *rules.Pass) error {
		t := toolDiffOf(p.Result)
		if t.unchanged() {
			return nil
		}
		h := history(t.orig)
		for _, o := range t.od {
			if h.Called[o.Name] && !o.Deferred && !t.declared(o.Name) {
				p.Reportf("/tools", "tool %q is called in the history but no longer declared", o.Name)
			}
		}
		return nil
	},
}

// searchBounded is SO435.
var searchBounded = &rules.Rule{
	ID:       "SO435",
	Title:    "The tool search and its pages stay bounded",
	Why:      "The search tool replaces many schemas only if its own declaration and result pages stay small and complete, whatever the number of deferred tools.",
	Since:    rules.FirstVersion,
	Name:     "invariant.tool-search-bounded",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Reads:    readsSettings,
	Doc: "The search declaration and its result pages are bounded. " +
		"optimizer_tool_search's declaration stays within tools.list_chars plus a fixed overhead whatever the number of deferred tools; " +
		"paging through the results for the latest human text returns at most tools.page_size tools of bounded size per page, never the same tool twice, reaches every match exactly once and ends.",
	Run: func(p *rules.Pass) error {
		t := toolDiffOf(p.Result)
		if t.unchanged() {
			return nil
		}
		s := SettingsOf(p.Env)
		f, ok := t.byName[transform.SearchToolName]
		if !ok || len(t.removed) == 0 {
			return nil
		}
		if n := f.Bytes(t.final.Doc); n > s.ListChars*3+toolSearchDeclOverhead {
			p.Reportf(t.final.Doc.Pointer(f.Node), "%s declaration is %d bytes, over its bound", transform.SearchToolName, n)
		}
		plan := Decide(t.orig, s)
		plan.Deferred = t.removed
		query := queryText(t.orig)
		want := len(plan.searchDeferred(query))
		seen := map[string]bool{}
		cursor := ""
		for pages := 0; ; pages++ {
			if pages > want/s.PageSize+1 {
				p.Reportf("/tools", "paging did not end after %d pages", pages)
				break
			}
			page, err := plan.Search(query, cursor)
			if err != nil {
				p.Reportf("/tools", "paging failed: %v", err)
				break
			}
			if len(page.Tools) > s.PageSize {
				p.Reportf("/tools", "a page holds %d tools, more than page_size %d", len(page.Tools), s.PageSize)
			}
			for _, m := range page.Tools {
				if seen[m.Name] {
					p.Reportf("/tools", "paging returned %q twice", m.Name)
				}
				seen[m.Name] = true
				if len(m.Name) > toolMaxPageEntry {
					p.Reportf("/tools", "a result entry is longer than %d bytes", toolMaxPageEntry)
				}
			}
			if page.Cursor == nil {
				break
			}
			cursor = *page.Cursor
		}
		if len(seen) != want {
			p.Reportf("/tools", "paging reached %d of %d matches", len(seen), want)
		}
		return nil
	},
}

// toolDeclaresSearch reports whether decls include a search tool.
func toolDeclaresSearch(decls []transform.ToolDecl) bool {
	for _, d := range decls {
		if d.Search {
			return true
		}
	}
	return false
}

// toolSearchDeclOverhead is the size of optimizer_tool_search's declaration
// without the listed names, with room for any provider's wrapping and
// escaping.
const toolSearchDeclOverhead = 2048

// failOpen is SO436.
var failOpen = &rules.Rule{
	ID:       "SO436",
	Title:    "Weak signal defers nothing",
	Why:      "Deferring tools on a guess risks hiding the one the model needs; when the ranking is not confident, leaving everything declared costs nothing.",
	Since:    rules.FirstVersion,
	Name:     "invariant.tools-fail-open",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Reads:    readsSettings,
	Doc: "Weak, empty or unrelated signal defers nothing. " +
		"When the latest genuine human text gives no confident ranking, every original tool must stay declared, not deferred, and no search tool may be added: failing open never costs a byte.",
	Run: func(p *rules.Pass) error {
		t := toolDiffOf(p.Result)
		if t.unchanged() {
			return nil
		}
		added := false
		for _, f := range t.fd {
			if f.Search && !toolDeclaresSearch(t.od) {
				added = true
			}
		}
		if len(t.removed) == 0 && len(t.natively) == 0 && !added {
			return nil
		}
		plan := Decide(t.orig, SettingsOf(p.Env))
		if plan.FailOpen != "" {
			p.Reportf("/tools", "tools were deferred although the signal is weak (%s)", plan.FailOpen)
		}
		return nil
	},
}
