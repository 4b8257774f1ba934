package commands

import (
	"bytes"
	"encoding/base64"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// secretMarks are planted in the envelopes of secretEnvelopes; none may ever
// be printed or written.
var secretMarks = []string{"E2ESECRET", "731977001"}

// unusualNames are header, parameter and metadata names that a list of bad
// names misses: unusual credential names, names off any list, and
// look-alikes of kept names (a NUL, Unicode hyphens, a fullwidth letter, a
// secret under a kept prefix). Under each, the value (with a planted mark)
// must never be printed or written.
var unusualNames = []struct{ name, value string }{
	{"x-auth", "E2ESECRET-n01"},
	{"x-api-key-2", "E2ESECRET-n02"},
	{"passphrase", "E2ESECRET-n03"},
	{"session", "E2ESECRET-n04"},
	{"x-sid", "731977001"},
	{"x-access-key-id", "E2ESECRET-n06"},
	{"apiKeys", `["E2ESECRET-n07a","E2ESECRET-n07b"]`},
	{"x-github-auth", "token E2ESECRET-n08-0123456789abcdef"},
	{"x-api\u0000key", "E2ESECRET-n09"},
	{"x\u2010api\u2010key", "E2ESECRET-n10"},
	{"content\u2010type", "E2ESECRET-n11"},
	{"user-agent\u0000", "E2ESECRET-n12"},
	{"\uff43ontent-type", "E2ESECRET-n13"},
	{"x-stainless-api-key", "E2ESECRET-n14"},
	{"accept-token", "E2ESECRET-n15"},
	{"referer", "https://app.test/callback?code=E2ESECRET-n16a&state=E2ESECRET-n16b"},
	{"x-csrf-token", "E2ESECRET-n17"},
	{"x-xsrf", "E2ESECRET-n18"},
	{"x-refresh", "E2ESECRET-n19"},
	{"x-session-id", "E2ESECRET-n20"},
	{"x-vault-token", "E2ESECRET-n21"},
	{"private-token", "E2ESECRET-n22"},
	{"x-amz-security-token", "E2ESECRET-n23"},
	{"x-amz-date", "E2ESECRET-n24"},
	{"openai-organization", "E2ESECRET-n25"},
	{"openai-project", "E2ESECRET-n26"},
	{"x-forwarded-for", "E2ESECRET-n27"},
	{"cf-access-client-id", "E2ESECRET-n28"},
	{"cf-access-client-secret", "E2ESECRET-n29"},
	{"x-goog-user-project", "E2ESECRET-n30"},
	{"helicone-auth", "E2ESECRET-n31"},
	{"x-portkey-config", `{"api_key":"E2ESECRET-n32","mode":"single"}`},
	{"X_Custom_Header", "E2ESECRET-n33"},
}

// freeTextShapes are credentials as they appear in free text (a comment, a
// copied command, a response body): every one must be found.
var freeTextShapes = []string{
	"Bearer E2ESECRETbearer0001",
	"Basic E2ESECRETbasic0001==",
	"token E2ESECRETtoken0123456789abcdef",
	"sk-E2ESECRETopenai0001",
	"sk-ant-api03-E2ESECRETanthropic01",
	"AIzaE2ESECRETgoogle0123456789ab",
	"ya29.E2ESECRET_oauth-0123456789",
	"1//0E2ESECRETrefresh0123456789",
	"ghp_E2ESECRET0123456789abcdefghij",
	"github_pat_E2ESECRET0123456789_abc",
	"xoxb-E2ESECRET-0123",
	"AKIAE2ESECRET1234567",
	"eyJE2ESECRETjwt01.eyJE2ESECRETjwt02.sig",
	"-----BEGIN PRIVATE KEY-----\nE2ESECRETpem\n-----END PRIVATE KEY-----",
	`"private_key_id": "E2ESECRETkeyid"`,
	`"private_key": "E2ESECRETprivkey"`,
	"https://user:E2ESECRETpw@proxy.test/v1",
	"curl -u admin:E2ESECRETcurl https://x.test",
	"https://app.test/cb?code=E2ESECRETcode&scope=email",
	"https://app.test/cb?scope=email&state=E2ESECRETstate",
	"https://app.test/cb#access_token=E2ESECRETfrag&token_type=bearer",
	"OPENAI_API_KEY=E2ESECRETenv ./run",
	"x-api-key: E2ESECRETline",
	"Cookie: sid=E2ESECRETcookie",
	"passphrase: E2ESECRETpass",
	"hf_E2ESECRET0123456789abcdefghijklmnopq",
}

// unusualEnvelopes returns capture files placing every unusual name in
// every envelope position that holds names, and every free-text shape in
// every envelope position that holds free text.
func unusualEnvelopes(t *testing.T, catalog string) map[string]string {
	t.Helper()
	q := func(s string) string { return string(capture.Quote(s)) }
	// jv returns a value as JSON: lists and objects as written, numbers
	// as numbers, the rest quoted.
	jv := func(v string) string {
		if strings.HasPrefix(v, "[") || strings.HasPrefix(v, "{") || strings.Trim(v, "0123456789") == "" {
			return v
		}
		return q(v)
	}
	var obj, pairs, entries, lines, query, cookies, meta []string
	for _, u := range unusualNames {
		k := q(u.name)
		obj = append(obj, k+":"+jv(u.value))
		pairs = append(pairs, "["+k+","+jv(u.value)+"]")
		entries = append(entries, `{"name":`+k+`,"value":`+jv(u.value)+`}`)
		lines = append(lines, u.name+": "+u.value)
		query = append(query, url.QueryEscape(u.name)+"="+url.QueryEscape(u.value))
		cookies = append(cookies, `{"name":`+k+`,"value":`+q(u.value)+`}`)
		meta = append(meta, k+":"+jv(u.value))
	}
	list := func(xs []string) string { return "[" + strings.Join(xs, ",") + "]" }
	text := strings.Join(freeTextShapes, "\n")
	jsonText := `{"note":` + q(text) + `,"private_key_id":"E2ESECRETkeyid2","shapes":` + func() string {
		var xs []string
		for _, s := range freeTextShapes {
			xs = append(xs, q(s))
		}
		return list(xs)
	}() + `}`
	stainless := `"x-stainless-arch":"x64","anthropic-version":"2023-06-01"`
	body := q(catalog)
	return map[string]string{
		"names-object.json": `{"url":"https://api.anthropic.com/v1/messages?` + strings.Join(query, "&") + `","method":"POST",` +
			`"headers":{` + stainless + `,` + strings.Join(obj, ",") + `},` + strings.Join(meta, ",") + `,"body":` + catalog + `}`,
		"names-pairs.jsonl": `{"url":"https://api.anthropic.com/v1/messages#` + strings.Join(query, "&") + `","headers":` + list(pairs) + `,"body":` + catalog + "}\n" +
			`{"url":"https://api.anthropic.com/v1/messages","headers":` + list(entries) + `,"body":` + body + "}\n" +
			`{"url":"https://api.anthropic.com/v1/messages","headers":` + q("POST /v1/messages?"+strings.Join(query, "&")+" HTTP/1.1\r\n"+strings.Join(lines, "\r\n")+"\r\n") + `,"body":` + catalog + "}\n",
		"names.har": `{"log":{"version":"1.2","comment":` + q(text) + `,"entries":[{"comment":` + q(text) + `,"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages?` + strings.Join(query, "&") + `",` +
			`"headers":` + list(append([]string{`{"name":"user-agent","value":` + q("tool/1.0 "+text) + `}`}, entries...)) + `,"queryString":` + list(entries) + `,"cookies":` + list(cookies) + `,` +
			`"postData":{"mimeType":"application/json","text":` + body + `}},` +
			`"response":{"status":200,"headers":` + list(entries) + `,"cookies":` + list(cookies) + `,"content":{"mimeType":"application/json","text":` + q(jsonText) + `},"redirectURL":"https://app.test/cb?` + strings.Join(query, "&") + `",` + strings.Join(meta, ",") + `}},` +
			`{"request":{"method":"POST","url":"https://auth.test/token","postData":{"mimeType":"application/x-www-form-urlencoded","params":` + list(entries) + `,"text":` + q(strings.Join(query, "&")) + `}},` +
			`"response":{"status":200,"content":{"mimeType":"text/plain","encoding":"base64","text":"` + base64.StdEncoding.EncodeToString([]byte(text)) + `"}}},` +
			`{"request":{"method":"POST","url":"https://api.openai.com/v1/responses","postData":{"mimeType":"application/json","encoding":"base64","text":"` + base64.StdEncoding.EncodeToString([]byte(`{"model":"gpt-5","api_key":"E2ESECRETb64","input":"hi"}`)) + `"}}}]}}`,
		"freetext.json":        `{"url":"https://api.anthropic.com/v1/messages","method":"POST","comment":` + q(text) + `,"headers":{"user-agent":` + q("tool/1.0 "+text) + `,"anthropic-version":"2023-06-01"},"body":` + catalog + `}`,
		"names-bare.json":      catalog,
		"names-bare.meta.json": `{"method":"POST","path":"/v1/messages?` + strings.Join(query, "&") + `","headers":{` + strings.Join(obj, ",") + `},` + strings.Join(meta, ",") + `}`,
	}
}

// secretEnvelopes returns capture files (name → content) carrying secrets in
// every place an envelope can hold one, around a catalog body and a chat
// body with tools. Files named *.meta.json are sidecars, not captures.
func secretEnvelopes(t *testing.T) map[string]string {
	t.Helper()
	catalogBody, err := os.ReadFile(filepath.Join("..", "..", "testdata", "examples", "anthropic-catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	catalog := strings.TrimSpace(string(catalogBody))
	withKey := func(body, member string) string { return "{" + member + "," + body[1:] }
	q := func(s string) string { return string(capture.Quote(s)) }
	chat := `{"model":"gpt-4o","apiKey":"E2ESECRET13","messages":[{"role":"system","content":"You help with shell work."},{"role":"user","content":"list the files"}],` +
		`"tools":[{"type":"function","function":{"name":"bash","description":"Run a shell command.","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}}]}`
	responses := `{"model":"gpt-5","api_key":"E2ESECRET20","input":[{"role":"user","content":"hi"}]}`
	gemini := `{"apiKey":"E2ESECRET30","contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	files := unusualEnvelopes(t, catalog)
	for name, data := range map[string]string{
		"record.json": `{"url":"https://api.anthropic.com/v1/messages?key=E2ESECRET01&alt=sse#access_token=E2ESECRET02","method":"POST",` +
			`"headers":[["x-api-key","E2ESECRET03"],["anthropic-version","2023-06-01"],["Authorization","Bearer sk-E2ESECRET04abcdef"]],` +
			`"comment":"curl -H 'x-api-key: E2ESECRET05' https://api.anthropic.com/v1/messages",` +
			`"meta":{"clientSecret":"E2ESECRET06","cookies":[{"name":"sid","value":"E2ESECRET07"}],"secret":731977001},` +
			`"body":` + withKey(catalog, `"api_key":"E2ESECRET08"`) + `}`,
		"string-body.json": `{"uri":{"raw":"https://api.openai.com/v1/chat/completions?api_key=E2ESECRET09","query":[{"key":"api_key","value":"E2ESECRET10"}]},` +
			`"headers":"POST /v1/chat/completions HTTP/1.1\r\nAuthorization: Bearer E2ESECRET11xyz\r\nCookie: sid=E2ESECRET12\r\nContent-Type: application/json\r\n",` +
			`"body":` + q(chat) + `}`,
		"base64.json": `{"url":"https://me:E2ESECRET14@api.openai.com/v1/responses;jsessionid=E2ESECRET15","method":"POST",` +
			`"headers":{"common":{"Authorization":"Basic E2ESECRET16Zm9v","api-key":731977001},"post":{"Content-Type":"application/json"}},` +
			`"body":"` + base64.StdEncoding.EncodeToString([]byte(responses)) + `"}`,
		"records.jsonl": `{"url":"https://api.openai.com/v1/chat/completions","headers":{"X-Amz-Security-Token":"E2ESECRET17","set-cookie":["a=E2ESECRET18"]},"body":` + chat + "}\n" +
			withKey(catalog, `"client_secret":"E2ESECRET19"`) + "\n",
		"log.har": `{"log":{"version":"1.2","entries":[` +
			`{"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages?key=E2ESECRET21","headers":[{"name":"x-api-key","value":"E2ESECRET22"},{"name":"cookie","value":"sid=E2ESECRET23"}],` +
			`"queryString":[{"name":"key","value":"E2ESECRET21"}],"cookies":[{"name":"sid","value":"E2ESECRET23"}],"postData":{"mimeType":"application/json","text":` + q(catalog) + `}},` +
			`"response":{"status":200,"headers":[{"name":"set-cookie","value":"sid=E2ESECRET24; Path=/"}],"cookies":[{"name":"sid","value":"E2ESECRET24"}],"content":{"text":"{\"access_token\":\"E2ESECRET25\"}"}}},` +
			`{"request":{"method":"POST","url":"https://auth.example.test/token","postData":{"mimeType":"application/x-www-form-urlencoded","text":"grant_type=client_credentials&client_secret=E2ESECRET26"}}},` +
			`{"request":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","headers":[{"name":"Authorization","value":"Bearer E2ESECRET27"}],"postData":{"text":` + q(chat) + `}}}]}}`,
		"assist.json": `{"model":"gemini-2.5-pro","project":"p","user_prompt_id":"u1","token":"E2ESECRET28","request":{"api_key":"E2ESECRET29","contents":[{"role":"user","parts":[{"text":"hi"}]}]}}`,
		"bare.json":   gemini,
		"bare.meta.json": `{"method":"POST","path":"/v1beta/models/g:generateContent?key=E2ESECRET31",` +
			`"headers":{"x-goog-api-key":"E2ESECRET32","x-goog-api-client":"genai","cookie":["E2ESECRET33"]}}`,
		"twice.json": q(q(responses)),
		"bad.har": `{"log":{"entries":[{"request":{"url":"https://api.openai.com/v1/responses?key=E2ESECRET34","headers":[["authorization","E2ESECRET35"]],"postData":{"text":"{\"api_key\": E2ESECRET36"}}},` +
			`{"request":{"url":"https://api.openai.com/v1/responses","postData":{"text":` + q(responses) + `}}}]}}`,
		"bad-record.json": `{"url":"https://api.openai.com/v1/responses?key=E2ESECRET37","headers":{"authorization":"E2ESECRET38"},"body":"E2ESECRET39 is not JSON"}`,
	} {
		files[name] = data
	}
	return files
}

// TestSecretsNeverPrinted runs every command that reads captures, in every
// format it supports, over envelopes with planted secrets, and checks that
// no secret reaches standard output, standard error or any file written.
func TestSecretsNeverPrinted(t *testing.T) {
	files := secretEnvelopes(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("SKILLOPT_CONFIG", "")
	t.Setenv("NO_COLOR", "1")
	if err := os.WriteFile("skillopt.toml", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]bool{"skillopt.toml": true}
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs[name] = true
	}
	leak := func(where string, data []byte) string {
		for _, m := range secretMarks {
			if i := bytes.Index(data, []byte(m)); i >= 0 {
				lo, hi := max(i-60, 0), min(i+60, len(data))
				return where + ": …" + string(data[lo:hi]) + "…"
			}
		}
		return ""
	}
	runs := secretRuns(files)
	for _, r := range runs {
		var stdout, stderr bytes.Buffer
		run(append([]string{"skillopt"}, r.args...), strings.NewReader(r.stdin), &stdout, &stderr)
		cmd := strings.Join(r.args, " ")
		if strings.Contains(stderr.String(), "internal error") {
			t.Errorf("%s: %s", cmd, stderr.String())
		}
		for _, where := range []string{leak("stdout", stdout.Bytes()), leak("stderr", stderr.Bytes())} {
			if where != "" {
				t.Errorf("%s: secret in %s", cmd, where)
			}
		}
	}
	// Every file the commands wrote: transform outputs and archived
	// originals.
	written := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || inputs[p] {
			return err
		}
		written++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if where := leak(p, data); where != "" {
			t.Errorf("secret in written file %s", where)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// transform -o wrote two files for each capture file but the two it
	// refuses (bad-record.json, and bad.har with an unreadable entry), and
	// the pipeline rewrote the catalog bodies, so those were re-encoded;
	// each bare body read with a sidecar has its sidecar beside both
	// outputs, redacted.
	captures, sidecars := 0, 0
	for name := range files {
		if strings.HasSuffix(name, ".meta.json") {
			sidecars++
		} else {
			captures++
		}
	}
	if want := 2*(captures-2) + 2*sidecars; written != want {
		t.Errorf("%d files written, want %d", written, want)
	}
	for _, name := range []string{"record.json", "log.har", "records.jsonl", "names-object.json", "names-pairs.jsonl", "names.har", "freetext.json"} {
		a, _ := os.ReadFile("out-" + name)
		b, _ := os.ReadFile("none-" + name)
		if len(a) == 0 || bytes.Equal(a, b) {
			t.Errorf("transform left %s unchanged", name)
		}
	}
}

// secretRun is one run of TestSecretsNeverPrinted.
type secretRun struct {
	args  []string
	stdin string
}

// secretRuns are the runs of TestSecretsNeverPrinted: every command that
// reads captures, in every format, on every capture file of files.
func secretRuns(files map[string]string) []secretRun {
	var runs []secretRun
	for name := range files {
		if strings.HasSuffix(name, ".meta.json") {
			continue
		}
		for _, f := range []string{"text", "json", "markdown", "html"} {
			runs = append(runs, secretRun{args: []string{"measure", "--conversation", "--format", f, name}})
		}
		for _, f := range []string{"text", "json", "markdown"} {
			runs = append(runs,
				secretRun{args: []string{"measure", "--format", f, name}},
				secretRun{args: []string{"measure", "--details", "--format", f, name}},
				secretRun{args: []string{"diff", "--format", f, name}},
				secretRun{args: []string{"diff", "--format", f, name, name}})
		}
		for _, f := range []string{"text", "json"} {
			runs = append(runs,
				secretRun{args: []string{"validate", "--format", f, name}},
				secretRun{args: []string{"check", "--format", f, name}},
				secretRun{args: []string{"tools", "search", "--format", f, "shell command", name}},
				secretRun{args: []string{"catalog", "build", "--format", f, "--from", name}})
		}
		for _, f := range []string{"markdown", "sarif", "github"} {
			runs = append(runs,
				secretRun{args: []string{"validate", "--format", f, name}},
				secretRun{args: []string{"check", "--format", f, name}})
		}
		runs = append(runs,
			secretRun{args: []string{"transform", name}},
			secretRun{args: []string{"transform", "--rules", "none", name}},
			secretRun{args: []string{"transform", name, "-o", "out-" + name}},
			secretRun{args: []string{"transform", "--rules", "none", "-o", "none-" + name, name}},
			secretRun{args: []string{"measure", "--format", "json", "-"}, stdin: files[name]},
			secretRun{args: []string{"transform", "-"}, stdin: files[name]})
	}
	return runs
}

// TestUnusualTables keeps the tables whole: the 33 names and 26 free-text
// shapes each carry a planted mark, and the free-text shapes are found by
// the text redactor on their own (what trace prints goes through it too).
func TestUnusualTables(t *testing.T) {
	if len(unusualNames) != 33 || len(freeTextShapes) != 26 {
		t.Fatalf("%d names and %d shapes, want 33 and 26", len(unusualNames), len(freeTextShapes))
	}
	marked := func(s string) bool {
		for _, m := range secretMarks {
			if strings.Contains(s, m) {
				return true
			}
		}
		return false
	}
	for _, u := range unusualNames {
		if !marked(u.value) {
			t.Errorf("%q: value %q carries no mark", u.name, u.value)
		}
		if (*capture.Keep)(nil).Keeps(u.name) {
			t.Errorf("%q is kept", u.name)
		}
	}
	for _, s := range freeTextShapes {
		if !marked(s) {
			t.Errorf("shape %q carries no mark", s)
		}
		if r := capture.RedactText(s); marked(r) {
			t.Errorf("RedactText(%q) = %q", s, r)
		}
		if r := capture.RedactText("a note: " + s + ", then more"); marked(r) {
			t.Errorf("in a sentence: RedactText = %q", r)
		}
	}
}
