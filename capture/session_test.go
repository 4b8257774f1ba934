package capture

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ccLines is a Claude Code session: a streamed assistant message written
// as three lines of one id (a blank text block, text, a tool use), the
// tool's result, a second message, a sidechain's two lines, a compaction
// and a message after it.
var ccLines = []string{
	`{"type":"summary","summary":"s","leafUuid":"x"}`,
	`{"parentUuid":null,"isSidechain":false,"type":"user","sessionId":"S1","uuid":"u1","message":{"role":"user","content":"list files"}}`,
	`{"parentUuid":"u1","isSidechain":false,"type":"assistant","sessionId":"S1","uuid":"a1","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"\n\n"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":0,"output_tokens":1}}}`,
	`{"parentUuid":"a1","isSidechain":false,"type":"assistant","sessionId":"S1","uuid":"a2","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Listing."}],"usage":{"input_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":0,"output_tokens":1}}}`,
	`{"parentUuid":"a2","isSidechain":false,"type":"assistant","sessionId":"S1","uuid":"a3","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":0,"output_tokens":25}}}`,
	`{"parentUuid":"a3","isSidechain":true,"agentId":"ag1","type":"user","sessionId":"S1","uuid":"s1","message":{"role":"user","content":"sub task"}}`,
	`{"parentUuid":"s1","isSidechain":true,"agentId":"ag1","type":"assistant","sessionId":"S1","uuid":"s2","message":{"id":"msg_s","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":50,"output_tokens":2}}}`,
	`{"parentUuid":"a3","isSidechain":false,"type":"user","sessionId":"S1","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a\nb"}]}}`,
	`{"parentUuid":"u2","isSidechain":false,"type":"assistant","sessionId":"S1","uuid":"a4","message":{"id":"msg_2","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Two files."}],"usage":{"input_tokens":5,"cache_creation_input_tokens":20,"cache_read_input_tokens":100,"output_tokens":4}}}`,
	`{"parentUuid":"a4","isSidechain":false,"type":"assistant","sessionId":"S1","uuid":"a5","message":{"id":"msg_x","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error"}],"usage":{"input_tokens":0,"output_tokens":0}}}`,
	`{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"compact_boundary","sessionId":"S1","uuid":"c1"}`,
	`{"parentUuid":"c1","isSidechain":false,"type":"user","sessionId":"S1","uuid":"u3","isCompactSummary":true,"message":{"role":"user","content":"Summary: two files."}}`,
	`{"parentUuid":"u3","isSidechain":false,"type":"assistant","sessionId":"S1","uuid":"a6","message":{"id":"msg_3","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"OK"}],"usage":{"input_tokens":9,"output_tokens":1}}}`,
}

func TestClaudeCodeSession(t *testing.T) {
	f, err := Read("s.jsonl", []byte(strings.Join(ccLines, "\n")+"\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Captures) != 2 {
		t.Fatalf("%d conversations, want the main one and the sidechain", len(f.Captures))
	}
	main, side := f.Captures[0], f.Captures[1]
	if main.Name != "s.jsonl" || side.Name != "s.jsonl#6" || main.Envelope != EnvSession || main.Provider != Anthropic ||
		!strings.Contains(main.Reason, "Claude Code session file") || !strings.Contains(main.Reason, "system prompt") {
		t.Fatalf("main %s %s %s %q; side %s", main.Name, main.Envelope, main.Provider, main.Reason, side.Name)
	}
	s := main.Session
	if s.Host != HostClaudeCode || s.ID != "S1" || s.Agent != "" || len(s.Segments) != 2 {
		t.Fatalf("session %+v", s)
	}
	type want struct {
		line, items int
		req         string
	}
	check := func(seg *SessionSegment, wants []want) {
		t.Helper()
		if len(seg.Turns) != len(wants) {
			t.Fatalf("%d turns, want %d", len(seg.Turns), len(wants))
		}
		for i, w := range wants {
			tn := seg.Turns[i]
			if tn.Line != w.line || tn.Items != w.items {
				t.Errorf("turn %d: line %d items %d, want %d %d", i, tn.Line, tn.Items, w.line, w.items)
			}
			if got := string(seg.Request(tn)); got != w.req {
				t.Errorf("turn %d request:\n%s\nwant\n%s", i, got, w.req)
			}
		}
	}
	msgs := `{"role":"user","content":"list files"},{"role":"assistant","content":[{"type":"text","text":"Listing."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a\nb"}]}`
	check(s.Segments[0], []want{
		{3, 1, `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"list files"}]}`},
		{9, 3, `{"model":"claude-sonnet-4-5","messages":[` + msgs + `]}`},
	})
	if u := string(s.Segments[0].Turns[0].Usage); !strings.Contains(u, `"output_tokens":25`) {
		t.Errorf("the streamed message's usage is its last line's: %s", u)
	}
	if s.Segments[0].Turns[0].RequestID != "req_1" {
		t.Errorf("request id %q", s.Segments[0].Turns[0].RequestID)
	}
	check(s.Segments[1], []want{{13, 1, `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"Summary: two files."}]}`}})
	if ss := side.Session; ss.Agent != "ag1" || ss.Parent != "S1" || len(ss.Segments) != 1 {
		t.Fatalf("sidechain %+v", ss)
	}
	check(side.Session.Segments[0], []want{{7, 1, `{"model":"claude-haiku-4-5","messages":[{"role":"user","content":"sub task"}]}`}})
	// A session capture is not in the file's bytes: rebuilding leaves the
	// file as it was.
	if out := f.Rebuild(map[*Capture][]byte{main: []byte(`{}`)}); string(out) != string(f.Data) {
		t.Error("rebuild changed a session file")
	}
}

// cxLines is a Codex rollout: two model calls of one task (a function
// call and its output between them), a repeated token_count, and a
// second turn context with another model.
var cxLines = []string{
	`{"timestamp":"t","type":"session_meta","payload":{"id":"C1","cwd":"/w","base_instructions":{"text":"You are Codex."}}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"rules"}]}}`,
	`{"timestamp":"t","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5"}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"x"}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"total_tokens":110},"last_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"total_tokens":110}}}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"total_tokens":110},"last_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"total_tokens":110}}}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok"}}`,
	`{"timestamp":"t","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5-mini"}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":220,"cached_input_tokens":96,"output_tokens":15,"total_tokens":235},"last_token_usage":{"input_tokens":120,"cached_input_tokens":96,"output_tokens":5,"total_tokens":125}}}}`,
}

func TestCodexRollout(t *testing.T) {
	f, err := Read("rollout.jsonl", []byte(strings.Join(cxLines, "\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Captures) != 1 {
		t.Fatalf("%d captures", len(f.Captures))
	}
	c := f.Captures[0]
	if c.Provider != OpenAIResponses || c.Envelope != EnvSession || !strings.Contains(c.Reason, "Codex rollout file") {
		t.Fatalf("%s %s %q", c.Provider, c.Envelope, c.Reason)
	}
	s := c.Session
	if s.Host != HostCodex || s.ID != "C1" || len(s.Segments) != 1 {
		t.Fatalf("%+v", s)
	}
	seg := s.Segments[0]
	if len(seg.Turns) != 2 {
		t.Fatalf("%d turns, want 2 (the repeated token_count counted once)", len(seg.Turns))
	}
	head := `{"model":"gpt-5.5-mini","instructions":"You are Codex.","input":[`
	dev := `{"type":"message","role":"developer","content":[{"type":"input_text","text":"rules"}]}`
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}`
	for i, w := range []struct {
		line, items int
		model, req  string
	}{
		{8, 2, "gpt-5.5", head + dev + "," + user + "]}"},
		{13, 5, "gpt-5.5-mini", head + dev + "," + user + `,{"type":"reasoning","summary":[],"encrypted_content":"x"},{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"},{"type":"function_call_output","call_id":"c1","output":"ok"}]}`},
	} {
		tn := seg.Turns[i]
		if tn.Line != w.line || tn.Items != w.items || tn.Model != w.model {
			t.Errorf("turn %d: %+v", i, tn)
		}
		if got := string(seg.Request(tn)); got != w.req {
			t.Errorf("turn %d request:\n%s\nwant\n%s", i, got, w.req)
		}
	}
	if !strings.Contains(string(seg.Turns[1].Usage), `"cached_input_tokens":96`) {
		t.Errorf("usage %s", seg.Turns[1].Usage)
	}
}

func TestSessionDetection(t *testing.T) {
	for _, tc := range []struct{ name, data, host string }{
		{"claude code", ccLines[0] + "\n" + ccLines[1] + "\n", HostClaudeCode},
		{"codex", cxLines[0] + "\n", HostCodex},
		{"bodies", `{"model":"m","messages":[]}` + "\n" + `{"model":"m","messages":[]}` + "\n", ""},
		{"recording", `{"url":"https://api.anthropic.com/v1/messages","body":{"type":"user","sessionId":"x","uuid":"y"}}` + "\n", ""},
		{"pi", `{"type":"session","id":"x"}` + "\n" + `{"type":"message","sessionId":"s","uuid":"u","message":{}}` + "\n", ""},
	} {
		if host, _, _ := sessionHost([]byte(tc.data)); host != tc.host {
			t.Errorf("%s: host %q, want %q", tc.name, host, tc.host)
		}
	}
	// A session without a single request is an error that says so.
	if _, err := Read("s.jsonl", []byte(ccLines[1]+"\n"), Options{}); err == nil || !strings.Contains(err.Error(), "no assistant message") {
		t.Errorf("error %v", err)
	}
}

// TestSessionCorpus reads every host session of the shared corpus: each
// Claude Code, Codex, claude-trace and Gemini CLI file gives captures, no
// bad line, and every turn's request is JSON; Gemini CLI's prompt log is
// the one file that holds no requests, and says so.
func TestSessionCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "sessions")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no ../shared/corpus/sessions")
	}
	n := 0
	for _, dir := range []string{"claude-code", "codex", "claude-trace", "gemini-cli"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") && !strings.HasSuffix(p, ".json") {
				return err
			}
			n++
			f, err := ReadFile(p, nil, Options{})
			if errors.Is(err, ErrNoRequests) && filepath.Base(p) == "logs.json" {
				return nil
			}
			if err != nil {
				t.Errorf("%s: %v", p, err)
				return nil
			}
			if len(f.Errs) > 0 || len(f.Captures) == 0 {
				t.Errorf("%s: %d captures, errors %v", p, len(f.Captures), f.Errs)
			}
			for _, c := range f.Captures {
				if c.Session == nil {
					continue
				}
				for _, seg := range c.Session.Segments {
					for _, tn := range seg.Turns {
						if !json.Valid(seg.Request(tn)) {
							t.Errorf("%s:%d: the rebuilt request is not JSON", p, tn.Line)
						}
					}
				}
			}
			return nil
		})
	}
	if n == 0 {
		t.Skip("no session files in the corpus")
	}
}

// fuzzSession checks what any session reader returns: captures whose
// turns' requests are JSON and whose items fit their segment.
func fuzzSession(t *testing.T, name string, data []byte) {
	f, err := Read(name, data, Options{})
	if err != nil {
		return
	}
	for _, c := range f.Captures {
		if !json.Valid(c.Body) {
			t.Fatalf("%s: body is not JSON: %s", c.Name, c.Body)
		}
		if c.Session == nil {
			continue
		}
		for _, seg := range c.Session.Segments {
			for _, tn := range seg.Turns {
				if tn.Items < 0 || tn.Items > len(seg.Ends) {
					t.Fatalf("turn at line %d sends %d of %d items", tn.Line, tn.Items, len(seg.Ends))
				}
				if !json.Valid(seg.Request(tn)) {
					t.Fatalf("turn at line %d: request is not JSON: %s", tn.Line, seg.Request(tn))
				}
			}
		}
	}
}

func FuzzClaudeCodeSession(f *testing.F) {
	f.Add([]byte(strings.Join(ccLines, "\n")))
	f.Add([]byte(ccLines[1] + "\n" + ccLines[3] + "\n" + ccLines[3] + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		fuzzSession(t, "s.jsonl", data)
	})
}

func FuzzCodexRollout(f *testing.F) {
	f.Add([]byte(strings.Join(cxLines, "\n")))
	f.Add([]byte(cxLines[0] + "\n" + `{"type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","role":"user","content":[]}]}}` + "\n" + cxLines[7]))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		fuzzSession(t, "rollout.jsonl", data)
	})
}

func FuzzExchange(f *testing.F) {
	f.Add([]byte(`{"request":{"timestamp":1,"method":"POST","url":"https://api.anthropic.com/v1/messages","headers":{"authorization":"Bearer k"},"body":{"model":"m","messages":[]}},"response":{"status_code":200,"headers":{},"body_raw":"data: {}\n"},"logged_at":"x"}`))
	f.Add([]byte(`{"recorded_at":"x","url":"https://api.openai.com/v1/responses?key=k","method":"POST","headers":{"x-api-key":"k"},"body":{"model":"m","input":"hi"},"response":{"status":429,"headers":{"retry-after":"1"},"usage":{"input_tokens":1},"error":"e"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		file, err := Read("x.jsonl", data, Options{})
		if err != nil {
			return
		}
		for _, c := range file.Captures {
			if c.Response != nil && !json.Valid(c.Response) {
				t.Fatalf("response is not JSON: %s", c.Response)
			}
		}
	})
}

// TestSessionHostWhole checks the parse sessionHost hands the reader: it
// is data's own parse (offsets into data, white space around it allowed)
// only when data is one JSON line, and a one-line session file is still
// recognised as one.
func TestSessionHostWhole(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		whole      bool
		host       string
	}{
		{"bare request", `{"model":"m","messages":[]}`, true, ""},
		{"bare request, blank lines around", "\n  " + `{"model":"m","messages":[]}` + "\n\n", true, ""},
		{"one-line session", cxLines[0], false, HostCodex},
		{"one-line session, newline", ccLines[1] + "\n", false, HostClaudeCode},
		{"two lines", `{"a":1}` + "\n" + `{"b":2}`, false, ""},
		{"not JSON", `{"a":`, false, ""},
	} {
		host, _, whole := sessionHost([]byte(tc.data))
		if host != tc.host {
			t.Errorf("%s: host %q, want %q", tc.name, host, tc.host)
		}
		if (whole != nil) != tc.whole {
			t.Fatalf("%s: whole parse %v, want %v", tc.name, whole != nil, tc.whole)
		}
		if whole == nil {
			continue
		}
		want, err := Parse([]byte(tc.data))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.Src, want.Src) || !slices.Equal(whole.Nodes, want.Nodes) {
			t.Errorf("%s: the kept parse differs from data's own", tc.name)
		}
	}
}

// TestClaudeCodePromptEndsInBreakpoint: Claude Code marks the end of every
// request it sends, which its session file does not keep; a rebuilt
// request is read as ending in a breakpoint, a plain request without
// cache_control is not.
func TestClaudeCodePromptEndsInBreakpoint(t *testing.T) {
	f, err := Read("s.jsonl", []byte(strings.Join(ccLines, "\n")+"\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Captures {
		if !c.Prompt().Auto {
			t.Errorf("%s: a request rebuilt from a Claude Code session does not end in a breakpoint", c.Name)
		}
	}
	plain, err := Read("r.json", []byte(`{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Captures[0].Prompt().Auto {
		t.Error("a request without cache_control is read as ending in a breakpoint")
	}
}
