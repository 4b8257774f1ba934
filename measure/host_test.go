package measure

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

func TestHostSessionTurns(t *testing.T) {
	cc := strings.Join([]string{
		`{"type":"user","sessionId":"S1","uuid":"u1","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"yo"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":10,"cache_read_input_tokens":90,"output_tokens":2}}}`,
		`{"type":"user","sessionId":"S1","uuid":"s1","isSidechain":true,"agentId":"ag","message":{"role":"user","content":"sub"}}`,
		`{"type":"assistant","sessionId":"S1","uuid":"s2","isSidechain":true,"agentId":"ag","message":{"id":"m2","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":7,"output_tokens":1}}}`,
		`{"type":"user","sessionId":"S1","uuid":"u2","message":{"role":"user","content":"more"}}`,
		`{"type":"assistant","sessionId":"S1","uuid":"a2","message":{"id":"m3","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"sure"}],"usage":{"input_tokens":1,"cache_read_input_tokens":120,"output_tokens":5}}}`,
	}, "\n")
	cx := strings.Join([]string{
		`{"type":"session_meta","payload":{"id":"C1"}}`,
		`{"type":"turn_context","payload":{"model":"gpt-5.5"}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}`,
		`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"went"}]}}`,
		`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":50},"last_token_usage":{"input_tokens":50,"cached_input_tokens":20,"output_tokens":4}}}}`,
	}, "\n")
	var files []*capture.File
	for name, data := range map[string]string{"cc.jsonl": cc, "cx.jsonl": cx} {
		f, err := capture.Read(name, []byte(data), capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if files[0].Name != "cc.jsonl" {
		files[0], files[1] = files[1], files[0]
	}
	in, errs := Inputs(files)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	type want struct {
		name, model                      string
		len, input, cached, written, out int
		source                           string
	}
	wants := []want{
		{"cc.jsonl:2", "claude-sonnet-4-5", 1, 103, 90, 10, 2, "claude code session"},
		{"cc.jsonl:6", "claude-sonnet-4-5", 3, 121, 120, 0, 5, "claude code session"},
		{"cc.jsonl:4", "claude-haiku-4-5", 1, 7, 0, 0, 1, "claude code session"},
		{"cx.jsonl:5", "gpt-5.5", 1, 50, 20, 0, 4, "codex session"},
	}
	if len(in) != len(wants) {
		t.Fatalf("%d inputs", len(in))
	}
	for i, w := range wants {
		x := in[i]
		u := x.Usage
		if x.Name != w.name || x.Model != w.model || x.Len != w.len || u == nil || u.Input != w.input || u.Cached != w.cached || u.Written != w.written || u.Output != w.out || u.Source != w.source {
			t.Errorf("input %d: %s %s len %d usage %+v", i, x.Name, x.Model, x.Len, u)
		}
		c, err := x.Materialize()
		if err != nil || c.Doc.Len(c.Doc.GetAny(0, "messages", "input")) != w.len {
			t.Errorf("input %d: materialized %v %s", i, err, c.Body)
		}
	}
	th := Split(in)
	if len(th) != 3 {
		t.Fatalf("%d threads", len(th))
	}
	if th[0].FoundBy != FoundByClaudeCode || th[0].ID != "S1" || len(th[0].Inputs) != 2 || th[0].Parent != "" {
		t.Errorf("main thread %+v", th[0])
	}
	if th[1].Name != "cc.jsonl#3" || th[1].Parent != "subagent ag of session S1" {
		t.Errorf("sidechain thread %s %q", th[1].Name, th[1].Parent)
	}
	if th[2].FoundBy != FoundByCodex || th[2].ID != "C1" {
		t.Errorf("codex thread %+v", th[2])
	}
}

// TestGeminiCLITurns: a Gemini CLI chat's turns carry the message's
// tokens as usage (tool-use prompt tokens are input, thoughts output) and
// form one conversation found by its session.
func TestGeminiCLITurns(t *testing.T) {
	chat := `{"sessionId":"G1","projectHash":"p","startTime":"2026-01-01T00:00:00Z","messages":[
{"id":"1","timestamp":"2026-01-01T00:00:01Z","type":"user","content":"hi"},
{"id":"2","timestamp":"2026-01-01T00:00:02Z","type":"gemini","content":"yo","model":"gemini-2.5-pro","tokens":{"input":100,"output":3,"cached":0,"thoughts":7,"tool":0,"total":110}},
{"id":"3","timestamp":"2026-01-01T00:00:03Z","type":"user","content":"more"},
{"id":"4","timestamp":"2026-01-01T00:00:04Z","type":"gemini","content":"sure","model":"gemini-2.5-pro","tokens":{"input":120,"output":5,"cached":90,"thoughts":0,"tool":6,"total":131}},
{"id":"5","timestamp":"2026-01-01T00:00:05Z","type":"gemini","content":"","model":"gemini-2.5-pro","tokens":{"input":0,"output":0,"cached":0,"total":0}}]}`
	f, err := capture.Read("g.json", []byte(chat), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, errs := Inputs([]*capture.File{f})
	if len(errs) > 0 || len(in) != 3 {
		t.Fatalf("%d inputs, errors %v", len(in), errs)
	}
	for i, w := range []struct {
		name                    string
		len, input, cached, out int
		usage                   bool
	}{
		{"g.json:3", 1, 100, 0, 10, true},
		{"g.json:5", 3, 126, 90, 5, true},
		{"g.json:6", 4, 0, 0, 0, false},
	} {
		x, u := in[i], in[i].Usage
		if x.Name != w.name || x.Len != w.len || x.Model != "gemini-2.5-pro" || (u != nil) != w.usage {
			t.Fatalf("input %d: %s len %d model %s usage %+v", i, x.Name, x.Len, x.Model, u)
		}
		if u != nil && (u.Input != w.input || u.Cached != w.cached || u.Uncached != w.input-w.cached || u.Output != w.out || u.Source != "gemini cli session") {
			t.Errorf("input %d: usage %+v", i, u)
		}
		c, err := x.Materialize()
		if err != nil || c.Doc.Len(c.Doc.Get(0, "contents")) != w.len {
			t.Errorf("input %d: materialized %v %s", i, err, c.Body)
		}
	}
	if th := Split(in); len(th) != 1 || th[0].FoundBy != FoundByGeminiCLI || th[0].ID != "G1" {
		t.Errorf("threads %+v", th)
	}
}

// TestHostCorpus reads the host sessions of the shared corpus as
// conversations: every session file gives turns, every turn the
// provider's usage.
func TestHostCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "sessions")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no ../shared/corpus/sessions")
	}
	for _, host := range []string{"claude-code", "codex", "claude-trace", "gemini-cli"} {
		paths, err := capture.Expand([]string{filepath.Join(root, host)})
		if err != nil {
			t.Fatal(err)
		}
		var files []*capture.File
		for _, p := range paths {
			f, err := capture.ReadFile(p, nil, capture.Options{})
			if errors.Is(err, capture.ErrNoRequests) {
				continue // Gemini CLI's prompt log
			}
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			files = append(files, f)
		}
		in, errs := Inputs(files)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", host, errs)
		}
		withUsage, tokens := 0, 0
		for _, x := range in {
			if x.Usage != nil {
				withUsage++
				tokens += x.Usage.Input + x.Usage.Output
			}
		}
		threads := Split(in)
		t.Logf("%s: %d files, %d conversations, %d turns, %d with usage, %d provider tokens", host, len(files), len(threads), len(in), withUsage, tokens)
		if len(in) == 0 || withUsage == 0 {
			t.Errorf("%s: %d turns, %d with usage", host, len(in), withUsage)
		}
	}
}
