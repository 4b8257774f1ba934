package capture

import (
	"testing"
)

func TestVendorOf(t *testing.T) {
	cases := []struct {
		provider            Provider
		url, body           string
		wantVendor, wantMod string
	}{
		{Anthropic, "", `{"model":"claude-opus-4-6","max_tokens":1,"messages":[]}`, "anthropic", "claude-opus-4-6"},
		{Gemini, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", `{"contents":[]}`, "gemini", "gemini-2.5-pro"},
		{OpenAIChat, "https://api.deepseek.com/chat/completions", `{"model":"deepseek-v4-pro","messages":[]}`, "deepseek", "deepseek-v4-pro"},
		{OpenAIChat, "/deepseek/chat/completions", `{"model":"deepseek-v4-pro","messages":[]}`, "deepseek", "deepseek-v4-pro"},
		{OpenAIChat, "http://127.0.0.1:8000/v1/chat/completions", `{"model":"Qwen/Qwen3-Coder-30B-A3B-Instruct","messages":[]}`, "", "Qwen/Qwen3-Coder-30B-A3B-Instruct"},
		{OpenAIResponses, "https://api.openai.com/v1/responses", `{"model":"my-fine-tune","input":"x"}`, "openai", "my-fine-tune"},
		{OpenAIChat, "", `{"model":"gpt-5.5","messages":[]}`, "openai", "gpt-5.5"},
		{OpenAIChat, "", `{"model":"o4-mini","messages":[]}`, "openai", "o4-mini"},
		{OpenAIChat, "https://openrouter.ai/api/v1/chat/completions", `{"model":"anthropic/claude-sonnet-4-5","messages":[]}`, "anthropic", "anthropic/claude-sonnet-4-5"},
		{Mistral, "", `{"model":"mistral-medium-latest","messages":[]}`, "mistral", "mistral-medium-latest"},
	}
	for _, c := range cases {
		f, err := Read("x.json", []byte(c.body), Options{Provider: c.provider})
		if err != nil {
			t.Fatal(err)
		}
		cp := f.Captures[0]
		cp.URL = c.url
		if v, m := VendorOf(cp); v != c.wantVendor || m != c.wantMod {
			t.Errorf("%s %s: %q %q, want %q %q", c.provider, c.url, v, m, c.wantVendor, c.wantMod)
		}
	}
}
