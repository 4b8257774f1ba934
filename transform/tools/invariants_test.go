package tools

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// withTools returns c with its Anthropic tools array rebuilt by edit, which
// receives the declarations' raw bytes.
func withTools(t *testing.T, c *capture.Capture, edit func([][]byte) [][]byte) *capture.Capture {
	t.Helper()
	var decls [][]byte
	for _, d := range transform.ToolDecls(c) {
		decls = append(decls, c.Doc.Raw(d.Node))
	}
	next, _, err := rules.Apply(c, []rules.Edit{{Pointer: "/tools", NewJSON: []byte("[" + string(joinRaw(edit(decls))) + "]")}})
	if err != nil {
		t.Fatal(err)
	}
	return next
}

func joinRaw(parts [][]byte) []byte {
	var out []byte
	for i, p := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	return out
}

// without drops the declarations whose name is in names.
func without(names ...string) func([][]byte) [][]byte {
	return func(decls [][]byte) [][]byte {
		var out [][]byte
	next:
		for _, d := range decls {
			for _, n := range names {
				if strings.Contains(string(d), `"name":"`+n+`"`) {
					continue next
				}
			}
			out = append(out, d)
		}
		return out
	}
}

func plus(extra ...string) func([][]byte) [][]byte {
	return func(decls [][]byte) [][]byte {
		for _, e := range extra {
			decls = append(decls, []byte(e))
		}
		return decls
	}
}

func then(fs ...func([][]byte) [][]byte) func([][]byte) [][]byte {
	return func(d [][]byte) [][]byte {
		for _, f := range fs {
			d = f(d)
		}
		return d
	}
}

const fakeSearch = `{"name":"optimizer_tool_search","description":"Find tools.","input_schema":{"type":"object","properties":{"query":{"type":"string"}}}}`

// deferred is a correct SO201 result for a pull-request prompt.
func deferred(t *testing.T, turns ...turn) *rules.Result {
	t.Helper()
	if len(turns) == 0 {
		turns = []turn{user(prPrompt)}
	}
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, turns...))
	res := runRule(t, Defer, c, nil)
	if !res.Steps[0].Applied {
		t.Fatalf("not deferred: %v", res.Diagnostics)
	}
	return res
}

func expect(t *testing.T, inv *rules.Rule, res *rules.Result, cfg *Settings, want string) {
	t.Helper()
	msgs := verify(t, inv, res, cfg)
	if want == "" {
		if len(msgs) > 0 {
			t.Errorf("%s: unexpected %v", inv.ID, msgs)
		}
		return
	}
	for _, m := range msgs {
		if strings.Contains(m, want) {
			return
		}
	}
	t.Errorf("%s: want a finding containing %q, got %v", inv.ID, want, msgs)
}

func TestInvariantToolsKept(t *testing.T) {
	good := deferred(t)
	expect(t, toolsKept, good, nil, "")
	bad := &rules.Result{Original: good.Original, Final: withTools(t, good.Final, without("bash"))}
	expect(t, toolsKept, bad, nil, `core tool "bash" is no longer declared`)
	changed := withTools(t, good.Final, func(d [][]byte) [][]byte {
		d[0] = []byte(strings.Replace(string(d[0]), "Read a file.", "Read.", 1))
		return d
	})
	expect(t, toolsKept, &rules.Result{Original: good.Original, Final: changed}, nil, `core tool "read" changed its declaration`)
	cfg := defaults()
	cfg.Always = []string{"mcp__slack__post_message"}
	expect(t, toolsKept, good, cfg, `configured tool "mcp__slack__post_message" is no longer declared`)
	// A built-in tool entry is never removed.
	c := readCapture(t, capture.Anthropic, strings.Replace(conversation(capture.Anthropic, testCatalog, user(prPrompt)), `"tools":[`, `"tools":[{"type":"web_search_20250305","name":"web_search"},`, 1))
	res := runRule(t, Defer, c, nil)
	expect(t, toolsKept, res, nil, "")
	expect(t, toolsKept, &rules.Result{Original: c, Final: withTools(t, res.Final, without("web_search"))}, nil, `built-in tool "web_search" is no longer declared`)
}

func TestInvariantToolsAbsent(t *testing.T) {
	good := deferred(t)
	expect(t, toolsAbsent, good, nil, "")
	added := withTools(t, good.Final, plus(`{"name":"mcp__new__tool","description":"x","input_schema":{"type":"object"}}`))
	expect(t, toolsAbsent, &rules.Result{Original: good.Original, Final: added}, nil, `tool "mcp__new__tool" was not declared in the original request`)
	skill := withTools(t, good.Final, plus(`{"name":"skill_search","description":"Skills.","input_schema":{"type":"object"}}`))
	expect(t, toolsAbsent, &rules.Result{Original: good.Original, Final: skill}, nil, "")
	twice := withTools(t, good.Final, func(d [][]byte) [][]byte { return append(d, d[0]) })
	expect(t, toolsAbsent, &rules.Result{Original: good.Original, Final: twice}, nil, `tool "read" is declared 2 times`)
	// A removed schema smuggled back into the body.
	var sqlDecl string
	for _, d := range transform.ToolDecls(good.Original) {
		if d.Name == "mcp__postgres__execute_sql" {
			sqlDecl = string(good.Original.Doc.Raw(d.Node))
		}
	}
	leak := withTools(t, good.Final, func(d [][]byte) [][]byte {
		last := string(d[len(d)-1])
		d[len(d)-1] = []byte(last[:len(last)-1] + `,"examples":[` + sqlDecl + `]}`)
		return d
	})
	expect(t, toolsAbsent, &rules.Result{Original: good.Original, Final: leak}, nil, `the schema of removed tool "mcp__postgres__execute_sql" is still in the body`)
}

func TestInvariantToolSearchPresent(t *testing.T) {
	good := deferred(t)
	expect(t, searchPresent, good, nil, "")
	noSearch := withTools(t, good.Final, without(transform.SearchToolName))
	expect(t, searchPresent, &rules.Result{Original: good.Original, Final: noSearch}, nil, "optimizer_tool_search is not declared")
	// Search tool added although nothing is deferred.
	addedOnly := withTools(t, good.Original, plus(fakeSearch))
	expect(t, searchPresent, &rules.Result{Original: good.Original, Final: addedOnly}, nil, "added although nothing is deferred")
	// The search tool itself deferred.
	selfDeferred := withTools(t, good.Final, func(d [][]byte) [][]byte {
		last := string(d[len(d)-1])
		d[len(d)-1] = []byte(last[:len(last)-1] + `,"defer_loading":true}`)
		return d
	})
	expect(t, searchPresent, &rules.Result{Original: good.Original, Final: selfDeferred}, nil, "is itself deferred")
}

func TestInvariantToolActivationAdditive(t *testing.T) {
	search := `{"activated":["mcp__slack__post_message"],"tools":[{"name":"mcp__slack__post_message","score":3}],"cursor":null}`
	good := deferred(t, user("Post to Slack."), call(transform.SearchToolName, "s1"), result(transform.SearchToolName, "s1", search), user(prPrompt))
	if !has(declaredNames(good.Final), "mcp__slack__post_message") {
		t.Fatalf("activated tool dropped: %v", declaredNames(good.Final))
	}
	expect(t, activationAdditive, good, nil, "")
	bad := &rules.Result{Original: good.Original, Final: withTools(t, good.Final, without("mcp__slack__post_message"))}
	expect(t, activationAdditive, bad, nil, `tool "mcp__slack__post_message" was activated by an earlier search but is no longer declared`)
	// Native loads count as activations too: an Anthropic tool_reference
	// in a tool result, and an OpenAI Responses tool_search_output.
	body := conversation(capture.Anthropic, testCatalog, user("Load the SQL tool."), call("read", "r1"), result("read", "r1", "x"), user(prPrompt))
	body = strings.Replace(body, `"content":"x"`, `"content":[{"type":"tool_reference","tool_name":"mcp__postgres__execute_sql"}]`, 1)
	c := readCapture(t, capture.Anthropic, body)
	if !history(c).Activated["mcp__postgres__execute_sql"] || !has(declaredNames(runRule(t, Defer, c, nil).Final), "mcp__postgres__execute_sql") {
		t.Error("tool_reference not honoured")
	}
	body = conversation(capture.OpenAIResponses, testCatalog, user("Load the SQL tool."), user(prPrompt))
	body = strings.Replace(body, `"input":[`, `"input":[{"type":"tool_search_output","execution":"client","call_id":"ts1","tools":[{"type":"function","name":"mcp__slack__search_messages","parameters":{},"strict":false}]},`, 1)
	c = readCapture(t, capture.OpenAIResponses, body)
	if !history(c).Activated["mcp__slack__search_messages"] {
		t.Error("tool_search_output not honoured")
	}
}

func TestInvariantToolCallsDeclared(t *testing.T) {
	good := deferred(t, user("Why do the web pods restart?"), call("mcp__kubernetes__pods_log", "c1"), result("mcp__kubernetes__pods_log", "c1", "OOMKilled"), user(prPrompt))
	if !has(declaredNames(good.Final), "mcp__kubernetes__pods_log") {
		t.Fatalf("called tool dropped: %v", declaredNames(good.Final))
	}
	expect(t, callsDeclared, good, nil, "")
	bad := &rules.Result{Original: good.Original, Final: withTools(t, good.Final, without("mcp__kubernetes__pods_log"))}
	expect(t, callsDeclared, bad, nil, `tool "mcp__kubernetes__pods_log" is called in the history but no longer declared`)
}

func TestInvariantToolSearchBounded(t *testing.T) {
	good := deferred(t)
	expect(t, searchBounded, good, nil, "")
	huge := `{"name":"optimizer_tool_search","description":"` + strings.Repeat("x", 20000) + `","input_schema":{"type":"object"}}`
	bad := withTools(t, good.Final, then(without(transform.SearchToolName), plus(huge)))
	expect(t, searchBounded, &rules.Result{Original: good.Original, Final: bad}, nil, "over its bound")
	// A small page size still pages through every match exactly once.
	cfg := defaults()
	cfg.PageSize = 1
	expect(t, searchBounded, good, cfg, "")
}

func TestInvariantToolsFailOpen(t *testing.T) {
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user("thanks!")))
	res := runRule(t, Defer, c, nil)
	expect(t, failOpen, res, nil, "")
	bad := &rules.Result{Original: c, Final: withTools(t, c, then(without("mcp__postgres__execute_sql"), plus(fakeSearch)))}
	expect(t, failOpen, bad, nil, "tools were deferred although the signal is weak")
	// Another rule's tool appearing is not a deferral.
	other := &rules.Result{Original: c, Final: withTools(t, c, plus(`{"name":"retrieve_output","description":"x","input_schema":{"type":"object"}}`))}
	expect(t, failOpen, other, nil, "")
	expect(t, toolsAbsent, other, nil, "")
}

// TestInvariantsIgnoreUntouchedTools: invariants have nothing to say about
// a capture whose tools no rule changed.
func TestInvariantsIgnoreUntouchedTools(t *testing.T) {
	c := readCapture(t, capture.OpenAIChat, conversation(capture.OpenAIChat, testCatalog, user("thanks")))
	res := &rules.Result{Original: c, Final: c}
	for _, inv := range Rules()[2:] {
		expect(t, inv, res, nil, "")
	}
}
