package capture

import (
	"strings"
	"testing"
)

func TestModelVendor(t *testing.T) {
	for _, tc := range []struct {
		model, vendor string
		routed        bool
	}{
		{"claude-sonnet-4-5", "Anthropic", false},
		{"anthropic.claude-3-5-sonnet-20240620-v1:0", "Anthropic", false},
		{"us.anthropic.claude-sonnet-4-20250514-v1:0", "Anthropic", false},
		{"anthropic/claude-sonnet-4.5", "Anthropic", true},
		{"gpt-5.5", "OpenAI", false},
		{"o3-mini", "OpenAI", false},
		{"o1", "OpenAI", false},
		{"ft:gpt-4o-mini:org::id", "OpenAI", false},
		{"omni", "", false},
		{"gemini-2.5-pro", "Google", false},
		{"mistral-medium-latest", "Mistral", false},
		{"devstral-small", "Mistral", false},
		{"deepseek-v4-pro", "DeepSeek", false},
		{"DeepSeek-R1", "DeepSeek", false},
		{"qwen3-coder", "Qwen", false},
		{"Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen", true},
		{"llama3.1:8b", "Meta", false},
		{"meta-llama/Llama-3.3-70B-Instruct", "Meta", true},
		{"openrouter/auto", "", true},
		{"grok-4", "xAI", false},
		{"kimi-k2", "Moonshot", false},
		{"default", "", false},
		{"", "", false},
	} {
		v, r := ModelVendor(tc.model)
		if v != tc.vendor || r != tc.routed {
			t.Errorf("ModelVendor(%q) = %q, %v; want %q, %v", tc.model, v, r, tc.vendor, tc.routed)
		}
	}
}

// TestDetectModelEvidence: the model id is evidence, and the reason says
// what it points to for each reading.
func TestDetectModelEvidence(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       Provider
		reason     []string // each in the reason
		foreign    bool     // ForeignModel finds a compatible server
	}{
		{"anthropic model without max_tokens", `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hi"}]}`,
			OpenAIChat, []string{`model "claude-sonnet-4-5" is Anthropic's`, "no max_tokens", "invalid Anthropic Messages request", "OpenAI-compatible endpoint", "--provider anthropic"}, true},
		{"anthropic model with max_tokens", `{"model":"claude-sonnet-4-5","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`,
			Anthropic, []string{"max_tokens"}, false},
		{"anthropic model with chat markers", `{"model":"claude-sonnet-4-5","messages":[{"role":"tool","tool_call_id":"a","content":"x"}]}`,
			OpenAIChat, []string{"chat-completions markers", `model "claude-sonnet-4-5" is Anthropic's, not OpenAI's: an OpenAI-compatible server`}, true},
		{"deepseek in a chat body", `{"model":"deepseek-v4-pro","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled"}}`,
			OpenAIChat, []string{`model "deepseek-v4-pro" is DeepSeek's, not OpenAI's: an OpenAI-compatible server`}, true},
		{"qwen with tools", `{"model":"qwen3-coder","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f"}}]}`,
			OpenAIChat, []string{"Qwen's, not OpenAI's"}, true},
		{"llama on ollama", `{"model":"llama3.1:8b","messages":[{"role":"developer","content":"hi"}]}`,
			OpenAIChat, []string{"Meta's, not OpenAI's"}, true},
		{"router id", `{"model":"anthropic/claude-sonnet-4.5","messages":[{"role":"user","content":"hi"}]}`,
			OpenAIChat, []string{"vendor/model id", "OpenAI-compatible server"}, true},
		{"deepseek on an anthropic body", `{"model":"deepseek-chat","max_tokens":5,"system":"s","messages":[{"role":"user","content":"hi"}]}`,
			Anthropic, []string{"DeepSeek's, not Anthropic's: an Anthropic-compatible server"}, true},
		{"openai model", `{"model":"gpt-5","messages":[{"role":"developer","content":"hi"}]}`,
			OpenAIChat, []string{"role developer"}, false},
		{"mistral model", `{"model":"mistral-large-latest","messages":[{"role":"user","content":"hi"}]}`,
			Mistral, []string{"Mistral model"}, false},
		{"unknown model", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
			OpenAIChat, []string{"ambiguous minimal body (openai-chat or mistral)"}, false},
		{"gpt on responses", `{"model":"gpt-5.5","input":"hi"}`, OpenAIResponses, []string{"input"}, false},
		{"qwen on responses", `{"model":"qwen3","input":"hi"}`, OpenAIResponses, []string{"Qwen's, not OpenAI's"}, true},
	} {
		d, err := Parse([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		p, why, err := DetectBody(d)
		if err != nil || p != tc.want {
			t.Errorf("%s: %s (%s, %v), want %s", tc.name, p, why, err, tc.want)
			continue
		}
		for _, w := range tc.reason {
			if !strings.Contains(why, w) {
				t.Errorf("%s: reason %q lacks %q", tc.name, why, w)
			}
		}
		if got := ForeignModel(d, p) != ""; got != tc.foreign {
			t.Errorf("%s: ForeignModel %v, want %v", tc.name, got, tc.foreign)
		}
	}
}

// The URL decides the provider; the model still adds its evidence.
func TestDetectURLModelNote(t *testing.T) {
	d, _ := Parse([]byte(`{"model":"deepseek-v4-pro","messages":[{"role":"user","content":"hi"}]}`))
	p, why, err := Detect(&Capture{URL: "/deepseek/chat/completions", Doc: d})
	if err != nil || p != OpenAIChat || !strings.Contains(why, "chat completions endpoint") || !strings.Contains(why, "DeepSeek's, not OpenAI's") {
		t.Errorf("got %s (%s, %v)", p, why, err)
	}
}

func TestQuoteModelCut(t *testing.T) {
	if q := quoteModel(strings.Repeat("é", 100)); !strings.HasSuffix(q, `"…`) || strings.Count(q, "é") != 64 {
		t.Errorf("quoteModel = %q", q)
	}
}
