package trace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func readRuns(t *testing.T, path string) []*Run {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Read(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestSessionRuns checks the mapping of a Pi session to runs on a
// hand-made v3 session: a skill loaded by a read of its SKILL.md, one
// invoked with /skill: (as Pi expands it), and a run ended by a jump to
// another branch of the tree.
func TestSessionRuns(t *testing.T) {
	path := filepath.Join("testdata", "sessions", "skills-v3.jsonl")
	runs := readRuns(t, path)
	type want struct {
		file, skill, stop, final string
		calls, errors            int
		timestamp                int64
		outcome                  Outcome
	}
	wants := []want{
		{path + "#1", "code-review", "completed", "Review done: the new total() ignores discounts, and TestTotal fails.", 2, 1, 1767225612000, Success},
		{path + "#2", "release-notes", "aborted", "", 3, 0, 1767225624000, Failure},
		{path + "#3", "code-review", "completed", "Looks fine now.", 0, 0, 1767225633000, Success},
	}
	if len(runs) != len(wants) {
		t.Fatalf("%d runs, want %d", len(runs), len(wants))
	}
	for i, w := range wants {
		r := runs[i]
		errs := 0
		for _, c := range r.Calls {
			if c.IsError {
				errs++
			}
		}
		if r.File != w.file || r.Skill != w.skill || r.StoppedReason != w.stop || r.FinalText != w.final || len(r.Calls) != w.calls || errs != w.errors || r.Timestamp != w.timestamp {
			t.Errorf("run %d: %s %s %s %q %d calls (%d errors) at %d, want %+v", i+1, r.File, r.Skill, r.StoppedReason, r.FinalText, len(r.Calls), errs, r.Timestamp, w)
		}
		if r.Source != SourceSession || r.Model != "anthropic/claude-sonnet-4-5" || r.Provider != "anthropic" {
			t.Errorf("run %d: source %s model %s provider %s", i+1, r.Source, r.Model, r.Provider)
		}
		if v := Classify(r, Options{}); v.Outcome != w.outcome {
			t.Errorf("run %d: %s %v, want %s", i+1, v.Outcome, v.Labels(), w.outcome)
		}
	}
	// The load of the skill is not a call of the run; the calls after it are.
	if c := runs[0].Calls[0]; c.Tool != "bash" || string(c.Args) != `{"command":"git diff main"}` || c.ResultChars != 61 {
		t.Errorf("first call %+v", c)
	}
	v := Classify(runs[1], Options{})
	if got := strings.Join(names(v), " "); got != "aborted empty-output looping" {
		t.Errorf("release-notes signals %s", got)
	}
}

// TestSessionV1 reads a linear (version 1) session: a /skill: command typed
// as such, a run that lasts to the end of the file.
func TestSessionV1(t *testing.T) {
	runs := readRuns(t, filepath.Join("testdata", "sessions", "flaky-v1.jsonl"))
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	r := runs[0]
	if r.Skill != "flaky-tests" || len(r.Calls) != 5 || r.Provider != "openrouter" || r.StoppedReason != "completed" || r.DurationMs() != 16000 {
		t.Errorf("run %+v", r)
	}
	v := Classify(r, Options{AllowedProviders: []string{"anthropic"}})
	if got := strings.Join(names(v), " "); got != "tool-errors model-not-allowed" {
		t.Errorf("signals %s (%q)", got, v.Labels())
	}
}

func TestSessionMapping(t *testing.T) {
	header := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`
	line := func(id, parent, msg string) string {
		p := `"` + parent + `"`
		if parent == "" {
			p = "null"
		}
		return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-01-01T00:00:01.000Z","message":` + msg + `}`
	}
	user := func(text string) string { return `{"role":"user","content":` + quote(text) + `,"timestamp":1000}` }
	asst := func(stop, blocks string) string {
		return `{"role":"assistant","provider":"p","model":"m","stopReason":"` + stop + `","timestamp":2000,"content":[` + blocks + `]}`
	}
	read := func(id, path string) string {
		return `{"type":"toolCall","id":"` + id + `","name":"read","arguments":{"path":` + quote(path) + `}}`
	}
	text := func(s string) string { return `{"type":"text","text":` + quote(s) + `}` }
	tests := []struct {
		name  string
		lines []string
		want  string // skill:stop:calls per run
	}{
		{"no skill", []string{line("1", "", user("hi")), line("2", "1", asst("stop", text("hello")))}, ""},
		{"windows path", []string{line("1", "", asst("toolUse", read("c", `C:\skills\lint\SKILL.md`))), line("2", "1", asst("stop", text("ok")))}, "lint:completed:0"},
		{"a read of another file", []string{line("1", "", asst("toolUse", read("c", "docs/README.md")))}, ""},
		{"SKILL.md without a folder", []string{line("1", "", asst("toolUse", read("c", "SKILL.md")))}, ""},
		{"re-reading the same skill is a call", []string{
			line("1", "", asst("toolUse", read("a", "/s/x/SKILL.md"))),
			line("2", "1", asst("toolUse", read("b", "/s/x/SKILL.md"))),
			line("3", "2", asst("length", text("cut"))),
		}, "x:length:1"},
		{"another skill ends the run", []string{
			line("1", "", asst("toolUse", read("a", "/s/x/SKILL.md"))),
			line("2", "1", asst("toolUse", read("b", "/s/y/SKILL.md"))),
			line("3", "2", asst("error", "")),
		}, "x:incomplete:0 y:error:0"},
		{"a genuine user message ends the run", []string{
			line("1", "", user("/skill:x  go")),
			line("2", "1", asst("stop", text("done"))),
			line("3", "2", user("thanks")),
			line("4", "3", asst("stop", text("welcome"))),
		}, "x:completed:0"},
		{"a run without an answer", []string{line("1", "", user("/skill:x"))}, "x:incomplete:0"},
		{"an expansion without a name", []string{line("1", "", user(`<skill name="">x</skill>`))}, ""},
		{"a branch jump ends the run", []string{
			line("1", "", user("start")),
			line("2", "1", user("/skill:x")),
			line("3", "2", asst("toolUse", read("c", "a.txt"))),
			line("4", "1", asst("stop", text("other branch"))),
		}, "x:incomplete:1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := ReadSession("s.jsonl", []byte(header+"\n"+strings.Join(tc.lines, "\n")+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, r.Skill+":"+r.StoppedReason+":"+strconv.Itoa(len(r.Calls)))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("runs %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestSessionErrors(t *testing.T) {
	header := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`
	tests := []struct{ name, src, want string }{
		{"empty", "", "s.jsonl: not a Pi session: the file holds no entries"},
		{"no header", `{"type":"message"}`, "s.jsonl:1:1: not a Pi session: the first entry is not a session header"},
		{"bad line", header + "\n\n" + `{"type":"message",` + "\n", "s.jsonl:3:19: "},
		{"not an object", header + "\n[]\n", "s.jsonl:2:1: session entry is an array, not an object"},
		{"crlf", header + "\r\n" + `{"type":` + "\r\n", "s.jsonl:2:9: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadSession("s.jsonl", []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
}

// TestCorpusSessions reads the real Pi sessions of the shared corpus: they
// must read without error (they load no skills, so they hold no runs).
func TestCorpusSessions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "provider-examples", "pi", "*.jsonl"))
	if len(files) == 0 {
		t.Skip("no Pi sessions in ../shared/corpus/provider-examples/pi")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := ReadSession(f, data)
		if err != nil {
			t.Errorf("%v", err)
		}
		for _, r := range runs {
			Classify(r, Options{})
		}
	}
}
