package route

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func judge(tier Tier, c Complexity, r Risk, conf float64) Judgement {
	return Judgement{Tier: tier, Complexity: c, Risk: r, Confidence: conf, Passed: true}
}

// TestAdjust has a row for each condition of each preference, and one
// where each condition fails.
func TestAdjust(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Preference
		j    Judgement
		want Tier
	}{
		// balanced keeps the Judge's tier.
		{"balanced keeps cheap", PreferBalanced, judge(Cheap, Low, ReadOnly, 0.9), Cheap},
		{"balanced keeps balanced", PreferBalanced, judge(Balanced, Medium, SmallEdit, 0.9), Balanced},
		{"balanced keeps frontier", PreferBalanced, judge(Frontier, High, MultiFileEdit, 0.9), Frontier},
		{"balanced keeps unknown risk", PreferBalanced, judge(Cheap, Low, UnknownRisk, 0.9), Cheap},
		// preferCheap: balanced → cheap when medium, read_only or small_edit, confidence ≥ 0.7.
		{"preferCheap read_only", PreferCheap, judge(Balanced, Medium, ReadOnly, 0.7), Cheap},
		{"preferCheap small_edit", PreferCheap, judge(Balanced, Medium, SmallEdit, 0.95), Cheap},
		{"preferCheap confidence 0.69", PreferCheap, judge(Balanced, Medium, ReadOnly, 0.69), Balanced},
		{"preferCheap low complexity", PreferCheap, judge(Balanced, Low, ReadOnly, 0.9), Balanced},
		{"preferCheap high complexity", PreferCheap, judge(Balanced, High, ReadOnly, 0.9), Balanced},
		{"preferCheap multi_file_edit", PreferCheap, judge(Balanced, Medium, MultiFileEdit, 0.9), Balanced},
		{"preferCheap architecture_change", PreferCheap, judge(Balanced, Medium, ArchitectureChange, 0.9), Balanced},
		{"preferCheap unknown risk", PreferCheap, judge(Balanced, Medium, UnknownRisk, 0.9), Balanced},
		{"preferCheap frontier stays", PreferCheap, judge(Frontier, Medium, ReadOnly, 0.9), Frontier},
		{"preferCheap cheap stays", PreferCheap, judge(Cheap, Medium, ReadOnly, 0.9), Cheap},
		// preferBest: cheap edits → balanced; unknown risk → frontier.
		{"preferBest cheap small_edit", PreferBest, judge(Cheap, Low, SmallEdit, 0.9), Balanced},
		{"preferBest cheap multi_file_edit", PreferBest, judge(Cheap, Low, MultiFileEdit, 0.9), Balanced},
		{"preferBest cheap architecture_change", PreferBest, judge(Cheap, Low, ArchitectureChange, 0.9), Balanced},
		{"preferBest cheap read_only stays", PreferBest, judge(Cheap, Low, ReadOnly, 0.9), Cheap},
		{"preferBest balanced small_edit stays", PreferBest, judge(Balanced, Medium, SmallEdit, 0.9), Balanced},
		{"preferBest unknown from cheap", PreferBest, judge(Cheap, Low, UnknownRisk, 0.9), Frontier},
		{"preferBest unknown from balanced", PreferBest, judge(Balanced, Medium, UnknownRisk, 0.1), Frontier},
		{"preferBest unknown from frontier", PreferBest, judge(Frontier, High, UnknownRisk, 1), Frontier},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Adjust(tc.p, tc.j); got != tc.want {
				t.Errorf("Adjust(%s, %+v) = %s, want %s", tc.p, tc.j, got, tc.want)
			}
		})
	}
}

func TestFloor(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Tier
		j    Judgement
		want Tier
	}{
		{"architecture_change raises cheap", Cheap, judge(Cheap, Low, ArchitectureChange, 1), Frontier},
		{"architecture_change raises balanced", Balanced, judge(Balanced, Low, ArchitectureChange, 1), Frontier},
		{"architecture_change keeps frontier", Frontier, judge(Frontier, Low, ArchitectureChange, 1), Frontier},
		{"multi_file_edit raises cheap", Cheap, judge(Cheap, Low, MultiFileEdit, 1), Balanced},
		{"multi_file_edit keeps balanced", Balanced, judge(Balanced, Low, MultiFileEdit, 1), Balanced},
		{"multi_file_edit keeps frontier", Frontier, judge(Frontier, Low, MultiFileEdit, 1), Frontier},
		{"unknown 0.49 raises cheap", Cheap, judge(Cheap, Low, UnknownRisk, 0.49), Balanced},
		{"unknown 0 raises cheap", Cheap, judge(Cheap, Low, UnknownRisk, 0), Balanced},
		{"unknown 0.5 keeps cheap", Cheap, judge(Cheap, Low, UnknownRisk, 0.5), Cheap},
		{"unknown 0.2 keeps frontier", Frontier, judge(Frontier, Low, UnknownRisk, 0.2), Frontier},
		{"read_only keeps cheap", Cheap, judge(Cheap, Low, ReadOnly, 0), Cheap},
		{"small_edit keeps cheap", Cheap, judge(Cheap, Low, SmallEdit, 0), Cheap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Floor(tc.in, tc.j); got != tc.want {
				t.Errorf("Floor(%s, %+v) = %s, want %s", tc.in, tc.j, got, tc.want)
			}
		})
	}
}

// routing returns settings with adaptive routing on and the given pool.
func routing(pool map[Tier]string, mod func(*Settings)) *Settings {
	s := Defaults()
	s.ExecutionRouting.Enabled = true
	if pool != nil {
		s.ExecutionRouting.Models = pool
	}
	if mod != nil {
		mod(s)
	}
	return s
}

const (
	haiku  = "openrouter/anthropic/claude-3-5-haiku"
	sonnet = "openrouter/anthropic/claude-3-5-sonnet"
	s37    = "openrouter/anthropic/claude-3-7-sonnet"
)

var fullPool = map[Tier]string{Cheap: "anthropic/claude-3-5-haiku", Balanced: "anthropic/claude-3-5-sonnet", Frontier: "anthropic/claude-3-7-sonnet"}

// TestChain checks each missing-pool fallback chain with every subset of
// the pool missing.
func TestChain(t *testing.T) {
	models := map[Tier]string{Cheap: haiku, Balanced: sonnet, Frontier: s37}
	for _, tc := range []struct {
		tier    Tier
		missing []Tier
		want    Tier // "" when nothing resolves
	}{
		{Cheap, nil, Cheap},
		{Cheap, []Tier{Cheap}, Balanced},
		{Cheap, []Tier{Cheap, Balanced}, Frontier},
		{Cheap, []Tier{Cheap, Balanced, Frontier}, ""},
		{Balanced, nil, Balanced},
		{Balanced, []Tier{Balanced}, Frontier},
		{Balanced, []Tier{Balanced, Frontier}, Cheap},
		{Balanced, []Tier{Balanced, Frontier, Cheap}, ""},
		{Frontier, nil, Frontier},
		{Frontier, []Tier{Frontier}, Balanced},
		{Frontier, []Tier{Frontier, Balanced}, Cheap},
		{Frontier, []Tier{Frontier, Balanced, Cheap}, ""},
	} {
		t.Run(fmt.Sprintf("%s-without-%v", tc.tier, tc.missing), func(t *testing.T) {
			pool := map[Tier]string{}
			for k, v := range fullPool {
				pool[k] = v
			}
			for _, m := range tc.missing {
				pool[m] = ""
			}
			d, err := Choose(routing(pool, nil), "", judge(tc.tier, Medium, ReadOnly, 0.9))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if d.Source != FromDefault || d.Model != sonnet {
					t.Errorf("got %+v, want the legacy default model", d)
				}
				return
			}
			if d.Source != FromRouting || d.Tier != tc.want || d.Model != models[tc.want] {
				t.Errorf("got %s %s from %s, want %s %s", d.Tier, d.Model, d.Source, tc.want, models[tc.want])
			}
		})
	}
}

func TestChoose(t *testing.T) {
	notPassed := func(j Judgement) Judgement { j.Passed = false; return j }
	for _, tc := range []struct {
		name     string
		s        *Settings
		skill    string
		j        Judgement
		model    string
		tier     Tier
		source   Source
		reason   string // a part of the reason
		disallow string // the provider refused, when the run would abort
	}{
		// Adaptive routing off: the legacy path.
		{name: "off, no model", s: Defaults(), j: DefaultJudgement, model: sonnet, tier: Balanced, source: FromDefault, reason: "default model"},
		{name: "off, skill model", s: Defaults(), skill: "claude-3-7-sonnet", j: judge(Cheap, Low, ReadOnly, 1), model: s37, tier: Balanced, source: FromSkill, reason: "SKILL.md model"},
		{name: "off ignores the route", s: Defaults(), j: judge(Frontier, High, ArchitectureChange, 1), model: sonnet, tier: Balanced, source: FromDefault},
		{name: "off, disallowed skill model", s: with(Defaults(), allow("openrouter")), skill: "evil/v/m", j: DefaultJudgement, disallow: "evil"},
		// pin and ignore.
		{name: "pin keeps the skill model", s: routing(nil, nil), skill: "anthropic/claude-3-5-haiku", j: judge(Frontier, High, ArchitectureChange, 1), model: haiku, tier: Balanced, source: FromSkill, reason: "skillModelPolicy=pin"},
		{name: "pin without model routes", s: routing(nil, nil), j: judge(Cheap, Low, ReadOnly, 0.9), model: haiku, tier: Cheap, source: FromRouting, reason: "route cheap (complexity=low, risk=read_only, confidence=0.90)"},
		{name: "pin with blank model routes", s: routing(nil, nil), skill: "  ", j: judge(Frontier, High, MultiFileEdit, 0.9), model: s37, tier: Frontier, source: FromRouting},
		{name: "pin, disallowed skill model aborts", s: routing(nil, allow("openrouter")), skill: "evil/v/m", j: DefaultJudgement, disallow: "evil"},
		{name: "ignore routes past the skill model", s: routing(nil, policy(Ignore)), skill: "claude-3-7-sonnet", j: judge(Cheap, Low, ReadOnly, 0.9), model: haiku, tier: Cheap, source: FromRouting},
		{name: "ignore skips a disallowed skill model", s: routing(nil, func(s *Settings) {
			s.ExecutionRouting.Policy = Ignore
			s.AllowedProviderPrefixes = []string{"openrouter"}
		}), skill: "evil/v/m", j: judge(Balanced, Medium, SmallEdit, 0.9), model: sonnet, tier: Balanced, source: FromRouting},
		// Preference and floors through Choose.
		{name: "preferCheap downgrade", s: routing(nil, pref(PreferCheap)), j: judge(Balanced, Medium, SmallEdit, 0.82), model: haiku, tier: Cheap, source: FromRouting, reason: "adjusted to cheap"},
		{name: "preferBest upgrade", s: routing(nil, pref(PreferBest)), j: judge(Cheap, Low, SmallEdit, 0.9), model: sonnet, tier: Balanced, source: FromRouting},
		{name: "architecture floor", s: routing(nil, pref(PreferCheap)), j: judge(Cheap, Low, ArchitectureChange, 1), model: s37, tier: Frontier, source: FromRouting},
		{name: "multi-file floor", s: routing(nil, nil), j: judge(Cheap, Low, MultiFileEdit, 1), model: sonnet, tier: Balanced, source: FromRouting},
		{name: "unknown-risk floor", s: routing(nil, nil), j: judge(Cheap, Low, UnknownRisk, 0.3), model: sonnet, tier: Balanced, source: FromRouting},
		{name: "judge not passed floor", s: routing(nil, nil), j: notPassed(judge(Cheap, Low, ReadOnly, 0.9)), model: sonnet, tier: Balanced, source: FromRouting, reason: "did not pass"},
		{name: "judge not passed keeps frontier", s: routing(nil, nil), j: notPassed(judge(Frontier, High, ReadOnly, 0.9)), model: s37, tier: Frontier, source: FromRouting},
		{name: "judge not passed skips cheap in the chain", s: routing(map[Tier]string{Cheap: "x/y"}, nil), j: notPassed(judge(Balanced, Medium, ReadOnly, 0.9)), model: sonnet, tier: Balanced, source: FromDefault},
		{name: "judge not passed, pinned model left for the default", s: routing(map[Tier]string{}, nil), skill: "", j: notPassed(judge(Cheap, Low, ReadOnly, 0.9)), model: sonnet, tier: Balanced, source: FromDefault},
		// Pool entries the allow-list refuses are skipped.
		{name: "disallowed pool entry skipped", s: routing(map[Tier]string{Cheap: "evil/v/cheap", Balanced: "anthropic/claude-3-5-sonnet"}, allow("openrouter")), j: judge(Cheap, Low, ReadOnly, 0.9), model: sonnet, tier: Balanced, source: FromRouting, reason: "the pool gave balanced"},
		// Legacy fallback when nothing resolves.
		{name: "empty pool, no skill model", s: routing(map[Tier]string{}, policy(Ignore)), j: judge(Cheap, Low, ReadOnly, 0.9), model: sonnet, tier: Balanced, source: FromDefault, reason: "default model"},
		{name: "empty pool, ignore uses the skill model", s: routing(map[Tier]string{}, policy(Ignore)), skill: "claude-3-7-sonnet", j: judge(Cheap, Low, ReadOnly, 0.9), model: s37, tier: Balanced, source: FromDefault, reason: "SKILL.md model"},
		{name: "empty pool, judge not passed uses the default", s: routing(map[Tier]string{}, policy(Ignore)), skill: "claude-3-5-haiku", j: notPassed(judge(Cheap, Low, ReadOnly, 0.9)), model: sonnet, tier: Balanced, source: FromDefault, reason: "instead of the SKILL.md one"},
		{name: "all pool refused, fallback refused too", s: routing(map[Tier]string{Cheap: "evil/v/m"}, func(s *Settings) { s.DefaultProvider = "gateway"; s.AllowedProviderPrefixes = []string{"openrouter"} }), j: judge(Cheap, Low, ReadOnly, 0.9), disallow: "gateway"},
		// defaultProvider reaches the pool.
		{name: "pool through the default provider", s: routing(nil, func(s *Settings) { s.DefaultProvider = "gw" }), j: judge(Frontier, High, MultiFileEdit, 0.9), model: "gw/anthropic/claude-3-7-sonnet", tier: Frontier, source: FromRouting},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Choose(tc.s, tc.skill, tc.j)
			if tc.disallow != "" {
				var refused *DisallowedProviderError
				if !errors.As(err, &refused) || refused.Provider != tc.disallow {
					t.Fatalf("error = %v, want provider %q refused", err, tc.disallow)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Model != tc.model || d.Tier != tc.tier || d.Source != tc.source {
				t.Errorf("got %s %s from %s, want %s %s from %s (reason %q)", d.Tier, d.Model, d.Source, tc.tier, tc.model, tc.source, d.Reason)
			}
			if !strings.Contains(d.Reason, tc.reason) {
				t.Errorf("reason %q does not say %q", d.Reason, tc.reason)
			}
		})
	}
}

func with(s *Settings, f func(*Settings)) *Settings { f(s); return s }
func allow(p ...string) func(*Settings) {
	return func(s *Settings) { s.AllowedProviderPrefixes = p }
}
func policy(p Policy) func(*Settings) { return func(s *Settings) { s.ExecutionRouting.Policy = p } }
func pref(p Preference) func(*Settings) {
	return func(s *Settings) { s.ExecutionRouting.Preference = p }
}

func TestMessage(t *testing.T) {
	for _, tc := range []struct {
		d    Decision
		want string
	}{
		{Decision{Model: sonnet, Tier: Balanced, Source: FromRouting, Reason: "r"}, "[System]: ⚙️ Executing /skill:refactor using balanced model " + sonnet + ". Reason: r"},
		{Decision{Model: s37, Tier: Balanced, Source: FromSkill, Reason: "r"}, "[System]: ⚙️ Executing /skill:refactor using SKILL.md model " + s37 + ". Reason: r"},
		{Decision{Model: sonnet, Tier: Balanced, Source: FromDefault, Reason: "r"}, "[System]: ⚙️ Executing /skill:refactor using fallback model " + sonnet + ". Reason: r"},
	} {
		if got := Message("refactor", tc.d); got != tc.want {
			t.Errorf("Message = %q, want %q", got, tc.want)
		}
	}
}

func TestJudgementCheck(t *testing.T) {
	for _, tc := range []struct {
		j   Judgement
		err string
	}{
		{DefaultJudgement, ""},
		{Judgement{Tier: "best", Complexity: Low, Risk: ReadOnly}, `tier "best"`},
		{Judgement{Tier: Cheap, Complexity: "huge", Risk: ReadOnly}, `complexity "huge"`},
		{Judgement{Tier: Cheap, Complexity: Low, Risk: "some"}, `risk "some"`},
		{Judgement{Tier: Cheap, Complexity: Low, Risk: ReadOnly, Confidence: 1.5}, "confidence 1.5 is outside 0..1"},
		{Judgement{Tier: Cheap, Complexity: Low, Risk: ReadOnly, Confidence: -0.1}, "confidence -0.1"},
	} {
		err := tc.j.Check()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Check(%+v) = %v, want %q", tc.j, err, tc.err)
		}
	}
}

// TestChooseDoesNotMutate: the decision reads the settings only.
func TestChooseDoesNotMutate(t *testing.T) {
	s := routing(nil, nil)
	before := fmt.Sprintf("%+v", *s)
	for _, r := range Risks {
		for _, tier := range Tiers {
			Choose(s, "", judge(tier, Medium, r, 0.6))
		}
	}
	if after := fmt.Sprintf("%+v", *s); after != before {
		t.Errorf("settings changed: %s → %s", before, after)
	}
}
