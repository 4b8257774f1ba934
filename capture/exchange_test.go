package capture

import (
	"strings"
	"testing"
)

func TestExchangeKeepsResponseAndRedacts(t *testing.T) {
	body := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`
	cases := []struct {
		name, data, env, inResponse string
	}{
		{"recording",
			`{"url":"https://api.anthropic.com/v1/messages?key=SECRETQ","method":"POST","headers":{"x-api-key":"SECRETK","content-type":"application/json"},"body":` + body +
				`,"response":{"status":200,"headers":{"set-cookie":"sid=SECRETC","request-id":"r1"},"usage":{"input_tokens":3,"output_tokens":2}}}`,
			EnvRecord, `"input_tokens":3`},
		{"claude-trace",
			`{"request":{"timestamp":1.5,"method":"POST","url":"https://api.anthropic.com/v1/messages?beta=true","headers":{"authorization":"Bearer SECRETA"},"body":` + body +
				`},"response":{"timestamp":2.5,"status_code":200,"headers":{"set-cookie":"sid=SECRETC"},"body_raw":"event: message_start\\ndata: {}\\n"},"logged_at":"2025-05-29T10:00:00Z"}`,
			EnvExchange, `"status_code":200`},
	}
	for _, tc := range cases {
		f, err := Read("x.jsonl", []byte(tc.data+"\n"), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c := f.Captures[0]
		if c.Envelope != tc.env || c.Provider != Anthropic {
			t.Errorf("%s: envelope %q provider %q", tc.name, c.Envelope, c.Provider)
		}
		if !strings.Contains(string(c.Response), tc.inResponse) {
			t.Errorf("%s: response %s lacks %s", tc.name, c.Response, tc.inResponse)
		}
		if string(c.Body) != body {
			t.Errorf("%s: body %s", tc.name, c.Body)
		}
		out := string(f.Rebuild(nil))
		for _, h := range c.Headers {
			if strings.Contains(h.Value, "SECRET") {
				t.Errorf("%s: header %s kept %q", tc.name, h.Name, h.Value)
			}
		}
		if strings.Contains(out, "SECRET") || strings.Contains(c.URL, "SECRET") {
			t.Errorf("%s: a secret survived: %s", tc.name, out)
		}
	}
}

func TestRedactExports(t *testing.T) {
	if got := RedactURL("https://h/v1/x?key=abc&alt=sse", nil); got != "https://h/v1/x?key=REDACTED&alt=sse" {
		t.Errorf("RedactURL: %s", got)
	}
	for _, tc := range []struct{ name, value, want string }{
		{"x-api-key", "sk-ant-abc", Redacted},
		{"Authorization", "Bearer x", Redacted},
		{"content-type", "application/json", "application/json"},
		{"cookie", "", ""},
	} {
		if got := RedactHeader(tc.name, tc.value, nil); got != tc.want {
			t.Errorf("RedactHeader(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := string(RedactBody([]byte(`{"api_key":"abc","model":"m"}`))); got != `{"api_key":"`+Redacted+`","model":"m"}` {
		t.Errorf("RedactBody: %s", got)
	}
	if got := string(RedactBody([]byte(`not json`))); got != "not json" {
		t.Errorf("RedactBody changed a non-JSON body: %s", got)
	}
}
