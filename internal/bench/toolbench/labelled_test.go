package toolbench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/tools"
)

func runSet(t *testing.T, prompts []Prompt) []Row {
	t.Helper()
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	pipeline := []*rules.Rule{tools.Defer}
	env := ruleset.Env(cfg, pipeline)
	rows, err := Run(set.Tools, prompts, Options{Providers: capture.Providers, Config: cfg, Run: func(c *capture.Capture) (*rules.Result, error) {
		return rules.Run(c, pipeline, env)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(capture.Providers) {
		t.Fatalf("%d rows for %d providers", len(rows), len(capture.Providers))
	}
	return rows
}

// TestTunedSetTargets runs SO201 over the prompts the ranking was tuned on,
// in every provider shape, and holds it to its targets: every labelled tool
// is declared or found by the first search page, at least 80 % of prompts
// defer confidently, and no request grows.
func TestTunedSetTargets(t *testing.T) {
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Tools) < 40 || len(set.Tuned) < 30 {
		t.Fatalf("labelled set too small: %d tools, %d prompts", len(set.Tools), len(set.Tuned))
	}
	for _, r := range runSet(t, set.Tuned) {
		if r.ActivationFailures > 0 {
			for _, c := range r.Cases {
				if len(c.Missing) > 0 {
					t.Errorf("%s %s: missing %v", r.Provider, c.ID, c.Missing)
				}
			}
		}
		if r.ConfidentPct < 80 {
			t.Errorf("%s: only %.0f %% confident", r.Provider, r.ConfidentPct)
		}
		checkRow(t, r)
	}
}

// TestHeldOutSet runs SO201 over the held-out prompts. Their recall is
// reported, not a target (a target would turn them into tuning prompts);
// what must hold is what must hold for any request: nothing grows, tools
// are saved, and the counts add up.
func TestHeldOutSet(t *testing.T) {
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.HeldOut) < 30 {
		t.Fatalf("held-out set has %d prompts, want at least 30", len(set.HeldOut))
	}
	for _, r := range runSet(t, set.HeldOut) {
		checkRow(t, r)
		t.Logf("%s: %d/%d confident, recall on confident prompts %d/%d, on fail-open %d/%d",
			r.Provider, r.Confident, r.Prompts, r.ConfidentRecall.Recalled, r.ConfidentRecall.Needed, r.FailOpenRecall.Recalled, r.FailOpenRecall.Needed)
	}
}

// checkRow holds a row to what any labelled run must satisfy.
func checkRow(t *testing.T, r Row) {
	t.Helper()
	if r.Larger > 0 {
		t.Errorf("%s: %d requests grew", r.Provider, r.Larger)
	}
	if r.InitialBytes >= r.NativeBytes {
		t.Errorf("%s: no saving (%d → %d)", r.Provider, r.NativeBytes, r.InitialBytes)
	}
	if r.Confident+r.FailOpen > r.Prompts {
		t.Errorf("%s: %d confident + %d fail-open > %d prompts", r.Provider, r.Confident, r.FailOpen, r.Prompts)
	}
	if got := r.ConfidentRecall.Needed + r.FailOpenRecall.Needed; got > r.Recall.Needed {
		t.Errorf("%s: split recall needs %d tools, more than the %d of all prompts", r.Provider, got, r.Recall.Needed)
	}
	if f := r.FailOpenRecall; f.Recalled != f.Needed {
		t.Errorf("%s: fail-open prompts recalled %d of %d tools; failing open keeps every tool", r.Provider, f.Recalled, f.Needed)
	}
	missing := 0
	for _, c := range r.Cases {
		missing += len(c.Missing)
		if c.Kept+c.Found+len(c.Missing) != c.Needed {
			t.Errorf("%s %s: kept %d + found %d + missing %d != needed %d", r.Provider, c.ID, c.Kept, c.Found, len(c.Missing), c.Needed)
		}
	}
	if missing != r.ActivationFailures || r.Recall.Needed-r.Recall.Recalled != missing {
		t.Errorf("%s: %d missing tools, %d activation failures, recall %d/%d", r.Provider, missing, r.ActivationFailures, r.Recall.Recalled, r.Recall.Needed)
	}
}

// TestLoadErrors: a broken set names the file and the problem.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"unknown label", map[string]string{CatalogFile: `[{"name":"a","description":"x","parameters":{"type":"object"}}]`, TunedFile: `[{"id":"p1","prompt":"do it","needs":["b"]}]`}, `prompts.json: prompt "p1" needs "b"`},
		{"duplicate id", map[string]string{CatalogFile: `[{"name":"a"}]`, TunedFile: `[{"id":"p1","prompt":"do it","needs":["a"]},{"id":"p1","prompt":"again","needs":[]}]`}, `duplicate prompt id "p1"`},
		{"duplicate id across lists", map[string]string{CatalogFile: `[{"name":"a"}]`, TunedFile: `[{"id":"p1","prompt":"do it"}]`, HeldOutFile: `[{"id":"p1","prompt":"again"}]`}, `prompts.json: duplicate prompt id "p1" (also in heldout.json)`},
		{"duplicate tool", map[string]string{CatalogFile: `[{"name":"a"},{"name":"a"}]`, TunedFile: `[]`}, `tool 2: empty or duplicate name "a"`},
		{"no catalog", map[string]string{TunedFile: `[]`}, `catalog.json: no such file or directory`},
		{"no prompts", map[string]string{CatalogFile: `[{"name":"a"}]`}, `no prompts (heldout.json or prompts.json)`},
		{"empty prompts", map[string]string{CatalogFile: `[{"name":"a"}]`, HeldOutFile: `[]`}, `no prompts`},
		{"syntax error", map[string]string{CatalogFile: "[\n  {\"name\": \"a\",}\n]"}, `catalog.json:2:16: invalid character '}'`},
		{"type error", map[string]string{CatalogFile: `[{"name":"a"}]`, HeldOutFile: "[\n{\"id\": 7}]"}, `heldout.json:2:8: json: cannot unmarshal number`},
		{"no id", map[string]string{CatalogFile: `[{"name":"a"}]`, HeldOutFile: `[{"prompt":"x"}]`}, `heldout.json: a prompt has no id`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), dir) {
				t.Errorf("error %q does not start with the folder", err)
			}
		})
	}
}

// TestLoadMatchesDefault: the built-in set is the committed folder.
func TestLoadMatchesDefault(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Load("data")
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Tools) != len(dir.Tools) || len(def.Tuned) != len(dir.Tuned) || len(def.HeldOut) != len(dir.HeldOut) {
		t.Fatalf("built-in %d/%d/%d, folder %d/%d/%d", len(def.Tools), len(def.Tuned), len(def.HeldOut), len(dir.Tools), len(dir.Tuned), len(dir.HeldOut))
	}
	if def.Where != "built-in" || dir.Where != "data" {
		t.Errorf("origins %q, %q", def.Where, dir.Where)
	}
}

// TestBench: a run covers each list of the set that has prompts, in the
// order held-out, tuned, and times the ranking; a rule that fails stops it.
func TestBench(t *testing.T) {
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	set.HeldOut = set.HeldOut[:2]
	set.Tuned = nil
	cfg := config.Default()
	pipeline := []*rules.Rule{tools.Defer}
	env := ruleset.Env(cfg, pipeline)
	opts := Options{Providers: []capture.Provider{capture.Anthropic}, Config: cfg, Run: func(c *capture.Capture) (*rules.Result, error) {
		return rules.Run(c, pipeline, env)
	}}
	rep, err := Bench(set, tools.Defer, opts, 20)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rule != "SO201" || len(rep.Results) != 1 || rep.Results[0].Name != HeldOut || rep.Results[0].Prompts != 2 || rep.Tools != len(set.Tools) {
		t.Errorf("report %+v", rep)
	}
	opts.Run = func(*capture.Capture) (*rules.Result, error) { return nil, errors.New("boom") }
	if _, err := Bench(set, tools.Defer, opts, 20); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a failing rule: %v", err)
	}
}
