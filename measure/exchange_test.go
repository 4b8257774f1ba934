package measure

import "testing"

func TestExchangeUsage(t *testing.T) {
	cases := []struct {
		name, resp                     string
		input, cached, written, output int
		none                           bool
	}{
		{name: "recording, anthropic", resp: `{"status":200,"usage":{"input_tokens":3,"cache_read_input_tokens":100,"cache_creation_input_tokens":20,"output_tokens":7}}`, input: 123, cached: 100, written: 20, output: 7},
		{name: "recording, openai chat", resp: `{"status":200,"usage":{"prompt_tokens":50,"prompt_tokens_details":{"cached_tokens":32},"completion_tokens":4}}`, input: 50, cached: 32, output: 4},
		{name: "recording, gemini", resp: `{"status":200,"usage":{"promptTokenCount":9,"cachedContentTokenCount":4,"candidatesTokenCount":2,"thoughtsTokenCount":1}}`, input: 9, cached: 4, output: 3},
		{name: "claude-trace body", resp: `{"status_code":200,"body":{"usage":{"input_tokens":8,"output_tokens":1}}}`, input: 8, output: 1},
		{name: "claude-trace body_raw", resp: `{"status_code":200,"body_raw":"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":4,\"cache_read_input_tokens\":10,\"output_tokens\":1}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":30}}\n\n"}`, input: 14, cached: 10, output: 30},
		{name: "error without usage", resp: `{"status":429,"headers":{"retry-after":"3"}}`, none: true},
		{name: "not an object", resp: `[1]`, none: true},
	}
	for _, tc := range cases {
		u := exchangeUsage([]byte(tc.resp))
		if tc.none {
			if u != nil {
				t.Errorf("%s: usage %+v, want none", tc.name, u)
			}
			continue
		}
		if u == nil {
			t.Errorf("%s: no usage", tc.name)
			continue
		}
		if u.Input != tc.input || u.Cached != tc.cached || u.Written != tc.written || u.Output != tc.output {
			t.Errorf("%s: got input %d cached %d written %d output %d", tc.name, u.Input, u.Cached, u.Written, u.Output)
		}
	}
}
