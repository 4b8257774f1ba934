package tools

import (
	"github.com/pelletier/go-toml/v2"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
	"github.com/skillopt/skillopt/transform"
)

// turn is one step of a test conversation: a human message ("user"), a
// tool call ("call") or its result ("result").
type turn struct {
	kind, text, name, id string
}

func user(text string) turn             { return turn{kind: "user", text: text} }
func call(name, id string) turn         { return turn{kind: "call", name: name, id: id} }
func result(name, id, text string) turn { return turn{kind: "result", name: name, id: id, text: text} }
func injected(text string) turn {
	return turn{kind: "user", text: "<system-reminder>" + text + "</system-reminder>"}
}
func q(s string) string                       { return string(capture.Quote(s)) }
func spec(name, desc string) capture.ToolSpec { return capture.ToolSpec{Name: name, Description: desc} }

// turnShapes renders one turn as each provider's clients send it.
var turnShapes = map[capture.Provider]func(p capture.Provider, t turn) string{
	capture.Anthropic:       anthropicTurn,
	capture.OpenAIChat:      chatTurn,
	capture.Mistral:         chatTurn,
	capture.OpenAIResponses: responsesTurn,
	capture.Gemini:          geminiTurn,
	capture.PiMessages:      piTurn,
}

func anthropicTurn(_ capture.Provider, t turn) string {
	switch t.kind {
	case "call":
		return `{"role":"assistant","content":[{"type":"tool_use","id":` + q(t.id) + `,"name":` + q(t.name) + `,"input":{}}]}`
	case "result":
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":` + q(t.id) + `,"content":` + q(t.text) + `}]}`
	}
	return `{"role":"user","content":[{"type":"text","text":` + q(t.text) + `}]}`
}

func chatTurn(p capture.Provider, t turn) string {
	switch t.kind {
	case "call":
		return `{"role":"assistant","content":null,"tool_calls":[{"id":` + q(t.id) + `,"type":"function","function":{"name":` + q(t.name) + `,"arguments":"{}"}}]}`
	case "result":
		if p == capture.Mistral {
			return `{"role":"tool","tool_call_id":` + q(t.id) + `,"name":` + q(t.name) + `,"content":` + q(t.text) + `}`
		}
		return `{"role":"tool","tool_call_id":` + q(t.id) + `,"content":` + q(t.text) + `}`
	}
	return `{"role":"user","content":` + q(t.text) + `}`
}

func responsesTurn(_ capture.Provider, t turn) string {
	switch t.kind {
	case "call":
		return `{"type":"function_call","call_id":` + q(t.id) + `,"name":` + q(t.name) + `,"arguments":"{}"}`
	case "result":
		return `{"type":"function_call_output","call_id":` + q(t.id) + `,"output":` + q(t.text) + `}`
	}
	return `{"role":"user","content":[{"type":"input_text","text":` + q(t.text) + `}]}`
}

func geminiTurn(_ capture.Provider, t turn) string {
	switch t.kind {
	case "call":
		return `{"role":"model","parts":[{"functionCall":{"name":` + q(t.name) + `,"args":{}}}]}`
	case "result":
		return `{"role":"user","parts":[{"functionResponse":{"name":` + q(t.name) + `,"response":{"output":` + q(t.text) + `}}}]}`
	}
	return `{"role":"user","parts":[{"text":` + q(t.text) + `}]}`
}

func piTurn(_ capture.Provider, t turn) string {
	switch t.kind {
	case "call":
		return `{"role":"assistant","content":[{"type":"toolCall","id":` + q(t.id) + `,"name":` + q(t.name) + `,"arguments":{}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"toolUse","timestamp":1767225601000}`
	case "result":
		return `{"role":"toolResult","toolCallId":` + q(t.id) + `,"toolName":` + q(t.name) + `,"content":[{"type":"text","text":` + q(t.text) + `}],"isError":false,"timestamp":1767225602000}`
	}
	return `{"role":"user","content":` + q(t.text) + `,"timestamp":1767225600000}`
}

// conversation renders a request of provider p declaring tools and holding
// turns, the way that provider's clients send it.
func conversation(p capture.Provider, tools []capture.ToolSpec, turns ...turn) string {
	var decls []string
	for _, t := range tools {
		decls = append(decls, string(capture.RenderTool(p, t)))
	}
	list := "[" + strings.Join(decls, ",") + "]"
	var msgs []string
	for _, t := range turns {
		msgs = append(msgs, turnShapes[p](p, t))
	}
	sys := q("You are a coding agent.")
	if p == capture.OpenAIChat || p == capture.Mistral {
		msgs = append([]string{`{"role":"system","content":` + sys + `}`}, msgs...)
	}
	conv := "[" + strings.Join(msgs, ",") + "]"
	switch p {
	case capture.Anthropic:
		return `{"model":"claude-sonnet-4-5","max_tokens":4096,"system":[{"type":"text","text":` + sys + `}],"tools":` + list + `,"messages":` + conv + `}`
	case capture.OpenAIChat:
		return `{"model":"gpt-4.1","messages":` + conv + `,"tools":` + list + `}`
	case capture.Mistral:
		return `{"model":"mistral-large-latest","messages":` + conv + `,"tools":` + list + `}`
	case capture.OpenAIResponses:
		return `{"model":"gpt-5.4","instructions":` + sys + `,"input":` + conv + `,"tools":` + list + `}`
	case capture.Gemini:
		return `{"systemInstruction":{"parts":[{"text":` + sys + `}]},"contents":` + conv + `,"tools":[{"functionDeclarations":` + list + `}]}`
	default:
		return `{"systemPrompt":` + sys + `,"tools":` + list + `,"messages":` + conv + `}`
	}
}

// readCapture reads body, checking its detected provider and that it
// validates.
func readCapture(t testing.TB, p capture.Provider, body string) *capture.Capture {
	t.Helper()
	f, err := capture.Read(string(p)+".json", []byte(body), capture.Options{})
	if err != nil {
		t.Fatalf("%s: %v\n%.2000s", p, err, body)
	}
	c := f.Captures[0]
	if c.Provider != p {
		t.Fatalf("built a %s capture, detected %s (%s)", p, c.Provider, c.Reason)
	}
	if errs, err := schemas.Validate(string(p), c.Body); err != nil || len(errs) > 0 {
		t.Fatalf("%s test capture does not validate: %v %v\n%.2000s", p, errs, err, body)
	}
	return c
}

// testCatalog is a small MCP-style catalog: core tools and four servers.
var testCatalog = []capture.ToolSpec{
	{Name: "read", Description: "Read a file.", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string","description":"File path"}},"required":["path"]}`)},
	{Name: "bash", Description: "Run a shell command.", Parameters: []byte(`{"type":"object","properties":{"command":{"type":"string","description":"Command line"}},"required":["command"]}`)},
	{Name: "mcp__github__create_pull_request", Description: "Open a pull request on GitHub from a head branch into a base branch.", Parameters: []byte(`{"type":"object","properties":{"owner":{"type":"string","description":"Repository owner"},"repo":{"type":"string","description":"Repository name"},"title":{"type":"string","description":"Pull request title"},"head":{"type":"string","description":"Branch with the changes"},"base":{"type":"string","description":"Branch to merge into"}},"required":["owner","repo","title","head","base"]}`)},
	{Name: "mcp__github__list_issues", Description: "List issues of a GitHub repository filtered by state and labels.", Parameters: []byte(`{"type":"object","properties":{"owner":{"type":"string","description":"Repository owner"},"repo":{"type":"string","description":"Repository name"},"state":{"type":"string","enum":["open","closed","all"],"description":"Issue state"}},"required":["owner","repo"]}`)},
	{Name: "mcp__github__get_job_logs", Description: "Download the logs of a failed GitHub Actions workflow job.", Parameters: []byte(`{"type":"object","properties":{"owner":{"type":"string","description":"Repository owner"},"repo":{"type":"string","description":"Repository name"},"runId":{"type":"integer","description":"Workflow run ID"}},"required":["owner","repo","runId"]}`)},
	{Name: "mcp__kubernetes__pods_list", Description: "List Kubernetes pods of a namespace with phase and restart counts.", Parameters: []byte(`{"type":"object","properties":{"namespace":{"type":"string","description":"Namespace"},"labelSelector":{"type":"string","description":"Label selector such as app=web"}}}`)},
	{Name: "mcp__kubernetes__pods_log", Description: "Get the logs of a pod's container, optionally of the previous crashed instance.", Parameters: []byte(`{"type":"object","properties":{"namespace":{"type":"string","description":"Namespace"},"name":{"type":"string","description":"Pod name"},"previous":{"type":"boolean","description":"Previous container"}},"required":["name"]}`)},
	{Name: "mcp__kubernetes__events_list", Description: "List cluster events such as OOM kills and failed probes for a namespace.", Parameters: []byte(`{"type":"object","properties":{"namespace":{"type":"string","description":"Namespace"}}}`)},
	{Name: "mcp__slack__post_message", Description: "Post a message to a Slack channel.", Parameters: []byte(`{"type":"object","properties":{"channel":{"type":"string","description":"Channel ID or #name"},"text":{"type":"string","description":"Message text"}},"required":["channel","text"]}`)},
	{Name: "mcp__slack__search_messages", Description: "Search Slack messages across channels.", Parameters: []byte(`{"type":"object","properties":{"query":{"type":"string","description":"Search query"}},"required":["query"]}`)},
	{Name: "mcp__postgres__execute_sql", Description: "Run a SQL statement against PostgreSQL and return the rows.", Parameters: []byte(`{"type":"object","properties":{"sql":{"type":"string","description":"The SQL statement"}},"required":["sql"]}`)},
	{Name: "mcp__postgres__describe_table", Description: "Describe a PostgreSQL table: columns, types, indexes and foreign keys.", Parameters: []byte(`{"type":"object","properties":{"table":{"type":"string","description":"Table name"}},"required":["table"]}`)},
}

// defaults returns a copy of the default settings to change.
func defaults() *Settings {
	s := *Defaults
	return &s
}

// envWith returns an environment whose [tools] settings are s (SO201's
// own options at their defaults), bound and checked as a skillopt.toml
// would be.
func envWith(t testing.TB, s *Settings) *rules.Env {
	t.Helper()
	b, err := rules.Bind([]rules.Owner{{Name: "tools", Options: Defaults}, {Name: "SO201", Options: Defer.Options}})
	if err != nil {
		t.Fatal(err)
	}
	targets := b.Targets()
	data, err := toml.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(data, targets["tools"]); err != nil {
		t.Fatal(err)
	}
	set, errs := b.Set(targets)
	if len(errs) > 0 {
		t.Fatalf("settings: %v", errs)
	}
	return &rules.Env{Options: set}
}

// runRule runs one rule with cfg (defaults when nil) and validation.
func runRule(t testing.TB, r *rules.Rule, c *capture.Capture, cfg *Settings) *rules.Result {
	t.Helper()
	if cfg == nil {
		cfg = defaults()
	}
	env := &rules.Env{Options: envWith(t, cfg).Options, Validate: func(c *capture.Capture) ([]string, error) {
		errs, err := schemas.ValidateDoc(string(c.Provider), c.Doc)
		var out []string
		for _, e := range errs {
			out = append(out, e.String())
		}
		return out, err
	}}
	res, err := rules.Run(c, []*rules.Rule{r}, env)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// verify runs one invariant over a result and returns its messages.
func verify(t testing.TB, inv *rules.Rule, res *rules.Result, cfg *Settings) []string {
	t.Helper()
	if cfg == nil {
		cfg = defaults()
	}
	env := envWith(t, cfg)
	diags, err := rules.Verify(res, []*rules.Rule{inv}, env)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range diags {
		out = append(out, d.Message)
	}
	return out
}

func declaredNames(c *capture.Capture) []string {
	var out []string
	for _, d := range transform.ToolDecls(c) {
		out = append(out, d.Name)
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
