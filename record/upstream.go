// Package record is a recording reverse proxy: it forwards every request
// it receives, unchanged, to a configured provider endpoint, streams the
// response back as it arrives, and appends each exchange to a capture file
// that the capture reader reads back (a request record with the response's
// status, headers and usage beside it). Credentials never reach the file.
package record

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Preset is an upstream known by name: its default endpoint and the
// environment variables through which hosts and SDKs take a base URL for
// it, with what the base URL adds to the proxy's prefix.
type Preset struct {
	Name string
	// URL is the provider's endpoint; "" for a preset that needs one
	// (openai-compatible).
	URL string
	// Env are the variables `record -- CMD` sets, each to the proxy's
	// address, the upstream's prefix and Suffix.
	Env    []string
	Suffix string
	Doc    string
}

// Presets are the named upstreams, in the order they are listed.
var Presets = []Preset{
	{Name: "anthropic", URL: "https://api.anthropic.com", Env: []string{"ANTHROPIC_BASE_URL"},
		Doc: "Anthropic Messages (Claude Code and the Anthropic SDKs read ANTHROPIC_BASE_URL)"},
	{Name: "openai", URL: "https://api.openai.com", Env: []string{"OPENAI_BASE_URL"}, Suffix: "/v1",
		Doc: "OpenAI Chat Completions and Responses (Codex and the OpenAI SDKs read OPENAI_BASE_URL, which ends in /v1)"},
	{Name: "gemini", URL: "https://generativelanguage.googleapis.com", Env: []string{"GOOGLE_GEMINI_BASE_URL"},
		Doc: "Gemini generateContent (Gemini CLI and the Google Gen AI SDK read GOOGLE_GEMINI_BASE_URL)"},
	{Name: "mistral", URL: "https://api.mistral.ai",
		Doc: "Mistral chat completions (point the client's server URL at the proxy's /mistral prefix)"},
	{Name: "openai-compatible",
		Doc: "any OpenAI-compatible server; needs a URL: --upstream openai-compatible=http://localhost:11434/v1"},
}

// Upstream is one endpoint the proxy forwards to, selected by the path
// prefix /NAME/.
type Upstream struct {
	Name string
	URL  *url.URL
	// Env and Suffix are the preset's (none for other names).
	Env    []string
	Suffix string
}

func presetOf(name string) *Preset {
	for i := range Presets {
		if Presets[i].Name == name {
			return &Presets[i]
		}
	}
	return nil
}

// ParseUpstream reads an --upstream value: NAME=URL, or the NAME of a
// preset that has a URL of its own. A preset's name with a URL replaces
// the preset's endpoint and keeps its environment variables.
func ParseUpstream(s string) (Upstream, error) {
	name, raw, hasURL := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !validName(name) {
		return Upstream{}, fmt.Errorf("upstream name %q: want lower-case letters, digits and '-' (as in anthropic=https://api.anthropic.com)", name)
	}
	p := presetOf(name)
	if !hasURL {
		if p == nil {
			return Upstream{}, fmt.Errorf("upstream %q is no preset (want one of %s, or NAME=URL)", name, presetNames())
		}
		if p.URL == "" {
			return Upstream{}, fmt.Errorf("upstream %s needs a URL: --upstream %s=http://localhost:11434/v1", name, name)
		}
		raw = p.URL
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return Upstream{}, fmt.Errorf("upstream %s: %q is not an http or https URL without credentials or query (as in https://api.anthropic.com)", name, raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	up := Upstream{Name: name, URL: u}
	if p != nil {
		up.Env, up.Suffix = p.Env, p.Suffix
	}
	return up, nil
}

// DefaultUpstreams are the presets that have an endpoint of their own.
func DefaultUpstreams() []Upstream {
	var out []Upstream
	for _, p := range Presets {
		if p.URL != "" {
			up, _ := ParseUpstream(p.Name)
			out = append(out, up)
		}
	}
	return out
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func presetNames() string {
	var names []string
	for _, p := range Presets {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// route finds the upstream of a request path: the upstream whose name is
// its first segment (the rest of the path is forwarded), else the only
// upstream there is (the whole path is forwarded).
func route(ups []Upstream, path string) (*Upstream, string, bool) {
	rest := strings.TrimPrefix(path, "/")
	first, tail, _ := strings.Cut(rest, "/")
	for i := range ups {
		if ups[i].Name == first {
			return &ups[i], "/" + tail, true
		}
	}
	if len(ups) == 1 {
		return &ups[0], path, true
	}
	return nil, "", false
}

// noRoute is the message of the 502 answer to a path no upstream takes.
func noRoute(ups []Upstream, path string) string {
	var prefixes []string
	for _, u := range ups {
		prefixes = append(prefixes, "/"+u.Name)
	}
	sort.Strings(prefixes)
	return fmt.Sprintf("skillopt record: no upstream for %s: start the path with one of %s (for example /%s%s), or run record with a single --upstream NAME=URL",
		path, strings.Join(prefixes, ", "), firstName(ups), path)
}

func firstName(ups []Upstream) string {
	if len(ups) == 0 {
		return "anthropic"
	}
	return ups[0].Name
}

// Join is the target URL of a request for path (query as sent).
func (u *Upstream) join(path, rawQuery string) *url.URL {
	t := *u.URL
	t.Path = u.URL.Path + path
	t.RawPath = ""
	t.RawQuery = rawQuery
	return &t
}

// BaseURLs returns the environment variables that point hosts at the
// proxy listening at addr (http://host:port), one NAME=VALUE each, for the
// upstreams that have any.
func BaseURLs(ups []Upstream, addr string) []string {
	var out []string
	for _, u := range ups {
		for _, e := range u.Env {
			out = append(out, e+"="+addr+"/"+u.Name+u.Suffix)
		}
	}
	return out
}
