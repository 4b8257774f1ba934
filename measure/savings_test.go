package measure_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/catalogrules"
)

func readCapture(t *testing.T, name, body string) *capture.Capture {
	t.Helper()
	f, err := capture.Read(name, []byte(body), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// shorten is a transform that replaces the string at ptr.
func shorten(id, ptr, to string) *rules.Rule {
	return &rules.Rule{ID: id, Name: "test." + id, Kind: rules.Transform, Doc: "Test rule.", Engine: rules.Engine{Lossy: true}, Run: func(p *rules.Pass) error {
		if i, err := p.Capture.Doc.Lookup(ptr); err == nil && p.Capture.Doc.Str(i) != to {
			p.Edit(rules.Edit{Pointer: ptr, NewJSON: capture.Quote(to)})
			return nil
		}
		p.Idle("nothing at %s", ptr)
		return nil
	}}
}

const twoTexts = `{"model":"m-1","max_tokens":5,"system":"` + "a system prompt that is rather long, long enough to shorten" + `","messages":[{"role":"user","content":"` + "a question that goes on and on and on and on" + `"}]}`

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

func TestUSD(t *testing.T) {
	for v, want := range map[float64]string{0: "$0.0000", 0.02164: "$0.0216", 0.00002: "<$0.0001", 12.345: "$12.35", -0.5: "-$0.5000", -0.0002: "-$0.0002", -0.00001: ">-$0.0001", -3: "-$3.00"} {
		if got := measure.USD(v); got != want {
			t.Errorf("USD(%v) = %q, want %q", v, got, want)
		}
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
	var b bytes.Buffer
	measure.WriteText(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), measure.TextOptions{})
	if !strings.Contains(b.String(), "cost saved") || !strings.Contains(b.String(), "<$0.0001") {
		t.Fatalf("text without cost:\n%s", b.String())
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
	b.Reset()
	measure.WriteText(&b, measure.Summarize([]*measure.CaptureReport{r2}, nil), measure.TextOptions{})
	if strings.Contains(b.String(), "cost") || strings.Contains(b.String(), "$") {
		t.Fatalf("cost shown without a price:\n%s", b.String())
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
	var b bytes.Buffer
	measure.WriteText(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), measure.TextOptions{})
	if !strings.Contains(b.String(), "stable prefix: none (") || strings.Contains(b.String(), "e3b0c442") {
		t.Fatalf("text:\n%s", b.String())
	}
}

// TestNextSteps: the rules' suggestions, largest measured saving first,
// two at most, after the warnings.
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
	var b bytes.Buffer
	measure.WriteText(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), measure.TextOptions{})
	want := "  warning: something was dropped\n  next steps:\n    1. do b (T2): large; saves 1,000 bytes, 250 tokens\n    2. do c (T3): middle; saves 100 bytes\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("text:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	measure.WriteMarkdown(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), measure.TextOptions{})
	if !strings.Contains(b.String(), "**Next steps**\n\n1. do b (T2): large; saves 1,000 bytes, 250 tokens\n") || !strings.Contains(b.String(), "- **warning:** something was dropped\n") {
		t.Fatalf("markdown:\n%s", b.String())
	}
}

// TestManyCaptures: several captures are one row each and a total line;
// Details adds their blocks; Quiet leaves only the total.
func TestManyCaptures(t *testing.T) {
	rep := exampleReport(t)
	c := readCapture(t, "pi.json", `[{"role":"user","content":"hello","timestamp":1}]`)
	res, _ := rules.Run(c, []*rules.Rule{catalogrules.CompactIndex}, nil)
	two := measure.Summarize([]*measure.CaptureReport{rep.Captures[0], measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}})}, nil)
	var b bytes.Buffer
	measure.WriteText(&b, two, measure.TextOptions{})
	want := "" +
		"capture                 provider     bytes  tokens  catalog  after  saved\n" +
		"anthropic-catalog.json  anthropic    5,045   1,175   53.5 %  3,575  1,470  29.1 %\n" +
		"pi.json                 pi-messages     49       3        -     49      0   0.0 %\n" +
		"total: 2 captures                    5,094   1,178           3,624  1,470  28.9 %\n" +
		"tokens (test-quarter-bytes): 1,178 → 816 (362 saved)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	measure.WriteText(&b, two, measure.TextOptions{Details: true})
	if strings.Count(b.String(), "  section ") != 2 || !strings.Contains(b.String(), "\ntotal: 2 captures ") {
		t.Fatalf("details:\n%s", b.String())
	}
	b.Reset()
	measure.WriteText(&b, two, measure.TextOptions{Quiet: true})
	if b.String() != "total: 2 captures, 5,094 → 3,624 bytes (1,470 saved, 28.9 %), 1,178 → 816 tokens (362 saved)\n" {
		t.Fatalf("quiet: %q", b.String())
	}
	b.Reset()
	measure.WriteMarkdown(&b, two, measure.TextOptions{})
	if !strings.Contains(b.String(), "| `pi.json` | pi-messages | 49 | 3 | - | 49 | 0 (0.0 %) |\n") || strings.Contains(b.String(), "### ") {
		t.Fatalf("markdown:\n%s", b.String())
	}
}

func TestShareBar(t *testing.T) {
	var b bytes.Buffer
	measure.WriteText(&b, exampleReport(t), measure.TextOptions{})
	lines := strings.Split(b.String(), "\n")
	// The bars start in one column, and a full bar is 20 characters.
	col := -1
	for _, l := range lines[2:10] {
		i := strings.IndexAny(l, "█▏▎▍▌▋▊▉")
		if i < 0 {
			t.Fatalf("no bar: %q", l)
		}
		if n := len([]rune(l[:i])); col >= 0 && n != col {
			t.Fatalf("bar at column %d, not %d: %q", n, col, l)
		} else {
			col = n
		}
	}
	if !strings.HasSuffix(lines[3], "53.5 %  ██████████▊") {
		t.Fatalf("catalog bar: %q", lines[3])
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
