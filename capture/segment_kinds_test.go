package capture

import (
	"strings"
	"testing"
)

// kinds renders a capture's segments as "kind/prov" in body order.
func kinds(t *testing.T, body string, p Provider) string {
	t.Helper()
	d, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range BuildSegments(d, p) {
		x := string(s.Kind)
		if s.Prov != ProvSystem && s.Prov != ProvOther {
			x += "/" + string(s.Prov)
		}
		out = append(out, x)
	}
	return strings.Join(out, " ")
}

func TestSegmentLabels(t *testing.T) {
	cases := []struct {
		name string
		p    Provider
		body string
		want string
	}{
		{"anthropic", Anthropic, `{"max_tokens":1,"system":[{"type":"text","text":"s"}],"tools":[{"name":"t","input_schema":{}}],"messages":[
			{"role":"user","content":"<system-reminder>ctx</system-reminder>"},
			{"role":"user","content":[{"type":"text","text":"real question"},{"type":"image","source":{"type":"base64","data":"AA=="}}]},
			{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"x"},{"type":"text","text":"ok"},{"type":"tool_use","id":"1","name":"t","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":"out"}]}]}`,
			"system tools/tool system/injected human/human media/media thinking/assistant assistant/assistant tool-calls/assistant tool-results/tool"},
		{"chat", OpenAIChat, `{"model":"m","tools":[{"type":"function","function":{"name":"f"}}],"messages":[
			{"role":"developer","content":"d"},{"role":"user","content":[{"type":"text","text":"q"},{"type":"image_url","image_url":{"url":"data:"}}]},
			{"role":"assistant","content":null,"reasoning_content":"r","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"1","content":"out"}]}`,
			"tools/tool system human/human media/media thinking/assistant tool-calls/assistant tool-results/tool"},
		{"responses", OpenAIResponses, `{"instructions":"i","input":[{"role":"developer","content":"d"},{"role":"user","content":[{"type":"input_text","text":"q"}]},
			{"type":"reasoning","id":"r","summary":[]},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"o"},
			{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}]}]}`,
			"system system human/human thinking/assistant tool-calls/assistant tool-results/tool assistant/assistant"},
		{"gemini snake and singletons", Gemini, `{"system_instruction":{"parts":{"text":"s"}},"tools":{"function_declarations":[{"name":"f"}]},"contents":{"role":"user","parts":{"text":"q"}}}`,
			"system tools/tool human/human"},
		{"gemini parts", Gemini, `{"contents":[{"role":"user","parts":[{"text":"q"},{"inline_data":{"mime_type":"image/png","data":"AA=="}}]},
			{"role":"model","parts":[{"text":"t","thought":true},{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`,
			"human/human media/media thinking/assistant tool-calls/assistant tool-results/tool"},
		{"pi", PiMessages, `{"systemPrompt":"s","tools":[{"name":"read"}],"messages":[{"role":"user","content":"q","timestamp":1},
			{"role":"custom","customType":"note","content":"c","display":false,"timestamp":2},{"role":"bashExecution","command":"ls","output":"x","timestamp":3},
			{"role":"assistant","content":[{"type":"toolCall","id":"1","name":"read","arguments":{}}],"api":"a","stopReason":"toolUse","timestamp":4},
			{"role":"toolResult","toolCallId":"1","toolName":"read","content":[],"isError":false,"timestamp":5},{"role":"user","content":"The conversation history before this point was compacted into the following summary:\n\n<summary>x</summary>","timestamp":6}]}`,
			"system tools/tool human/human system/injected tool-results/injected tool-calls/assistant tool-results/tool system/injected"},
	}
	for _, tc := range cases {
		if got := kinds(t, tc.body, tc.p); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
