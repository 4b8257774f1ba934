package capture

import (
	"strings"
	"testing"
)

func TestEventLines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\nb\n", "a|b"},
		{"a\r\nb\r\n\r\nc", "a|b||c"},
		{"a\rb\r\rc\r", "a|b||c"},
		{"a\r\n\rb", "a||b"},
		{"\n", ""},
		{"", ""},
		{"data: x", "data: x"},
	} {
		var got []string
		for l := range EventLines([]byte(tc.in)) {
			got = append(got, string(l))
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestJSONLLoneCR: JSON Lines ends lines in LF or CRLF; a file whose lines
// end in a lone CR is one line of several values, and the error says so.
func TestJSONLLoneCR(t *testing.T) {
	body := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`
	for _, tc := range []struct {
		name, data, err string
	}{
		{"lone CR", body + "\r" + body + "\r", `s.jsonl:1:74: unexpected "{" after the top-level value (byte 73); the line before ends in a lone CR`},
		{"lone CR and a space", body + "\r " + body, "lone CR"},
		{"CRLF", body + "\r\n" + body + "\r\n", ""},
		{"two values on a line", body + " " + body + "\n", "after the top-level value (byte 73)\x00"},
	} {
		_, err := Read("s.jsonl", []byte(tc.data), Options{})
		switch {
		case tc.err == "":
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		case err == nil:
			t.Errorf("%s: no error", tc.name)
		case strings.HasSuffix(tc.err, "\x00"):
			if !strings.HasSuffix(err.Error(), strings.TrimSuffix(tc.err, "\x00")) {
				t.Errorf("%s: %v", tc.name, err)
			}
		case !strings.Contains(err.Error(), tc.err):
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
