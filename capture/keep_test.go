package capture

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestKeeps(t *testing.T) {
	kept := []string{
		"content-type", "Content-Type", "CONTENT_TYPE", "content-length", "accept", "Accept-Encoding", "accept-language",
		"user-agent", "User-Agent", "host", "connection", "sec-fetch-mode", "anthropic-version", "Anthropic-Beta",
		"anthropic-dangerous-direct-browser-access", "openai-beta", "x-stainless-arch", "X-Stainless-Runtime-Version",
		"x-goog-api-client", "x-app", "session_id", "session-id", "x-client-request-id", "x-affinity", "alt", "beta",
	}
	redacted := []string{
		// Credentials and unusual credential names.
		"authorization", "x-api-key", "cookie", "x-auth", "x-api-key-2", "passphrase", "session", "x-sid",
		"x-access-key-id", "apiKeys", "x-goog-api-key", "key", "code", "state",
		// Harmless, but off the list.
		"x-ratelimit-remaining-tokens", "referer", "x-request-id", "openai-organization", "max_tokens", "x-trace",
		// Look-alikes of kept names.
		"content\u2010type", "content\u2011type", "content\u2013type", "content\u2212type", "content-type\x00", "\x00accept",
		"\uff43ontent-type", "user\u00a0agent", "accept ", " accept", "content.type", "content%2Dtype", "contentType",
		"-content-type", "content-type-", "con\u200btent-type", "Accept\u212a", "x-stainless-", "accept-",
		// Secrets under kept prefixes.
		"x-stainless-api-key", "accept-token", "sec-fetch-auth", "x-stainless-session",
		"", "*", "x-stainless-*",
	}
	for _, n := range kept {
		if !(*Keep)(nil).Keeps(n) {
			t.Errorf("%q not kept", n)
		}
	}
	for _, n := range redacted {
		if (*Keep)(nil).Keeps(n) {
			t.Errorf("%q kept", n)
		}
	}
	k, err := NewKeep([]string{"x-trace", "X_Custom_*", "x-api-key"})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[string]bool{
		"x-trace": true, "X-Trace": true, "x-custom-tenant": true, "x_custom_": true, "x-api-key": true,
		"x-trace\x00": false, "x\u2010trace": false, "x-traces": false, "authorization": false, "content-type": true,
	} {
		if got := k.Keeps(n); got != want {
			t.Errorf("with --keep-header: Keeps(%q) = %v, want %v", n, got, want)
		}
	}
	for _, bad := range []string{"", "*", "x\u2010trace", "x trace", "x-trace\x00", "a:b", "x*y"} {
		if _, err := NewKeep([]string{bad}); err == nil {
			t.Errorf("NewKeep(%q) accepted", bad)
		}
	}
	if !(*Keep)(nil).keepsParam("%61lt") || (*Keep)(nil).keepsParam("al%74%") || (*Keep)(nil).keepsParam("alt%00") {
		t.Error("percent-encoded parameter names")
	}
}

// The README lists the kept names exactly.
func TestKeptNamesDocumented(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "form-encoded\n  `postData`:")
	j := strings.Index(s[max(i, 0):], "Names match")
	if i < 0 || j < 0 {
		t.Fatal("README: the list of kept names is not found")
	}
	var doc []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(s[i:i+j], -1) {
		doc = append(doc, m[1])
	}
	doc = slices.DeleteFunc(doc, func(n string) bool { return n == "postData" })
	if !slices.Equal(doc, KeptNames) {
		t.Errorf("README lists\n%q\nKeptNames is\n%q", doc, KeptNames)
	}
}
