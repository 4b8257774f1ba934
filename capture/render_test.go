package capture

import (
	"strings"
	"testing"
)

func TestToolInsertion(t *testing.T) {
	spec := ToolSpec{Name: "skill_search", Description: "find skills", Parameters: []byte(`{"type":"object"}`)}
	cases := []struct {
		p          Provider
		body, want string
	}{
		{Anthropic, `{"max_tokens":1,"messages":[]}`, `"tools":[{"name":"skill_search","description":"find skills","input_schema":{"type":"object"}}]`},
		{Anthropic, `{"max_tokens":1,"tools":[{"name":"a","input_schema":{}}],"messages":[]}`, `{"name":"a","input_schema":{}},{"name":"skill_search"`},
		{OpenAIChat, `{"model":"m","messages":[]}`, `"tools":[{"type":"function","function":{"name":"skill_search","description":"find skills","parameters":{"type":"object"}}}]`},
		{OpenAIResponses, `{"input":"x","tools":[]}`, `"tools":[{"type":"function","name":"skill_search","description":"find skills","parameters":{"type":"object"},"strict":false}]`},
		{Gemini, `{"contents":[]}`, `"tools":[{"functionDeclarations":[{"name":"skill_search","description":"find skills","parametersJsonSchema":{"type":"object"}}]}]`},
		{Gemini, `{"contents":[],"tools":[{"googleSearch":{}},{"function_declarations":[{"name":"f"}]}]}`, `[{"name":"f"},{"name":"skill_search"`},
		{Gemini, `{"contents":[],"tools":{"functionDeclarations":[]}}`, `"tools":{"functionDeclarations":[{"name":"skill_search"`},
		{PiMessages, `{"systemPrompt":"s","messages":[]}`, `"tools":[{"name":"skill_search","description":"find skills","parameters":{"type":"object"}}]`},
	}
	for _, tc := range cases {
		f, err := Read("t.json", []byte(tc.body), Options{Provider: tc.p})
		if err != nil {
			t.Fatal(err)
		}
		c := f.Captures[0]
		ins, err := c.ToolInsertion(spec)
		if err != nil {
			t.Errorf("%s %s: %v", tc.p, tc.body, err)
			continue
		}
		// Apply the insertion by hand: before the container's last byte.
		n, err := c.Doc.Lookup(ins.Pointer)
		if err != nil {
			t.Fatal(err)
		}
		at := int(c.Doc.Nodes[n].End) - 1
		text := ins.JSON
		if ins.Insert != "" {
			text = append(append(Quote(ins.Insert), ':'), text...)
		}
		if c.Doc.Len(n) > 0 {
			text = append([]byte{','}, text...)
		}
		out := string(c.Body[:at]) + string(text) + string(c.Body[at:])
		if _, err := Parse([]byte(out)); err != nil {
			t.Errorf("%s: result does not parse: %v", tc.p, err)
		}
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: %s\nlacks %s", tc.p, out, tc.want)
		}
	}
	f, _ := Read("t.json", []byte(`[{"role":"user","content":"x","timestamp":1}]`), Options{})
	if _, err := f.Captures[0].ToolInsertion(spec); err == nil {
		t.Error("a bare Pi message list got a tools insertion")
	}
}
