package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodTrace = `{
  "skillName": "refactor",
  "timestamp": 1767225660000,
  "model": "augment/anthropic/claude-sonnet-4-5",
  "brief": {"userGoal": "rename the helper", "constraints": [], "knownContext": "", "userClarifications": []},
  "route": {"tier": "balanced", "complexity": "medium", "risk": "small_edit", "confidence": 0.8, "reason": "a local edit"},
  "toolCalls": [
    {"index": 0, "serverName": "auggie", "toolName": "codebase-retrieval", "args": {"query": "helper"}, "resultPreview": "func helper() {}\n", "blocked": false, "timestamp": 1767225601000},
    {"index": 1, "serverName": "auggie", "toolName": "codebase-retrieval", "args": {
        "query": "helper"
      }, "resultPreview": "Result too large. Please refine the query.", "blocked": false, "timestamp": 1767225605000},
    {"index": 2, "serverName": "auggie", "toolName": "apply-diff", "args": {"path": "a.go"}, "resultPreview": "ok\n[...truncated, 9000 total chars]", "blocked": true, "timestamp": 1767225659000}
  ],
  "finalText": "Renamed helper to newHelper.",
  "stoppedReason": "completed"
}
`

func TestReadTrace(t *testing.T) {
	r, err := ReadTrace("t.json", []byte(goodTrace))
	if err != nil {
		t.Fatal(err)
	}
	if r.Skill != "refactor" || r.Timestamp != 1767225660000 || r.Provider != "augment" || r.StoppedReason != "completed" || !r.Clean() {
		t.Errorf("run %+v", r)
	}
	if r.Route == nil || !r.Route.HasConfidence || r.Route.Confidence != 0.8 || r.Route.Tier != "balanced" {
		t.Errorf("route %+v", r.Route)
	}
	if len(r.Calls) != 3 {
		t.Fatalf("%d calls, want 3", len(r.Calls))
	}
	if string(r.Calls[0].Args) != string(r.Calls[1].Args) {
		t.Errorf("arguments differing only in layout compare unequal: %s %s", r.Calls[0].Args, r.Calls[1].Args)
	}
	if c := r.Calls[0]; c.ResultChars != 17 || c.TotalChars != 17 || c.Blocked || c.Name() != "auggie/codebase-retrieval" {
		t.Errorf("call 0 %+v", c)
	}
	if !r.Calls[1].Blocked {
		t.Error("the router's overflow replacement is not taken for a blocked result")
	}
	if c := r.Calls[2]; !c.Blocked || c.TotalChars != 9000 || c.ResultChars != 35 {
		t.Errorf("call 2 %+v", c)
	}
	if r.DurationMs() != 58000 {
		t.Errorf("duration %d, want 58000", r.DurationMs())
	}
}

// TestReadTraceErrors checks that every malformed trace is an error at the
// position of the problem.
func TestReadTraceErrors(t *testing.T) {
	valid := `{"skillName":"s","timestamp":1,"toolCalls":[],"finalText":"","stoppedReason":"completed"}`
	tests := []struct{ name, src, want string }{
		{"empty", "", "t.json:1:1: empty input"},
		{"truncated", `{"skillName":"s",`, "t.json:1:18: "},
		{"array", `[1]`, "t.json:1:1: not an execution trace: the top-level value is an array, not an object"},
		{"missing skill", `{"timestamp":1}`, `t.json:1:1: not an execution trace: the object has no "skillName"`},
		{"skill not a string", "{\n  \"skillName\": 3}", `t.json:2:16: "skillName" is a number, want a string`},
		{"blank skill", `{"skillName":" ","timestamp":1,"toolCalls":[],"finalText":"","stoppedReason":"x"}`, "t.json:1:14: skillName is empty"},
		{"timestamp a string", `{"skillName":"s","timestamp":"1","toolCalls":[],"finalText":"","stoppedReason":"x"}`, `t.json:1:30: "timestamp" is a string, want a number`},
		{"timestamp out of range", `{"skillName":"s","timestamp":1e300,"toolCalls":[],"finalText":"","stoppedReason":"x"}`, `t.json:1:30: "timestamp" is out of range`},
		{"tool calls an object", strings.Replace(valid, `"toolCalls":[]`, `"toolCalls":{}`, 1), `"toolCalls" is an object, want an array`},
		{"final text null", strings.Replace(valid, `"finalText":""`, `"finalText":null`, 1), `"finalText" is null, want a string`},
		{"no stop reason", strings.Replace(valid, `,"stoppedReason":"completed"`, ``, 1), `has no "stoppedReason"`},
		{"route not an object", strings.Replace(valid, `{`, `{"route":1,`, 1), `"route" is a number, want an object`},
		{"call not an object", strings.Replace(valid, `"toolCalls":[]`, `"toolCalls":[{"toolName":"a"},7]`, 1), "tool call 1 is a number, not an object"},
		{"call without tool", strings.Replace(valid, `"toolCalls":[]`, `"toolCalls":[{"serverName":"a"}]`, 1), `tool call 0 has no "toolName"`},
		{"blocked not a boolean", strings.Replace(valid, `"toolCalls":[]`, `"toolCalls":[{"toolName":"a","blocked":"yes"}]`, 1), `"blocked" is a string, want a boolean`},
		{"duplicate key", `{"skillName":"s","skillName":"t"}`, `duplicate object key "skillName"`},
		{"invalid utf-8", "{\"skillName\":\"\xff\"}", "invalid UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTrace("t.json", []byte(tc.src))
			if err == nil {
				t.Fatalf("accepted %q", tc.src)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "t.json:") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
	if _, err := ReadTrace("t.json", []byte(valid)); err != nil {
		t.Errorf("the minimal trace is rejected: %v", err)
	}
}

func TestStrChars(t *testing.T) {
	for tok, want := range map[string]int{
		`""`:                    0,
		`"abc"`:                 3,
		`"a\nb"`:                3,
		`"é€"`:                  2,
		`"\u00e9"`:              1,
		`"\ud83d\ude00x"`:       2,
		`"\ud83d"`:              1,
		`"\\\"\/"`:              3,
		"\"\U0001F600\"":        1,
		`"line\r\n\ttab\u0000"`: 11,
	} {
		if got := strChars([]byte(tok)); got != want {
			t.Errorf("strChars(%s) = %d, want %d", tok, got, want)
		}
	}
}

func TestCompactJSON(t *testing.T) {
	for in, want := range map[string]string{
		"{ \"a\" : [1, 2] }":     `{"a":[1,2]}`,
		"{\"s\": \"x y\\\" z\"}": `{"s":"x y\" z"}`,
		"\n\t\"str\\\\\" ":       `"str\\"`,
	} {
		if got := string(compactJSON([]byte(in))); got != want {
			t.Errorf("compactJSON(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsSession(t *testing.T) {
	header := `{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n"
	if !IsSession("a.json", []byte(header)) {
		t.Error("a session header in a .json file is not recognised")
	}
	if !IsSession("a.JSONL", []byte("anything")) {
		t.Error("a .jsonl name is not a session")
	}
	if IsSession("a.json", []byte(goodTrace)) {
		t.Error("a trace is taken for a session")
	}
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.json", "a.jsonl", "notes.txt", "sub/c.json", ".hidden/d.json", ".skillopt-tmp-x.json.123"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{}"), 0o644)
	}
	os.Symlink(filepath.Join(dir, "b.json"), filepath.Join(dir, "link.json"))
	paths, errs := Expand([]string{dir, "-", filepath.Join(dir, "missing.json")})
	var rel []string
	for _, p := range paths {
		if r, err := filepath.Rel(dir, p); err == nil {
			p = r
		}
		rel = append(rel, filepath.ToSlash(p))
	}
	if got, want := strings.Join(rel, " "), "a.jsonl b.json sub/c.json -"; got != want {
		t.Errorf("Expand = %s, want %s", got, want)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "missing.json: no such file or directory") {
		t.Errorf("errors %v", errs)
	}
	link := filepath.Join(t.TempDir(), "traces")
	if err := os.Symlink(filepath.Join(dir, "sub"), link); err != nil {
		t.Fatal(err)
	}
	if paths, errs := Expand([]string{link}); len(errs) != 0 || len(paths) != 1 || paths[0] != filepath.Join(link, "c.json") {
		t.Errorf("a link to a folder: %v %v", paths, errs)
	}
	empty := t.TempDir()
	if _, errs := Expand([]string{empty}); len(errs) != 1 || !strings.Contains(errs[0].Error(), "holds no *.json or *.jsonl files") {
		t.Errorf("empty directory: %v", errs)
	}
}

func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadBounded(dir, nil, nil); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	p := filepath.Join(dir, "t.json")
	os.WriteFile(p, []byte(goodTrace), 0o644)
	buf := make([]byte, 0, 4)
	data, err := ReadBounded(p, nil, buf)
	if err != nil || string(data) != goodTrace {
		t.Errorf("ReadBounded = %q, %v", data, err)
	}
	data, err = ReadBounded("-", strings.NewReader("stdin"), nil)
	if err != nil || string(data) != "stdin" {
		t.Errorf("stdin: %q, %v", data, err)
	}
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	f.Truncate(MaxFileSize + 1)
	f.Close()
	if _, err := ReadBounded(big, nil, nil); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("an oversized file: %v", err)
	}
}
