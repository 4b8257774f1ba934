package capture

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestReadEnvelopes(t *testing.T) {
	body := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi \u003cb\u003e"}]}`
	quoted := string(Quote(body))
	cases := []struct {
		name, data string
		env        string
		n          int
	}{
		{"bare", body + "\n", EnvBare, 1},
		{"json string", quoted, EnvJSONString, 1},
		{"double encoded", string(Quote(quoted)), EnvJSONString, 1},
		{"record object", `{"url":"https://api.anthropic.com/v1/messages","method":"POST","headers":{"x-api-key":"k"},"body":` + body + `}`, EnvRecord, 1},
		{"record string", `{"url":"u","body":` + quoted + `}`, EnvRecord, 1},
		{"record base64", `{"method":"POST","body":"eyJtb2RlbCI6Im0iLCJtYXhfdG9rZW5zIjo1LCJtZXNzYWdlcyI6W119"}`, EnvRecord, 1},
		{"code assist", `{"model":"gemini-2.5-pro","project":"p","request":{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}}`, EnvCodeAssist, 1},
		{"har", `{"log":{"version":"1.2","entries":[{"request":{"method":"POST","url":"https://api.openai.com/v1/responses","headers":[{"name":"Authorization","value":"Bearer x"}],"postData":{"mimeType":"application/json","text":` + string(Quote(`{"model":"m","input":"hi"}`)) + `}}}]}}`, EnvHAR, 1},
		{"har base64", `{"log":{"entries":[{"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages","postData":{"mimeType":"application/json","encoding":"base64","text":"` + base64.StdEncoding.EncodeToString([]byte(body)) + `"}}}]}}`, EnvHAR, 1},
		{"jsonl", body + "\n" + body + "\n", EnvBare, 2},
		{"recording", `{"url":"https://api.anthropic.com/v1/messages","method":"POST","headers":{"x-api-key":"k"},"body":` + body + `,"response":{"status":200,"usage":{"input_tokens":3}}}`, EnvRecord, 1},
		{"exchange", `{"request":{"timestamp":1.5,"method":"POST","url":"https://api.anthropic.com/v1/messages?beta=true","headers":{"authorization":"Bearer sk-ant-oat01-x"},"body":` + body + `},"response":{"status_code":200,"headers":{"set-cookie":"a=b"},"body_raw":"event: ping\n"},"logged_at":"2025-05-29T10:00:00Z"}`, EnvExchange, 1},
	}
	for _, tc := range cases {
		name := "c.json"
		if tc.name == "jsonl" {
			name = "c.jsonl"
		}
		f, err := Read(name, []byte(tc.data), Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(f.Captures) != tc.n || f.Captures[0].Envelope != tc.env {
			t.Errorf("%s: %d captures, envelope %q", tc.name, len(f.Captures), f.Captures[0].Envelope)
			continue
		}
		// Rebuilding with the same bodies keeps every byte but secrets.
		same := map[*Capture][]byte{}
		for _, c := range f.Captures {
			same[c] = c.Body
		}
		if out := f.Rebuild(same); !f.Redacted() && !bytes.Equal(out, f.Data) {
			t.Errorf("%s: rebuild changed bytes", tc.name)
		}
		// Replacing the body re-encodes it the way it was captured.
		c := f.Captures[0]
		nb := bytes.Replace(c.Body, []byte(`"m"`), []byte(`"x"`), 1)
		out := f.Rebuild(map[*Capture][]byte{c: nb})
		g, err := Read(name, out, Options{})
		if err != nil {
			t.Errorf("%s: rebuilt file unreadable: %v", tc.name, err)
			continue
		}
		if !bytes.Equal(g.Captures[0].Body, nb) || g.Captures[0].Envelope != tc.env {
			t.Errorf("%s: rebuilt body %q, want %q", tc.name, g.Captures[0].Body, nb)
		}
	}
}

// A HAR postData marked "encoding": "base64" is decoded; a new body is
// encoded the same way, and one that cannot be read says why.
func TestHARBase64(t *testing.T) {
	har := func(postData string) string {
		return `{"log":{"entries":[{"request":{"method":"POST","url":"https://api.openai.com/v1/responses","postData":` + postData + `}}]}}`
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	body := `{"model":"gpt-5","api_key":"SECRET1","input":"hi"}`
	f := readOne(t, "h.har", har(`{"mimeType":"application/json","encoding":"base64","text":"`+b64(body)+`"}`))
	c := f.Captures[0]
	if c.Provider != OpenAIResponses || string(c.Body) != `{"model":"gpt-5","api_key":"REDACTED","input":"hi"}` {
		t.Fatalf("provider %s, body %s", c.Provider, c.Body)
	}
	if l := leaks(f, "SECRET"); len(l) > 0 {
		t.Errorf("secret kept in %v", l)
	}
	out := f.Rebuild(map[*Capture][]byte{c: []byte(`{"model":"gpt-5","input":"ho"}`)})
	if !bytes.Contains(out, []byte(`"text":"`+b64(`{"model":"gpt-5","input":"ho"}`)+`"`)) {
		t.Errorf("new body not base64-encoded:\n%s", out)
	}
	if g := readOne(t, "h.har", string(out)); string(g.Captures[0].Body) != `{"model":"gpt-5","input":"ho"}` {
		t.Errorf("rebuilt body read back as %s", g.Captures[0].Body)
	}
	// Without credentials the file is rebuilt byte for byte.
	plain := har(`{"mimeType":"application/json","encoding":"base64","text":"` + b64(`{"model":"gpt-5","input":"hi"}`) + `"}`)
	if g := readOne(t, "h.har", plain); !bytes.Equal(g.Rebuild(nil), []byte(plain)) {
		t.Errorf("rebuilt\n%s\nwant\n%s", g.Rebuild(nil), plain)
	}
	for _, tc := range []struct{ name, postData, want string }{
		{"not base64", `{"encoding":"base64","text":"{\"model\":\"gpt-5\",\"input\":\"hi\"}"}`, "postData.text is marked base64 but does not decode"},
		{"not JSON", `{"encoding":"base64","text":"` + b64(`{"model":`) + `"}`, "postData.text (base64-decoded): "},
	} {
		_, err := Read("h.har", []byte(har(tc.postData)), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "h.har#1: ") {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	// A form posted in base64 is not a JSON body: the entry is skipped.
	_, err := Read("h.har", []byte(har(`{"mimeType":"application/x-www-form-urlencoded","encoding":"base64","text":"`+b64("grant_type=x&a=b")+`"}`)), Options{})
	if err == nil || !strings.Contains(err.Error(), "no request with a JSON body") {
		t.Errorf("form: err = %v", err)
	}
}

func TestRedaction(t *testing.T) {
	data := `{"url":"https://x.test/v1beta/models/g:generateContent?alt=sse&key=SECRET1","headers":{"Authorization":"Bearer SECRET2","COOKIE":["a=SECRET3"],"accept":"*/*"},"body":{"contents":[{"parts":[{"text":"hi"}]}]}}`
	f, err := Read("r.json", []byte(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := f.Captures[0]
	for _, h := range c.Headers {
		if strings.Contains(h.Value, "SECRET") {
			t.Errorf("header %s kept its secret", h.Name)
		}
	}
	if strings.Contains(c.URL, "SECRET") || !strings.Contains(c.URL, "alt=sse") {
		t.Errorf("URL %q", c.URL)
	}
	out := string(f.Rebuild(nil))
	if strings.Contains(out, "SECRET") {
		t.Fatalf("secret in output: %s", out)
	}
	if !strings.Contains(out, `"accept":"*/*"`) || c.Provider != Gemini {
		t.Fatalf("non-secrets changed or provider wrong: %s %s", out, c.Provider)
	}
}

func TestReadErrorsAreLocated(t *testing.T) {
	_, err := Read("f.json", []byte("{\n  \"a\": tru\n}"), Options{})
	var e *Error
	if !errors.As(err, &e) || e.File != "f.json" || e.Pos != "2:11" {
		t.Fatalf("got %#v", err)
	}
}

// FuzzRead: reading arbitrary bytes never panics; what is read rebuilds to
// the same bytes (when nothing was redacted) and its segments partition the
// body.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","max_tokens":5,"system":"x <available_skills><skill>a</skill></available_skills>","messages":[{"role":"user","content":"hi"}]}`,
		`{"url":"https://api.openai.com/v1/responses","body":"{\"input\":\"hi\"}"}`,
		`{"contents":{"parts":{"text":"x"}}}`,
		`[{"role":"toolResult","toolCallId":"1","content":[]}]`,
		"{\"type\":\"session\"}\n{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\n",
		`{"log":{"entries":[{"request":{"postData":{"text":"{\"messages\":[]}"}}}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		file, err := Read("f.json", data, Options{})
		if err != nil {
			return
		}
		if !file.Redacted() && !bytes.Equal(file.Rebuild(nil), data) {
			t.Fatalf("rebuild changed bytes of %q", data)
		}
		for _, c := range file.Captures {
			prev := 0
			for _, s := range c.Segments() {
				if s.Start < prev || s.End < s.Start || s.End > len(c.Body) {
					t.Fatalf("bad segment %+v in %q", s, c.Body)
				}
				prev = s.End
				_ = c.SegmentText(s)
			}
			_ = c.StablePrefix()
		}
	})
}
