package transform

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

func readBody(t testing.TB, body string) *capture.Capture {
	t.Helper()
	f, err := capture.Read("c.json", []byte(body), capture.Options{})
	if err != nil || len(f.Captures) != 1 {
		t.Fatalf("%v %v", f, err)
	}
	return f.Captures[0]
}

// Each provider's declarations are read in its own shape: names, what may
// be deferred, search tools and deferred definitions.
func TestToolDeclsShapes(t *testing.T) {
	cases := []struct {
		name, body string
		want       string // name:flags, flags f=function s=search d=deferred
	}{
		{"anthropic", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}],"tools":[` +
			`{"name":"a","description":"d","input_schema":{}},{"type":"web_search_20250305","name":"web_search"},` +
			`{"name":"b","input_schema":{},"defer_loading":true},{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}]}`,
			"a:f web_search: b:fd tool_search_tool_bm25:s"},
		{"openai-chat", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[` +
			`{"type":"function","function":{"name":"a","parameters":{}}},{"type":"function","function":{"name":"optimizer_tool_search","parameters":{}}}]}`,
			"a:f optimizer_tool_search:s"},
		{"openai-responses", `{"model":"m","input":"hi","tools":[{"type":"function","name":"a","parameters":{}},{"type":"tool_search"},{"type":"web_search"}]}`,
			"a:f tool_search:s web_search:"},
		{"gemini", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"a"},{"name":"b"}]},{"googleSearch":{}}]}`,
			"a:f b:f"},
	}
	for _, tc := range cases {
		c := readBody(t, tc.body)
		var got []string
		for _, d := range ToolDecls(c) {
			flags := ""
			if d.Function {
				flags += "f"
			}
			if d.Search {
				flags += "s"
			}
			if d.Deferred {
				flags += "d"
			}
			if d.Bytes(c.Doc) <= 0 {
				t.Errorf("%s: %s has no bytes", tc.name, d.Name)
			}
			got = append(got, d.Name+":"+flags)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, strings.Join(got, " "), tc.want)
		}
	}
}

// Deferring keeps the other declarations and the array's layout byte for
// byte, and hands a removed declaration's cache breakpoint to the search
// declaration; native deferral only adds defer_loading and the provider's
// search tool.
func TestDeferEdits(t *testing.T) {
	body := "{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"tools\":[\n  {\"name\":\"a\",\"input_schema\":{}},\n  {\"name\":\"b\",\"input_schema\":{},\"cache_control\":{\"type\":\"ephemeral\"}}\n]}"
	c := readBody(t, body)
	decls := ToolDecls(c)
	deferred := map[string]bool{"b": true}
	extra := MovedCacheControl(c, decls, deferred)
	if string(extra) != `"cache_control":{"type":"ephemeral"}` {
		t.Fatalf("moved %s", extra)
	}
	edits, err := DeferEdits(c, decls, deferred, []byte(`{"name":"optimizer_tool_search",`+string(extra)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	next, _, err := rules.Apply(c, edits)
	if err != nil {
		t.Fatal(err)
	}
	want := "[\n  {\"name\":\"a\",\"input_schema\":{}},\n  {\"name\":\"optimizer_tool_search\",\"cache_control\":{\"type\":\"ephemeral\"}}\n]"
	if got := string(next.Doc.Raw(next.Doc.Get(0, "tools"))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	edits, err = NativeEdits(c, decls, deferred, "regex")
	if err != nil {
		t.Fatal(err)
	}
	next, _, err = rules.Apply(c, edits)
	if err != nil {
		t.Fatal(err)
	}
	got := string(next.Doc.Raw(next.Doc.Get(0, "tools")))
	if !strings.Contains(got, `{"name":"b","input_schema":{},"defer_loading":true}`) ||
		!strings.Contains(got, `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex","cache_control":{"type":"ephemeral"}}`) ||
		!strings.HasPrefix(got, "[\n  {\"name\":\"a\",\"input_schema\":{}},") {
		t.Errorf("native: %s", got)
	}
	if _, err := NativeEdits(readBody(t, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"b"}]}]}`), nil, deferred, "bm25"); err == nil {
		t.Error("native deferral on Gemini")
	}
}

// FuzzToolDecls: any capture's declarations are read without a panic, lie
// inside the body, and deferring every function declaration gives edits
// that apply and parse.
func FuzzToolDecls(f *testing.F) {
	f.Add([]byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"a","input_schema":{}},{"name":"b","input_schema":{}}]}`))
	f.Add([]byte(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":{"function_declarations":{"name":"x"}}}`))
	f.Add([]byte(`{"model":"m","input":"hi","tools":[{"type":"function","name":"a","parameters":{}},{"type":"tool_search"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		file, err := capture.Read("f.json", body, capture.Options{})
		if err != nil {
			return
		}
		for _, c := range file.Captures {
			decls := ToolDecls(c)
			deferred := map[string]bool{}
			for _, d := range decls {
				if n := d.Bytes(c.Doc); n <= 0 || n > len(c.Body) {
					t.Fatalf("declaration %q of %d bytes", d.Name, n)
				}
				if d.Function {
					deferred[d.Name] = true
				}
			}
			if len(deferred) == 0 {
				continue
			}
			search := capture.RenderTool(c.Provider, capture.ToolSpec{Name: SearchToolName, Description: "search", Parameters: []byte(`{"type":"object"}`)})
			edits, err := DeferEdits(c, decls, deferred, search)
			if err != nil {
				continue
			}
			next, _, err := rules.Apply(c, edits)
			if err != nil {
				t.Fatalf("edits do not apply: %v", err)
			}
			if !bytes.Contains(next.Body, []byte(SearchToolName)) {
				t.Fatal("search declaration missing")
			}
		}
	})
}
