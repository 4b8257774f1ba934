package measure

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/internal/convtest"
	"github.com/skillopt/skillopt/rules"
)

// TestExactOnlyForOpenAIModels: o200k_base counts are exact for the real
// Pi request to an OpenAI model and estimates for the same conversation
// sent to Anthropic, DeepSeek (through the OpenAI Chat wire format), Qwen,
// Gemini and Mistral.
func TestExactOnlyForOpenAIModels(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "captures", "pi-0.73.1")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not present at %s", dir)
	}
	want := map[string]bool{
		"pi-openai-responses-small-1.json":        true,  // gpt-5.5
		"pi-openai-completions-small-1.json":      false, // deepseek on the OpenAI wire format
		"pi-openai-completions-vllm-small-1.json": false,
		"pi-anthropic-messages-small-1.json":      false,
		"pi-google-generative-ai-small-1.json":    false,
		"pi-mistral-conversations-small-1.json":   false,
	}
	for name, exact := range want {
		f, err := capture.ReadFile(filepath.Join(dir, name), nil, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := f.Captures[0]
		r := Measure(&rules.Result{Original: c, Final: c}, Options{Encoding: "o200k_base", Counter: quarterBytes{}})
		if r.Tokens.Exact != exact {
			t.Errorf("%s: exact %v, want %v", name, r.Tokens.Exact, exact)
		}
		if ExactFor(c, "cl100k_base") {
			t.Errorf("%s: cl100k_base counted as exact", name)
		}
	}
	for model, enc := range map[string]string{"gpt-4o-mini": "o200k_base", "openai/gpt-4.1": "o200k_base", "gpt-4-turbo": "cl100k_base", "gpt-3.5-turbo": "cl100k_base", "o3-mini": "o200k_base", "claude-sonnet-4-6": "", "deepseek-chat": ""} {
		c := readJSON(t, `{"model":"`+model+`","messages":[{"role":"user","content":"hi"}]}`)
		if got := ExactFor(c, "o200k_base"); got != (enc == "o200k_base") {
			t.Errorf("%s: exact for o200k_base %v", model, got)
		}
	}
}

func readJSON(t *testing.T, body string) *capture.Capture {
	t.Helper()
	f, err := capture.Read("b.json", []byte(body), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// quarterBytes counts one token per four bytes.
type quarterBytes = convtest.Quarters
