package reduce

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	in := "Intro.\n\n```tool_use\n{\"name\":\"x\"}\n```\n\n```Tool-Result\nout\n```\n" +
		"{\"jsonrpc\":\"2.0\",\"id\":1}\n  { \"tool_use_id\" : \"t\" }\n{\"tool_call_id\":\"c\",\"output\":\"o\"}\n" +
		"{\"type\":\"keep\"}\n```go\nfmt.Println(1)\n```\n````markdown\n```mcp\nnested stays inside markdown\n```\n````\n" +
		"~~~auggie\nx\n~~~\n```codebase_retrieval\ny\n```\n```SCRATCHPAD\nz\n```\n```internal\nw\n```\nEnd.\n"
	res := Sanitize(in, SanitizeOptions{StripTraces: true})
	want := "Intro.\n\n{\"type\":\"keep\"}\n```go\nfmt.Println(1)\n```\n````markdown\n```mcp\nnested stays inside markdown\n```\n````\nEnd.\n"
	if res.Text != want {
		t.Errorf("got\n%q\nwant\n%q", res.Text, want)
	}
	if res.RemovedSections != 9 || res.Truncated {
		t.Errorf("removed %d, truncated %v", res.RemovedSections, res.Truncated)
	}
	// Nothing to remove: byte-identical.
	plain := "```json\n{\"jsonrpc\": \"2.0\"}\n```\n"
	if got := Sanitize(plain, SanitizeOptions{StripTraces: true}); got.Text != plain || got.RemovedSections != 0 {
		t.Errorf("ordinary fence changed: %q", got.Text)
	}
	// An unclosed trace fence runs to the end.
	if got := Sanitize("a\n```internal\nsecret\n", SanitizeOptions{StripTraces: true}); got.Text != "a\n" {
		t.Errorf("unclosed fence: %q", got.Text)
	}
}

func TestSanitizeCap(t *testing.T) {
	text := strings.Repeat("ä", 5000)
	for _, max := range []int{1, 50, 80, 1000, 4999} {
		res := Sanitize(text, SanitizeOptions{MaxChars: max})
		n := utf8.RuneCountInString(res.Text)
		if !res.Truncated || n > max || !utf8.ValidString(res.Text) {
			t.Errorf("max %d: %d chars, truncated %v", max, n, res.Truncated)
		}
		if max >= 80 && !strings.Contains(res.Text, "[… output truncated: ") {
			t.Errorf("max %d: no marker", max)
		}
		if max >= 80 {
			// The marker's count is exact.
			kept := strings.Count(res.Text, "ä")
			if !strings.Contains(res.Text, " "+strconv.Itoa(5000-kept)+" of 5000 characters omitted]") {
				t.Errorf("max %d: marker count wrong in %q", max, res.Text[len(res.Text)-60:])
			}
		}
	}
	if res := Sanitize(text, SanitizeOptions{MaxChars: 5000}); res.Truncated || res.Text != text {
		t.Error("text at the cap was truncated")
	}
}
