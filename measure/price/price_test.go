package price

import (
	"math"
	"strings"
	"testing"
)

func TestBuiltinPerFamily(t *testing.T) {
	tab := Builtin()
	cases := []struct {
		model                               string
		vendor                              string
		input, output, read, write, write1h float64
	}{
		{"claude-sonnet-4-6", "anthropic", 3, 15, 0.3, 3.75, 6},
		{"claude-sonnet-4-5-20250929", "anthropic", 3, 15, 0.3, 3.75, 6},
		{"anthropic/claude-opus-4-6", "anthropic", 5, 25, 0.5, 6.25, 10},
		{"claude-opus-4-1", "anthropic", 15, 75, 1.5, 18.75, 30},
		{"claude-haiku-4-5", "anthropic", 1, 5, 0.1, 1.25, 2},
		{"gpt-5.5", "openai", 5, 30, 0.5, 5, 5},
		{"GPT-5.4-mini", "openai", 0.75, 4.5, 0.075, 0.75, 0.75},
		{"gemini-2.5-pro", "gemini", 1.25, 10, 0.125, 1.25, 1.25},
		{"models/gemini-2.5-flash", "gemini", 0.3, 2.5, 0.03, 0.3, 0.3},
		{"deepseek-v4-pro", "deepseek", 1.32, 3.96, 0.044, 1.32, 1.32},
		{"mistral-medium-latest", "mistral", 1.5, 7.5, 0.15, 1.5, 1.5},
	}
	for _, c := range cases {
		p := tab.Lookup(c.model)
		if p == nil {
			t.Errorf("%s: no price", c.model)
			continue
		}
		got := []float64{p.Input, p.Output, p.CacheRead, p.CacheWrite, p.CacheWrite1h}
		want := []float64{c.input, c.output, c.read, c.write, c.write1h}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Errorf("%s: prices %v, want %v", c.model, got, want)
				break
			}
		}
		if p.Vendor != c.vendor || p.Source != "built-in" {
			t.Errorf("%s: vendor %q source %q", c.model, p.Vendor, p.Source)
		}
	}
}

func TestUnknownModelHasNoPrice(t *testing.T) {
	tab := Builtin()
	for _, m := range []string{"", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "claude-sonnet-4-9", "gpt-5.55", "gpt-5", "gpt-5-mini", "mistral-large-latest", "llama3"} {
		p := tab.Lookup(m)
		if m == "gpt-5" {
			if p == nil {
				t.Errorf("gpt-5 is in the table")
			}
			continue
		}
		if p != nil {
			t.Errorf("%q: got price of %q, want none", m, p.Model)
		}
	}
}

func TestMatches(t *testing.T) {
	cases := []struct {
		pattern, model string
		want           bool
	}{
		{"claude-opus-4-1", "claude-opus-4-1", true},
		{"claude-opus-4-1", "claude-opus-4-1-20250805", true},
		{"claude-opus-4-1", "claude-opus-4-1@20250805", true},
		{"mistral-medium", "mistral-medium-latest", true},
		{"gpt-5.5", "gpt-5.5-2026-04-24", true},
		{"claude-opus-4", "claude-opus-4-1", false},
		{"claude-opus-4", "claude-opus-4-1-20250805", false},
		{"gpt-5", "gpt-5.5", false},
		{"gpt-5", "gpt-5-mini", false},
		{"gpt-5*", "gpt-5-mini", true},
		{"x", "x@", false},
	}
	for _, c := range cases {
		if got := Matches(c.pattern, c.model); got != c.want {
			t.Errorf("Matches(%q, %q) = %v", c.pattern, c.model, got)
		}
	}
}

func TestOverrides(t *testing.T) {
	tab := Builtin().With([]Override{
		{Model: "claude-sonnet-4-6", Values: map[string]float64{"input": 2, "output": 9}, Source: "skillopt.toml"},
		{Model: "qwen*", Values: map[string]float64{"input": 0, "output": 0}, Source: "skillopt.toml"},
		{Model: "qwen3-coder-30b-a3b-instruct", Values: map[string]float64{"input": 0.1, "output": 0.2, "cache_read": 0.01, "cache_write_1h": 0.3}, Source: "skillopt.toml"},
	})
	p := tab.Lookup("claude-sonnet-4-6")
	if p == nil || p.Input != 2 || p.Output != 9 || p.CacheRead != 2 || p.CacheWrite != 2 || p.CacheWrite1h != 2 || p.Source != "skillopt.toml" {
		t.Errorf("override with defaults: %+v", p)
	}
	if p := tab.Lookup("claude-sonnet-4-5"); p == nil || p.Input != 3 {
		t.Errorf("other models keep the built-in price: %+v", p)
	}
	// An exact name beats a pattern; a free model costs 0, not "unknown".
	if p := tab.Lookup("Qwen/Qwen3-Coder-30B-A3B-Instruct"); p == nil || p.Input != 0.1 || p.CacheWrite != 0.1 || p.CacheWrite1h != 0.3 {
		t.Errorf("exact override: %+v", p)
	}
	if p := tab.Lookup("qwen2.5-coder"); p == nil || p.Input != 0 || p.Model != "qwen*" {
		t.Errorf("pattern override: %+v", p)
	}
	if p := Builtin().Lookup("qwen2.5-coder"); p != nil {
		t.Errorf("the built-in table does not know qwen: %+v", p)
	}
}

func TestCheckOverride(t *testing.T) {
	cases := []struct {
		values map[string]float64
		want   string // the problems, sorted "key: message" joined by "; "
	}{
		{map[string]float64{"input": 1, "output": 2}, ""},
		{map[string]float64{"input": 1}, ": input and output are required"},
		{map[string]float64{"input": 1, "output": 2, "cache_reads": 1}, "cache_reads: unknown key"},
		{map[string]float64{"input": -1, "output": 2}, "input: must be a number"},
		{map[string]float64{"input": math.Inf(1), "output": 2}, "input: must be a number"},
	}
	for _, c := range cases {
		probs := CheckOverride(c.values)
		var got []string
		for k, m := range probs {
			got = append(got, k+": "+m)
		}
		joined := strings.Join(got, "; ")
		if c.want == "" && joined != "" || c.want != "" && !strings.Contains(joined, c.want) {
			t.Errorf("%v: got %q, want %q", c.values, joined, c.want)
		}
	}
}

func TestCost(t *testing.T) {
	p := Builtin().Lookup("claude-sonnet-4-6")
	// 1M read, 1M written (0.5M for one hour), 1M uncached, 1M output.
	got := p.Cost(Tokens{Read: 1e6, Write: 1e6, Write1h: 5e5, Uncached: 1e6, Output: 1e6})
	want := 0.3 + 3.75/2 + 6.0/2 + 3 + 15
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("cost %v, want %v", got, want)
	}
	if got := p.Cost(Tokens{Uncached: 1e6, Output: -1}); math.Abs(got-3) > 1e-9 {
		t.Errorf("unknown output is left out: %v", got)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{`vendor = "x"` + "\n[[model]]\nnames = [\"a\"]\ninput = 1\n", "input and output are required"},
		{`vendor = "x"` + "\n[[model]]\ninput = 1\noutput = 1\n", "no names"},
		{"[[model]]\nnames = [\"a\"]\ninput = 1\noutput = 1\n", "no vendor"},
		{`vendor = "x"` + "\n[[model]]\nnames = [\"a\"]\ninput = 1\noutput = 1\ncolour = 2\n", "f.toml:6:1: unknown key model.colour"},
		{`vendor = "x"` + "\n[[model]]\nnames = [\"a\"]\ninput = -1\noutput = 1\n", "input must be a number"},
		{`vendor = "x"` + "\n[[model]]\nnames = [\"a\"]\ninput = \"1\"\noutput = 1\n", "f.toml:4"},
	}
	for _, c := range cases {
		_, _, err := Parse("f.toml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

// FuzzParse feeds price files to the parser: it returns prices or an
// error, never panics, and every price it returns is a valid one.
func FuzzParse(f *testing.F) {
	f.Add([]byte("vendor = \"x\"\n[[model]]\nnames = [\"a\", \"b*\"]\ninput = 1.5\noutput = 2\ncache_read = 0.1\n"))
	f.Add([]byte("vendor = \"x\"\n"))
	f.Add([]byte("[[model]]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		prices, names, err := Parse("fuzz.toml", src)
		if err != nil {
			return
		}
		if len(prices) != len(names) {
			t.Fatalf("%d prices, %d name lists", len(prices), len(names))
		}
		for i, p := range prices {
			if err := p.check(); err != nil || len(names[i]) == 0 {
				t.Fatalf("invalid price accepted: %+v %v", p, names[i])
			}
		}
	})
}
