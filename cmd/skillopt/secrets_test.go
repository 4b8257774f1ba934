package main

import (
	"bytes"
	"encoding/base64"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// secretMarks are planted in the envelopes of secretEnvelopes; none may ever
// be printed or written.
var secretMarks = []string{"E2ESECRET", "731977001"}

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
	return map[string]string{
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
	}
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
	type invocation struct {
		args  []string
		stdin string
	}
	var runs []invocation
	for name := range files {
		if strings.HasSuffix(name, ".meta.json") {
			continue
		}
		for _, f := range []string{"text", "json", "markdown"} {
			runs = append(runs,
				invocation{args: []string{"measure", "--format", f, name}},
				invocation{args: []string{"diff", "--format", f, name}},
				invocation{args: []string{"diff", "--format", f, name, name}})
		}
		for _, f := range []string{"text", "json"} {
			runs = append(runs,
				invocation{args: []string{"validate", "--format", f, name}},
				invocation{args: []string{"check", "--format", f, name}},
				invocation{args: []string{"tools", "search", "--format", f, "shell command", name}},
				invocation{args: []string{"catalog", "build", "--format", f, "--from", name}})
		}
		for _, f := range []string{"markdown", "sarif", "github"} {
			runs = append(runs,
				invocation{args: []string{"validate", "--format", f, name}},
				invocation{args: []string{"check", "--format", f, name}})
		}
		runs = append(runs,
			invocation{args: []string{"transform", name}},
			invocation{args: []string{"transform", "--rules", "none", name}},
			invocation{args: []string{"transform", name, "-o", "out-" + name}},
			invocation{args: []string{"transform", "--rules", "none", "-o", "none-" + name, name}},
			invocation{args: []string{"measure", "--format", "json", "-"}, stdin: files[name]},
			invocation{args: []string{"transform", "-"}, stdin: files[name]})
	}
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
	// transform -o wrote a file for each readable capture file, and the
	// pipeline rewrote the catalog bodies, so those were re-encoded.
	if written < 2*(len(files)-3) {
		t.Errorf("only %d files written", written)
	}
	for _, name := range []string{"record.json", "log.har", "records.jsonl"} {
		a, _ := os.ReadFile("out-" + name)
		b, _ := os.ReadFile("none-" + name)
		if len(a) == 0 || bytes.Equal(a, b) {
			t.Errorf("transform left %s unchanged", name)
		}
	}
}
