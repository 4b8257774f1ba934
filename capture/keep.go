package capture

import (
	"fmt"
	"net/url"
	"strings"
)

// KeptNames are the header and parameter names whose values an envelope
// keeps: metadata that real captures carry and that holds no credential.
// A name ending in '*' stands for every name it starts (x-stainless-arch,
// x-stainless-os, …). Every other value under a header, URL query or
// fragment parameter, HAR queryString or postData parameter, or sidecar
// header is replaced by REDACTED, and so is every cookie value.
var KeptNames = []string{
	"content-type", "content-length",
	"accept", "accept-*",
	"user-agent", "host", "connection", "sec-fetch-*",
	"anthropic-version", "anthropic-beta", "anthropic-dangerous-direct-browser-access",
	"openai-beta", "x-stainless-*",
	"x-goog-api-client", "x-app",
	// Request and conversation identifiers Pi and OpenAI's and Mistral's
	// clients send: routing hints, not credentials.
	"session_id", "x-client-request-id", "x-affinity",
	// Query parameters: Gemini's alt=sse, Anthropic's beta=true.
	"alt", "beta",
}

// Keep decides which header and parameter values of an envelope are kept:
// the names of KeptNames and those a user adds. Names are compared after
// normalisation: ASCII letters lower-cased and '_' read as '-'. A name
// holding any other byte (a NUL, a space, a Unicode hyphen or look-alike
// letter) is no kept name, whatever it resembles. A kept prefix never keeps
// a name that reads as a secret (x-stainless-api-key), unless the user
// named it.
type Keep struct {
	names, userNames       map[string]bool
	prefixes, userPrefixes []string
}

// defaultKeep keeps KeptNames only.
var defaultKeep = func() *Keep {
	k := &Keep{names: map[string]bool{}, userNames: map[string]bool{}}
	for _, n := range KeptNames {
		if err := k.add(n, false); err != nil {
			panic(err)
		}
	}
	return k
}()

// NewKeep returns the Keep of KeptNames and the names given (--keep-header):
// header or parameter names, or prefixes ending in '*'.
func NewKeep(names []string) (*Keep, error) {
	k := &Keep{names: defaultKeep.names, prefixes: defaultKeep.prefixes, userNames: map[string]bool{}}
	for _, n := range names {
		if err := k.add(n, true); err != nil {
			return nil, err
		}
	}
	return k, nil
}

func (k *Keep) add(name string, user bool) error {
	prefix := strings.HasSuffix(name, "*")
	n, ok := keepNorm(strings.TrimSuffix(name, "*"))
	if !ok {
		return fmt.Errorf("%q is not a header name (ASCII letters, digits, '-' and '_', and a final '*' for a prefix)", name)
	}
	switch {
	case prefix && user:
		k.userPrefixes = append(k.userPrefixes, n)
	case prefix:
		k.prefixes = append(k.prefixes, n)
	case user:
		k.userNames[n] = true
	default:
		k.names[n] = true
	}
	return nil
}

// keepNorm returns name lower-cased with '_' as '-', and false when it
// holds a byte other than an ASCII letter, digit, '-' or '_'.
func keepNorm(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	b := []byte(name)
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == '_':
			b[i] = '-'
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-':
		default:
			return "", false
		}
	}
	return string(b), true
}

// Keeps reports whether the value under the header or parameter name is
// kept. A nil Keep keeps KeptNames.
func (k *Keep) Keeps(name string) bool {
	if k == nil {
		k = defaultKeep
	}
	n, ok := keepNorm(name)
	if !ok {
		return false
	}
	if k.userNames[n] {
		return true
	}
	for _, p := range k.userPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	if isSecretNorm(n) {
		return false
	}
	if k.names[n] {
		return true
	}
	for _, p := range k.prefixes {
		if strings.HasPrefix(n, p) && len(n) > len(p) {
			return true
		}
	}
	return false
}

// keepsParam is Keeps for a URL parameter name as written, percent-encoded.
func (k *Keep) keepsParam(raw string) bool {
	n, err := url.QueryUnescape(raw)
	return err == nil && k.Keeps(n)
}
