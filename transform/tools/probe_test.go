package tools

import (
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// TestProbe: the search answers over the deferrable tools whatever the
// deferral decided, and the decision is reported beside it.
func TestProbe(t *testing.T) {
	tools := []capture.ToolSpec{
		spec("read", "Read a file"),
		spec("bash", "Run a shell command"),
		spec("mcp__kubernetes__pods_log", "Fetch the logs of a kubernetes pod"),
		spec("mcp__slack__post_message", "Post a message to a slack channel"),
		spec("mcp__postgres__execute_sql", "Execute an SQL query against postgres"),
	}
	small := defaults()
	small.MinSaving = 0
	for _, tc := range []struct {
		name, text, decision string
		deferred, searched   int
	}{
		{"fails open", "thanks!", "fail-open", 0, 3},
		{"defers", "post the release notes to the slack channel", "defer", 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, tools, user(tc.text)))
			page, err := Probe(c, small, "kubernetes pod logs", "")
			if err != nil {
				t.Fatal(err)
			}
			d := page.Deferral
			if d == nil || d.Decision != tc.decision || d.Deferred != tc.deferred || page.Deferred != tc.deferred || page.Searched != tc.searched {
				t.Fatalf("deferral %+v, deferred %d, searched %d; want %s, %d deferred, %d searched", d, page.Deferred, page.Searched, tc.decision, tc.deferred, tc.searched)
			}
			if len(page.Tools) == 0 || page.Tools[0].Name != "mcp__kubernetes__pods_log" {
				t.Errorf("page %+v", page.Tools)
			}
			if tc.decision != "defer" && (len(page.Activated) != 0 || len(page.Active) != len(tools) || d.Reason == "") {
				t.Errorf("nothing deferred: activated %v, active %v, reason %q", page.Activated, page.Active, d.Reason)
			}
		})
	}
}
