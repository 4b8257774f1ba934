package jsonout

import (
	"encoding/json"
	"testing"
)

// TestEncodeConfig: every JSON object gets a last "config" field, the
// file in use or null, and stays valid JSON.
func TestEncodeConfig(t *testing.T) {
	named := `dir "x"/skillopt.toml`
	cases := []struct {
		path string
		v    any
		want string
	}{
		{"", struct{}{}, "{\n  \"config\": null\n}\n"},
		{"", map[string]int{}, "{\n  \"config\": null\n}\n"},
		{"", struct {
			A int `json:"a"`
		}{1}, "{\n  \"a\": 1,\n  \"config\": null\n}\n"},
		{named, struct {
			A []string `json:"a"`
		}{[]string{"<b>"}}, "{\n  \"a\": [\n    \"<b>\"\n  ],\n  \"config\": \"dir \\\"x\\\"/skillopt.toml\"\n}\n"},
	}
	for _, tc := range cases {
		out, err := Encode(tc.v, tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("got\n%s\nwant\n%s", out, tc.want)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Errorf("invalid JSON: %v", err)
		}
	}
	// Not an object: unchanged.
	if got := string(WithConfig([]byte("[1]\n"), named)); got != "[1]\n" {
		t.Errorf("array changed: %q", got)
	}
}
