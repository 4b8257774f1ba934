package measure

import (
	"bytes"
	"encoding/json"
	"github.com/skillopt/skillopt/measure/internal/convtest"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/price"
	"github.com/skillopt/skillopt/rules"
)

// The shared conversation fixtures (measure/internal/convtest), under the
// names these tests use.
type (
	quarters = convtest.Quarters
	aBody    = convtest.Body
)

var (
	longText       = convtest.LongText
	anthropicTurns = convtest.AnthropicTurns
	readBody       = convtest.ReadBody
	unchanged      = convtest.Unchanged
	trimSystem     = convtest.TrimSystem
)

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func converse(t *testing.T, reqs []Request, opts ConversationOptions) *Conversation {
	t.Helper()
	if opts.Counter == nil {
		opts.Counter = quarters{}
		opts.Encoding = "test-quarter-bytes"
	}
	cv, err := Converse(reqs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return cv
}

func TestConverseAnthropic(t *testing.T) {
	system := longText("The coding agent", 6000)
	var reqs []Request
	for i, b := range anthropicTurns(3, system) {
		c := readBody(t, "turn-"+string(rune('1'+i))+".json", b)
		if c.Provider != capture.Anthropic {
			t.Fatalf("detected %s", c.Provider)
		}
		vendor, model := capture.VendorOf(c)
		reqs = append(reqs, Request{Name: c.Name, Result: unchanged(c), Vendor: vendor, Model: model})
	}
	cv := converse(t, reqs, ConversationOptions{})
	if len(cv.Turns) != 3 {
		t.Fatalf("%d turns", len(cv.Turns))
	}
	for i, turn := range cv.Turns {
		s := turn.Before
		if s.Cached+s.Written+s.Uncached != s.Input {
			t.Errorf("turn %d: %+v does not add up", i+1, s)
		}
		if s.Break != nil {
			t.Errorf("turn %d: unexpected break %+v", i+1, s.Break)
		}
		if b, a := jsonOf(t, turn.Before), jsonOf(t, turn.After); b != a {
			t.Errorf("turn %d: no rule ran, yet before %s and after %s differ", i+1, b, a)
		}
		if turn.Price == nil || turn.Before.Cost == nil {
			t.Errorf("turn %d: no price", i+1)
		}
	}
	// The first request writes everything up to its last breakpoint (the
	// last message); each later one reads the request before it whole.
	first := cv.Turns[0].Before
	if first.Cached != 0 || first.Written != first.Input || first.Uncached != 0 {
		t.Errorf("turn 1: %+v", first)
	}
	for i := 1; i < 3; i++ {
		cur, prev := cv.Turns[i].Before, cv.Turns[i-1].Before
		if cur.Cached != prev.Input {
			t.Errorf("turn %d reads %d, want the %d tokens of turn %d", i+1, cur.Cached, prev.Input, i)
		}
		if cur.Written != cur.Input-prev.Input {
			t.Errorf("turn %d writes %d, want %d", i+1, cur.Written, cur.Input-prev.Input)
		}
	}
	if cv.Total.Before.Breaks != 0 || cv.Total.Saved == nil || *cv.Total.Saved != 0 {
		t.Errorf("total %+v", cv.Total)
	}
	// The cost is the price table's: reads at 0.1, writes at 1.25 × input.
	p := price.Builtin().Lookup("claude-sonnet-4-5")
	want := p.Cost(price.Tokens{Read: cv.Turns[1].Before.Cached, Write: cv.Turns[1].Before.Written, Output: -1})
	if got := *cv.Turns[1].Before.Cost; got != want {
		t.Errorf("turn 2 cost %v, want %v", got, want)
	}
	if cv.Largest == nil || cv.Largest.Turn != 3 || len(cv.Largest.Sections) == 0 {
		t.Errorf("largest request: %+v", cv.Largest)
	}
}

// TestConverseBreak changes the system prompt on the third request: the
// cache keeps the tools only, and the break is located at the text.
func TestConverseBreak(t *testing.T) {
	system := longText("The coding agent", 6000)
	bodies := anthropicTurns(3, system)
	bodies[2].System[0].Text = "Today is Tuesday. " + system
	var reqs []Request
	for i, b := range bodies {
		c := readBody(t, "turn.json", b)
		reqs = append(reqs, Request{Name: c.Name, Result: unchanged(c), Vendor: "anthropic", Model: "claude-sonnet-4-5"})
		_ = i
	}
	cv := converse(t, reqs, ConversationOptions{})
	br := cv.Turns[2].Before.Break
	if br == nil {
		t.Fatal("no break found")
	}
	if br.Pointer != "/system/0/text" || br.Rule != "" {
		t.Errorf("break %+v", br)
	}
	if br.Previous != cv.Turns[1].Before.Input || br.Kept >= br.Previous {
		t.Errorf("break tokens %+v", br)
	}
	// Tokens of the tools alone are under the minimum: nothing is read.
	if s := cv.Turns[2].Before; s.Cached != 0 || s.Written != s.Input {
		t.Errorf("turn 3 after the break: %+v", s)
	}
	if cv.Total.Before.Breaks != 1 || cv.Total.RuleBreaks != 0 {
		t.Errorf("total %+v", cv.Total)
	}
}

// noop is a transform rule that never changes anything.
var noop = &rules.Rule{ID: "SO997", Name: "test.noop", Kind: rules.Transform, Severity: rules.Info, Doc: "Does nothing.", Run: func(*rules.Pass) error { return nil }}

func TestConverseRuleAttribution(t *testing.T) {
	pipeline := []*rules.Rule{noop, trimSystem}
	system := longText("The coding agent", 6000)
	var reqs []Request
	for _, b := range anthropicTurns(3, system) {
		c := readBody(t, "turn.json", b)
		res, err := rules.Run(c, pipeline, nil)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, Request{Name: c.Name, Result: res, Vendor: "anthropic", Model: "claude-sonnet-4-5"})
	}
	rerun := func(c *capture.Capture, part []*rules.Rule) (*capture.Capture, error) {
		res, err := rules.Run(c, part, nil)
		if err != nil {
			return nil, err
		}
		return res.Final, nil
	}
	cv := converse(t, reqs, ConversationOptions{Pipeline: pipeline, Rerun: rerun})
	// Turn 1 has one message and keeps its system prompt; turn 2 trims it.
	if cv.Turns[1].Before.Break != nil {
		t.Errorf("before: %+v", cv.Turns[1].Before.Break)
	}
	br := cv.Turns[1].After.Break
	if br == nil || br.Rule != "SO998" || br.RuleName != "test.trim-system" || br.Pointer != "/system/0/text" {
		t.Fatalf("after: %+v", br)
	}
	if cv.Turns[2].After.Break != nil {
		t.Errorf("turn 3 extends turn 2 after the rules: %+v", cv.Turns[2].After.Break)
	}
	if cv.Total.RuleBreaks != 1 || cv.Total.After.Breaks != 1 {
		t.Errorf("total %+v", cv.Total)
	}
	// The break costs: turn 2 after reads nothing although it is smaller.
	if a, b := cv.Turns[1].After, cv.Turns[1].Before; a.Cached != 0 || b.Cached == 0 || a.Input >= b.Input {
		t.Errorf("turn 2 before %+v after %+v", b, a)
	}
	// Without a way to rerun the rules the break is reported, unattributed.
	cv = converse(t, reqs, ConversationOptions{})
	if br := cv.Turns[1].After.Break; br == nil || br.Rule != "" {
		t.Errorf("unattributed: %+v", br)
	}
}

func TestConverseUnknownModel(t *testing.T) {
	var reqs []Request
	for _, b := range anthropicTurns(2, longText("x", 5000)) {
		b.Model = "my-own-claude"
		c := readBody(t, "turn.json", b)
		reqs = append(reqs, Request{Name: c.Name, Result: unchanged(c), Vendor: "anthropic", Model: "my-own-claude"})
	}
	cv := converse(t, reqs, ConversationOptions{})
	for _, turn := range cv.Turns {
		if turn.Price != nil || turn.Before.Cost != nil || turn.After.Cost != nil {
			t.Errorf("unknown model priced: %+v", turn)
		}
		if turn.Before.Input == 0 {
			t.Error("tokens are still counted")
		}
	}
	if cv.Total.Before.Cost != nil || cv.Total.Saved != nil {
		t.Errorf("total cost of an unknown model: %+v", cv.Total)
	}
	// An override prices it.
	cv = converse(t, reqs, ConversationOptions{Prices: price.Builtin().With([]price.Override{{Model: "my-own-*", Values: map[string]float64{"input": 0, "output": 0}, Source: "skillopt.toml"}})})
	if c := cv.Total.Before.Cost; c == nil || *c != 0 {
		t.Errorf("a free model costs 0: %v", c)
	}
}

// TestConversePartlyPriced: with some turns of a model without a price,
// the totals sum the priced turns and name the others by model.
func TestConversePartlyPriced(t *testing.T) {
	var reqs []Request
	for i, b := range anthropicTurns(3, longText("x", 5000)) {
		model := "claude-sonnet-4-5"
		if i == 1 {
			model = "my-own-claude"
		}
		b.Model = model
		c := readBody(t, "turn.json", b)
		reqs = append(reqs, Request{Name: c.Name, Result: unchanged(c), Vendor: "anthropic", Model: model})
	}
	cv := converse(t, reqs, ConversationOptions{})
	tot := cv.Total
	if tot.PricedTurns != 2 || len(tot.Unpriced) != 1 || tot.Unpriced[0] != (Unpriced{"my-own-claude", 1}) {
		t.Fatalf("priced %d, unpriced %+v", tot.PricedTurns, tot.Unpriced)
	}
	want := *cv.Turns[0].Before.Cost + *cv.Turns[2].Before.Cost
	if tot.Before.Cost == nil || *tot.Before.Cost != want || tot.Saved == nil {
		t.Fatalf("total %v, want the priced turns' %v", tot.Before.Cost, want)
	}
}

// TestLayoutOrder checks that blocks follow the cache's order, whatever the
// body's, for each provider shape, and leave cache_control out.
func TestLayoutOrder(t *testing.T) {
	cases := []struct {
		provider capture.Provider
		body     string
		marks    []string
		ttls     []string
		auto     bool
		keyed    bool
	}{
		{capture.Anthropic, `{"messages":[{"role":"user","content":"hi"}],"system":"be brief","tools":[{"name":"a","input_schema":{},"cache_control":{"type":"ephemeral","ttl":"1h"}}],"cache_control":{"type":"ephemeral"},"model":"m","max_tokens":1}`,
			[]string{"tool", "system", "message user"}, []string{"1h", "", ""}, true, false},
		{capture.OpenAIChat, `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"u"}],"tools":[{"type":"function","function":{"name":"f"}}],"prompt_cache_key":"k"}`,
			[]string{"tool", "message", "message"}, []string{"", "", ""}, false, true},
		{capture.OpenAIResponses, `{"model":"m","input":"hello","instructions":"be brief","tools":[{"type":"function","name":"f"}]}`,
			[]string{"tool", "system", "message user"}, []string{"", "", ""}, false, false},
		{capture.Gemini, `{"contents":[{"role":"user","parts":[{"text":"u"}]}],"systemInstruction":{"parts":[{"text":"s"}]},"tools":[{"functionDeclarations":[{"name":"a"},{"name":"b"}]}]}`,
			[]string{"tool", "tool", "system", "content"}, []string{"", "", "", ""}, false, false},
	}
	for _, c := range cases {
		f, err := capture.Read("x.json", []byte(c.body), capture.Options{Provider: c.provider})
		if err != nil {
			t.Fatal(err)
		}
		l := newLayout(f.Captures[0])
		var marks, ttls []string
		for i, b := range l.blocks {
			marks = append(marks, b.Mark)
			ttls = append(ttls, b.TTL)
			if bytes.Contains(l.norm(i), []byte("cache_control")) {
				t.Errorf("%s: block %d compares its cache_control: %s", c.provider, i, l.norm(i))
			}
		}
		if strings.Join(marks, ",") != strings.Join(c.marks, ",") || strings.Join(ttls, ",") != strings.Join(c.ttls, ",") || l.auto != c.auto || l.keyed != c.keyed {
			t.Errorf("%s: marks %q ttls %q auto %v keyed %v", c.provider, marks, ttls, l.auto, l.keyed)
		}
	}
}

// TestCacheControlIgnored: moving breakpoints from one block to another
// (what every client does from turn to turn) is no prefix break.
func TestCacheControlIgnored(t *testing.T) {
	a := `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"one","cache_control":{"type":"ephemeral"}}]}]}`
	b := `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"one"}]},{"role":"assistant","content":[{"type":"text","text":"two"}]},{"role":"user","content":[{"cache_control":{"type":"ephemeral"}, "type":"text","text":"three"}]}]}`
	var ls []*layout
	for _, body := range []string{a, b} {
		f, err := capture.Read("x.json", []byte(body), capture.Options{Provider: capture.Anthropic})
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, newLayout(f.Captures[0]))
	}
	tc := &tokenCache{counter: quarters{}, counts: map[[32]byte]int{}}
	tc.count(ls...)
	if _, _, broke := divergence(ls[0], ls[1]); broke {
		t.Error("a moved breakpoint breaks the prefix")
	}
	if got := string(ls[1].norm(2)); strings.Contains(got, "cache_control") || !strings.Contains(got, `{"type":"text","text":"three"}`) {
		t.Errorf("norm %q", got)
	}
}

// goldenConversation is a three-turn conversation whose second turn the
// test rule breaks, with provider usage on the last turn.
func goldenConversation(t *testing.T) *Conversation {
	t.Helper()
	pipeline := []*rules.Rule{trimSystem}
	var reqs []Request
	for i, b := range anthropicTurns(3, longText("The coding agent", 6000)) {
		c := readBody(t, []string{"turn-1.json", "turn-2.json", "turn-10.json"}[i], b)
		res, err := rules.Run(c, pipeline, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := Request{Name: c.Name, Result: res, Vendor: "anthropic", Model: "claude-sonnet-4-5"}
		if i == 2 {
			r.Usage = ResponseUsage([]byte(`{"type":"message","usage":{"input_tokens":12,"cache_read_input_tokens":2800,"cache_creation_input_tokens":700,"output_tokens":150}}`))
		}
		reqs = append(reqs, r)
	}
	rerun := func(c *capture.Capture, part []*rules.Rule) (*capture.Capture, error) {
		res, err := rules.Run(c, part, nil)
		if err != nil {
			return nil, err
		}
		return res.Final, nil
	}
	return converse(t, reqs, ConversationOptions{Pipeline: pipeline, Rerun: rerun})
}

// FuzzLayout feeds request bodies of every shape to the layout: it never
// panics, compared bytes map back into their block, and a request never
// breaks the prefix of itself.
func FuzzLayout(f *testing.F) {
	f.Add(`{"model":"m","max_tokens":1,"system":[{"type":"text","text":"s","cache_control":{"type":"ephemeral","ttl":"1h"}}],"tools":[{"name":"t","input_schema":{},"cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":[{ "cache_control" : {"type":"ephemeral"} , "type":"text","text":"\u00e9"}]}],"cache_control":{"type":"ephemeral"}}`)
	f.Add(`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}],"tools":[{"type":"function","function":{"name":"f"}}],"prompt_cache_key":"k"}`)
	f.Add(`{"model":"m","instructions":"i","input":[{"type":"reasoning","summary":[]},{"role":"user","content":"u"}],"tools":[]}`)
	f.Add(`{"contents":[{"role":"model","parts":[{"text":"x"}]}],"systemInstruction":{"parts":[{"text":"s"}]},"tools":[{"functionDeclarations":[{"name":"a"}]},{"googleSearch":{}}]}`)
	f.Add(`[{"type":"message","id":"a","message":{"role":"assistant","content":[{"type":"text","text":"x"}]}},{"role":"user","content":"y"}]`)
	f.Fuzz(func(t *testing.T, body string) {
		for _, p := range capture.Providers {
			file, err := capture.Read("f.json", []byte(body), capture.Options{Provider: p})
			if err != nil {
				return
			}
			c := file.Captures[0]
			l := newLayout(c)
			tc := &tokenCache{counter: quarters{}, counts: map[[32]byte]int{}}
			tc.count(l)
			for i, b := range l.blocks {
				n := l.norm(i)
				prev := b.Start
				for off := 0; off <= len(n); off++ {
					at := l.bodyOffset(i, off)
					if at < b.Start || at > b.End || at < prev {
						t.Fatalf("%s block %d: offset %d maps to %d outside [%d,%d] or backwards", p, i, off, at, b.Start, b.End)
					}
					prev = at
				}
				_ = l.text(i, b.End)
				if b.tokens < 0 {
					t.Fatalf("negative tokens")
				}
			}
			if _, _, broke := divergence(l, l); broke {
				t.Fatalf("%s: a request breaks its own prefix", p)
			}
			if s := tc.shared(l, l, true); s.Blocks != len(l.blocks) || s.Tokens != l.tokens() {
				t.Fatalf("%s: shares %+v with itself, want all %d blocks", p, s, len(l.blocks))
			}
		}
	})
}
