package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// badInputs is the corpus of inputs that must fail with exit code 2 and a
// "skillopt: FILE[:POS]: message" line, never a panic, never an output file.
func badInputs(dir string) []struct{ name, path, want string } {
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			panic(err)
		}
		return p
	}
	good := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`
	emptyDir := filepath.Join(dir, "nocaptures")
	os.MkdirAll(emptyDir, 0o755)
	os.WriteFile(filepath.Join(emptyDir, "notes.txt"), []byte("nothing here"), 0o644)
	return []struct{ name, path, want string }{
		{"empty file", write("empty.json", nil), "empty input"},
		{"binary", write("binary.json", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")), "binary data"},
		{"truncated", write("truncated.json", []byte(good[:40])), "truncated"},
		{"invalid utf-8", write("utf8.json", []byte(`{"model":"m`+"\xc3\x28"+`","messages":[]}`)), "invalid UTF-8"},
		{"deep nesting", write("deep.json", []byte(strings.Repeat("[", 100000)+strings.Repeat("]", 100000))), "nesting deeper than 1000"},
		{"duplicate keys", write("dup.json", []byte(`{"model":"m","model":"n","messages":[]}`)), `duplicate object key "model"`},
		{"unknown provider", write("unknown.json", []byte(`{"prompt":"hello","temperature":0}`)), "unknown request shape"},
		{"har without json", write("nojson.har", []byte(`{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"https://x.test/","headers":[]}},{"request":{"method":"POST","url":"https://x.test/f","postData":{"mimeType":"application/x-www-form-urlencoded","text":"a=1&b=2"}}}]}}`)), "HAR holds no request with a JSON body"},
		{"jsonl bad line", write("mixed.jsonl", []byte(good+"\n{\"model\":\n"+good+"\n")), "truncated"},
		{"missing path", filepath.Join(dir, "does-not-exist.json"), "no such file or directory"},
		{"no captures in dir", emptyDir, "directory holds no *.json, *.jsonl or *.har files"},
		{"top-level number", write("number.json", []byte(`42`)), "unknown request shape"},
		{"trailing garbage", write("garbage.json", []byte(good+"}")), "after the top-level value"},
		{"body string not json", write("record.json", []byte(`{"url":"https://api.anthropic.com/v1/messages","method":"POST","headers":{},"body":"not json"}`)), "body string is not JSON"},
	}
}

func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range badInputs(dir) {
		for _, cmd := range []string{"transform", "measure", "validate", "check"} {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(tc.name, " ", "-")+".json")
			args := []string{"skillopt", cmd, tc.path}
			if cmd == "transform" {
				args = append(args, "-o", out)
			}
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if code != exitUsage {
				t.Errorf("%s/%s: exit %d, want 2 (stderr %q)", tc.name, cmd, code, stderr.String())
			}
			want := tc.want
			if cmd == "transform" && tc.name == "no captures in dir" {
				want = "is a directory"
			}
			line := regexp.MustCompile(`(?m)^skillopt: ` + regexp.QuoteMeta(tc.path) + `(#\d+)?(:\d+:\d+)?: .*` + regexp.QuoteMeta(want))
			if !line.MatchString(stderr.String()) {
				t.Errorf("%s/%s: stderr %q lacks %q", tc.name, cmd, stderr.String(), want)
			}
			if strings.Contains(stderr.String(), "panic") || strings.Contains(stderr.String(), "internal error") {
				t.Errorf("%s/%s: panic: %s", tc.name, cmd, stderr.String())
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s/%s: output file written", tc.name, cmd)
			}
		}
	}
}

// TestJSONLBadLineKeepsOthers: a bad line is reported, the good lines are
// still measured, and the exit code is 2.
func TestJSONLBadLineKeepsOthers(t *testing.T) {
	dir := t.TempDir()
	var path string
	for _, tc := range badInputs(dir) {
		if tc.name == "jsonl bad line" {
			path = tc.path
		}
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"skillopt", "measure", "--encoding", "none", path}, nil, &stdout, &stderr)
	if code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(stdout.String(), "mixed.jsonl#1  anthropic") || !strings.Contains(stdout.String(), "mixed.jsonl#3  anthropic") {
		t.Fatalf("good lines not measured:\n%s", stdout.String())
	}
	if !regexp.MustCompile(`skillopt: .*mixed.jsonl:2:\d+: `).MatchString(stderr.String()) {
		t.Fatalf("bad line not located: %q", stderr.String())
	}
}
