package route

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestContextBudget(t *testing.T) {
	on := func(pool map[Tier]int) *Settings {
		s := Defaults()
		s.ContextBudgets.Enabled = true
		if pool != nil {
			s.ContextBudgets.OverflowCeilingBytes = pool
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		s      *Settings
		tier   Tier
		bytes  int
		source BudgetSource
	}{
		{"off", Defaults(), Frontier, 25000, Static},
		{"off with a changed ceiling", with(Defaults(), func(s *Settings) { s.OverflowCeilingBytes = 9000 }), Cheap, 9000, Static},
		{"cheap", on(nil), Cheap, 15000, TierBudget},
		{"balanced", on(nil), Balanced, 25000, TierBudget},
		{"frontier", on(nil), Frontier, 50000, TierBudget},
		{"partial pool hit", on(map[Tier]int{Frontier: 70000}), Frontier, 70000, TierBudget},
		{"partial pool miss", on(map[Tier]int{Frontier: 70000}), Cheap, 25000, TierFallback},
		{"empty pool", on(map[Tier]int{}), Balanced, 25000, TierFallback},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := ContextBudget(tc.s, tc.tier)
			if b.OverflowCeilingBytes != tc.bytes || b.Source != tc.source || b.Tier != tc.tier {
				t.Errorf("got %+v, want %d bytes from %s for %s", b, tc.bytes, tc.source, tc.tier)
			}
		})
	}
}

func TestBudgetTier(t *testing.T) {
	j := judge(Frontier, High, MultiFileEdit, 0.9)
	for _, tc := range []struct {
		name string
		s    *Settings
		d    Decision
		want Tier
	}{
		{"routed: the model's tier", routing(nil, nil), Decision{Tier: Cheap, Source: FromRouting}, Cheap},
		{"pinned: the Judge's tier", routing(nil, nil), Decision{Tier: Balanced, Source: FromSkill}, Frontier},
		{"fallback: the Judge's tier", routing(nil, nil), Decision{Tier: Balanced, Source: FromDefault}, Frontier},
		{"routing off: balanced", Defaults(), Decision{Tier: Balanced, Source: FromSkill}, Balanced},
	} {
		if got := BudgetTier(tc.s, tc.d, j); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// directive stands in for the router's retrieval directive.
const directive = "Gather context with the retrieval tool only."

func TestPrefix(t *testing.T) {
	if got, want := Prefix("  body\n", "", ""), "body"; got != want {
		t.Errorf("no directive: Prefix = %q, want %q", got, want)
	}
	if got, want := Prefix("body", "appx", ""), "body\n\nappx"; got != want {
		t.Errorf("no directive, appendix: Prefix = %q, want %q", got, want)
	}
	const body = "Skill: do the thing.\nFollow rules X and Y."
	base := Prefix(body, "", directive)
	if want := body + "\n\n" + directive; base != want {
		t.Fatalf("Prefix = %q, want %q", base, want)
	}
	for _, tc := range []struct {
		name               string
		instructions, appx string
		same               bool
	}{
		{"identical", body, "", true},
		{"surrounding white space", "\n\n  " + body + "\n\n", "", true},
		{"byte-order mark", "\ufeff" + body, "", true},
		{"blank appendix", body, " \n\t", true},
		{"instructions change", body + "\nExtra rule.", "", false},
		{"inner white space matters", strings.Replace(body, "\n", "\n\n", 1), "", false},
		{"appendix", body, "Bounded context: orders", false},
	} {
		got := Prefix(tc.instructions, tc.appx, directive)
		if (Hash(got) == Hash(base)) != tc.same {
			t.Errorf("%s: same hash = %v, want %v", tc.name, !tc.same, tc.same)
		}
	}
	withAppendix := Prefix(body, "  DOMAIN-RULE \n", directive)
	if !strings.HasSuffix(withAppendix, directive+"\n\nDOMAIN-RULE") {
		t.Errorf("appendix not after the directive: %q", withAppendix)
	}
	for _, banned := range []string{"tier", "executionRoute", "openrouter/"} {
		if strings.Contains(base, banned) {
			t.Errorf("prefix holds %q", banned)
		}
	}
}

func TestHash(t *testing.T) {
	for _, tc := range []struct {
		in   string
		sum  string
		size int
	}{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", 0},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", 3},
		{"é", "", 2},
	} {
		h := Hash(tc.in)
		if tc.sum != "" && h.SHA256 != tc.sum || h.Bytes != tc.size {
			t.Errorf("Hash(%q) = %+v", tc.in, h)
		}
		if len(h.SHA256) != 64 || !utf8.ValidString(h.SHA256) {
			t.Errorf("Hash(%q): %q is not 64 hex digits", tc.in, h.SHA256)
		}
	}
}
