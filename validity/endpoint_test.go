package validity

import (
	"net"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
)

func TestStrict(t *testing.T) {
	for url, want := range map[string]bool{
		"":                                      true,
		"https://api.anthropic.com/v1/messages": true,
		"https://api.openai.com/v1/responses":   true,
		"https://generativelanguage.googleapis.com/v1beta/models/g:generateContent":                                          true,
		"https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/google/models/g:generateContent": true,
		"https://api.mistral.ai/v1/chat/completions":                                                                         true,
		"https://bedrock-runtime.us-east-1.amazonaws.com/model/x/invoke":                                                     true,
		"http://localhost:8000/v1/chat/completions":                                                                          false,
		"https://openrouter.ai/api/v1/chat/completions":                                                                      false,
		"https://api.deepseek.com/chat/completions":                                                                          false,
		"https://api.openai.com.evil.example/v1/chat/completions":                                                            false,
		"https://notapi.openai.com/v1":                                                                                       false,
	} {
		got, why := Strict(&capture.Capture{URL: url})
		if got != want {
			t.Errorf("%q: strict %v (%s), want %v", url, got, why, want)
		}
	}
}

// Without an endpoint, the model decides: another vendor's model or a
// router's vendor/model id means a compatible server.
func TestStrictFromModel(t *testing.T) {
	for _, tc := range []struct {
		body string
		p    capture.Provider
		url  string
		want bool
	}{
		{`{"model":"gpt-5","messages":[]}`, capture.OpenAIChat, "", true},
		{`{"model":"m","messages":[]}`, capture.OpenAIChat, "", true},
		{`{"messages":[]}`, capture.OpenAIChat, "", true},
		{`{"model":"deepseek-v4-pro","messages":[]}`, capture.OpenAIChat, "", false},
		{`{"model":"qwen2.5-coder:7b","messages":[]}`, capture.OpenAIChat, "", false},
		{`{"model":"mistral-large-latest","messages":[]}`, capture.OpenAIChat, "", false},
		{`{"model":"openrouter/auto","messages":[]}`, capture.OpenAIChat, "", false},
		{`{"model":"claude-sonnet-4-5","messages":[]}`, capture.OpenAIChat, "", false},
		{`{"model":"claude-sonnet-4-5","max_tokens":1,"messages":[]}`, capture.Anthropic, "", true},
		{`{"model":"kimi-k2","max_tokens":1,"messages":[]}`, capture.Anthropic, "", false},
		{`{"model":"mistral-large-latest","messages":[]}`, capture.Mistral, "", true},
		// The provider's own host rejects what its API does not define,
		// whatever the model.
		{`{"model":"deepseek-v4-pro","messages":[]}`, capture.OpenAIChat, "https://api.openai.com/v1/chat/completions", true},
	} {
		d, err := capture.Parse([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		got, why := Strict(&capture.Capture{URL: tc.url, Doc: d, Provider: tc.p})
		if got != tc.want {
			t.Errorf("%s %s %q: strict %v (%s), want %v", tc.p, tc.body, tc.url, got, why, tc.want)
		}
	}
}

// A capture with only a path takes its host from the Host header.
func TestStrictFromHostHeader(t *testing.T) {
	local := &capture.Capture{URL: "/deepseek/chat/completions", Headers: []capture.Header{{Name: "host", Value: "127.0.0.1:18080"}}}
	if strict, why := Strict(local); strict {
		t.Errorf("local proxy judged strictly (%s)", why)
	}
	official := &capture.Capture{URL: "/v1/messages", Headers: []capture.Header{{Name: "Host", Value: "api.anthropic.com"}}}
	if strict, _ := Strict(official); !strict {
		t.Error("official host from the header judged leniently")
	}
}

// TestWithoutPort: the host of every value net.SplitHostPort splits, and
// every other value unchanged.
func TestWithoutPort(t *testing.T) {
	parts := []string{"", "h", "api.example.com", ":", "8080", "[", "]", "::1", "[::1]", "[::1]:", "x:y"}
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				v := a + b + c
				want := v
				if h, _, err := net.SplitHostPort(v); err == nil {
					want = h
				}
				if got := withoutPort(v); got != want {
					t.Errorf("withoutPort(%q) = %q, want %q", v, got, want)
				}
			}
		}
	}
}

// TestSchemaError: an unknown key is an error only when strict; a member a
// session file does not hold is info on a rebuilt request only, and only at
// the top level.
func TestSchemaError(t *testing.T) {
	sess := &capture.Capture{Session: &capture.Session{Absent: []string{"max_tokens"}}}
	plain := &capture.Capture{}
	unknown := schemas.Error{Pointer: "/x", Unknown: true}
	missing := schemas.Error{Missing: "max_tokens"}
	for _, tc := range []struct {
		name   string
		c      *capture.Capture
		e      schemas.Error
		strict bool
		want   rules.Severity
	}{
		{"unknown, lenient", plain, unknown, false, rules.Info},
		{"unknown, strict", plain, unknown, true, rules.Error},
		{"absent from the session file", sess, missing, true, rules.Info},
		{"missing from a captured request", plain, missing, true, rules.Error},
		{"absent, but not at the top level", sess, schemas.Error{Pointer: "/messages/0", Missing: "max_tokens"}, true, rules.Error},
		{"missing, not one the file lacks", sess, schemas.Error{Missing: "messages"}, true, rules.Error},
	} {
		got, note := SchemaError(tc.c, tc.e, tc.strict)
		if got != tc.want || (got == rules.Info) != (note != "") {
			t.Errorf("%s: %v %q, want %v", tc.name, got, note, tc.want)
		}
	}
}
