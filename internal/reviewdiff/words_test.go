package reviewdiff

import (
	"bytes"
	"testing"
)

// TestWordLine: a deleted line and the inserted line facing it merge as
// git diff --word-diff=plain writes them.
func TestWordLine(t *testing.T) {
	h := &hunkWriter{words: true}
	for _, tc := range []struct{ a, b, want string }{
		{"Answer in English.", "Answer in French.", "Answer in [-English-]{+French+}."},
		{"keep it short", "keep it brief and polite", "keep it [-short-]{+brief and polite+}"},
		{"same", "same", "same"},
		{"one two three", "one three", "one [-two -]three"},
		{"", "new", "{+new+}"},
		{"old", "", "[-old-]"},
		{"abc", "xyz", "[-abc-]{+xyz+}"},
	} {
		if got := h.wordLine(tc.a, tc.b); got != tc.want {
			t.Errorf("wordLine(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestQuiet: a quiet diff writes nothing.
func TestQuiet(t *testing.T) {
	var out bytes.Buffer
	if err := Write(&out, nil, Options{Quiet: true, Format: "text"}); err != nil || out.Len() != 0 {
		t.Errorf("quiet wrote %q, %v", out.String(), err)
	}
}
