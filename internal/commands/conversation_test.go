package commands

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/ruleset"
)

type convSide struct {
	Input    int      `json:"input"`
	Cached   int      `json:"cached"`
	Written  int      `json:"written"`
	Uncached int      `json:"uncached"`
	Cost     *float64 `json:"cost"`
	Counts   string   `json:"counts"`
	Break    *struct {
		Pointer  string `json:"pointer"`
		Rule     string `json:"rule"`
		Previous int    `json:"previous_tokens"`
		Kept     int    `json:"kept_tokens"`
	} `json:"prefix_break"`
}

type convReport struct {
	Conversation struct {
		Turns []struct {
			Turn   int      `json:"turn"`
			Vendor string   `json:"vendor"`
			Model  string   `json:"model"`
			Before convSide `json:"before"`
			After  convSide `json:"after"`
			Usage  *struct {
				Input  int `json:"input"`
				Cached int `json:"cached"`
			} `json:"provider_usage"`
			Error *struct {
				InputPct float64 `json:"input_pct"`
			} `json:"prediction_error"`
		} `json:"turns"`
		Total struct {
			Before     struct{ Cost *float64 } `json:"before"`
			After      struct{ Cost *float64 } `json:"after"`
			RuleBreaks int                     `json:"rule_breaks"`
		} `json:"total"`
	} `json:"conversation"`
}

func measureConv(t *testing.T, args ...string) convReport {
	t.Helper()
	var stdout, stderr bytes.Buffer
	argv := append([]string{"skillopt", "measure", "--conversation", "--format", "json"}, args...)
	if code := run(argv, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
	var rep convReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stdout.String())
	}
	return rep
}

// TestConversationCorpus measures the real three-turn Pi conversations of
// the shared corpus with the default pipeline. What holds whatever the
// rules do: Pi's own requests extend each other (no break before the
// rules), the split adds up, known models are priced and the local one is
// not, and every break after the rules is located and, when a rule caused
// it, names a rule of the pipeline.
func TestConversationCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "captures", "pi-0.73.1")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not present at %s", dir)
	}
	known := map[string]bool{}
	for _, r := range ruleset.All() {
		known[r.ID] = true
	}
	for _, conv := range []struct {
		prefix, vendor string
		priced         bool
	}{
		{"pi-anthropic-messages", "anthropic", true},
		{"pi-openai-responses", "openai", true},
		{"pi-openai-completions", "deepseek", true},
		{"pi-openai-completions-vllm", "", false},
		{"pi-google-generative-ai", "gemini", true},
		{"pi-mistral-conversations", "mistral", true},
	} {
		var files []string
		for i := 1; i <= 3; i++ {
			files = append(files, filepath.Join(dir, conv.prefix+"-small-"+string(rune('0'+i))+".json"))
		}
		rep := measureConv(t, files...)
		turns := rep.Conversation.Turns
		if len(turns) != 3 {
			t.Fatalf("%s: %d turns", conv.prefix, len(turns))
		}
		for _, turn := range turns {
			name := conv.prefix + " turn " + string(rune('0'+turn.Turn))
			if turn.Vendor != conv.vendor {
				t.Errorf("%s: vendor %q, want %q", name, turn.Vendor, conv.vendor)
			}
			if turn.Before.Break != nil {
				t.Errorf("%s: Pi's own requests break the prefix at %s", name, turn.Before.Break.Pointer)
			}
			for _, s := range []convSide{turn.Before, turn.After} {
				if s.Cached+s.Written+s.Uncached != s.Input || s.Input == 0 {
					t.Errorf("%s: %+v does not add up", name, s)
				}
				if (s.Cost != nil) != conv.priced {
					t.Errorf("%s: cost %v, priced %v", name, s.Cost, conv.priced)
				}
			}
			if b := turn.After.Break; b != nil {
				if b.Pointer == "" || b.Kept >= b.Previous {
					t.Errorf("%s: break %+v", name, b)
				}
				if b.Rule != "" && !known[b.Rule] {
					t.Errorf("%s: break by unknown rule %q", name, b.Rule)
				}
			}
			if turn.After.Input > turn.Before.Input {
				t.Errorf("%s: the rules grew the prompt from %d to %d tokens", name, turn.Before.Input, turn.After.Input)
			}
		}
		// Later turns read the earlier ones from the cache before the
		// rules, wherever the provider caches without being asked to.
		if conv.vendor != "" && conv.vendor != "mistral" && turns[2].Before.Cached < turns[0].Before.Input {
			t.Errorf("%s: turn 3 reads %d tokens, turn 1 had %d", conv.prefix, turns[2].Before.Cached, turns[0].Before.Input)
		}
		if conv.vendor == "anthropic" && turns[1].Before.Cached != turns[0].Before.Input {
			t.Errorf("anthropic: turn 2 reads %d, want turn 1's %d (Pi marks the last message)", turns[1].Before.Cached, turns[0].Before.Input)
		}
	}
}

// TestConversationPiSessionUsage: the Pi session fixtures that carry usage
// report it beside the prediction, with the prediction's error; from the
// second turn on the prediction is calibrated from the turns before.
func TestConversationPiSessionUsage(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "corpus", "provider-examples", "pi", "pi-generated_session-v3.jsonl")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared corpus not present at %s", path)
	}
	rep := measureConv(t, path)
	turns := rep.Conversation.Turns
	if len(turns) < 2 {
		t.Fatalf("%d turns", len(turns))
	}
	for _, turn := range turns {
		if turn.Usage == nil || turn.Error == nil {
			t.Errorf("turn %d: usage %v error %v", turn.Turn, turn.Usage, turn.Error)
			continue
		}
		switch {
		case turn.Turn == 1:
			// The session holds no system prompt or tools: the first
			// prediction falls short of the provider's count.
			if turn.Before.Counts != "estimated" || turn.Error.InputPct >= 0 || turn.Usage.Input <= turn.Before.Input {
				t.Errorf("turn 1: %s, predicted %d, provider %d (%+.1f %%)", turn.Before.Counts, turn.Before.Input, turn.Usage.Input, turn.Error.InputPct)
			}
		case turn.Before.Counts != "calibrated" || turn.Error.InputPct > 10 || turn.Error.InputPct < -10:
			t.Errorf("turn %d: %s, predicted %d, provider %d (%+.1f %%)", turn.Turn, turn.Before.Counts, turn.Before.Input, turn.Usage.Input, turn.Error.InputPct)
		}
	}
	if !strings.HasPrefix(turns[0].Model, "claude-") || turns[0].Vendor != "anthropic" {
		t.Errorf("turn 1: %s %s", turns[0].Vendor, turns[0].Model)
	}
}

// TestConversationCalibrationOnCorpus: on the real Pi sessions that carry
// the provider's counts, the calibrated prediction of each turn's input
// and cached tokens is, from the sixth turn on, within 3 % of the
// provider's count for at least half of the turns (cached: on the turns
// where the provider read its cache).
func TestConversationCalibrationOnCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "provider-examples", "pi")
	paths, _ := filepath.Glob(filepath.Join(dir, "pi-mono-fixture_session-v1_*.jsonl"))
	if len(paths) == 0 {
		t.Skipf("no Pi sessions in %s", dir)
	}
	median := func(xs []float64) float64 {
		sort.Float64s(xs)
		return xs[len(xs)/2]
	}
	for _, p := range paths {
		rep := measureConv(t, p)
		var in, cached []float64
		for _, turn := range rep.Conversation.Turns {
			u := turn.Usage
			if u == nil || turn.Turn < 6 || u.Input == 0 {
				continue
			}
			in = append(in, math.Abs(float64(turn.Before.Input-u.Input))/float64(u.Input))
			if u.Cached > 0 {
				cached = append(cached, math.Abs(float64(turn.Before.Cached-u.Cached))/float64(u.Cached))
			}
		}
		if len(in) < 100 || len(cached) < 100 {
			t.Fatalf("%s: %d turns with usage, %d with cache reads", p, len(in), len(cached))
		}
		mi, mc := median(in), median(cached)
		t.Logf("%s: median error input %.2f %%, cached %.2f %% over %d turns", filepath.Base(p), 100*mi, 100*mc, len(in))
		if mi > 0.03 || mc > 0.03 {
			t.Errorf("%s: median error input %.2f %%, cached %.2f %%", filepath.Base(p), 100*mi, 100*mc)
		}
	}
}
