package capture

import (
	"strings"
	"testing"
)

// gcChat is a Gemini CLI chat file: a prompt, a slash command, an answer
// with a tool call and its result, an info message, a second call whose
// result is a string, and a last answer without usage.
const gcChat = `{
  "sessionId": "G1",
  "projectHash": "ph",
  "startTime": "2026-01-02T03:04:05.000Z",
  "lastUpdated": "2026-01-02T03:05:00.000Z",
  "messages": [
    {"id": "m1", "timestamp": "2026-01-02T03:04:05.000Z", "type": "user", "content": "list files"},
    {"id": "m2", "timestamp": "2026-01-02T03:04:06.000Z", "type": "user", "content": "/stats"},
    {"id": "m3", "timestamp": "2026-01-02T03:04:07.000Z", "type": "gemini", "content": "",
     "thoughts": [{"subject": "S", "description": "d"}], "model": "gemini-3-pro",
     "toolCalls": [{"id": "c1", "name": "ls", "args": {"dir": "."}, "status": "success",
       "result": [{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a b"}}}]}],
     "tokens": {"input": 100, "output": 10, "cached": 0, "thoughts": 5, "tool": 0, "total": 115}},
    {"id": "m4", "timestamp": "2026-01-02T03:04:08.000Z", "type": "info", "content": "noted"},
    {"id": "m5", "timestamp": "2026-01-02T03:04:09.000Z", "type": "gemini", "content": [{"text": "Reading."}], "model": "gemini-3-pro",
     "toolCalls": [{"id": "c2", "name": "cat", "args": {"f": "a"}, "status": "success", "result": "text of a"},
                   {"id": "c3", "name": "cat", "args": {"f": "b"}, "status": "cancelled"}],
     "tokens": {"input": 130, "output": 12, "cached": 96, "thoughts": 0, "tool": 4, "total": 146}},
    {"id": "m6", "timestamp": "2026-01-02T03:04:10.000Z", "type": "gemini", "content": "Done.", "model": "gemini-2.5-flash", "tokens": null}
  ]
}
`

func TestGeminiCLIChat(t *testing.T) {
	f, err := Read("session-x.json", []byte(gcChat), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Captures) != 1 || len(f.Errs) > 0 {
		t.Fatalf("%d captures, errors %v", len(f.Captures), f.Errs)
	}
	c := f.Captures[0]
	if c.Provider != Gemini || c.Envelope != EnvSession || !strings.Contains(c.Reason, "Gemini CLI chat file") ||
		c.URL != "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse" {
		t.Fatalf("%s %s %q %s", c.Provider, c.Envelope, c.Reason, c.URL)
	}
	s := c.Session
	if s.Host != HostGeminiCLI || s.ID != "G1" || len(s.Segments) != 1 || !strings.Contains(s.Missing, "system instruction") {
		t.Fatalf("session %+v", s)
	}
	user := `{"role":"user","parts":[{"text":"list files"}]}`
	call1 := `{"role":"model","parts":[{"functionCall":{"name":"ls","args":{"dir": "."},"id":"c1"},"thoughtSignature":"skip_thought_signature_validator"}]}`
	res1 := `{"role":"user","parts":[{"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a b"}}}]}`
	call2 := `{"role":"model","parts":[{"text": "Reading."},{"functionCall":{"name":"cat","args":{"f": "a"},"id":"c2"},"thoughtSignature":"skip_thought_signature_validator"},{"functionCall":{"name":"cat","args":{"f": "b"},"id":"c3"}}]}`
	res2 := `{"role":"user","parts":[{"functionResponse":{"id":"c2","name":"cat","response":{"output":"text of a"}}}]}`
	seg := s.Segments[0]
	for i, w := range []struct {
		line, items int
		model, req  string
		usage       string
	}{
		{9, 1, "gemini-3-pro", `{"contents":[` + user + `]}`, `"total": 115`},
		{15, 3, "gemini-3-pro", `{"contents":[` + strings.Join([]string{user, call1, res1}, ",") + `]}`, `"tool": 4`},
		{19, 5, "gemini-2.5-flash", `{"contents":[` + strings.Join([]string{user, call1, res1, call2, res2}, ",") + `]}`, ""},
	} {
		if i >= len(seg.Turns) {
			t.Fatalf("%d turns, want 3", len(seg.Turns))
		}
		tn := seg.Turns[i]
		if tn.Line != w.line || tn.Items != w.items || tn.Model != w.model || tn.Time.IsZero() {
			t.Errorf("turn %d: line %d items %d model %s time %v", i, tn.Line, tn.Items, tn.Model, tn.Time)
		}
		if got := string(seg.Request(tn)); got != w.req {
			t.Errorf("turn %d request:\n%s\nwant\n%s", i, got, w.req)
		}
		if (w.usage == "") != (tn.Usage == nil) || !strings.Contains(string(tn.Usage), w.usage) {
			t.Errorf("turn %d usage %s", i, tn.Usage)
		}
	}
	if len(seg.Turns) != 3 {
		t.Errorf("%d turns, want 3", len(seg.Turns))
	}
	if out := f.Rebuild(map[*Capture][]byte{c: []byte(`{}`)}); string(out) != string(f.Data) {
		t.Error("rebuild changed a chat file")
	}
}

// gcLog is a Gemini CLI chat log (JSONL): the metadata line, a prompt, an
// answer written twice (the second time with its usage), a rewound
// prompt and answer, a compression marker and an answer after it.
var gcLog = []string{
	`{"sessionId":"G2","projectHash":"ph","startTime":"2026-03-01T00:00:00Z","lastUpdated":"2026-03-01T00:00:00Z","kind":"main"}`,
	`{"id":"u1","timestamp":"2026-03-01T00:00:01Z","type":"user","content":[{"text":"hello"}]}`,
	`{"id":"g1","timestamp":"2026-03-01T00:00:02Z","type":"gemini","content":[{"text":"Hi"}],"model":"gemini-3-flash"}`,
	`{"id":"g1","timestamp":"2026-03-01T00:00:02Z","type":"gemini","content":[{"text":"Hi!"}],"model":"gemini-3-flash","tokens":{"input":50,"output":3,"cached":0,"total":53}}`,
	`{"id":"u2","timestamp":"2026-03-01T00:00:03Z","type":"user","content":"oops"}`,
	`{"id":"g2","timestamp":"2026-03-01T00:00:04Z","type":"gemini","content":"wrong","model":"gemini-3-flash"}`,
	`{"$rewindTo":"u2"}`,
	`{"$set":{"lastUpdated":"2026-03-01T00:00:05Z"}}`,
	`{"id":"u3","timestamp":"2026-03-01T00:00:06Z","type":"user","content":"again"}`,
	`{"id":"g3","timestamp":"2026-03-01T00:00:07Z","type":"gemini","content":"Again.","model":"gemini-3-flash","tokens":{"input":60,"output":2,"cached":40,"total":62}}`,
	`{"id":"k1","timestamp":"2026-03-01T00:00:08Z","type":"compression_marker","compressedHistory":[{"role":"user","parts":[{"text":"summary"}]},{"role":"model","parts":[{"text":"ok"}]}]}`,
	`{"id":"u4","timestamp":"2026-03-01T00:00:09Z","type":"user","content":"next"}`,
	`{"id":"g4","timestamp":"2026-03-01T00:00:10Z","type":"gemini","content":"Next.","model":"gemini-3-flash","tokens":{"input":20,"output":2,"cached":0,"total":22}}`,
}

func TestGeminiCLILog(t *testing.T) {
	f, err := Read("s.jsonl", []byte(strings.Join(gcLog, "\n")+"\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Captures) != 1 || len(f.Errs) > 0 {
		t.Fatalf("%d captures, errors %v", len(f.Captures), f.Errs)
	}
	c := f.Captures[0]
	s := c.Session
	if c.Provider != Gemini || !strings.Contains(c.Reason, "Gemini CLI chat log") || s.Host != HostGeminiCLI || s.ID != "G2" || len(s.Segments) != 2 {
		t.Fatalf("%s %q %+v", c.Provider, c.Reason, s)
	}
	hello := `{"role":"user","parts":[{"text":"hello"}]}`
	hi := `{"role":"model","parts":[{"text":"Hi!"}]}`
	again := `{"role":"user","parts":[{"text":"again"}]}`
	for k, want := range [][]struct {
		line, items int
		req         string
	}{
		{{3, 1, `{"contents":[` + hello + `]}`}, {10, 3, `{"contents":[` + hello + "," + hi + "," + again + `]}`}},
		{{13, 3, `{"contents":[{"role":"user","parts":[{"text":"summary"}]},{"role":"model","parts":[{"text":"ok"}]},{"role":"user","parts":[{"text":"next"}]}]}`}},
	} {
		seg := s.Segments[k]
		if len(seg.Turns) != len(want) {
			t.Fatalf("segment %d: %d turns, want %d", k, len(seg.Turns), len(want))
		}
		for i, w := range want {
			tn := seg.Turns[i]
			if tn.Line != w.line || tn.Items != w.items {
				t.Errorf("segment %d turn %d: line %d items %d, want %d %d", k, i, tn.Line, tn.Items, w.line, w.items)
			}
			if got := string(seg.Request(tn)); got != w.req {
				t.Errorf("segment %d turn %d request:\n%s\nwant\n%s", k, i, got, w.req)
			}
		}
	}
	if u := string(s.Segments[0].Turns[0].Usage); !strings.Contains(u, `"input":50`) {
		t.Errorf("a rewritten message's usage is its last line's: %s", u)
	}
}

func TestGeminiCLIDetection(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		host       string // the host, or "" for another capture
		err        string // an expected error
	}{
		{"chat", gcChat, HostGeminiCLI, ""},
		{"chat on one line", strings.Join(strings.Fields(gcChat), " "), HostGeminiCLI, ""},
		{"log", strings.Join(gcLog[:4], "\n"), HostGeminiCLI, ""},
		{"chat without gemini messages", `{"sessionId":"x","projectHash":"p","messages":[{"id":"1","type":"user","content":"hi"}]}`, "", "no gemini message"},
		{"log without gemini messages", gcLog[0] + "\n" + gcLog[1] + "\n", "", "no gemini message"},
		{"a body with a sessionId", `{"sessionId":"x","contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "", ""},
		{"messages but no project", `{"sessionId":"x","model":"m","messages":[{"role":"user","content":"hi"}]}`, "", ""},
		{"prompt log", `[{"sessionId":"x","messageId":0,"type":"user","message":"hi","timestamp":"t"}]`, "", "Gemini CLI prompt log"},
	} {
		f, err := Read("in.json", []byte(tc.data), Options{})
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.host != "" && (f.Captures[0].Session == nil || f.Captures[0].Session.Host != tc.host):
			t.Errorf("%s: not read as %s", tc.name, tc.host)
		case tc.host == "" && f.Captures[0].Session != nil:
			t.Errorf("%s: read as a %s session", tc.name, f.Captures[0].Session.Host)
		}
	}
}

func FuzzGeminiCLIChat(f *testing.F) {
	f.Add([]byte(gcChat))
	f.Add([]byte(strings.Join(gcLog, "\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		fuzzSession(t, "s.json", data)
	})
}
