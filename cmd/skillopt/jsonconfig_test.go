package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/skillopt/skillopt/internal/config"
)

// TestWriteJSONConfig: every JSON object gets a last "config" field, the
// file in use or null, and stays valid JSON.
func TestWriteJSONConfig(t *testing.T) {
	named := config.Default()
	named.Path = `dir "x"/skillopt.toml`
	cases := []struct {
		cfg  *config.Config
		v    any
		want string
	}{
		{config.Default(), struct{}{}, "{\n  \"config\": null\n}\n"},
		{nil, map[string]int{}, "{\n  \"config\": null\n}\n"},
		{config.Default(), struct {
			A int `json:"a"`
		}{1}, "{\n  \"a\": 1,\n  \"config\": null\n}\n"},
		{named, struct {
			A []string `json:"a"`
		}{[]string{"<b>"}}, "{\n  \"a\": [\n    \"<b>\"\n  ],\n  \"config\": \"dir \\\"x\\\"/skillopt.toml\"\n}\n"},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		e := &env{stdout: &out, cfg: tc.cfg}
		if err := writeJSON(e, tc.v); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.want {
			t.Errorf("got\n%s\nwant\n%s", out.String(), tc.want)
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Errorf("invalid JSON: %v", err)
		}
	}
	// Not an object: unchanged.
	e := &env{cfg: named}
	if got := string(e.withConfig([]byte("[1]\n"))); got != "[1]\n" {
		t.Errorf("array changed: %q", got)
	}
}
