package output

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/validity"
)

// corpusFile returns a file of the shared corpus beside the repository,
// skipping the test when the corpus is absent.
func corpusFile(t *testing.T, parts ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{"..", "..", "..", "shared", "corpus"}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared corpus not present at %s", p)
	}
	return p
}

// rewriteStrings replaces every string of c for which fn returns a new
// text, and reads the result back.
func rewriteStrings(t *testing.T, c *capture.Capture, fn func(s string) (string, bool)) *capture.Capture {
	t.Helper()
	d := c.Doc
	type edit struct {
		start, end int
		text       []byte
	}
	var edits []edit
	for n := range capture.Node(len(d.Nodes)) {
		if d.Kind(n) != capture.String {
			continue
		}
		if s, ok := fn(d.Str(n)); ok {
			edits = append(edits, edit{int(d.Nodes[n].Start), int(d.Nodes[n].End), capture.Quote(s)})
		}
	}
	sort.Slice(edits, func(a, b int) bool { return edits[a].start > edits[b].start })
	body := append([]byte{}, c.Body...)
	for _, e := range edits {
		body = append(body[:e.start], append(e.text, body[e.end:]...)...)
	}
	out, err := c.WithBody(body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLoadedSkillFilesNotReduced: in the real Pi conversations, the model
// reads the internal-comms SKILL.md it chose. With a SKILL.md as long as
// mcp-builder's (9 KB), the output rules leave that read alone on every
// wire format, as they do a read of another file inside the skill's
// catalogued folder; the 35 KB licence text read earlier in the same
// request is still reduced.
func TestLoadedSkillFilesNotReduced(t *testing.T) {
	long, err := os.ReadFile(corpusFile(t, "skills", "anthropics__skills", "skills", "mcp-builder", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	const skillPath = "internal-comms/SKILL.md"
	for _, api := range []string{"anthropic-messages", "openai-responses", "openai-completions", "openai-completions-vllm", "google-generative-ai", "mistral-conversations"} {
		f, err := capture.ReadFile(corpusFile(t, "captures", "pi-0.73.1", "pi-"+api+"-small-3.json"), nil, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		orig := f.Captures[0]
		for _, where := range []string{"SKILL.md", "file in the skill folder"} {
			c := rewriteStrings(t, orig, func(s string) (string, bool) {
				switch {
				case strings.HasPrefix(s, "---\nname: internal-comms"):
					return string(long), true // the file read
				case where != "SKILL.md" && strings.Contains(s, skillPath) && !strings.Contains(s, "<available_skills>"):
					return strings.ReplaceAll(s, skillPath, "internal-comms/examples/newsletter.md"), true // the call's path
				}
				return "", false
			})
			env, _ := outEnv(t, nil)
			res := outRun(t, c, env, smart, columnar, dedup, overflow)
			if !reduced(res) {
				t.Errorf("%s: the licence text was not reduced", api)
			}
			if !bytes.Contains(res.Final.Body, capture.Quote(string(long))[1:len(capture.Quote(string(long)))-1]) {
				t.Errorf("%s (%s): the loaded skill file was changed", api, where)
			}
			// Head-tail caps do not cut it either.
			henv, hcfg := outEnv(t, nil)
			hcfg.headTail.Strategy, hcfg.headTail.MaxCharsPerMessage = "head-tail", 2000
			res = outRun(t, c, henv, headTail)
			if !bytes.Contains(res.Final.Body, capture.Quote(string(long))[1:len(capture.Quote(string(long)))-1]) {
				t.Errorf("%s (%s): head-tail cut the loaded skill file", api, where)
			}
		}
	}
}

// TestServerContentLeftAlone: in a real Anthropic conversation with an MCP
// server, the assistant turn replays the server's mcp_tool_use and
// mcp_tool_result. Even grown to a long log, that result is the provider's,
// not the client's: the output rules and the history caps leave it alone.
func TestServerContentLeftAlone(t *testing.T) {
	f, err := capture.ReadFile(corpusFile(t, "provider-examples", "anthropic", "pydantic-ai_test_anthropic_mcp_servers.req2.json"), nil, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	for i := range 300 {
		log.WriteString("2025-09-16T10:00:00Z INFO fetched page " + strings.Repeat("x", i%40) + " of the repository wiki\n")
	}
	found := false
	c := rewriteStrings(t, f.Captures[0], func(s string) (string, bool) {
		if strings.HasPrefix(s, "Pydantic AI is a Python agent framework") {
			found = true
			return s + "\n" + log.String(), true
		}
		return "", false
	})
	if !found {
		t.Fatal("no mcp_tool_result text in the capture")
	}
	server := func(r *rules.Result) string {
		d := r.Final.Doc
		for m := range d.Children(d.Get(0, "messages")) {
			for b := range d.Children(d.Get(m, "content")) {
				if d.GetStr(b, "type") == "mcp_tool_result" {
					return string(d.Raw(b))
				}
			}
		}
		return ""
	}
	env, _ := outEnv(t, nil)
	before := server(&rules.Result{Final: c})
	if res := outRun(t, c, env, smart, columnar, dedup, overflow); server(res) != before || reduced(res) {
		t.Error("an output rule changed the server's mcp_tool_result")
	}
	henv, hcfg := outEnv(t, nil)
	hcfg.headTail.Strategy, hcfg.headTail.MaxCharsPerMessage = "head-tail", 3000
	if res := outRun(t, c, henv, headTail); server(res) != before {
		t.Error("head-tail cut the server's mcp_tool_result")
	}
}

// TestHeadTailOnRealConversations: SO306 on the real Pi conversations.
// OpenAI Responses: a turn's reasoning, message and function_call items are
// kept or dropped together (OpenAI answers 400 to a function_call replayed
// without its reasoning; SO504 checks it). Chat-shaped bodies: the
// developer or system message is instructions, kept, and not the first of
// head_messages. Gemini with head_messages = 0: the body does not start
// with a model functionCall turn (SO505).
func TestHeadTailOnRealConversations(t *testing.T) {
	read := func(api string) *capture.Capture {
		f, err := capture.ReadFile(corpusFile(t, "captures", "pi-0.73.1", "pi-"+api+"-small-3.json"), nil, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f.Captures[0]
	}
	run := func(c *capture.Capture, head, tail int, mode string) *rules.Result {
		env, cfg := outEnv(t, nil)
		cfg.headTail.Strategy, cfg.headTail.HeadMessages, cfg.headTail.TailMessages, cfg.headTail.MiddleMode = "head-tail", head, tail, mode
		env.Validate = func(c *capture.Capture) ([]string, error) {
			var out []string
			diags, err := validity.Check(c, nil)
			if err != nil {
				return nil, err
			}
			for _, d := range diags {
				if d.Severity == rules.Error {
					out = append(out, d.Pointer+": "+d.Rule+" "+d.Message)
				}
			}
			return out, nil
		}
		res := outRun(t, c, env, headTail)
		for _, d := range res.Diagnostics {
			if d.Severity == rules.Error {
				t.Errorf("%s: %s %s", c.Name, d.Rule, d.Message)
			}
		}
		return res
	}
	roles := func(c *capture.Capture, list string) []string {
		d := c.Doc
		var out []string
		for m := range d.Children(d.Get(0, list)) {
			r := d.GetStr(m, "role")
			if r == "" {
				r = d.GetStr(m, "type")
			}
			out = append(out, r)
		}
		return out
	}

	res := run(read("openai-responses"), 1, 2, "marker")
	if !res.Steps[0].Applied {
		t.Fatalf("responses: not applied: %+v", res.Steps[0])
	}
	got := strings.Join(roles(res.Final, "input"), ",")
	if got != "developer,user,system,reasoning,assistant,function_call,function_call_output" {
		t.Errorf("responses: items %s", got)
	}

	for _, api := range []string{"openai-completions", "openai-completions-vllm", "mistral-conversations"} {
		c := read(api)
		res := run(c, 1, 1, "marker")
		r := roles(res.Final, "messages")
		if !res.Steps[0].Applied || len(r) < 3 || r[1] != "user" || r[0] != roles(c, "messages")[0] || r[2] != "system" {
			t.Errorf("%s: messages %v", api, r)
		}
	}

	c := read("google-generative-ai")
	for _, mode := range []string{"omit", "marker"} {
		res := run(c, 0, 1, mode)
		d := res.Final.Doc
		first := capture.NoNode
		for m := range d.Children(d.Get(0, "contents")) {
			first = m
			break
		}
		if d.GetStr(first, "role") == "model" {
			t.Errorf("gemini %s: the body starts with a model turn", mode)
		}
	}
}
