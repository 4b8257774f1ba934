package capture

import (
	"strings"
	"testing"
)

// cassetteOf builds a one-interaction cassette around a request's lines
// (indented under "request:") and a response's.
func cassetteOf(req, resp string) string {
	return "interactions:\n- request:\n" + req + "  response:\n" + resp + "version: 1\n"
}

const vcrResp = `    body:
      string: '{"id":"msg_1","type":"message","role":"assistant","usage":{"input_tokens":12,"output_tokens":3}}'
    headers:
      set-cookie:
      - __cf_bm=abc123secret; path=/
    status:
      code: 200
      message: OK
`

func TestCassette(t *testing.T) {
	anthropicReq := `    headers:
      x-api-key:
      - sk-ant-api03-secretsecretsecret
      authorization:
      - Bearer sk-secret-token-value
      cookie:
      - session=cookiesecret
      content-type:
      - application/json
    method: POST
    parsed_body:
      model: claude-sonnet-4-5
      max_tokens: 1_024
      temperature: 0.5
      stream: false
      stop_sequences: null
      messages:
      - role: user
        content: "hi \u00e9"
    uri: https://api.anthropic.com/v1/messages?key=querysecret&beta=true
`
	tests := []struct {
		name     string
		in       string
		err      string // substring of the error; "" for success
		captures int
		skipped  int
		body     string // body of the first capture
		url      string
	}{
		{name: "parsed body", in: cassetteOf(anthropicReq, vcrResp), captures: 1,
			body: `{"model":"claude-sonnet-4-5","max_tokens":1024,"temperature":0.5,"stream":false,"stop_sequences":null,"messages":[{"role":"user","content":"hi é"}]}`,
			url:  "https://api.anthropic.com/v1/messages?key=REDACTED&beta=true"},
		{name: "body string kept as it is", in: cassetteOf(`    body: '{"model": "gpt-4o",  "messages": [{"role": "user", "content": "x"}]}'
    method: POST
    uri: https://api.openai.com/v1/chat/completions
`, vcrResp), captures: 1, body: `{"model": "gpt-4o",  "messages": [{"role": "user", "content": "x"}]}`},
		{name: "body string mapping", in: cassetteOf(`    body:
      string: '{"model":"gpt-4o","messages":[]}'
    method: POST
    uri: https://api.openai.com/v1/chat/completions
`, vcrResp), captures: 1, body: `{"model":"gpt-4o","messages":[]}`},
		{name: "non-JSON bodies skipped", in: "interactions:\n" +
			"- request:\n    body: null\n    method: GET\n    uri: https://example.com/image.png\n  response:\n    status: {code: 200}\n" +
			"- request:\n    body: grant_type=client_credentials&client_secret=s3cret\n    method: POST\n    uri: https://oauth2.example.com/token\n  response:\n    status: {code: 200}\n" +
			"- request:\n    body: !!binary |\n      AAEC\n    method: POST\n    uri: https://example.com/upload\n  response:\n    status: {code: 200}\n" +
			"- request:\n    parsed_body: {model: gpt-4o, messages: [{role: user, content: x}]}\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n  response:\n    status: {code: 200}\n",
			captures: 1, skipped: 3, body: `{"model":"gpt-4o","messages":[{"role":"user","content":"x"}]}`},
		{name: "nothing to read", in: "interactions:\n- request:\n    body: null\n    method: GET\n    uri: https://example.com/\n  response:\n    status: {code: 200}\n",
			err: "holds no request with a JSON body"},
		{name: "alias refused", in: "interactions:\n- request:\n    parsed_body:\n      model: &m gpt-4o\n      messages: [{role: user, content: *m}]\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n",
			err: "5:40: VCR cassette: YAML aliases are not read"},
		{name: "billion laughs refused", in: "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\ninteractions:\n- request:\n    parsed_body: {messages: *c, model: gpt-4o}\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n",
			err: "YAML aliases are not read"},
		{name: "merge key refused", in: "interactions:\n- request:\n    parsed_body:\n      <<: {model: gpt-4o}\n      messages: []\n    uri: https://api.openai.com/v1/chat/completions\n",
			err: "merge keys"},
		{name: "bad YAML", in: "interactions:\n- request:\n    uri: [unclosed\n", err: "VCR cassette:"},
		{name: "interactions not a list", in: "interactions: 3\n", err: "1:15: VCR cassette: interactions is not a list"},
		{name: "infinity has no JSON form", in: "interactions:\n- request:\n    parsed_body: {model: gpt-4o, temperature: .inf, messages: []}\n    uri: https://api.openai.com/v1/chat/completions\n",
			err: "has no JSON form"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read("c.yaml", []byte(tc.in), Options{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				for _, s := range []string{"querysecret", "s3cret"} {
					if strings.Contains(err.Error(), s) {
						t.Errorf("error shows a secret: %v", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Captures) != tc.captures || len(f.Skipped) != tc.skipped {
				t.Fatalf("%d captures, %d skipped (%q); want %d, %d", len(f.Captures), len(f.Skipped), f.Skipped, tc.captures, tc.skipped)
			}
			if !f.IsCassette() {
				t.Error("not reported as a cassette")
			}
			c := f.Captures[0]
			if string(c.Body) != tc.body {
				t.Errorf("body\n got %s\nwant %s", c.Body, tc.body)
			}
			if tc.url != "" && c.URL != tc.url {
				t.Errorf("URL %q, want %q", c.URL, tc.url)
			}
			if c.Envelope != EnvVCR || c.Name != "c.yaml#"+strings.TrimPrefix(c.Name, "c.yaml#") {
				t.Errorf("envelope %q, name %q", c.Envelope, c.Name)
			}
			for _, h := range c.Headers {
				for _, s := range []string{"secret", "sk-"} {
					if strings.Contains(h.Value, s) {
						t.Errorf("header %s keeps a secret: %q", h.Name, h.Value)
					}
				}
			}
			for _, s := range []string{"secret", "sk-ant", "querysecret"} {
				if strings.Contains(string(c.Response), s) || strings.Contains(c.URL, s) || strings.Contains(string(c.Body), s) {
					t.Errorf("%q kept in the capture", s)
				}
			}
			for _, s := range f.Skipped {
				if strings.Contains(s, "s3cret") {
					t.Errorf("skip note shows a secret: %s", s)
				}
			}
			if tc.name == "parsed body" && !strings.Contains(string(c.Response), `"status":200`) {
				t.Errorf("response %s", c.Response)
			}
			if got := f.Rebuild(map[*Capture][]byte{c: []byte(`{}`)}); string(got) != tc.in {
				t.Error("Rebuild changed a cassette")
			}
		})
	}
}

func TestIsCassette(t *testing.T) {
	for in, want := range map[string]bool{
		"interactions:\n- request: {}\n":            true,
		"# comment\n---\ninteractions:\n":           true,
		"version: 1\ninteractions: []\n":            true,
		"%YAML 1.2\n---\ninteractions: # the log\n": true,
		`{"interactions": []}`:                      false,
		"interactions: 3\n":                         true,
		"interactions:x\n":                          false,
		"name: x\n---\ninteractions:\n":             false,
		"data: {\"interactions\":1}\n":              false,
		"foo:\n  interactions:\n":                   false,
		"interactionsx:\n":                          false,
		"[1]\ninteractions:\n":                      false,
	} {
		if got := isCassette([]byte(in)); got != want {
			t.Errorf("isCassette(%q) = %v, want %v", in, got, want)
		}
	}
}

// FuzzCassette: reading any YAML that looks like a cassette fails cleanly
// or yields captures whose bodies are JSON and whose file is left as it
// was; aliases never expand.
func FuzzCassette(f *testing.F) {
	f.Add([]byte(cassetteOf("    parsed_body: {model: gpt-4o, messages: [{role: user, content: x}]}\n    uri: https://api.openai.com/v1/chat/completions\n", vcrResp)))
	f.Add([]byte("interactions:\n- request:\n    parsed_body: {a: &a [1, 2], b: *a}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read("f.yaml", data, Options{})
		if err != nil || !file.IsCassette() {
			return
		}
		for _, c := range file.Captures {
			if _, err := Parse(c.Body); err != nil {
				t.Fatalf("%s: body is not JSON: %v", c.Name, err)
			}
			if c.Response != nil {
				if _, err := Parse(c.Response); err != nil {
					t.Fatalf("%s: response is not JSON: %v", c.Name, err)
				}
			}
		}
		if string(file.Rebuild(nil)) != string(data) {
			t.Fatal("Rebuild changed the cassette")
		}
	})
}
