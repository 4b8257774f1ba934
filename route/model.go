package route

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultVendor is the vendor a bare model name (no slash) belongs to.
const DefaultVendor = "anthropic"

// FallbackModel is the vendor/model a skill without model: runs on, behind
// the default provider.
const FallbackModel = DefaultVendor + "/claude-3-5-sonnet"

// DisallowedProviderError is the refusal of a resolved model whose provider
// prefix (its first path segment) is not in the allow-list.
type DisallowedProviderError struct {
	// Model is the resolved, fully qualified model ID.
	Model string `json:"model"`
	// Provider is its first segment.
	Provider string `json:"provider"`
	// Allowed is the allow-list it is not in.
	Allowed []string `json:"allowed"`
}

func (e *DisallowedProviderError) Error() string {
	return fmt.Sprintf("model %q uses provider %q, not in allowedProviderPrefixes (%s)", e.Model, e.Provider, strings.Join(e.Allowed, ", "))
}

// ErrNoProvider is returned by MapModel for an empty default provider.
var ErrNoProvider = errors.New("the default provider is empty")

// MapModel translates a SKILL.md model: value into a fully qualified
// gateway ID, provider/vendor/model:
//
//   - empty or blank: the fallback model behind the default provider;
//   - provider/vendor/model (two slashes or more): unchanged;
//   - vendor/model: the default provider is put in front;
//   - a bare name: the default provider and the anthropic vendor.
//
// Surrounding white space is ignored, and so are trailing slashes of the
// default provider. When allowed is not empty, the provider of the result
// must be one of its entries, else the error is a *DisallowedProviderError;
// this holds for every form, the fallback included.
func MapModel(raw, defaultProvider string, allowed []string) (string, error) {
	provider := strings.TrimRight(strings.TrimSpace(defaultProvider), "/")
	if provider == "" {
		return "", ErrNoProvider
	}
	m := strings.TrimSpace(raw)
	var resolved string
	switch n := strings.Count(m, "/"); {
	case m == "":
		resolved = provider + "/" + FallbackModel
	case n >= 2:
		resolved = m
	case n == 1:
		resolved = provider + "/" + m
	default:
		resolved = provider + "/" + DefaultVendor + "/" + m
	}
	return resolved, CheckProvider(resolved, allowed)
}

// CheckProvider reports a *DisallowedProviderError when the provider of a
// fully qualified model is outside a non-empty allow-list.
func CheckProvider(model string, allowed []string) error {
	if len(allowed) == 0 {
		return nil
	}
	provider, _, _ := strings.Cut(model, "/")
	if slices.Contains(allowed, provider) {
		return nil
	}
	return &DisallowedProviderError{Model: model, Provider: provider, Allowed: slices.Clone(allowed)}
}

// FullyQualified reports whether a model: value names its provider
// (provider/vendor/model), so that no default provider changes it.
func FullyQualified(raw string) bool { return strings.Count(strings.TrimSpace(raw), "/") >= 2 }
