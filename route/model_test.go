package route

import (
	"errors"
	"testing"
)

func TestMapModel(t *testing.T) {
	for _, tc := range []struct {
		name, raw, provider string
		allowed             []string
		want                string
		refused             string // the provider the allow-list refuses
	}{
		// The translation table.
		{name: "bare", raw: "claude-3-7-sonnet", provider: "openrouter", want: "openrouter/anthropic/claude-3-7-sonnet"},
		{name: "vendor-prefixed", raw: "anthropic/claude-3-5-haiku", provider: "openrouter", want: "openrouter/anthropic/claude-3-5-haiku"},
		{name: "fully qualified", raw: "openrouter/anthropic/claude-3-5-sonnet", provider: "openrouter", want: "openrouter/anthropic/claude-3-5-sonnet"},
		{name: "missing", raw: "", provider: "openrouter", want: "openrouter/anthropic/claude-3-5-sonnet"},
		// The default provider.
		{name: "blank is missing", raw: "  \t", provider: "openrouter", want: "openrouter/anthropic/claude-3-5-sonnet"},
		{name: "other provider bare", raw: "claude-3-7-sonnet", provider: "gateway", want: "gateway/anthropic/claude-3-7-sonnet"},
		{name: "other provider vendor", raw: "openai/gpt-4o", provider: "gateway", want: "gateway/openai/gpt-4o"},
		{name: "other provider missing", raw: "", provider: "gateway", want: "gateway/anthropic/claude-3-5-sonnet"},
		{name: "fully qualified ignores provider", raw: "bedrock/anthropic/claude", provider: "gateway", want: "bedrock/anthropic/claude"},
		{name: "provider trailing slash", raw: "claude", provider: "openrouter//", want: "openrouter/anthropic/claude"},
		{name: "model trimmed", raw: "  claude-3-7-sonnet \n", provider: "openrouter", want: "openrouter/anthropic/claude-3-7-sonnet"},
		{name: "four segments", raw: "a/b/c/d", provider: "openrouter", want: "a/b/c/d"},
		// The allow-list.
		{name: "allowed fully qualified", raw: "openrouter/anthropic/x", provider: "openrouter", allowed: []string{"openrouter"}, want: "openrouter/anthropic/x"},
		{name: "refused fully qualified", raw: "evil-provider/vendor/model", provider: "openrouter", allowed: []string{"openrouter"}, want: "evil-provider/vendor/model", refused: "evil-provider"},
		{name: "refused bare through provider", raw: "claude", provider: "gateway", allowed: []string{"openrouter"}, want: "gateway/anthropic/claude", refused: "gateway"},
		{name: "refused fallback", raw: "", provider: "gateway", allowed: []string{"openrouter"}, want: "gateway/anthropic/claude-3-5-sonnet", refused: "gateway"},
		{name: "allowed second entry", raw: "b/v/m", provider: "a", allowed: []string{"a", "b"}, want: "b/v/m"},
		{name: "prefix must match whole segment", raw: "openrouter-x/v/m", provider: "openrouter", allowed: []string{"openrouter"}, want: "openrouter-x/v/m", refused: "openrouter-x"},
		{name: "empty list allows all", raw: "anything/v/m", provider: "openrouter", allowed: []string{}, want: "anything/v/m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MapModel(tc.raw, tc.provider, tc.allowed)
			if got != tc.want {
				t.Errorf("MapModel(%q, %q) = %q, want %q", tc.raw, tc.provider, got, tc.want)
			}
			var refused *DisallowedProviderError
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.refused != "" && !errors.As(err, &refused):
				t.Errorf("error = %v, want a *DisallowedProviderError", err)
			case tc.refused != "" && (refused.Provider != tc.refused || refused.Model != tc.want):
				t.Errorf("refused %q of %q, want %q of %q", refused.Provider, refused.Model, tc.refused, tc.want)
			}
		})
	}
}

func TestMapModelNoProvider(t *testing.T) {
	for _, p := range []string{"", "  ", "/"} {
		if _, err := MapModel("claude", p, nil); !errors.Is(err, ErrNoProvider) {
			t.Errorf("provider %q: error = %v, want ErrNoProvider", p, err)
		}
	}
}

func TestDisallowedProviderMessage(t *testing.T) {
	_, err := MapModel("evil/v/m", "openrouter", []string{"openrouter", "bedrock"})
	want := `model "evil/v/m" uses provider "evil", not in allowedProviderPrefixes (openrouter, bedrock)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestFullyQualified(t *testing.T) {
	for raw, want := range map[string]bool{"a/b/c": true, " a/b/c ": true, "a/b": false, "a": false, "": false} {
		if got := FullyQualified(raw); got != want {
			t.Errorf("FullyQualified(%q) = %v", raw, got)
		}
	}
}
