package capture

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// envGen builds a capture envelope from fuzz bytes, planting marker secrets
// under secret names in every shape the readers accept.
type envGen struct {
	data  []byte
	i     int
	marks []string
}

func (g *envGen) next() byte {
	if g.i >= len(g.data) {
		return 0
	}
	b := g.data[g.i]
	g.i++
	return b
}

func (g *envGen) pick(n int) int { return int(g.next()) % n }

func (g *envGen) word() string {
	const letters = "abcdefghijklmnop-"
	n := 1 + g.pick(8)
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[g.pick(len(letters))]
	}
	return string(b)
}

// mark returns a new marker secret: letters, or digits when num is set
// (the word alphabet has neither capitals nor digits).
func (g *envGen) mark(num bool) string {
	m := fmt.Sprintf("QZ%dSECRETX", len(g.marks))
	if num {
		m = fmt.Sprintf("7319%05d", len(g.marks))
	}
	g.marks = append(g.marks, m)
	return m
}

var (
	fuzzSecretNames = []string{"authorization", "Authorization", "x-api-key", "X_API_KEY", "apiKey", "x-goog-api-key",
		"cookie", "Set-Cookie", "proxy-authorization", "api-key", "X-Amz-Security-Token", "x-auth-token", "client_secret", "ACCESS_TOKEN"}
	fuzzPlainNames = []string{"accept", "content-type", "anthropic-version", "user-agent", "x-stainless-os", "Accept-Encoding"}
	// fuzzUnlistedNames are not kept: unusual credential names, harmless
	// names off the list, and look-alikes of kept names (a Unicode hyphen,
	// a NUL, a no-break space, a fullwidth letter, a secret under a kept
	// prefix).
	fuzzUnlistedNames = []string{"x-auth", "x-api-key-2", "passphrase", "session", "x-sid", "x-access-key-id", "apiKeys",
		"x-ratelimit-remaining-tokens", "max_tokens", "referer", "content\u2010type", "user-agent\x00", "Accept\u00a0",
		"\uff43ontent-type", "x-stainless-api-key", "accept-token"}
	fuzzParams = []string{"key", "api_key", "access_token", "sig", "X-Amz-Signature", "token", "apikey", "X-Amz-Credential"}
)

type fuzzHeader struct {
	name, val string
	num       bool
	raw       string // JSON value, when the value is a list or object
}

func (g *envGen) headerList() []fuzzHeader {
	var hs []fuzzHeader
	seen := map[string]bool{}
	for n := 1 + g.pick(4); n > 0; n-- {
		var h fuzzHeader
		switch g.pick(5) {
		case 0, 1:
			h.name = fuzzSecretNames[g.pick(len(fuzzSecretNames))]
			h.num = g.pick(4) == 0
			h.val = g.mark(h.num)
			if !h.num && g.pick(2) == 0 {
				h.val = "Bearer " + h.val
			}
		case 2:
			// A plain name whose value holds a secret in a nested shape or
			// in its text.
			h.name = "x-" + g.word()
			m := g.mark(false)
			h.val = []string{"token=" + m, "Bearer " + m, "sig: " + m}[g.pick(3)]
			switch g.pick(4) {
			case 0:
				h.raw = `[{"token":"` + m + `"},"b"]`
			case 1:
				h.raw = `[["sig",` + g.mark(true) + `]]`
			case 2:
				h.raw = `{"api_key":"` + m + `"}`
			}
		case 3:
			// Any name off the list: its value goes, whatever it is.
			h.name = fuzzUnlistedNames[g.pick(len(fuzzUnlistedNames))]
			if g.pick(3) == 0 {
				h.name = "x-" + g.word()
			}
			h.val = g.word()
			if !defaultKeep.Keeps(h.name) {
				h.num = g.pick(4) == 0
				h.val = g.mark(h.num)
			}
		default:
			h.name = fuzzPlainNames[g.pick(len(fuzzPlainNames))]
			h.val = g.word()
		}
		if !seen[h.name] {
			seen[h.name] = true
			hs = append(hs, h)
		}
	}
	return hs
}

func jsonVal(h fuzzHeader) string {
	if h.raw != "" {
		return h.raw
	}
	if h.num {
		return h.val
	}
	return string(Quote(h.val))
}

// headers renders hs in one of the header shapes.
func (g *envGen) headers(hs []fuzzHeader) string {
	var parts []string
	switch g.pick(8) {
	case 0, 1:
		for _, h := range hs {
			parts = append(parts, string(Quote(h.name))+":"+jsonVal(h))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case 2:
		for _, h := range hs {
			parts = append(parts, string(Quote(h.name))+":["+jsonVal(h)+"]")
		}
		return `{"common":{` + strings.Join(parts, ",") + "}}"
	case 3:
		k := []string{"name", "key"}[g.pick(2)]
		for _, h := range hs {
			parts = append(parts, `{"`+k+`":`+string(Quote(h.name))+`,"value":`+jsonVal(h)+"}")
		}
	case 4:
		for _, h := range hs {
			parts = append(parts, "["+string(Quote(h.name))+","+jsonVal(h)+"]")
		}
	case 5:
		for _, h := range hs {
			parts = append(parts, string(Quote(h.name+": "+h.val)))
		}
	default:
		var b strings.Builder
		b.WriteString("POST /v1/chat/completions HTTP/1.1\r\n")
		for _, h := range hs {
			b.WriteString(h.name + []string{": ", ":", " : "}[g.pick(3)] + h.val + "\r\n")
		}
		return string(Quote(b.String()))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// url returns a URL string carrying secret parameters.
func (g *envGen) url() string {
	u := "https://api.openai.com/v1/chat/completions"
	if g.pick(4) == 0 {
		u = "https://me:" + g.mark(false) + "@api.openai.com/v1/chat/completions"
	}
	first := true
	for n := g.pick(4); n > 0; n-- {
		sep := []string{"&", "&amp;", ";", "#"}[g.pick(4)]
		if first && sep != ";" && sep != "#" {
			sep = "?"
		}
		first = false
		switch g.pick(4) {
		case 0:
			u += sep + "alt=" + g.word()
			continue
		case 1:
			// A parameter off the list, an OAuth code or state among them.
			u += sep + []string{"code", "state", "session", "x", "q"}[g.pick(5)] + "=" + g.mark(false)
			continue
		}
		u += sep + fuzzParams[g.pick(len(fuzzParams))] + "=" + g.mark(false)
	}
	return u
}

func (g *envGen) urlValue() string {
	u := g.url()
	if g.pick(3) > 0 {
		return string(Quote(u))
	}
	return `{"raw":` + string(Quote(u)) + `,"query":[{"key":"key","value":` + string(Quote(g.mark(false))) + `}]}`
}

func (g *envGen) body() string {
	switch g.pick(4) {
	case 0:
		return `{"model":"gpt-4o","api_key":` + string(Quote(g.mark(false))) + `,"messages":[{"role":"user","content":"hi"}]}`
	case 1:
		return `{"apiKey":` + g.mark(true) + `,"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`
	}
	return `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`
}

func (g *envGen) extra() string {
	switch g.pick(4) {
	case 0:
		return `"comment":` + string(Quote(`curl -H "x-api-key: `+g.mark(false)+`" -H 'Authorization: Bearer sk-`+g.mark(false)+`'`)) + ","
	case 1:
		return `"meta":{"clientSecret":` + string(Quote(g.mark(false))) + `,"n":` + string(Quote(g.word())) + "},"
	}
	return ""
}

func (g *envGen) record() string {
	body := g.body()
	switch g.pick(3) {
	case 1:
		body = string(Quote(body))
	case 2:
		body = `"` + base64.StdEncoding.EncodeToString([]byte(body)) + `"`
	}
	return `{"url":` + g.urlValue() + `,"method":"POST",` + g.extra() + `"headers":` + g.headers(g.headerList()) + `,"body":` + body + "}"
}

func (g *envGen) harPairs(secretName bool) string {
	var parts []string
	for n := g.pick(3); n > 0; n-- {
		name := g.word()
		if !secretName && g.pick(2) == 0 {
			name = fuzzParams[g.pick(len(fuzzParams))]
		}
		// Every value under a name off the list is secret (and every
		// cookie value).
		val := string(Quote(g.word()))
		if secretName || !defaultKeep.Keeps(name) {
			val = string(Quote(g.mark(false)))
		}
		parts = append(parts, `{"name":`+string(Quote(name))+`,"value":`+val+"}")
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func (g *envGen) har() string {
	var entries []string
	for n := 1 + g.pick(2); n > 0; n-- {
		hs := g.headerList()
		var hparts []string
		for _, h := range hs {
			hparts = append(hparts, `{"name":`+string(Quote(h.name))+`,"value":`+jsonVal(h)+"}")
		}
		entries = append(entries, `{"request":{"method":"POST","url":`+string(Quote(g.url()))+
			`,"headers":[`+strings.Join(hparts, ",")+`],"queryString":`+g.harPairs(false)+`,"cookies":`+g.harPairs(true)+
			`,"postData":{"mimeType":"application/json","text":`+string(Quote(g.body()))+`}},`+
			`"response":{"status":200,"headers":[{"name":"set-cookie","value":`+string(Quote("sid="+g.mark(false)+"; Path=/"))+`}],"cookies":`+g.harPairs(true)+
			`,"content":{"text":`+string(Quote(`{"access_token":"`+g.mark(false)+`"}`))+`}}}`)
	}
	return `{"log":{"version":"1.2","entries":[` + strings.Join(entries, ",") + "]}}"
}

// FuzzEnvelopeSecrets: no secret planted under a header, query parameter,
// cookie or credential name, or any name off the kept list (look-alikes of
// kept names among them), in any container shape, survives reading —
// not in File.Rebuild output (with the body kept or replaced), Capture.URL,
// Capture.Headers or Capture.Body — and the rebuilt file reads back with
// nothing left to redact.
func FuzzEnvelopeSecrets(f *testing.F) {
	for _, s := range []string{"", "\x00\x01\x02\x03", "\x01\x05\x07\x02\x03\x01\x00\x06", "\x02\x01\x03\x00\x05\x04\x01\x02\x07\x00", "\x01\x00\x00\x03\x02\x06\x06\x01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		g := &envGen{data: data}
		var name, file string
		switch g.pick(3) {
		case 0:
			name, file = "r.json", g.record()
		case 1:
			name = "r.jsonl"
			for n := 1 + g.pick(3); n > 0; n-- {
				file += g.record() + "\n"
			}
		default:
			name, file = "h.har", g.har()
		}
		fl, err := Read(name, []byte(file), Options{})
		if err != nil {
			t.Fatalf("generated envelope unreadable: %v\n%s", err, file)
		}
		for _, m := range g.marks {
			if l := leaks(fl, m); len(l) > 0 {
				t.Fatalf("secret %s kept in %v\n%s\nrebuilt:\n%s", m, l, file, fl.Rebuild(nil))
			}
		}
		again, err := Read(name, fl.Rebuild(nil), Options{})
		if err != nil {
			t.Fatalf("rebuilt envelope unreadable: %v\n%s", err, fl.Rebuild(nil))
		}
		if again.Redacted() {
			t.Fatalf("rebuilt envelope redacted again:\n%s\n%s", fl.Rebuild(nil), again.Rebuild(nil))
		}
	})
}

// FuzzRedactText: the text redactor never panics, is idempotent, and a
// secret header line appended to any text is redacted.
func FuzzRedactText(f *testing.F) {
	for _, s := range []string{
		"https://x.test/a?alt=sse&key=abc#access_token=def",
		"curl -H 'x-api-key: abc' -u me:pw https://x.test",
		"Authorization: Bearer sk-abcdefghij\r\nCookie: a=b",
		`{"headers":[["authorization","x"]],"token":1}`,
		`"api_key": "abc", 'token': 'def'`,
		"-----BEGIN PRIVATE KEY-----\nabc",
		"Referer: https://app.test/cb?code=4%2F0Ab&state=x#state=y&amp;code=z;sid=1",
		"token 0123456789abcdef0123 ya29.a0AfB_byC1234567890abcdefg 1//0gAbCdEfGhIjKlMnOpQrSt",
		`{"private_key_id":"k","apiKeys":["a"],"passphrase":"p"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		once := RedactText(s)
		if twice := RedactText(once); twice != once {
			t.Fatalf("not idempotent on %q:\n%q\n%q", s, once, twice)
		}
		planted := RedactText(s + "\nx-api-key: QZPLANTED\n")
		if strings.Contains(planted, "QZPLANTED") {
			t.Fatalf("planted header kept in %q", planted)
		}
	})
}

// FuzzRedactIdempotent: whatever is read rebuilds to a file that reads back
// with nothing left to redact.
func FuzzRedactIdempotent(f *testing.F) {
	for _, s := range []string{
		`{"url":"https://x.test/?key=a#sig=b","headers":{"a":"Authorization: Bearer abcdefgh1"},"meta":{"Bearer sk-abcdefghij":1},"body":{"messages":[],"api_key":"k"}}`,
		`{"log":{"entries":[{"request":{"url":"u?token=x","cookies":[{"name":"a","value":"b"}],"postData":{"text":"{\"messages\":[],\"apiKey\":1}"}},"response":{"content":{"text":"{\"token\":\"t\"}"}}}]}}`,
		`{"model":"m","project":"p","secret":"s","request":{"contents":[]}}`,
		`"{\"input\":\"hi\",\"api_key\":\"k\"}"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<12 {
			return
		}
		file, err := Read("f.json", data, Options{})
		if err != nil {
			return
		}
		out := file.Rebuild(nil)
		again, err := Read("f.json", out, Options{})
		if err != nil {
			t.Fatalf("rebuilt file unreadable: %v\n%q\n%q", err, data, out)
		}
		if again.Redacted() {
			t.Fatalf("rebuilt file redacted again:\n%q\n%q", out, again.Rebuild(nil))
		}
	})
}
