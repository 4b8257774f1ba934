package measure

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// splitOf reads files (name, content) as inputs and splits them,
// returning each conversation as "NAME (FOUND BY): REQUEST ...".
func splitOf(t *testing.T, files ...string) []string {
	t.Helper()
	var fs []*capture.File
	for i := 0; i < len(files); i += 2 {
		f, err := capture.Read(files[i], []byte(files[i+1]), capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	ins, errs := Inputs(fs)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out []string
	for _, th := range Split(ins) {
		var names []string
		for _, in := range th.Inputs {
			names = append(names, in.Name)
		}
		by := th.FoundBy
		if th.ID != "" {
			by += " " + th.ID
		}
		out = append(out, fmt.Sprintf("%s (%s): %s", th.Name, by, strings.Join(names, " ")))
	}
	return out
}

// chat is an OpenAI Chat Completions body of the model with the given
// messages (user, assistant, user, …) after the system text.
func chat(model, system string, msgs ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"model":%q,"messages":[{"role":"system","content":%q}`, model, system)
	for i, m := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		fmt.Fprintf(&b, `,{"role":%q,"content":%q}`, role, m)
	}
	return b.String() + "]}"
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		name  string
		files []string
		want  []string
	}{{
		name: "interleaved conversations and an unrelated request, by shared prefix",
		files: []string{
			"d/1.json", chat("gpt-4.1", "review", "a"),
			"d/2.json", chat("gpt-4.1", "notes", "a"),
			"d/3.json", chat("gpt-4.1", "review", "a", "b", "c"),
			"d/4.json", chat("gpt-4.1", "other", "x"),
			"d/5.json", chat("gpt-4.1", "notes", "a", "b", "c"),
			"d/6.json", chat("gpt-4.1", "review", "a", "b", "c", "d", "e"),
		},
		want: []string{
			"1.json (shared prefix): d/1.json d/3.json d/6.json",
			"2.json (shared prefix): d/2.json d/5.json",
			"4.json (shared prefix): d/4.json",
		},
	}, {
		name: "a request that does not extend the latest one starts a conversation",
		files: []string{
			"1.json", chat("gpt-4.1", "s", "a", "b", "c"),
			"2.json", chat("gpt-4.1", "s", "a"),
			"3.json", chat("gpt-4.1", "s", "a", "b", "c", "d", "e"),
		},
		want: []string{"1.json (shared prefix): 1.json 3.json", "2.json (shared prefix): 2.json"},
	}, {
		name: "of two conversations it extends, the one with more messages",
		files: []string{
			"1.json", chat("gpt-4.1", "s", "a", "b", "c"),
			"2.json", chat("gpt-4.1", "s", "a"),
			"3.json", chat("gpt-4.1", "s", "a", "b", "c", "d", "e"),
			"4.json", chat("gpt-4.1", "s", "a", "b", "c", "d", "e"),
		},
		want: []string{"1.json (shared prefix): 1.json 3.json 4.json", "2.json (shared prefix): 2.json"},
	}, {
		name: "another model is another conversation; a snapshot of the model is not",
		files: []string{
			"1.json", chat("gpt-4.1", "s", "a"),
			"2.json", chat("gpt-4.1-2025-04-14", "s", "a", "b", "c"),
			"3.json", chat("gpt-4.1-mini", "s", "a", "b", "c", "d", "e"),
		},
		want: []string{"1.json (shared prefix): 1.json 2.json", "3.json (shared prefix): 3.json"},
	}, {
		name: "another body shape is another conversation",
		files: []string{
			"1.json", `{"model":"claude-sonnet-4-5","max_tokens":8,"system":"s","messages":[{"role":"user","content":"a"}]}`,
			"2.json", `{"model":"claude-sonnet-4-5","max_tokens":8,"system":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"}]}`,
			"3.json", chat("claude-sonnet-4-5", "s", "a", "b", "c"),
		},
		want: []string{"1.json (shared prefix): 1.json 2.json", "3.json (shared prefix): 3.json"},
	}, {
		name: "a request without messages is a conversation of its own",
		files: []string{
			"1.json", `{"model":"gpt-4.1","input":[]}`,
			"2.json", `{"model":"gpt-4.1","input":[]}`,
		},
		want: []string{"1.json (shared prefix): 1.json", "2.json (shared prefix): 2.json"},
	}, {
		name: "a session id is the conversation, whatever the prefix; a redacted one is none",
		files: []string{"x.jsonl", strings.Join([]string{
			`{"url":"https://api.openai.com/v1/chat/completions","headers":{"session_id":"s-1"},"body":` + chat("gpt-4.1", "s", "a") + `}`,
			`{"url":"https://api.openai.com/v1/chat/completions","headers":{"session_id":"s-2"},"body":` + chat("gpt-4.1", "s", "a", "b", "c") + `}`,
			`{"url":"https://api.openai.com/v1/chat/completions","headers":{"Session-Id":"s-1"},"body":` + chat("gpt-4.1", "summary", "go on") + `}`,
			`{"url":"https://api.openai.com/v1/chat/completions","headers":{"x-session-id":"s-2"},"body":` + chat("gpt-4.1", "t", "a") + `}`,
			`{"url":"https://api.openai.com/v1/chat/completions","headers":{"x-session-id":"s-2"},"body":` + chat("gpt-4.1", "t", "a", "b", "c") + `}`,
		}, "\n")},
		want: []string{
			"x.jsonl#1 (session id s-1): x.jsonl#1 x.jsonl#3",
			"x.jsonl#2 (session id s-2): x.jsonl#2",
			"x.jsonl#4 (shared prefix): x.jsonl#4 x.jsonl#5",
		},
	}, {
		name:  "a Pi session file is one conversation, whatever its branches and compactions",
		files: []string{"a/one.jsonl", session, "b/two.jsonl", session},
		want:  []string{"one.jsonl (pi session): a/one.jsonl:4 a/one.jsonl:9 a/one.jsonl:12 a/one.jsonl:15", "two.jsonl (pi session): b/two.jsonl:4 b/two.jsonl:9 b/two.jsonl:12 b/two.jsonl:15"},
	}} {
		got := splitOf(t, c.files...)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %s\nwant %s", c.name, strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
		}
	}
}
