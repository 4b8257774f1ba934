package tools

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/rank"
	"github.com/skillopt/skillopt/invariant"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

const prPrompt = "I pushed feature/login; open a pull request into main for acme/web."

// TestDeferAllProviders: on every provider shape SO201 keeps the core and
// predicted tools byte-identical, removes the rest, adds one
// optimizer_tool_search in that shape, validates, and a second pass is
// identity.
func TestDeferAllProviders(t *testing.T) {
	for _, p := range capture.Providers {
		t.Run(string(p), func(t *testing.T) {
			c := readCapture(t, p, conversation(p, testCatalog, user(prPrompt)))
			res := runRule(t, Defer, c, nil)
			if !res.Steps[0].Applied {
				t.Fatalf("not applied: %+v %v", res.Steps[0], res.Diagnostics)
			}
			names := declaredNames(res.Final)
			for _, want := range []string{"read", "bash", "mcp__github__create_pull_request", transform.SearchToolName} {
				if !has(names, want) {
					t.Errorf("%s not declared after deferral: %v", want, names)
				}
			}
			if has(names, "mcp__postgres__execute_sql") || has(names, "mcp__slack__post_message") {
				t.Errorf("unrelated tools kept: %v", names)
			}
			if names[len(names)-1] != transform.SearchToolName {
				t.Errorf("search tool is not last: %v", names)
			}
			// Kept declarations are their original bytes.
			for _, d := range transform.ToolDecls(res.Final) {
				if d.Search {
					continue
				}
				if !bytes.Contains(c.Body, res.Final.Doc.Raw(d.Node)) {
					t.Errorf("%s changed its bytes", d.Name)
				}
			}
			if again := runRule(t, Defer, res.Final, nil); again.Changed() {
				t.Error("second pass changed the capture")
			}
			for _, inv := range Rules()[2:] {
				if msgs := verify(t, inv, res, nil); len(msgs) > 0 {
					t.Errorf("%s: %v", inv.ID, msgs)
				}
			}
		})
	}
}

// TestQueryIsLatestHumanTextOnly: tool results, injected text and older
// human messages never drive the ranking.
func TestQueryIsLatestHumanTextOnly(t *testing.T) {
	for _, p := range capture.Providers {
		c := readCapture(t, p, conversation(p, testCatalog,
			user("List the pods in staging."),
			call("bash", "c1"),
			result("bash", "c1", "kubernetes slack postgres github pull request"),
			user("Now open a pull request for the fix."),
			injected("The user may want slack messages posted."),
		))
		got := queryText(c)
		if got != "Now open a pull request for the fix." {
			t.Errorf("%s: query %q", p, got)
		}
	}
}

// TestQueryIgnoresPrefetchOverlay: skill descriptions another rule appended
// to the human text are not part of the query.
func TestQueryIgnoresPrefetchOverlay(t *testing.T) {
	text := "Open a pull request.\n\n<skill_prefetch catalog=\"ab12\">\nk8s-debug: Debug kubernetes pods and slack alerts\n</skill_prefetch>"
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user(text)))
	if got := queryText(c); got != "Open a pull request." {
		t.Fatalf("query %q", got)
	}
	if got := stripOverlay("a <skill_prefetch x>\nb"); got != "a" {
		t.Fatalf("unterminated overlay: %q", got)
	}
}

func TestPlanProtectsUsedAndActivatedTools(t *testing.T) {
	search := `{"activated":["mcp__slack__post_message"],"tools":[{"name":"mcp__slack__post_message","score":3.1}],"cursor":null}`
	for _, p := range capture.Providers {
		c := readCapture(t, p, conversation(p, append(testCatalog, spec(transform.SearchToolName, searchDescription([]string{"x"}, 100))),
			user("Check why the web pods restart."),
			call("mcp__kubernetes__pods_log", "c1"),
			result("mcp__kubernetes__pods_log", "c1", "OOMKilled"),
			call(transform.SearchToolName, "c2"),
			result(transform.SearchToolName, "c2", search),
			user("Open a pull request with the memory limit fix."),
		))
		h := history(c)
		if !h.Called["mcp__kubernetes__pods_log"] || !h.Activated["mcp__slack__post_message"] {
			t.Errorf("%s: history %+v", p, h)
		}
		// The capture already declares optimizer_tool_search: a transformed
		// request is left alone.
		if plan := Decide(c, defaults()); plan.Skip != "tools are already deferred" {
			t.Errorf("%s: plan on a deferred request: %+v", p, plan.Skip)
		}
		// A tool of the host that happens to be called optimizer_tool_search:
		// deferring would point the model at it, so nothing is deferred.
		foreign := readCapture(t, p, conversation(p, append(testCatalog, spec(transform.SearchToolName, "Search the team wiki.")),
			user("Open a pull request with the memory limit fix.")))
		if plan := Decide(foreign, defaults()); !strings.Contains(plan.Skip, "that skillopt did not declare") || plan.Deferring() {
			t.Errorf("%s: plan with a foreign %s: %q", p, transform.SearchToolName, plan.Skip)
		}
		c = readCapture(t, p, conversation(p, testCatalog,
			user("Check why the web pods restart."),
			call("mcp__kubernetes__pods_log", "c1"),
			result("mcp__kubernetes__pods_log", "c1", "OOMKilled"),
			call(transform.SearchToolName, "c2"),
			result(transform.SearchToolName, "c2", search),
			user("Open a pull request with the memory limit fix."),
		))
		perRequest := defaults()
		perRequest.Selection = "request"
		plan := Decide(c, perRequest)
		want := map[string]string{"read": "core", "bash": "core", "mcp__kubernetes__pods_log": "used", "mcp__slack__post_message": "activated"}
		for n, why := range want {
			if plan.Protected[n] != why {
				t.Errorf("%s: %s protected as %q, want %q", p, n, plan.Protected[n], why)
			}
		}
		if !has(plan.Predicted, "mcp__github__create_pull_request") || has(plan.Kept, "mcp__postgres__execute_sql") {
			t.Errorf("%s: predicted %v kept %v", p, plan.Predicted, plan.Kept)
		}
		// Per conversation: the first human text decides, on every turn;
		// what the conversation used or activated since is kept besides,
		// and the search tool still lists it.
		plan = Decide(c, defaults())
		if !has(plan.Predicted, "mcp__kubernetes__pods_list") || has(plan.Predicted, "mcp__github__create_pull_request") ||
			!has(plan.Kept, "mcp__slack__post_message") || !has(plan.Listed, "mcp__slack__post_message") || has(plan.Deferred, "mcp__slack__post_message") {
			t.Errorf("%s: per conversation: predicted %v kept %v listed %v", p, plan.Predicted, plan.Kept, plan.Listed)
		}
	}
}

func TestFailOpen(t *testing.T) {
	cases := []struct {
		name  string
		turns []turn
		want  string
	}{
		{"no human text", []turn{injected("open a pull request")}, "started by injected text"},
		{"only stop words", []turn{user("ok, thanks!")}, "unrelated signal"},
		{"unrelated", []turn{user("Write a haiku about autumn.")}, "unrelated signal"},
		{"weak", []turn{user("Summarise what we found so far about the name.")}, "weak signal"},
	}
	for _, tc := range cases {
		for _, p := range []capture.Provider{capture.Anthropic, capture.Gemini} {
			c := readCapture(t, p, conversation(p, testCatalog, tc.turns...))
			s := defaults()
			s.Selection = "request"
			plan := Decide(c, s)
			if !strings.Contains(plan.FailOpen, tc.want) {
				t.Errorf("%s/%s: fail open %q, want %q (best %s %.2f)", tc.name, p, plan.FailOpen, tc.want, plan.Best, plan.BestScore)
			}
			res := runRule(t, Defer, c, nil)
			if res.Changed() {
				t.Errorf("%s/%s: fail open changed the capture", tc.name, p)
			}
			reported := false
			for _, d := range res.Diagnostics {
				reported = reported || strings.HasPrefix(d.Message, FailOpenPrefix)
			}
			if !reported {
				t.Errorf("%s/%s: fail open not reported: %v", tc.name, p, res.Diagnostics)
			}
		}
	}
}

// TestSkilloptToolsNeverDeferred: tools other skillopt rules declare stay.
func TestSkilloptToolsNeverDeferred(t *testing.T) {
	tools := append([]capture.ToolSpec{spec("skill_search", "Skills: search, browse, load."), spec("retrieve_output", "Retrieve an archived output.")}, testCatalog...)
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, tools, user(prPrompt)))
	plan := Decide(c, defaults())
	if plan.Protected["skill_search"] != "skillopt" || plan.Protected["retrieve_output"] != "skillopt" || has(plan.Deferred, "skill_search") {
		t.Fatalf("plan %+v", plan.Protected)
	}
}

func TestExactNameIsConfident(t *testing.T) {
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user("call mcp__postgres__describe_table on orders")))
	plan := Decide(c, defaults())
	if plan.FailOpen != "" || plan.Predicted[0] != "mcp__postgres__describe_table" {
		t.Fatalf("plan %+v", plan)
	}
}

func TestConfigAlwaysAndCore(t *testing.T) {
	cfg := defaults()
	cfg.Always = []string{"mcp__slack__post_message"}
	cfg.Core = []string{"READ"}
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user(prPrompt)))
	res := runRule(t, Defer, c, cfg)
	names := declaredNames(res.Final)
	if !has(names, "read") || has(names, "bash") || !has(names, "mcp__slack__post_message") {
		t.Fatalf("core/always not honoured: %v", names)
	}
}

// TestSmallCatalogSilent: a few small tools cannot pay for a search tool;
// nothing is decided and nothing reported.
func TestSmallCatalogSilent(t *testing.T) {
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, []capture.ToolSpec{spec("get_weather", "Get the weather for a city.")}, user("thanks")))
	res := runRule(t, Defer, c, nil)
	if res.Changed() || len(res.Diagnostics) > 0 {
		t.Fatalf("small catalog: %v", res.Diagnostics)
	}
	if plan := Decide(c, defaults()); plan.FailOpen != "" || !strings.Contains(plan.Skip, "less than min_saving") {
		t.Fatalf("plan %+v", plan)
	}
}

func TestMinSaving(t *testing.T) {
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user(prPrompt)))
	plan := Decide(c, defaults())
	candidates := 0
	for _, d := range transform.ToolDecls(c) {
		if plan.Protected[d.Name] == "" {
			candidates += d.Bytes(c.Doc)
		}
	}
	// The candidates could save min_saving, but what deferral actually
	// saves (less the kept and the search tool) cannot: reported.
	cfg := defaults()
	cfg.MinSaving = candidates
	res := runRule(t, Defer, c, cfg)
	if res.Changed() || len(res.Diagnostics) == 0 || !strings.Contains(res.Diagnostics[0].Message, "less than min_saving") {
		t.Fatalf("min_saving ignored: %v", res.Diagnostics)
	}
	// Not even every candidate together could: nothing to decide, silent.
	cfg.MinSaving = candidates + 1
	if res := runRule(t, Defer, c, cfg); res.Changed() || len(res.Diagnostics) > 0 {
		t.Fatalf("small catalog reported: %v", res.Diagnostics)
	}
}

// TestGeminiShapes: snake_case keys, a single tool object, built-in tools
// beside declarations, OpenAPI "parameters" and several tool objects.
func TestGeminiShapes(t *testing.T) {
	decls := func(names ...string) string {
		var out []string
		for _, n := range names {
			for _, s := range testCatalog {
				if s.Name == n {
					out = append(out, `{"name":`+q(n)+`,"description":`+q(s.Description)+`,"parameters":{"type":"OBJECT","properties":{"x":{"type":"STRING"}}}}`)
				}
			}
		}
		return "[" + strings.Join(out, ",") + "]"
	}
	contents := `"contents":[{"role":"user","parts":[{"text":` + q(prPrompt) + `}]}]`
	all := []string{"read", "bash", "mcp__github__create_pull_request", "mcp__github__list_issues", "mcp__kubernetes__pods_list", "mcp__kubernetes__pods_log", "mcp__kubernetes__events_list", "mcp__slack__post_message", "mcp__slack__search_messages", "mcp__postgres__execute_sql", "mcp__postgres__describe_table"}
	bodies := map[string]string{
		"snake single object": `{` + contents + `,"tools":{"function_declarations":` + decls(all...) + `}}`,
		"builtin beside":      `{` + contents + `,"tools":[{"googleSearch":{}},{"functionDeclarations":` + decls(all...) + `,"codeExecution":{}}]}`,
		"split objects":       `{` + contents + `,"tools":[{"functionDeclarations":` + decls(all[:3]...) + `},{"functionDeclarations":` + decls(all[3:]...) + `}]}`,
	}
	for name, body := range bodies {
		c := readCapture(t, capture.Gemini, body)
		res := runRule(t, Defer, c, nil)
		if !res.Steps[0].Applied {
			t.Errorf("%s: not applied: %v", name, res.Diagnostics)
			continue
		}
		out := string(res.Final.Body)
		if names := declaredNames(res.Final); has(names, "mcp__postgres__execute_sql") || !has(names, transform.SearchToolName) ||
			!strings.Contains(out, `"parameters":{"type":"OBJECT","properties":{"query"`) {
			t.Errorf("%s: %v\n%s", name, names, out)
		}
		if name == "builtin beside" && (!strings.Contains(out, `{"googleSearch":{}}`) || !strings.Contains(out, `"codeExecution":{}`)) {
			t.Errorf("%s: built-in tools lost: %s", name, out)
		}
		if name == "split objects" && strings.Count(out, "functionDeclarations") != 1 {
			t.Errorf("%s: emptied tool object kept: %s", name, out)
		}
		for _, inv := range Rules()[2:] {
			if msgs := verify(t, inv, res, nil); len(msgs) > 0 {
				t.Errorf("%s %s: %v", name, inv.ID, msgs)
			}
		}
	}
}

// TestPrettyArrayStyle: the rebuilt tools array keeps the capture's
// indentation.
func TestPrettyArrayStyle(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n  \"model\": \"m\",\n  \"max_tokens\": 10,\n  \"tools\": [\n")
	for i, s := range testCatalog {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("    ")
		b.Write(capture.RenderTool(capture.Anthropic, s))
	}
	b.WriteString("\n  ],\n  \"messages\": [{\"role\": \"user\", \"content\": " + q(prPrompt) + "}]\n}\n")
	c := readCapture(t, capture.Anthropic, b.String())
	res := runRule(t, Defer, c, nil)
	out := string(res.Final.Body)
	if !strings.Contains(out, "\"tools\": [\n    {\"name\":\"read\"") || !strings.Contains(out, "},\n    {\"name\":\"optimizer_tool_search\"") || !strings.Contains(out, "}\n  ],\n") {
		t.Fatalf("style lost:\n%s", out)
	}
}

// TestCacheBreakpointMoves: a cache_control on a removed Anthropic tool
// moves to the search declaration.
func TestCacheBreakpointMoves(t *testing.T) {
	body := conversation(capture.Anthropic, testCatalog, user(prPrompt))
	last := string(capture.RenderTool(capture.Anthropic, testCatalog[len(testCatalog)-1]))
	body = strings.Replace(body, last, last[:len(last)-1]+`,"cache_control":{"type":"ephemeral"}}`, 1)
	c := readCapture(t, capture.Anthropic, body)
	res := runRule(t, Defer, c, nil)
	d := res.Final.Doc
	decls := transform.ToolDecls(res.Final)
	search := decls[len(decls)-1]
	if !search.Search || d.Get(search.Node, "cache_control") == capture.NoNode || strings.Count(string(res.Final.Body), "cache_control") != 1 {
		t.Fatalf("breakpoint not moved: %s", res.Final.Body)
	}
}

// TestNativeDefer: SO202 marks deferred tools and adds the provider's
// search tool on Anthropic and OpenAI Responses; the body still validates,
// but it grows, so the engine keeps the original.
func TestNativeDefer(t *testing.T) {
	for _, p := range []capture.Provider{capture.Anthropic, capture.OpenAIResponses} {
		c := readCapture(t, p, conversation(p, testCatalog, user(prPrompt)))
		plan, edits, msg := deferral(c, defaults(), true)
		if len(edits) == 0 {
			t.Fatalf("%s: no edits: %s", p, msg)
		}
		next, _, err := rules.Apply(c, edits)
		if err != nil {
			t.Fatal(err)
		}
		readCapture(t, p, string(next.Body)) // validates
		s := SchemaOf(next)
		if s.Deferred != len(plan.Deferred) || s.Search == "" || s.VisibleBytes >= SchemaOf(c).VisibleBytes || len(next.Body) <= len(c.Body) {
			t.Errorf("%s: native schema %+v", p, s)
		}
		switch p {
		case capture.Anthropic:
			if !strings.Contains(string(next.Body), `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`) {
				t.Errorf("no bm25 search tool: %s", next.Body)
			}
		case capture.OpenAIResponses:
			if !strings.Contains(string(next.Body), `{"type":"tool_search"}`) {
				t.Errorf("no tool_search: %s", next.Body)
			}
		}
		res := &rules.Result{Original: c, Final: next}
		for _, inv := range Rules()[2:] {
			if msgs := verify(t, inv, res, nil); len(msgs) > 0 {
				t.Errorf("%s %s: %v", p, inv.ID, msgs)
			}
		}
		// The engine judges SO202 by model-visible bytes: accepted though
		// the body grows.
		if got := runRule(t, NativeDefer, c, nil); !got.Changed() || SchemaOf(got.Final).VisibleBytes >= SchemaOf(c).VisibleBytes {
			t.Errorf("%s: native deferral not accepted by its visible-bytes measure: %+v", p, got.Steps[0])
		}
	}
	// Elsewhere SO202 is SO201.
	c := readCapture(t, capture.Gemini, conversation(capture.Gemini, testCatalog, user(prPrompt)))
	a, b := runRule(t, NativeDefer, c, nil), runRule(t, Defer, c, nil)
	if !a.Changed() || !bytes.Equal(a.Final.Body, b.Final.Body) {
		t.Error("SO202 on Gemini differs from SO201")
	}
}

func TestNativeRegexAndCacheControl(t *testing.T) {
	cfg := defaults()
	cfg.NativeSearch = "regex"
	body := conversation(capture.Anthropic, testCatalog, user(prPrompt))
	last := string(capture.RenderTool(capture.Anthropic, testCatalog[len(testCatalog)-1]))
	body = strings.Replace(body, last, `{"cache_control":{"type":"ephemeral"},`+last[1:], 1)
	c := readCapture(t, capture.Anthropic, body)
	_, edits, _ := deferral(c, cfg, true)
	next, _, err := rules.Apply(c, edits)
	if err != nil {
		t.Fatal(err)
	}
	readCapture(t, capture.Anthropic, string(next.Body))
	out := string(next.Body)
	if !strings.Contains(out, `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex","cache_control":{"type":"ephemeral"}}`) ||
		strings.Count(out, "cache_control") != 1 {
		t.Fatalf("%s", out)
	}
}

func TestSearchPages(t *testing.T) {
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user(prPrompt)))
	cfg := defaults()
	cfg.PageSize = 2
	plan := Decide(c, cfg)
	seen := map[string]bool{}
	cursor := ""
	pages := 0
	for {
		page, err := plan.Search("kubernetes pods slack postgres", cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page.Tools) > 2 {
			t.Fatalf("page of %d", len(page.Tools))
		}
		for _, m := range page.Tools {
			if seen[m.Name] || !has(plan.Deferred, m.Name) {
				t.Fatalf("%s twice or not deferred", m.Name)
			}
			seen[m.Name] = true
		}
		if !reflect.DeepEqual(page.Active[:len(plan.Kept)], plan.Kept) {
			t.Fatal("activation is not additive")
		}
		if page.Cursor == nil {
			if len(seen) != page.Matches {
				t.Fatalf("reached %d of %d", len(seen), page.Matches)
			}
			break
		}
		cursor = *page.Cursor
	}
	if pages < 2 {
		t.Fatal("no second page")
	}
	const query = "kubernetes pods slack postgres"
	first, _ := plan.Search(query, "")
	if first.Cursor == nil {
		t.Fatalf("one page only: %+v", first)
	}
	fp := strings.Split(*first.Cursor, ".")[1]
	for _, bad := range []string{"garbage", "o1.000000000000", "o0." + fp, "o99." + fp, "ox." + fp} {
		if _, err := plan.Search(query, bad); err == nil {
			t.Errorf("cursor %q accepted", bad)
		}
	}
	if _, err := plan.Search("kubernetes", *first.Cursor); err == nil {
		t.Error("cursor of another query accepted")
	}
}

func TestSearchDescriptionBounded(t *testing.T) {
	var names []string
	for i := 0; i < 500; i++ {
		names = append(names, "mcp__server__tool_with_a_long_name_"+strings.Repeat("x", i%40))
	}
	d := searchDescription(names, 300)
	if len(d) > 300+400 || !strings.Contains(d, "more") {
		t.Fatalf("%d bytes: %s", len(d), d)
	}
	if d := searchDescription([]string{"mcp__a__x", "mcp__a__y", "web_fetch"}, 1000); !strings.Contains(d, "mcp__a__: x, y; web_fetch.") {
		t.Fatal(d)
	}
}

// TestIndexBounded: a hostile schema contributes a bounded number of terms.
func TestIndexBounded(t *testing.T) {
	var props []string
	for i := 0; i < 5000; i++ {
		props = append(props, `"prop`+strconv.Itoa(i)+`":{"type":"string","description":"word `+strings.Repeat("alpha beta ", 20)+`"}`)
	}
	huge := capture.ToolSpec{Name: "mcp__huge__tool", Description: strings.Repeat("describe ", 5000), Parameters: []byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)}
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, append(testCatalog, huge), user(prPrompt)))
	decls := transform.ToolDecls(c)
	b := rank.NewIDBuilder(toolFields...)
	tt := newToolTermer(b, 0)
	terms := toolSchemaTerms(tt, nil, c.Doc, decls[len(decls)-1].Params)
	if len(terms) > toolMaxSchemaTerms+8 {
		t.Fatalf("%d schema terms", len(terms))
	}
	if plan := Decide(c, defaults()); plan.FailOpen != "" || !has(plan.Predicted, "mcp__github__create_pull_request") {
		t.Fatalf("plan %+v", plan)
	}
}

// TestToolTokensMatchRank: the allocation-free tokenizer splits exactly as
// rank.Tokens does (on lower-cased text for prose).
func TestToolTokensMatchRank(t *testing.T) {
	for _, s := range []string{"", "parseJSONFile k8s-rollout_debugger v2.1 Éclair tests", "GitHub PRs; PostgreSQL's EXPLAIN ANALYZE", "ÀÉÎõü straße ΣΑΣ", "a\u00a0b", "x_y__zAaBbCc"} {
		toolTokensMatchRank(t, s)
	}
}

func toolTokensMatchRank(t *testing.T, s string) {
	for _, camel := range []bool{true, false} {
		var got, want []string
		rank.AppendTokens(s, camel, nil, func(tok []byte) { got = append(got, string(tok)) })
		in := s
		if !camel {
			in = lowerForTokens(s)
		}
		rank.Tokens(in, func(tok string) { want = append(want, tok) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q camel=%v: got %q want %q", s, camel, got, want)
		}
	}
}

// lowerForTokens lower-cases letter by letter, as toolTokens does for
// prose (strings.ToLower also rewrites some non-letters and changes the
// byte length of a few characters).
func lowerForTokens(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func TestConfigTemplateToolDefaults(t *testing.T) {
	b, err := rules.Bind([]rules.Owner{{Name: "tools", Options: Defaults}, {Name: "SO201", Options: Defer.Options}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	if err := config.DecodeWith("skillopt.toml", config.TemplateWith(b), cfg, b); err != nil {
		t.Fatal(err)
	}
	if got := FromSet(cfg.Options); !reflect.DeepEqual(got, Defaults) {
		t.Fatalf("template tools %+v, defaults %+v", got, Defaults)
	}
	if got := cfg.Options.Of(Defer.Options).(*deferOptions); got.Native {
		t.Fatalf("template native = true")
	}
	// Each range check names its key on the key's line.
	for _, bad := range []string{"page_size = 0", "page_size = 21", "relative = 0", "relative = 1.5", "min_score = -1", "min_score = nan", "native_search = \"fuzzy\"", "max_predicted = -1", "min_saving = -5", "core = [\"\"]", "always = [\"x\", \"\"]", "list_chars = -1"} {
		err := config.DecodeWith("s.toml", []byte("[tools]\n"+bad+"\n"), config.Default(), b)
		var ce *config.Error
		key, _, _ := strings.Cut(bad, " ")
		if !errors.As(err, &ce) || ce.Line != 2 || !strings.HasPrefix(ce.Msg, "tools."+key) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	// Configured values reach the rules.
	cfg = config.Default()
	if err := config.DecodeWith("s.toml", []byte("[tools]\npage_size = 2\nnative = true\n"), cfg, b); err != nil {
		t.Fatal(err)
	}
	if FromSet(cfg.Options).PageSize != 2 || !cfg.Options.Of(Defer.Options).(*deferOptions).Native || Defaults.PageSize != 5 {
		t.Fatalf("configured %+v", FromSet(cfg.Options))
	}
}

// TestSelectionPerConversation: with tools.selection = "conversation" every
// turn of a conversation declares the same tools, byte for byte, although
// its latest human text asks for other ones; a tool the model activates
// comes back as the host declared it, and SO405 holds. Per request, the new
// human turn changes the tools and SO405 says so.
func TestSelectionPerConversation(t *testing.T) {
	search := `{"activated":["mcp__slack__post_message"],"tools":[{"name":"mcp__slack__post_message","score":3.1}],"cursor":null}`
	turns := [][]turn{
		{user("Check why the web pods restart in the staging namespace.")},
		{user("Check why the web pods restart in the staging namespace."), call("mcp__kubernetes__pods_log", "c1"), result("mcp__kubernetes__pods_log", "c1", "OOMKilled"),
			user("Now open a pull request on GitHub with the memory limit fix.")},
		{user("Check why the web pods restart in the staging namespace."), call("mcp__kubernetes__pods_log", "c1"), result("mcp__kubernetes__pods_log", "c1", "OOMKilled"),
			user("Now open a pull request on GitHub with the memory limit fix."),
			call(transform.SearchToolName, "c2"), result(transform.SearchToolName, "c2", search)},
	}
	for _, p := range []capture.Provider{capture.Anthropic, capture.OpenAIChat, capture.OpenAIResponses, capture.Gemini} {
		for _, selection := range []string{"conversation", "request"} {
			s := defaults()
			s.Selection = selection
			// The catalog in the system prompt outweighs the tools; the
			// head's share is TestMinHeadShare's subject, not this one's.
			s.MinHeadShare = 0
			var batch []*rules.Result
			for _, tt := range turns {
				res := runRule(t, Defer, readCapture(t, p, conversation(p, testCatalog, tt...)), s)
				if !res.Steps[0].Applied {
					t.Fatalf("%s %s: nothing deferred: %+v", p, selection, res.Diagnostics)
				}
				batch = append(batch, res)
			}
			tools := func(r *rules.Result) string { d := r.Final.Doc; return string(d.Raw(d.Get(0, "tools"))) }
			diags, err := rules.VerifyBatch(batch, []*rules.Rule{invariant.ConversationPrefix}, nil)
			if err != nil {
				t.Fatal(err)
			}
			switch selection {
			case "conversation":
				if tools(batch[0]) != tools(batch[1]) {
					t.Errorf("%s: turn 2 declares other tools than turn 1", p)
				}
				if tools(batch[2]) == tools(batch[1]) || !strings.Contains(tools(batch[2]), "mcp__slack__post_message") {
					t.Errorf("%s: the activated tool is not declared on turn 3", p)
				}
				if len(diags) != 0 {
					t.Errorf("%s: SO405 per conversation: %+v", p, diags)
				}
			case "request":
				if tools(batch[0]) == tools(batch[1]) {
					t.Errorf("%s: per request, the new human turn kept the tools", p)
				}
				if len(diags) == 0 || !strings.Contains(diags[0].Message, "(changed by SO201)") {
					t.Errorf("%s: SO405 per request: %+v", p, diags)
				}
			}
		}
	}
}

// TestMinHeadShare: a deferral that saves less than min_head_share of the
// tools and system prompt it changes (here a long skill catalog in the
// system prompt) is refused, with the reason; min_head_share 0 defers.
func TestMinHeadShare(t *testing.T) {
	for _, p := range []capture.Provider{capture.Anthropic} {
		body := conversation(p, testCatalog, user("Check why the web pods restart in the staging namespace."))
		res := runRule(t, Defer, readCapture(t, p, body), defaults())
		if res.Steps[0].Applied || !strings.Contains(res.Steps[0].Idle, "min_head_share 0.50") {
			t.Errorf("%s: deferred below the head share: %+v", p, res.Steps[0])
		}
		s := defaults()
		s.MinHeadShare = 0
		if res := runRule(t, Defer, readCapture(t, p, body), s); !res.Steps[0].Applied {
			t.Errorf("%s: min_head_share 0 deferred nothing: %+v", p, res.Diagnostics)
		}
	}
}
