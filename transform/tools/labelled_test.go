package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
)

// TestLabelledSetTargets runs SO201 over the committed labelled set in
// every provider shape and holds it to its targets: every labelled tool is
// declared or found by the first search page, at least 80 % of prompts
// defer confidently, and no request grows.
func TestLabelledSetTargets(t *testing.T) {
	set, err := LoadToolSet("../../testdata/tools")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Tools) < 40 || len(set.Prompts) < 30 {
		t.Fatalf("labelled set too small: %d tools, %d prompts", len(set.Tools), len(set.Prompts))
	}
	cfg := defaults()
	env := &rules.Env{Options: envWith(t, cfg).Options, Validate: func(c *capture.Capture) ([]string, error) {
		errs, err := schemas.ValidateDoc(string(c.Provider), c.Doc)
		var out []string
		for _, e := range errs {
			out = append(out, e.String())
		}
		return out, err
	}}
	pipeline := []*rules.Rule{Defer}
	rows, err := BenchTools(set, capture.Providers, cfg, func(c *capture.Capture) (*rules.Result, error) {
		return rules.Run(c, pipeline, env)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.ToolRecall < 1 || r.ActivationFailures > 0 {
			for _, c := range r.Cases {
				if len(c.Missing) > 0 {
					t.Errorf("%s %s: missing %v", r.Provider, c.ID, c.Missing)
				}
			}
		}
		if r.ConfidentPct < 80 {
			t.Errorf("%s: only %.0f %% confident", r.Provider, r.ConfidentPct)
		}
		if r.Larger > 0 {
			t.Errorf("%s: %d requests grew", r.Provider, r.Larger)
		}
		if r.InitialBytes >= r.NativeBytes {
			t.Errorf("%s: no saving (%d → %d)", r.Provider, r.NativeBytes, r.InitialBytes)
		}
	}
}

// TestLoadToolSetErrors: a label naming an unknown tool is an error that
// names it.
func TestLoadToolSetErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("catalog.json", `[{"name":"a","description":"x","parameters":{"type":"object"}}]`)
	write("prompts.json", `[{"id":"p1","prompt":"do it","needs":["b"]}]`)
	if _, err := LoadToolSet(dir); err == nil || !strings.Contains(err.Error(), `needs "b"`) {
		t.Fatalf("unknown label accepted: %v", err)
	}
	write("prompts.json", `[{"id":"p1","prompt":"do it","needs":["a"]},{"id":"p1","prompt":"again","needs":[]}]`)
	if _, err := LoadToolSet(dir); err == nil || !strings.Contains(err.Error(), `duplicate prompt id "p1"`) {
		t.Fatalf("duplicate id accepted: %v", err)
	}
	write("catalog.json", `[{"name":"a"},{"name":"a"}]`)
	if _, err := LoadToolSet(dir); err == nil {
		t.Fatal("duplicate tool accepted")
	}
}
