package measure_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/internal/convtest"
	"github.com/skillopt/skillopt/rules"
)

var (
	readCapture = convtest.ReadCapture
	shorten     = convtest.Shorten
)

const twoTexts = convtest.TwoTexts

// TestTokensPerRule: each applied step is credited with the tokens it
// saved; the steps add up to the pipeline's saving, and a step that did
// nothing saves none and says why.
func TestTokensPerRule(t *testing.T) {
	c := readCapture(t, "c.json", twoTexts)
	pipeline := []*rules.Rule{shorten("T1", "/system", "short"), shorten("T2", "/missing", ""), shorten("T3", "/messages/0/content", "q?")}
	res, err := rules.Run(c, pipeline, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}})
	sum := 0
	for _, s := range r.Savings {
		sum += s.SavedTokens
	}
	if s := r.Savings; s[0].SavedTokens <= 0 || s[1].SavedTokens != 0 || s[2].SavedTokens <= 0 {
		t.Fatalf("savings %+v", s)
	}
	if sum != r.After.SavedTokens || r.After.SavedTokens != r.Tokens.Count-r.After.Tokens {
		t.Fatalf("steps save %d tokens, the pipeline %d (%d → %d)", sum, r.After.SavedTokens, r.Tokens.Count, r.After.Tokens)
	}
	if got := r.Savings[1].Why(); got != "nothing at /missing" {
		t.Fatalf("reason %q", got)
	}
	if r.Savings[0].Why() != "" {
		t.Fatalf("a saving step has a reason: %q", r.Savings[0].Why())
	}
	// Without counting, no tokens and no cost.
	r = measure.Measure(res, measure.Options{Encoding: "none", Price: func(string) (float64, bool) { return 1, true }})
	if r.Savings[0].SavedTokens != 0 || r.After.SavedUSD != nil {
		t.Fatalf("uncounted savings %+v %+v", r.Savings[0], r.After)
	}
}

// TestRunMatchesMeasure: counting the original while the pipeline runs
// reports what counting it afterwards does, and a pipeline error is
// returned.
func TestRunMatchesMeasure(t *testing.T) {
	c := readCapture(t, "c.json", twoTexts)
	pipeline := []*rules.Rule{shorten("T1", "/system", "short"), shorten("T3", "/messages/0/content", "q?")}
	opts := measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}, Price: func(string) (float64, bool) { return 3, true }}
	res, err := rules.Run(c, pipeline, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(measure.Measure(res, opts))
	r, err := measure.Run(c, func() (*rules.Result, error) { return rules.Run(c, pipeline, nil) }, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r)
	if !bytes.Equal(got, want) {
		t.Fatalf("Run reports\n%s\nMeasure\n%s", got, want)
	}
	boom := errors.New("boom")
	if _, err := measure.Run(c, func() (*rules.Result, error) { return nil, boom }, opts); err != boom {
		t.Fatalf("error %v", err)
	}
}

func TestWhy(t *testing.T) {
	for _, tc := range []struct {
		s    measure.Saving
		want string
	}{
		{measure.Saving{SavedBytes: 10}, ""},
		{measure.Saving{Dropped: "result is not smaller (1 → 2 bytes)"}, "dropped: result is not smaller (1 → 2 bytes)"},
		{measure.Saving{Idle: "no deferrable tools"}, "no deferrable tools"},
		{measure.Saving{}, "nothing to change"},
	} {
		if got := tc.s.Why(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestCost: with the model's price, the saving has a cost, per rule, per
// capture and in total; without it, no cost anywhere (never 0).
func TestCost(t *testing.T) {
	c := readCapture(t, "c.json", twoTexts)
	res, err := rules.Run(c, []*rules.Rule{shorten("T1", "/system", "short")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	price := func(model string) (float64, bool) { return 3, model == "m-1" }
	r := measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}, Price: price})
	if r.Model != "m-1" || r.After.SavedUSD == nil || r.Savings[0].SavedUSD == nil {
		t.Fatalf("no cost: %+v", r.After)
	}
	if want := float64(r.After.SavedTokens) * 3 / 1e6; math.Abs(*r.After.SavedUSD-want) > 1e-12 {
		t.Fatalf("saved %v, want %v", *r.After.SavedUSD, want)
	}
	// An unknown model: tokens only.
	c2 := readCapture(t, "d.json", strings.Replace(twoTexts, `"m-1"`, `"m-2"`, 1))
	res2, _ := rules.Run(c2, []*rules.Rule{shorten("T1", "/system", "short")}, nil)
	r2 := measure.Measure(res2, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}, Price: price})
	if r2.After.SavedUSD != nil || r2.Savings[0].SavedUSD != nil {
		t.Fatal("cost for a model without a price")
	}
	rep := measure.Summarize([]*measure.CaptureReport{r, r2}, nil)
	if rep.Totals.SavedUSD != nil {
		t.Fatal("a total cost although one capture has no price")
	}
	data, _ := json.Marshal(r2)
	if strings.Contains(string(data), "saved_usd") {
		t.Fatalf("JSON has a cost without a price: %s", data)
	}
}

func TestModel(t *testing.T) {
	c := readCapture(t, "c.json", twoTexts)
	if m := measure.Model(c); m != "m-1" {
		t.Fatalf("model %q", m)
	}
	c.URL = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
	c2 := readCapture(t, "g.json", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	c2.URL = c.URL
	if m := measure.Model(c2); m != "gemini-2.5-pro" {
		t.Fatalf("model from the path %q", m)
	}
}

// TestNoStablePrefix: a body without system text, catalog or tools has no
// prefix, and no hash of nothing.
func TestNoStablePrefix(t *testing.T) {
	c := readCapture(t, "pi.json", `[{"role":"user","content":"hello","timestamp":1}]`)
	res, _ := rules.Run(c, nil, nil)
	r := measure.Measure(res, measure.Options{Encoding: "none"})
	if r.PrefixBytes != 0 || r.PrefixSHA256 != "" {
		t.Fatalf("prefix %d %q", r.PrefixBytes, r.PrefixSHA256)
	}
}

// TestNextSteps: the rules' suggestions, largest measured saving first,
// two at most.
func TestNextSteps(t *testing.T) {
	c := readCapture(t, "c.json", twoTexts)
	suggest := &rules.Rule{ID: "T9", Name: "test.suggest", Kind: rules.Transform, Doc: "Test rule.", Run: func(*rules.Pass) error { return nil },
		Detail: func(rules.DetailInput) (*rules.Detail, error) {
			return &rules.Detail{Key: "suggest", Data: rawSection(`{}`), Warnings: []string{"something was dropped"}, Next: []rules.Suggestion{
				{Rule: "T1", Action: "do a", Effect: "small", SavedBytes: 10},
				{Rule: "T2", Action: "do b", Effect: "large", SavedBytes: 1000, SavedTokens: 250},
				{Rule: "T3", Action: "do c", Effect: "middle", SavedBytes: 100},
			}}, nil
		}}
	res, _ := rules.Run(c, []*rules.Rule{suggest}, nil)
	r := measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}})
	if len(r.NextSteps) != 2 || r.NextSteps[0].Rule != "T2" || r.NextSteps[1].Rule != "T3" {
		t.Fatalf("next steps %+v", r.NextSteps)
	}
}

func TestSkillTags(t *testing.T) {
	for raw, want := range map[string]int{
		``:                                     0,
		`<skill><name>a</name></skill>`:        1,
		`\u003cskill\u003e and \u003cskill>`:   2,
		`<skills> skill <skill x> <skill>`:     1,
		`<skill><skill>skill>`:                 2,
		`\u003cskill\u003e<skill>\u003cskill>`: 3,
	} {
		if got := measure.SkillTags([]byte(raw)); got != want {
			t.Errorf("%s: %d tags, want %d", raw, got, want)
		}
	}
}
