package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArgsSummary(t *testing.T) {
	long := strings.Repeat("x", 100)
	for args, want := range map[string]string{
		``:                               ``,
		`[1,2]`:                          ``,
		`{}`:                             ``,
		`{"limit":5,"q":"helper  func"}`: `query="helper func"`,
		`{"path":"a.go","command":"ls"}`: `path="a.go"`,
		`{"limit":5,"offset":1}`:         `limit="5"`,
		`{"opts":{"deep":true}}`:         `opts="{"deep":true}"`,
		`{"query":"` + long + `"}`:       `query="` + strings.Repeat("x", 71) + `…"`,
		`{"command":"curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz' x"}`: `command="curl -H 'Authorization: REDACTED' x"`,
	} {
		if got := argsSummary([]byte(args)); got != want {
			t.Errorf("argsSummary(%s) = %s, want %s", args, got, want)
		}
		if n := len([]rune(argsSummary([]byte(args)))); n > ArgsChars {
			t.Errorf("argsSummary(%s) has %d characters", args, n)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"key sk-ant-api03-abcdefghijklmnopqrstuvwx end": "key REDACTED end",
		"export OPENAI_API_KEY=abc123def456":            "export OPENAI_API_KEY=REDACTED",
		`{"password": "hunter22"}`:                      `{"password": "REDACTED"}`,
		"token ghp_abcdefghijklmnopqrstuvwxyz0123":      "token REDACTED",
		"AKIAABCDEFGHIJKLMNOP":                          "REDACTED",
		"max_tokens: 1000":                              "max_tokens: 1000",
		"the token budget is fine":                      "the token budget is fine",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestViewOf(t *testing.T) {
	r, err := ReadTrace("t.json", []byte(goodTrace))
	if err != nil {
		t.Fatal(err)
	}
	r.FinalText = "Done; the password=swordfish42 was not needed."
	v := ViewOf(r, Options{})
	if len(v.Calls) != 3 || v.Calls[0].OffsetMs != 0 || v.Calls[1].OffsetMs != 4000 || v.Calls[2].OffsetMs != 58000 {
		t.Errorf("offsets %+v", v.Calls)
	}
	if v.Calls[2].Args != `path="a.go"` {
		t.Errorf("args %q", v.Calls[2].Args)
	}
	if strings.Contains(v.FinalText, "swordfish") {
		t.Errorf("final text not redacted: %q", v.FinalText)
	}
	if v.Verdict.Outcome != Failure || v.Verdict.Signals[0].Name != SigOverflow {
		t.Errorf("verdict %+v", v.Verdict)
	}
}

func TestOpen(t *testing.T) {
	sessions := filepath.Join("testdata", "sessions")
	v3 := filepath.Join(sessions, "skills-v3.jsonl")
	r, err := Open(v3+"#2", nil)
	if err != nil || r.Skill != "release-notes" {
		t.Errorf("Open #2 = %v, %v", r, err)
	}
	if r, err := Open(filepath.Join(sessions, "flaky-v1.jsonl"), nil); err != nil || r.Skill != "flaky-tests" {
		t.Errorf("a session with one run: %v, %v", r, err)
	}
	for arg, want := range map[string]string{
		v3:          "the session holds 3 skill runs; name one as FILE#N: #1 (code-review), #2 (release-notes), #3 (code-review)",
		v3 + "#4":   "no skill run 4: the file holds 3",
		v3 + "#0":   `run number "0" is not a positive integer`,
		v3 + "#two": `run number "two" is not a positive integer`,
	} {
		if _, err := Open(arg, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%s) = %v, want %q", arg, err, want)
		}
	}
	dir := t.TempDir()
	hash := filepath.Join(dir, "odd#1.json")
	os.WriteFile(hash, []byte(goodTrace), 0o644)
	if r, err := Open(hash, nil); err != nil || r.File != hash {
		t.Errorf("a file name with #: %v, %v", r, err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, []byte(`{"type":"session","version":3}`+"\n"), 0o644)
	if _, err := Open(empty, nil); err == nil || !strings.Contains(err.Error(), "holds no skill runs") {
		t.Errorf("a session without runs: %v", err)
	}
	if r, err := Open("-", strings.NewReader(goodTrace)); err != nil || r.File != "<stdin>" {
		t.Errorf("stdin: %v, %v", r, err)
	}
}
