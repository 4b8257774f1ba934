package measure

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// session is a Pi session in the tree format: a first exchange, a
// compaction, a branch that is abandoned and one that goes on.
const session = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}
{"type":"model_change","id":"e1","parentId":null,"timestamp":"t","provider":"anthropic","modelId":"claude-sonnet-4-5"}
{"type":"message","id":"e2","parentId":"e1","timestamp":"t","message":{"role":"user","content":"Rename the config flag.","timestamp":1}}
{"type":"message","id":"e3","parentId":"e2","timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"main.go"}}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":20,"output":30,"cacheRead":0,"cacheWrite":900,"totalTokens":950,"cost":{"total":0.004}},"stopReason":"toolUse","timestamp":2}}
{"type":"message","id":"e4","parentId":"e3","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"package main"}],"isError":false,"timestamp":3}}
{"type":"message","id":"e5","parentId":"e4","timestamp":"t","message":{"role":"bashExecution","command":"ls","output":"main.go","exitCode":0,"cancelled":false,"truncated":false,"excludeFromContext":true,"timestamp":4}}
{"type":"custom_message","customType":"reminder","content":"Run the tests.","display":false,"id":"e6","parentId":"e5","timestamp":"t"}
{"type":"custom","customType":"state","data":{},"id":"e7","parentId":"e6","timestamp":"t"}
{"type":"message","id":"e8","parentId":"e7","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"Renamed."}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":5,"output":8,"cacheRead":900,"cacheWrite":60,"totalTokens":973,"cost":{"total":0.001}},"stopReason":"stop","timestamp":5}}
{"type":"compaction","id":"e9","parentId":"e8","timestamp":"t","summary":"The flag was renamed.","firstKeptEntryId":"e8","tokensBefore":1000}
{"type":"message","id":"e10","parentId":"e9","timestamp":"t","message":{"role":"user","content":"Now update the docs.","timestamp":6}}
{"type":"message","id":"e11","parentId":"e10","timestamp":"t","message":{"role":"assistant","content":[],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":0}},"stopReason":"aborted","timestamp":7}}
{"type":"branch_summary","id":"e12","parentId":"e8","timestamp":"t","fromId":"e11","summary":"Tried the docs first."}
{"type":"message","id":"e13","parentId":"e12","timestamp":"t","message":{"role":"user","content":"Update the changelog instead.","timestamp":8}}
{"type":"message","id":"e14","parentId":"e13","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"provider":"openai","model":"gpt-5.5","usage":{"input":100,"output":12,"cacheRead":1024,"cacheWrite":0,"totalTokens":1136,"cost":{"total":0.002}},"stopReason":"stop","timestamp":9}}
`

// entryIDs lists the ids of a turn's entries, in order.
func entryIDs(t *testing.T, c *capture.Capture) string {
	t.Helper()
	d := c.Doc
	var ids []string
	for e := range d.Children(0) {
		ids = append(ids, d.GetStr(e, "id"))
	}
	return strings.Join(ids, " ")
}

// materialize returns an input's request, failing the test when it cannot
// be built.
func materialize(t *testing.T, in *Input) *capture.Capture {
	t.Helper()
	c, err := in.Materialize()
	if err != nil || c == nil {
		t.Fatalf("%s: %v", in.Name, err)
	}
	return c
}

func TestSessionTurns(t *testing.T) {
	f, err := capture.Read("s.jsonl", []byte(session), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Captures) != 1 || f.Captures[0].Envelope != capture.EnvPiSession {
		t.Fatalf("read as %d captures", len(f.Captures))
	}
	ins, errs := Inputs([]*capture.File{f})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []struct {
		name, ids, vendor, model string
		input, cached, written   int
	}{
		// Settings, custom state and excluded bash runs are not sent.
		{"s.jsonl:4", "e2", "anthropic", "claude-sonnet-4-5", 920, 0, 900},
		{"s.jsonl:9", "e2 e3 e4 e6", "anthropic", "claude-sonnet-4-5", 965, 900, 60},
		// After the compaction: its summary, then what it kept.
		{"s.jsonl:12", "e9 e8 e10", "anthropic", "claude-sonnet-4-5", -1, 0, 0},
		// The other branch starts from e8 again: no compaction on its path.
		{"s.jsonl:15", "e2 e3 e4 e6 e8 e12 e13", "openai", "gpt-5.5", 1124, 1024, 0},
	}
	if len(ins) != len(want) {
		t.Fatalf("%d turns, want %d", len(ins), len(want))
	}
	for i, w := range want {
		in := ins[i]
		c := materialize(t, &in)
		if in.Name != w.name || entryIDs(t, c) != w.ids || in.Vendor != w.vendor || in.Model != w.model {
			t.Errorf("turn %d: %s [%s] %s %s, want %s [%s] %s %s", i+1, in.Name, entryIDs(t, c), in.Vendor, in.Model, w.name, w.ids, w.vendor, w.model)
		}
		if c.Provider != capture.PiMessages {
			t.Errorf("turn %d: provider %s", i+1, c.Provider)
		}
		if w.input < 0 {
			if in.Usage != nil {
				t.Errorf("turn %d: an aborted request has usage %+v", i+1, in.Usage)
			}
			continue
		}
		u := in.Usage
		if u == nil || u.Input != w.input || u.Cached != w.cached || u.Written != w.written || u.Source != "pi session" || u.Cost == nil {
			t.Errorf("turn %d: usage %+v", i+1, u)
		}
	}
}

func TestSessionTurnsLinear(t *testing.T) {
	// Version 1: no ids; a compaction keeps entries from an index on.
	v1 := `{"type":"session","id":"s","timestamp":"t","cwd":"/w"}
{"type":"message","timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"one"}]}}
{"type":"message","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"two"}],"provider":"anthropic","model":"claude-opus-4-5","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0}}}
{"type":"message","timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"three"}]}}
{"type":"compaction","timestamp":"t","summary":"one and two","firstKeptEntryIndex":3,"tokensBefore":10}
{"type":"message","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"four"}],"provider":"anthropic","model":"claude-opus-4-5","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0}}}
`
	f, err := capture.Read("v1.jsonl", []byte(v1), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ins, errs := Inputs([]*capture.File{f})
	if len(errs) > 0 || len(ins) != 2 {
		t.Fatalf("%d turns, %v", len(ins), errs)
	}
	texts := func(c *capture.Capture) string {
		var out []string
		for e := range c.Doc.Children(0) {
			if s := c.Doc.GetStr(e, "summary"); s != "" {
				out = append(out, "summary:"+s)
				continue
			}
			m := c.Doc.Get(c.Doc.Get(e, "message"), "content")
			out = append(out, c.Doc.GetStr(c.Doc.Elem(m, 0), "text"))
		}
		return strings.Join(out, ",")
	}
	if got := texts(materialize(t, &ins[0])); got != "one" {
		t.Errorf("turn 1: %s", got)
	}
	if got := texts(materialize(t, &ins[1])); got != "summary:one and two,three" {
		t.Errorf("turn 2: %s", got)
	}
}

func TestSessionWithoutTurns(t *testing.T) {
	s := "{\"type\":\"session\",\"id\":\"s\"}\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
	f, err := capture.Read("empty.jsonl", []byte(s), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ins, errs := Inputs([]*capture.File{f})
	if len(ins) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "empty.jsonl: the Pi session holds no assistant turn") {
		t.Errorf("%v %v", ins, errs)
	}
}

func TestResponseUsage(t *testing.T) {
	cases := []struct {
		name, body                               string
		input, cached, written, uncached, output int
		none                                     bool
	}{
		{"anthropic", `{"type":"message","usage":{"input_tokens":10,"cache_read_input_tokens":2000,"cache_creation_input_tokens":300,"output_tokens":40}}`, 2310, 2000, 300, 10, 40, false},
		{"anthropic stream", "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":7,\"cache_read_input_tokens\":100,\"cache_creation_input_tokens\":0,\"output_tokens\":1}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":55}}\n\n", 107, 100, 0, 7, 55, false},
		{"openai chat", `{"usage":{"prompt_tokens":2006,"completion_tokens":300,"prompt_tokens_details":{"cached_tokens":1920}}}`, 2006, 1920, 0, 86, 300, false},
		{"openai chat stream", "data: {\"choices\":[]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":5,\"prompt_tokens_details\":{\"cached_tokens\":0}}}\n\ndata: [DONE]\n", 50, 0, 0, 50, 5, false},
		{"deepseek", `{"usage":{"prompt_tokens":900,"completion_tokens":9,"prompt_cache_hit_tokens":640,"prompt_cache_miss_tokens":260}}`, 900, 640, 0, 260, 9, false},
		{"openai responses stream", "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":3000,\"input_tokens_details\":{\"cached_tokens\":2048},\"output_tokens\":70}}}\n", 3000, 2048, 0, 952, 70, false},
		{"gemini chunks", `[{"candidates":[],"usageMetadata":{"promptTokenCount":2500}},{"usageMetadata":{"promptTokenCount":2500,"cachedContentTokenCount":2100,"candidatesTokenCount":30,"thoughtsTokenCount":12}}]`, 2500, 2100, 0, 400, 42, false},
		{"anthropic stream, lone CR line ends", "event: message_start\rdata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":7,\"cache_read_input_tokens\":100,\"output_tokens\":1}}}\r\revent: message_delta\rdata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":55}}\r\r", 107, 100, 0, 7, 55, false},
		{"gemini stream, CRLF", "data: {\"usageMetadata\":{\"promptTokenCount\":20}}\r\n\r\ndata: {\"usageMetadata\":{\"promptTokenCount\":20,\"candidatesTokenCount\":3}}\r\n\r\n", 20, 0, 0, 20, 3, false},
		{"no usage", `{"id":"x"}`, 0, 0, 0, 0, 0, true},
		{"not json", "upstream error", 0, 0, 0, 0, 0, true},
	}
	for _, c := range cases {
		u := ResponseUsage([]byte(c.body))
		if c.none {
			if u != nil {
				t.Errorf("%s: %+v", c.name, u)
			}
			continue
		}
		if u == nil || u.Input != c.input || u.Cached != c.cached || u.Written != c.written || u.Uncached != c.uncached || u.Output != c.output {
			t.Errorf("%s: %+v", c.name, u)
		}
	}
}

func TestHARUsage(t *testing.T) {
	har := `{"log":{"version":"1.2","entries":[
{"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages","headers":[],"postData":{"mimeType":"application/json","text":"{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"}},
 "response":{"status":200,"content":{"mimeType":"application/json","text":"{\"usage\":{\"input_tokens\":9,\"output_tokens\":3}}"}}},
{"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages","headers":[],"postData":{"mimeType":"application/json","text":"{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"assistant\",\"content\":\"yo\"},{\"role\":\"user\",\"content\":\"bye\"}]}"}},
 "response":{"status":200,"content":{"mimeType":"application/json","encoding":"base64","text":"eyJ1c2FnZSI6eyJpbnB1dF90b2tlbnMiOjIwLCJvdXRwdXRfdG9rZW5zIjo0fX0="}}}]}}`
	f, err := capture.Read("c.har", []byte(har), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ins, errs := Inputs([]*capture.File{f})
	if len(errs) > 0 || len(ins) != 2 {
		t.Fatalf("%d inputs, %v", len(ins), errs)
	}
	if u := ins[0].Usage; u == nil || u.Input != 9 || u.Output != 3 || u.Source != "response" {
		t.Errorf("entry 1: %+v", u)
	}
	if u := ins[1].Usage; u == nil || u.Input != 20 || u.Output != 4 {
		t.Errorf("entry 2 (base64): %+v", u)
	}
	if ins[0].Vendor != "anthropic" || ins[0].Model != "claude-sonnet-4-5" {
		t.Errorf("vendor %q model %q", ins[0].Vendor, ins[0].Model)
	}
}

// FuzzResponseUsage feeds response bodies to the usage reader: it never
// panics, and what it reports adds up.
func FuzzResponseUsage(f *testing.F) {
	f.Add([]byte(`{"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}`))
	f.Add([]byte("data: {\"usage\":{\"prompt_tokens\":3}}\ndata: [DONE]\n"))
	f.Add([]byte(`[{"usageMetadata":{"promptTokenCount":4,"cachedContentTokenCount":9}}]`))
	f.Add([]byte(`{"response":{"usage":{"input_tokens":1,"input_tokens_details":{"cached_tokens":2}}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		u := ResponseUsage(body)
		if u == nil {
			return
		}
		if u.Input < 0 || u.Cached < 0 || u.Written < 0 || u.Uncached < 0 || u.Output < 0 {
			t.Fatalf("negative counts: %+v", u)
		}
		if u.Uncached > u.Input {
			t.Fatalf("more uncached than input: %+v", u)
		}
	})
}

// FuzzSessionTurns feeds Pi session files to the turn splitter: it never
// panics, and every turn is a Pi message list that parses.
func FuzzSessionTurns(f *testing.F) {
	f.Add([]byte(session))
	f.Add([]byte("{\"type\":\"session\"}\n{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"usage\":{\"input\":1,\"output\":1}}}\n"))
	f.Add([]byte("{\"type\":\"session\"}\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":\"a\",\"message\":{\"role\":\"assistant\"}}\n"))
	f.Add([]byte("{\"type\":\"session\"}\n{\"type\":\"compaction\",\"firstKeptEntryIndex\":-4}\n{\"type\":\"message\",\"message\":{\"role\":\"assistant\"}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := capture.Read("fuzz.jsonl", data, capture.Options{})
		if err != nil {
			return
		}
		ins, _ := Inputs([]*capture.File{file})
		for _, in := range ins {
			c, err := in.Materialize()
			if err != nil || c == nil || c.Doc == nil {
				t.Fatalf("turn %s without a body: %v", in.Name, err)
			}
			if _, err := capture.Parse(c.Body); err != nil {
				t.Fatalf("turn %s does not parse: %v", in.Name, err)
			}
		}
	})
}
