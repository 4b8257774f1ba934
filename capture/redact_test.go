package capture

import (
	"bytes"
	"encoding/base64"
	"os"
	"strings"
	"testing"
)

func TestIsSecretName(t *testing.T) {
	secret := []string{
		"authorization", "Authorization", "AUTHORIZATION", "proxy-authorization", "Proxy-Authorization",
		"x-api-key", "X-API-KEY", "X_API_KEY", "api-key", "api_key", "apiKey", "APIKey", "apikey", "x-goog-api-key",
		"key", "Key", "token", "access_token", "accessToken", "refresh_token", "id_token", "x-auth-token",
		"private-token", "x-vault-token", "secret", "client_secret", "clientSecret", "password", "db_password",
		"cookie", "Cookie", "set-cookie", "Set-Cookie", "sig", "signature", "X-Amz-Credential",
		"X-Amz-Security-Token", "X-Amz-Signature", "x-goog-signature", "ocp-apim-subscription-key",
		"x-functions-key", "AccountKey", "jsessionid", "auth", "api%5Fkey", "--api-key",
		// Free-text names beyond the credential names bodies are judged by.
		"passphrase", "GPG_PASSPHRASE", "session", "x-sid", "sid", "x-auth", "apiKeys", "api_keys",
		"x-access-key-id", "aws_access_key_id", "private_key_id", "x-session", "credentials",
	}
	plain := []string{
		"x-ratelimit-remaining-tokens", "x-ratelimit-limit-tokens", "anthropic-ratelimit-tokens-remaining",
		"max_tokens", "maxTokens", "max_output_tokens", "anthropic-version", "anthropic-beta", "content-type",
		"content-length", "x-goog-api-client", "user-agent", "accept", "session_id", "x-stainless-retry-count",
		"idempotency-key", "Idempotency-Key", "prompt_cache_key", "keys", "monkey", "tokenizer", "host",
		"url", "method", "name", "value", "", "-",
	}
	for _, n := range secret {
		if !IsSecretName(n) || isCredentialNorm(normName(n)) && !mayBeSecret([]byte(n)) {
			t.Errorf("IsSecretName(%q) = %v, mayBeSecret %v, want true", n, IsSecretName(n), mayBeSecret([]byte(n)))
		}
	}
	for _, n := range plain {
		if IsSecretName(n) {
			t.Errorf("IsSecretName(%q) = true, want false", n)
		}
	}
}

func TestIsBodyCredential(t *testing.T) {
	for n, want := range map[string]bool{
		"api_key": true, "apiKey": true, "x-api-key": true, "client_secret": true, "access_token": true,
		"password": true, "aws_secret_access_key": true, "aws_session_token": true, "authorization": true,
		"vertex_credentials": false, // a name, not *-credential
		"prompt_cache_key":   false, "idempotency_key": false, "cache_key": false, "key": false,
		"max_tokens": false, "signature": false, "page_token": false, "model": false, "messages": false,
		"metadata": false, "user": false, "safety_identifier": false,
		// Free-text secret names are request parameters in a body.
		"session": false, "sid": false, "passphrase": false, "private_key_id": false, "apiKeys": false,
	} {
		if got := isBodyCredential(n); got != want {
			t.Errorf("isBodyCredential(%q) = %v, want %v", n, got, want)
		}
	}
}

func TestRedactText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// URLs: query, fragment, ';' parameters, &amp; separators, user-info.
		{"https://x.test/v1/m:generateContent?alt=sse&key=AIzaS1", "https://x.test/v1/m:generateContent?alt=sse&key=REDACTED"},
		{"https://x.test/cb#access_token=abc123&token_type=bearer", "https://x.test/cb#access_token=REDACTED&token_type=bearer"},
		{"https://x.test/a;jsessionid=S1?x=1", "https://x.test/a;jsessionid=REDACTED?x=1"},
		{"https://x.test/a?alt=sse&amp;key=S1&amp;b=2", "https://x.test/a?alt=sse&amp;key=REDACTED&amp;b=2"},
		{"https://x.test/a?API%5FKEY=S1", "https://x.test/a?API%5FKEY=REDACTED"},
		{"https://bucket.test/o?X-Amz-Credential=AK%2F2024&X-Amz-Signature=ab12&X-Amz-Date=2024", "https://bucket.test/o?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&X-Amz-Date=2024"},
		{"https://blob.test/c?sv=2022&sig=S1%3D&se=x", "https://blob.test/c?sv=2022&sig=REDACTED&se=x"},
		{"https://user:pa55word@proxy.test:8080/v1", "https://user:REDACTED@proxy.test:8080/v1"},
		{"https://api.test/v1/chat/completions?max_tokens=5", "https://api.test/v1/chat/completions?max_tokens=5"},
		// Header lines.
		{"POST /v1/messages HTTP/1.1\r\nx-api-key: S1\r\nanthropic-version: 2023-06-01\r\n", "POST /v1/messages HTTP/1.1\r\nx-api-key: REDACTED\r\nanthropic-version: 2023-06-01\r\n"},
		{"Authorization: Basic dXNlcjpwYXNz", "Authorization: REDACTED"},
		{"Cookie: a=1; sid=S1", "Cookie: REDACTED"},
		{"x-ratelimit-remaining-tokens: 4000", "x-ratelimit-remaining-tokens: 4000"},
		// Command lines and free text.
		{`curl -H "x-api-key: S1" -H 'Authorization: Bearer S2' https://x.test`, `curl -H "x-api-key: REDACTED" -H 'Authorization: REDACTED' https://x.test`},
		{"copied with Bearer sk-proj-abcdef123456 by hand", "copied with Bearer REDACTED by hand"},
		{"curl -u admin:hunter22 https://x.test", "curl -u admin:REDACTED https://x.test"},
		{"OPENAI_API_KEY=S1 ./run", "OPENAI_API_KEY=REDACTED ./run"},
		{"--api-key=S1 --model m", "--api-key=REDACTED --model m"},
		{"keys: sk-ant-api03-abcdefghijk and ghp_abcdefghijklmnopqrstuvwx", "keys: REDACTED and REDACTED"},
		{"aws AKIAABCDEFGHIJKLMNOP, slack xoxb-1234-5678-abcd", "aws REDACTED, slack REDACTED"},
		{"google AIzaSyA1234567890abcdefghijklmnop", "google REDACTED"},
		{"pat github_pat_11ABCDEFG0123456789_abcdefghij", "pat REDACTED"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig-part_x", "jwt REDACTED"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nrest", "REDACTED\nrest"},
		// Google OAuth access and refresh tokens, npm tokens, "token …".
		{"sent ya29.a0AfB_byC1234567890abcdefghijklmnop-_x.y with it", "sent REDACTED with it"},
		{"refresh 1//0gAbCdEfGhIjKlMnOpQrStUvWxYz0123", "refresh REDACTED"},
		{"npm_abcdefghijklmnopqrstuvwxyz0123456789", "REDACTED"},
		{"Authorization: token 0123456789abcdef0123456789abcdef01234567", "Authorization: REDACTED"},
		{"sent with token 0123456789abcdef0123456789abcdef01234567", "sent with token REDACTED"},
		{"curl -H 'X-Upstream: token 0123456789abcdef0123456789abcdef' x", "curl -H 'X-Upstream: token REDACTED' x"},
		{"a token limit_of_2 words", "a token limit_of_2 words"},
		// Private key JSON fields (a service account file pasted as text).
		{`{"type":"service_account","private_key_id":"0a1b2c3d4e","private_key":"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n","client_email":"x@p.iam.gserviceaccount.com"}`,
			`{"type":"service_account","private_key_id":"REDACTED","private_key":"REDACTED","client_email":"x@p.iam.gserviceaccount.com"}`},
		{`private_key_id = 0a1b2c3d4e`, `private_key_id = REDACTED`},
		// Names beyond credentials: passphrases, sessions, key lists.
		{"passphrase: correct horse", "passphrase: REDACTED"},
		{"x-sid: S1\nx-auth: S2\nsession=S3; x-access-key-id: S4", "x-sid: REDACTED\nx-auth: REDACTED\nsession=REDACTED; x-access-key-id: REDACTED"},
		{`{"apiKeys":["S1","S2"],"n":1}`, `{"apiKeys":["REDACTED","REDACTED"],"n":1}`},
		// OAuth codes and states in any URL, query or fragment.
		{"Referer: https://app.test/callback?code=4%2F0AbCd&state=xyz123&scope=email", "Referer: https://app.test/callback?code=REDACTED&state=REDACTED&scope=email"},
		{"back to https://app.test/cb#state=S1&code=S2 now", "back to https://app.test/cb#state=REDACTED&code=REDACTED now"},
		{"https://idp.test/sso?SAMLResponse=PHNhbWw%3D&RelayState=S1", "https://idp.test/sso?SAMLResponse=REDACTED&RelayState=REDACTED"},
		{"the state=ok of code=42 in prose", "the state=ok of code=42 in prose"},
		// JSON-ish text that does not parse.
		{`{"api_key": "S1", "n": 1,}`, `{"api_key": "REDACTED", "n": 1,}`},
		{`token: 12345, next`, `token: REDACTED`},
		// JSON text is redacted member by member and stays JSON.
		{`{"headers":{"x-api-key":"S1","accept":"*/*"},"n":[["token","S2"]]}`, `{"headers":{"x-api-key":"REDACTED","accept":"*/*"},"n":[["token","REDACTED"]]}`},
		// Left alone: prose, words after a scheme, already redacted values.
		{"Basic authentication is described below", "Basic authentication is described below"},
		{"the bearer token is sent", "the bearer token is sent"},
		{"x-api-key: REDACTED", "x-api-key: REDACTED"},
		{"sk-learn", "sk-learn"},
		{"model=gpt-4o&stream=true", "model=gpt-4o&stream=true"},
		{"2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"},
		{`{"token": null, "password": true}`, `{"token": null, "password": true}`},
	} {
		if got := RedactText(tc.in); got != tc.want {
			t.Errorf("RedactText(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if again := RedactText(tc.want); again != tc.want {
			t.Errorf("RedactText is not idempotent on %q: %q", tc.want, again)
		}
	}
}

// readOne reads data as name and fails the test unless it yields captures.
func readOne(t *testing.T, name, data string) *File {
	t.Helper()
	f, err := Read(name, []byte(data), Options{})
	if err != nil {
		t.Fatalf("read %s: %v", data, err)
	}
	return f
}

// leaks returns where a marker secret survived reading.
func leaks(f *File, marker string) []string {
	var out []string
	if bytes.Contains(f.Rebuild(nil), []byte(marker)) {
		out = append(out, "Rebuild output")
	}
	for _, c := range f.Captures {
		if strings.Contains(c.URL, marker) {
			out = append(out, c.Name+" URL "+c.URL)
		}
		if strings.Contains(c.Method, marker) {
			out = append(out, c.Name+" method")
		}
		for _, h := range c.Headers {
			if strings.Contains(h.Name+h.Value, marker) {
				out = append(out, c.Name+" header "+h.Name)
			}
		}
		if bytes.Contains(c.Body, []byte(marker)) {
			out = append(out, c.Name+" body")
		}
		// A rebuilt body re-encodes the redacted body.
		nb := bytes.Replace(c.Body, []byte(`"hi"`), []byte(`"ho"`), 1)
		if bytes.Contains(f.Rebuild(map[*Capture][]byte{c: nb}), []byte(marker)) {
			out = append(out, c.Name+" Rebuild with a new body")
		}
	}
	return out
}

const (
	chatBody   = `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`
	geminiBody = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
)

func record(fields string) string {
	return `{"url":"https://api.openai.com/v1/chat/completions","method":"POST",` + fields + `,"body":` + chatBody + `}`
}

func TestEnvelopeRedaction(t *testing.T) {
	har := func(req, extra string) string {
		return `{"log":{"version":"1.2","entries":[{"request":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/g:generateContent",` + req +
			`"postData":{"mimeType":"application/json","text":` + string(Quote(geminiBody)) + `}}` + extra + `}]}}`
	}
	cases := []struct {
		name, file, data string
		keep             []string // must survive in the rebuilt file
		header           string   // a header the capture must carry, "name=value"
	}{
		{"header object", "r.json", record(`"headers":{"Authorization":"Bearer SECRET1","x-api-key":"SECRET2","accept":"*/*"}`), []string{`"accept":"*/*"`}, "accept=*/*"},
		{"header list values", "r.json", record(`"headers":{"Cookie":["a=SECRET1","b=SECRET2"]}`), nil, "Cookie=REDACTED"},
		{"name value list", "r.json", record(`"headers":[{"name":"X-Goog-Api-Key","value":"SECRET1"},{"name":"content-type","value":"application/json"}]`), []string{`"value":"application/json"`}, "content-type=application/json"},
		{"key value list", "r.json", record(`"headers":[{"key":"api-key","value":"SECRET1"},{"key":"anthropic-version","value":"2023-06-01"}]`), []string{"2023-06-01"}, "anthropic-version=2023-06-01"},
		{"pairs", "r.json", record(`"headers":[["authorization","Bearer SECRET1"],["anthropic-version","2023-06-01"],["x-ratelimit-remaining-tokens","4000"]]`), []string{`["anthropic-version","2023-06-01"]`, `["x-ratelimit-remaining-tokens","REDACTED"]`}, "anthropic-version=2023-06-01"},
		{"raw string", "r.json", record(`"headers":"POST /v1/chat/completions HTTP/1.1\r\nAuthorization: Bearer SECRET1\r\nContent-Type: application/json\r\n"`), []string{`Content-Type: application/json`}, "Content-Type=application/json"},
		{"raw lines", "r.json", record(`"headers":["Authorization: Bearer SECRET1","Accept: */*"]`), []string{"Accept: */*"}, "Authorization=REDACTED"},
		{"nested groups", "r.json", record(`"headers":{"common":{"Authorization":"Bearer SECRET1","Accept":"application/json"},"post":{"Content-Type":"application/json"}}`), []string{`"Accept":"application/json"`}, "Accept=application/json"},
		{"number value", "r.json", record(`"headers":{"x-api-key":12345678901234567890}`), nil, "x-api-key=REDACTED"},
		{"object value", "r.json", record(`"headers":{"authorization":{"scheme":"Bearer","token":"SECRET1"}}`), nil, "authorization=REDACTED"},
		{"array of objects value", "r.json", record(`"headers":{"cookie":[{"sid":"SECRET1"},7]}`), nil, "cookie=REDACTED"},
		{"unlisted header, nested value", "r.json", record(`"headers":{"x-list":[{"token":"SECRET1"},"SECRET2"],"x-n":[["sig",5]]}`), []string{`"x-list":[{"token":"REDACTED"},"REDACTED"]`, `"x-n":[["REDACTED","REDACTED"]]`}, `x-list=REDACTED`},
		{"number in a pair", "r.json", record(`"headers":[["x-n",12345]]`), []string{`["x-n","REDACTED"]`}, `x-n=REDACTED`},
		{"kept header, secret in its text", "r.json", record(`"headers":{"user-agent":"tool/1 Bearer sk-SECRET1abcdef"}`), []string{`"user-agent":"tool/1 Bearer REDACTED"`}, "user-agent=tool/1 Bearer REDACTED"},
		{"look-alike names", "r.json", record("\"headers\":{\"content\u2010type\":\"SECRET1\",\"Content-Type\\u0000\":\"SECRET2\",\"x-stainless-api-key\":\"SECRET3\",\"CONTENT_TYPE\":\"application/json\"}"), []string{`"CONTENT_TYPE":"application/json"`}, "CONTENT_TYPE=application/json"},
		{"null and empty kept", "r.json", record(`"headers":{"authorization":null,"x-api-key":""}`), []string{`"authorization":null`, `"x-api-key":""`}, "x-api-key="},
		{"url fragment", "r.json", `{"url":"https://api.openai.com/v1/chat/completions#access_token=SECRET1","body":` + chatBody + `}`, []string{"#access_token=REDACTED"}, ""},
		{"url semicolon", "r.json", `{"url":"https://api.openai.com/v1/chat/completions;key=SECRET1","body":` + chatBody + `}`, nil, ""},
		{"url amp entity", "r.json", `{"uri":"https://generativelanguage.googleapis.com/v1beta/models/g:generateContent?alt=sse&amp;key=SECRET1","body":` + geminiBody + `}`, []string{"alt=sse&amp;key=REDACTED"}, ""},
		{"url object", "r.json", `{"url":{"raw":"https://generativelanguage.googleapis.com/v1beta/models/g:generateContent?key=SECRET1","host":["generativelanguage","googleapis","com"],"query":[{"key":"key","value":"SECRET2"},{"key":"alt","value":"sse"}]},"method":"POST","body":` + geminiBody + `}`, []string{`{"key":"alt","value":"sse"}`}, ""},
		{"url user-info", "r.json", `{"url":"https://me:SECRET1@api.openai.com/v1/chat/completions","body":` + chatBody + `}`, nil, ""},
		{"comment with curl", "r.json", record(`"comment":"curl https://api.openai.com -H \"Authorization: Bearer sk-SECRET1abc\" -H 'x-api-key: SECRET2'","headers":{}`), []string{"curl https://api.openai.com"}, ""},
		{"unknown fields", "r.json", record(`"headers":{},"meta":{"client":{"clientSecret":"SECRET1","id":"SECRET4"},"auth":["SECRET2"],"note":"SECRET3","n":1,"ok":true}`), []string{`"id":"REDACTED"`, `"n":"REDACTED"`, `"ok":true`}, ""},
		{"secret in a key", "r.json", record(`"headers":{},"meta":{"Bearer sk-SECRET1abcdef":1}`), nil, ""},
		{"jsonl records", "r.jsonl", record(`"headers":{"x-api-key":"SECRET1"}`) + "\n" + record(`"headers":[["x-api-key","SECRET2"]]`) + "\n", nil, "x-api-key=REDACTED"},
		{"har query and cookies", "h.har", har(`"headers":[{"name":"cookie","value":"sid=SECRET1"}],"queryString":[{"name":"key","value":"SECRET2"},{"name":"alt","value":"sse"}],"cookies":[{"name":"sid","value":"SECRET3","path":"/"}],`, ""), []string{`{"name":"alt","value":"sse"}`, `"path":"/"`}, ""},
		{"har url", "h.har", strings.Replace(har(`"headers":[],`, ""), `g:generateContent"`, `g:generateContent?alt=sse&key=SECRET1"`, 1), []string{"alt=sse&key=REDACTED"}, ""},
		{"har response", "h.har", har(`"headers":[],`, `,"response":{"status":200,"headers":[{"name":"set-cookie","value":"sid=SECRET1; Path=/"},{"name":"x-ratelimit-remaining-tokens","value":"99"}],"cookies":[{"name":"sid","value":"SECRET2"}],"content":{"mimeType":"application/json","text":"{\"access_token\":\"SECRET3\",\"usage\":{\"total_tokens\":3}}"}}`), []string{`"status":200`, `{"name":"x-ratelimit-remaining-tokens","value":"REDACTED"}`, `\"total_tokens\":3`}, ""},
		{"har form body", "h.har", `{"log":{"entries":[{"request":{"url":"https://api.openai.com/v1/responses","postData":{"text":"{\"model\":\"m\",\"input\":\"hi\"}"}}},{"request":{"url":"https://auth.test/token","postData":{"mimeType":"application/x-www-form-urlencoded","text":"grant_type=client_credentials&client_secret=SECRET1","params":[{"name":"client_secret","value":"SECRET2"}]}}}]}}`, []string{"grant_type=REDACTED&client_secret=REDACTED"}, ""},
		{"code assist wrapper", "c.json", `{"model":"gemini-2.5-pro","project":"p","api_key":"SECRET1","request":` + geminiBody + `}`, []string{`"project":"p"`}, ""},
		{"record around code assist", "c.json", `{"url":"https://cloudcode-pa.googleapis.com/v1internal:generateContent?key=SECRET1","headers":{"authorization":"Bearer SECRET2"},"body":{"model":"gemini-2.5-pro","project":"p","token":"SECRET3","request":` + geminiBody + `}}`, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := readOne(t, tc.file, tc.data)
			if l := leaks(f, "SECRET"); len(l) > 0 {
				t.Errorf("secret kept in %v:\n%s", l, f.Rebuild(nil))
			}
			out := string(f.Rebuild(nil))
			for _, k := range tc.keep {
				if !strings.Contains(out, k) {
					t.Errorf("lost %q:\n%s", k, out)
				}
			}
			if tc.header != "" {
				name, value, _ := strings.Cut(tc.header, "=")
				found := false
				for _, h := range f.Captures[0].Headers {
					found = found || h.Name == name && h.Value == value
				}
				if !found {
					t.Errorf("headers %q lack %s", f.Captures[0].Headers, tc.header)
				}
			}
			// The rebuilt file reads back the same captures with nothing
			// left to redact.
			g, err := Read(tc.file, f.Rebuild(nil), Options{})
			if err != nil {
				t.Fatalf("rebuilt file unreadable: %v", err)
			}
			if g.Redacted() || len(g.Captures) != len(f.Captures) {
				t.Errorf("second read redacted again (%v) or lost captures", g.Redacted())
			}
		})
	}
}

func TestSidecarRedaction(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := write("g.json", geminiBody)
	write("g.meta.json", `{"method":"POST","path":"/v1beta/models/g:generateContent?key=SECRET1","headers":{"x-goog-api-key":"SECRET2","x-goog-api-client":"genai","cookie":["SECRET3"]}}`)
	f, err := ReadFile(p, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := f.Captures[0]
	if l := leaks(f, "SECRET"); len(l) > 0 {
		t.Errorf("secret kept in %v", l)
	}
	if c.Provider != Gemini || !strings.Contains(c.Reason, "g.meta.json") || c.URL != "/v1beta/models/g:generateContent?key=REDACTED" {
		t.Errorf("provider %s (%s), URL %q", c.Provider, c.Reason, c.URL)
	}
	if !bytes.Equal(f.Rebuild(nil), []byte(geminiBody)) {
		t.Errorf("bare body changed")
	}
}

func TestBodyCredentials(t *testing.T) {
	body := `{"model":"gpt-4o", "api_key" : "SECRET1","messages":[{"role":"user","content":"hi \u003cb\u003e"}],"apiKey":7,"prompt_cache_key":"k1","metadata":{"api_key":"nested"}}`
	want := `{"model":"gpt-4o", "api_key" : "REDACTED","messages":[{"role":"user","content":"hi \u003cb\u003e"}],"apiKey":"REDACTED","prompt_cache_key":"k1","metadata":{"api_key":"nested"}}`
	b64 := base64.StdEncoding.EncodeToString([]byte(body))
	for _, tc := range []struct{ name, file, data string }{
		{"bare", "b.json", body},
		{"record object", "r.json", `{"url":"https://api.openai.com/v1/chat/completions","body":` + body + `}`},
		{"record string", "r.json", `{"url":"https://api.openai.com/v1/chat/completions","body":` + string(Quote(body)) + `}`},
		{"record base64", "r.json", `{"url":"https://api.openai.com/v1/chat/completions","body":"` + b64 + `"}`},
		{"json string twice", "s.json", string(Quote(string(Quote(body))))},
		{"har", "h.har", `{"log":{"entries":[{"request":{"url":"https://api.openai.com/v1/chat/completions","postData":{"text":` + string(Quote(body)) + `}}}]}}`},
		{"jsonl", "l.jsonl", chatBody + "\n" + body + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := readOne(t, tc.file, tc.data)
			c := f.Captures[len(f.Captures)-1]
			if string(c.Body) != want {
				t.Errorf("body\n got %s\nwant %s", c.Body, want)
			}
			if l := leaks(f, "SECRET"); len(l) > 0 {
				t.Errorf("secret kept in %v", l)
			}
			g := readOne(t, tc.file, string(f.Rebuild(nil)))
			if gb := g.Captures[len(g.Captures)-1].Body; string(gb) != want {
				t.Errorf("rebuilt body\n got %s\nwant %s", gb, want)
			}
			if tc.name == "record string" || tc.name == "har" {
				// One string layer: only the value's bytes change.
				out := f.Rebuild(nil)
				grow := len(`\"REDACTED\"`) - len(`\"SECRET1\"`) + len(`\"REDACTED\"`) - len(`7`)
				if len(out) != len(tc.data)+grow {
					t.Errorf("more than the values changed:\n%s", out)
				}
			}
		})
	}
	// A Pi session has no credential field and is read as is.
	session := "{\"type\":\"session\",\"version\":3,\"id\":\"s\",\"cwd\":\"/w\"}\n{\"type\":\"message\",\"id\":\"a\",\"message\":{\"role\":\"user\",\"content\":\"api_key=abc\",\"timestamp\":1}}\n"
	f := readOne(t, "s.jsonl", session)
	if f.Redacted() || !bytes.Equal(f.Rebuild(nil), []byte(session)) {
		t.Errorf("session changed")
	}
}

// Credentials nested in request bodies by documented provider fields.
func TestNestedBodyCredentials(t *testing.T) {
	body := `{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}],` +
		`"mcp_servers":[{"type":"url","url":"https://mcp.example.test/sse","name":"x","authorization_token":"SECRET1"}],` +
		`"tools":[{"type":"mcp","server_label":"s","server_url":"https://m.example.test","authorization":"SECRET2","headers":{"Authorization":"Bearer SECRET3","X-Trace":"keep-me","custom-header-key":"keep-too"}},` +
		`{"type":"function","name":"f","headers":{"Authorization":"not-a-credential-field"}}]}`
	f := readOne(t, "b.json", body)
	c := f.Captures[0]
	if l := leaks(f, "SECRET"); len(l) > 0 {
		t.Errorf("secret kept in %v", l)
	}
	for _, keep := range []string{`"X-Trace":"keep-me"`, `"custom-header-key":"keep-too"`, `"not-a-credential-field"`, `"name":"x"`} {
		if !bytes.Contains(c.Body, []byte(keep)) {
			t.Errorf("lost %s: %s", keep, c.Body)
		}
	}
	if n := bytes.Count(f.Rebuild(nil), []byte(Redacted)); n != 3 {
		t.Errorf("%d redactions in the rebuilt file, want 3", n)
	}
}
