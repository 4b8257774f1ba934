package escape

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		prefix, s string
		width     int
		want      string
	}{
		{"note: ", "short", 20, "note: short"},
		{"note: ", "one two three four five", 16, "note: one two\n      three four\n      five"},
		{"note: ", "a /very/long/path/that/does/not/fit b", 16, "note: a\n      /very/long/path/that/does/not/fit\n      b"},
		{"", "x\x1by", 10, `x\x1by`},
		{"  - ", "éé éé éé", 10, "  - éé éé\n    éé"},
	} {
		if got := Wrap(tc.prefix, tc.s, tc.width); got != tc.want {
			t.Errorf("Wrap(%q, %q, %d) = %q, want %q", tc.prefix, tc.s, tc.width, got, tc.want)
		}
	}
	// A 633-character note at the default width: no line is wider than
	// 100 columns, and no word is lost.
	long := strings.Repeat("captures/pi-0.73.1/pi-openai-chat.json, ", 16)[:633]
	got := Wrap("note: ", long, 0)
	for _, line := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(line) > DefaultWidth {
			t.Errorf("line of %d columns: %q", utf8.RuneCountInString(line), line)
		}
	}
	if strings.Join(strings.Fields(got), " ") != "note: "+strings.Join(strings.Fields(long), " ") {
		t.Errorf("words changed: %q", got)
	}
}

// TestWrapWidePrefix: a prefix wider than half the line hangs the rest
// by two spaces.
func TestWrapWidePrefix(t *testing.T) {
	got := Wrap("skillopt: a/long/capture/name.json: SO201 info: ", "fail open: unrelated signal", 60)
	want := "skillopt: a/long/capture/name.json: SO201 info: fail open:\n  unrelated signal"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
