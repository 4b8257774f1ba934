package cache

import "testing"

// turn builds a request of blocks of the given token sizes.
func turn(model string, sizes ...int) Turn {
	t := Turn{Model: model, PrevShared: -1}
	total := 0
	for _, s := range sizes {
		total += s
		t.Ends = append(t.Ends, total)
	}
	t.Output = make([]bool, len(sizes))
	return t
}

func bp(t Turn, blocks ...int) Turn {
	for _, b := range blocks {
		t.Breakpoints = append(t.Breakpoints, Breakpoint{Block: b, TTL: "5m"})
	}
	return t
}

// extends says the current request starts with all of an earlier one.
func extends(e Turn) Shared { return Shared{Blocks: len(e.Ends), Tokens: e.Tokens()} }

func TestLookup(t *testing.T) {
	cases := []struct {
		vendor, model string
		kind          Kind
		min           int
		family        string
	}{
		{"anthropic", "claude-sonnet-4-6", Explicit, 2048, "claude-sonnet-4-6"},
		{"anthropic", "claude-opus-4-6", Explicit, 4096, "claude-opus-4-5/4-6, claude-haiku-4-5"},
		{"anthropic", "claude-haiku-4-5-20251001", Explicit, 4096, "claude-opus-4-5/4-6, claude-haiku-4-5"},
		{"anthropic", "claude-sonnet-4-5-20250929", Explicit, 1024, "claude-sonnet-4/4-5, claude-opus-4/4-1, claude-3-7-sonnet"},
		{"anthropic", "claude-opus-4-1@20250805", Explicit, 1024, "claude-sonnet-4/4-5, claude-opus-4/4-1, claude-3-7-sonnet"},
		// "claude-sonnet-4" must not claim a newer model by prefix.
		{"anthropic", "claude-sonnet-4-9", Explicit, 1024, "claude"},
		{"anthropic", "claude-3-haiku-20240307", Explicit, 2048, "claude-3-haiku, claude-3-5-haiku"},
		{"openai", "gpt-5.5", Prefix, 1024, "gpt"},
		{"openai", "gpt-5.6-terra", Prefix, 1024, "gpt-5.6+"},
		{"gemini", "gemini-2.5-pro", Prefix, 2048, "gemini-2.5"},
		{"gemini", "gemini-2.5-flash-lite", Prefix, 2048, "gemini-2.5"},
		{"gemini", "gemini-3.1-pro-preview", Prefix, 4096, "gemini-3+"},
		{"gemini", "gemini-2.0-flash", None, 0, "gemini-before-2.5"},
		{"gemini", "gemini-1.5-pro", None, 0, "gemini-before-2.5"},
		{"deepseek", "deepseek-v4-pro", Units, 0, "deepseek"},
		{"mistral", "mistral-medium-latest", Prefix, 0, "mistral"},
		{"", "Qwen/Qwen3-Coder-30B-A3B-Instruct", None, 0, "none"},
		{"llama.cpp", "anything", None, 0, "none"},
	}
	for _, c := range cases {
		m := Lookup(c.vendor, c.model)
		if m.Kind != c.kind || m.MinTokens != c.min || m.Family != c.family {
			t.Errorf("Lookup(%q, %q) = %s min %d family %q, want %s min %d family %q", c.vendor, c.model, m.Kind, m.MinTokens, m.Family, c.kind, c.min, c.family)
		}
		if m.Kind != None && m.Source == "" {
			t.Errorf("Lookup(%q, %q) has no source", c.vendor, c.model)
		}
	}
	if m := Lookup("anthropic", "claude-sonnet-4-6"); m.MaxBreakpoints != 4 || m.Lookback != 20 || !m.BillsWrites {
		t.Errorf("anthropic model = %+v", m)
	}
	if m := Lookup("openai", "gpt-5.5"); m.Step != 128 || m.BillsWrites {
		t.Errorf("openai before 5.6 = %+v", m)
	}
	if !Lookup("openai", "gpt-6.2-sol").BillsWrites {
		t.Error("later OpenAI families bill writes")
	}
}

func TestAnthropic(t *testing.T) {
	m := Lookup("anthropic", "claude-sonnet-4-6") // min 2,048
	const model = "claude-sonnet-4-6"
	first := bp(turn(model, 1000, 1500, 100), 1, 2)
	second := bp(turn(model, 1000, 1500, 100, 400, 300), 1, 4)
	cases := []struct {
		name    string
		cur     Turn
		earlier []Turn
		shared  []Shared
		want    Split
	}{
		{"first request writes up to its last breakpoint", first, nil, nil,
			Split{Write: 2600}},
		{"no breakpoint, nothing cached", turn(model, 3000, 200), nil, nil,
			Split{Uncached: 3200}},
		{"a prefix under the minimum is not written", bp(turn(model, 1000, 500), 1), nil, nil,
			Split{Uncached: 1500}},
		{"next turn reads the earlier entry through the lookback window", second, []Turn{first}, []Shared{extends(first)},
			Split{Read: 2600, Write: 700}},
		{"a change before the entry reads the breakpoint before it", second, []Turn{first}, []Shared{{Blocks: 2, Tokens: 2550}},
			Split{Read: 2500, Write: 800}},
		{"a change in the first block reads nothing", second, []Turn{first}, []Shared{{Blocks: 0, Tokens: 900}},
			Split{Write: 3300}},
		{"another model's entries are not read", second, []Turn{bp(turn("claude-opus-4-6", 1000, 1500, 100), 1, 2)}, []Shared{{Blocks: 3, Tokens: 2600}},
			Split{Write: 3300}},
		{"tokens after the last breakpoint are uncached", bp(turn(model, 2500, 100, 50), 1), nil, nil,
			Split{Write: 2600, Uncached: 50}},
		{"automatic caching marks the last block", Turn{Model: model, Ends: []int{2500, 2600}, Auto: true}, nil, nil,
			Split{Write: 2600}},
	}
	for _, c := range cases {
		if got := m.Predict(c.cur, c.earlier, c.shared); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestAnthropicLookbackAndLimits(t *testing.T) {
	m := Lookup("anthropic", "claude-sonnet-4-5") // min 1,024
	const model = "claude-sonnet-4-5"
	// An entry 25 blocks before the only breakpoint is out of reach.
	sizes := make([]int, 30)
	for i := range sizes {
		sizes[i] = 300
	}
	earlier := bp(turn(model, sizes[:5]...), 4)
	far := bp(turn(model, sizes...), 29)
	if got := m.Predict(far, []Turn{earlier}, []Shared{extends(earlier)}); got.Read != 0 || got.Write != 9000 {
		t.Errorf("entry beyond the lookback window: %+v", got)
	}
	near := bp(turn(model, sizes[:20]...), 19)
	if got := m.Predict(near, []Turn{earlier}, []Shared{extends(earlier)}); got.Read != 1500 || got.Write != 4500 {
		t.Errorf("entry within the lookback window: %+v", got)
	}
	// A fifth breakpoint is ignored (the API accepts four).
	five := bp(turn(model, 1100, 100, 100, 100, 100, 100), 0, 1, 2, 3, 5)
	if got := m.Predict(five, nil, nil); got.Write != 1400 || got.Uncached != 200 {
		t.Errorf("fifth breakpoint: %+v", got)
	}
	// One-hour breakpoints are written at their own price.
	ttl := turn(model, 1100, 200, 300)
	ttl.Breakpoints = []Breakpoint{{Block: 1, TTL: "1h"}, {Block: 2, TTL: "5m"}}
	if got := m.Predict(ttl, nil, nil); got.Write != 1600 || got.Write1h != 1300 {
		t.Errorf("one-hour write: %+v", got)
	}
}

func TestOpenAI(t *testing.T) {
	m := Lookup("openai", "gpt-5.5")
	first := turn("gpt-5.5", 1500, 300)
	second := turn("gpt-5.5", 1500, 300, 200)
	cases := []struct {
		name    string
		m       Model
		cur     Turn
		earlier []Turn
		shared  []Shared
		want    Split
	}{
		{"below 1,024 tokens nothing is cached", m, turn("gpt-5.5", 1000), nil, nil, Split{Uncached: 1000}},
		{"first request: nothing to read", m, first, nil, nil, Split{Uncached: 1800}},
		// 1,800 shared tokens are cached as 1,024 + 6 × 128 = 1,792.
		{"hits come in steps of 128", m, second, []Turn{first}, []Shared{extends(first)}, Split{Read: 1792, Uncached: 208}},
		{"a shared prefix under 1,024 is no hit", m, second, []Turn{first}, []Shared{{Blocks: 0, Tokens: 900}}, Split{Uncached: 2000}},
		{"a partly shared block counts", m, second, []Turn{first}, []Shared{{Blocks: 1, Tokens: 1700}}, Split{Read: 1664, Uncached: 336}},
		{"later families bill writes", Lookup("openai", "gpt-5.6-sol"), turn("gpt-5.6-sol", 1500, 300), nil, nil, Split{Write: 1792, Uncached: 8}},
	}
	for _, c := range cases {
		if got := c.m.Predict(c.cur, c.earlier, c.shared); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestGemini(t *testing.T) {
	m := Lookup("gemini", "gemini-2.5-pro")
	first := turn("gemini-2.5-pro", 2000, 100)
	second := turn("gemini-2.5-pro", 2000, 100, 700)
	if got := m.Predict(second, []Turn{first}, []Shared{extends(first)}); got != (Split{Read: 2100, Uncached: 700}) {
		t.Errorf("implicit hit: %+v", got)
	}
	small := turn("gemini-2.5-pro", 1500)
	if got := m.Predict(turn("gemini-2.5-pro", 1500, 300), []Turn{small}, []Shared{extends(small)}); got.Read != 0 {
		t.Errorf("prefix under the minimum: %+v", got)
	}
	old := Lookup("gemini", "gemini-2.0-flash")
	if got := old.Predict(second, []Turn{first}, []Shared{extends(first)}); got != (Split{Uncached: 2800}) {
		t.Errorf("no implicit cache before 2.5: %+v", got)
	}
}

func TestDeepSeek(t *testing.T) {
	m := Lookup("deepseek", "deepseek-v4-pro")
	const model = "deepseek-v4-pro"
	first := turn(model, 500, 40)
	// The second request replays the first one's answer (block 2).
	second := turn(model, 500, 40, 60, 30)
	second.Output[2] = true
	if got := m.Predict(second, []Turn{first}, []Shared{extends(first)}); got != (Split{Read: 600, Uncached: 30}) {
		t.Errorf("unit through the earlier output: %+v", got)
	}
	// A request that does not start with all of an earlier one reads
	// nothing: units are whole.
	changed := turn(model, 500, 45, 60)
	if got := m.Predict(changed, []Turn{first}, []Shared{{Blocks: 1, Tokens: 520}}); got != (Split{Uncached: 605}) {
		t.Errorf("partial unit: %+v", got)
	}
	// … but the prefix two requests shared is stored as a unit of its own.
	changed.PrevShared = 520
	third := turn(model, 500, 45, 60, 10)
	if got := m.Predict(third, []Turn{first, changed}, []Shared{{Blocks: 1, Tokens: 520}, extends(changed)}); got != (Split{Read: 605, Uncached: 10}) {
		t.Errorf("common-prefix unit and whole unit: %+v", got)
	}
}

func TestMistral(t *testing.T) {
	m := Lookup("mistral", "mistral-medium-latest")
	first := turn("mistral-medium-latest", 900, 100)
	second := turn("mistral-medium-latest", 900, 100, 50)
	if got := m.Predict(second, []Turn{first}, []Shared{extends(first)}); got != (Split{Uncached: 1050}) {
		t.Errorf("no key, no cache: %+v", got)
	}
	first.Keyed, second.Keyed = true, true
	if got := m.Predict(second, []Turn{first}, []Shared{extends(first)}); got != (Split{Read: 1000, Uncached: 50}) {
		t.Errorf("keyed requests: %+v", got)
	}
}

func TestNoCache(t *testing.T) {
	m := Lookup("", "local-model")
	first := turn("local-model", 5000)
	if got := m.Predict(turn("local-model", 5000, 10), []Turn{first}, []Shared{extends(first)}); got != (Split{Uncached: 5010}) {
		t.Errorf("unknown endpoint: %+v", got)
	}
}

func TestSplitAddsUp(t *testing.T) {
	// Whatever the model, the parts add up to the prompt.
	models := []Model{Lookup("anthropic", "claude-sonnet-4-5"), Lookup("openai", "gpt-5.6-sol"), Lookup("gemini", "gemini-2.5-flash"), Lookup("deepseek", "x"), Lookup("mistral", "x")}
	for _, m := range models {
		var earlier []Turn
		var shared []Shared
		for n := 1; n < 8; n++ {
			sizes := make([]int, n)
			for i := range sizes {
				sizes[i] = 300 * (i + 1)
			}
			cur := bp(turn("x", sizes...), n-1)
			cur.Keyed = true
			s := m.Predict(cur, earlier, shared)
			if s.Read+s.Write+s.Uncached != cur.Tokens() || s.Read < 0 || s.Write < 0 || s.Uncached < 0 || s.Write1h > s.Write {
				t.Errorf("%s turn %d: %+v does not add up to %d", m.Vendor, n, s, cur.Tokens())
			}
			earlier = append(earlier, cur)
			shared = append(shared, Shared{})
			for j := range earlier {
				shared[j] = extends(earlier[j])
			}
		}
	}
}
