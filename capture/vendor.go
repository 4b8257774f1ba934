package capture

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

var (
	reModelPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/models/([^/:?]+)`) })
	reMistral   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(mistral|devstral|magistral|codestral|ministral|pixtral|voxtral|open-mistral|open-mixtral)`)
	})
)

// VendorOf returns the cache and price family of a captured request and the
// model it names: the body's shape where it says (Anthropic, Gemini,
// Mistral), else the endpoint's host, else the model's name. An endpoint
// that is none of these (a local server, a reseller) has vendor "".
func VendorOf(c *Capture) (vendor, model string) {
	d := c.Doc
	if d != nil && d.Kind(0) == Object {
		model = d.GetStr(0, "model")
	}
	host, path := "", ""
	if c.URL != "" {
		if u, err := url.Parse(c.URL); err == nil {
			host, path = strings.ToLower(u.Hostname()), u.Path
		}
	}
	if model == "" {
		if m := reModelPath().FindStringSubmatch(path); m != nil {
			model = m[1]
		}
	}
	switch c.Provider {
	case Anthropic:
		return "anthropic", model
	case Gemini:
		return "gemini", model
	case Mistral:
		return "mistral", model
	}
	switch {
	case strings.HasSuffix(host, "openai.com"):
		return "openai", model
	case strings.HasSuffix(host, "deepseek.com"):
		return "deepseek", model
	case strings.HasSuffix(host, "mistral.ai"):
		return "mistral", model
	case strings.HasSuffix(host, "anthropic.com"):
		return "anthropic", model
	case strings.HasSuffix(host, "googleapis.com"):
		return "gemini", model
	}
	return vendorOfModel(model), model
}

// vendorOfModel guesses the vendor from a model's name.
func vendorOfModel(model string) string {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	switch {
	case strings.HasPrefix(m, "gpt-"), strings.HasPrefix(m, "chatgpt-"), strings.HasPrefix(m, "codex-"),
		len(m) > 1 && m[0] == 'o' && m[1] >= '1' && m[1] <= '9':
		return "openai"
	case strings.HasPrefix(m, "claude-"):
		return "anthropic"
	case strings.HasPrefix(m, "gemini-"):
		return "gemini"
	case strings.HasPrefix(m, "deepseek"):
		return "deepseek"
	case reMistral().MatchString(m):
		return "mistral"
	}
	return ""
}

// PiVendor maps a Pi provider name to a vendor.
func PiVendor(provider, model string) string {
	switch p := strings.ToLower(provider); {
	case p == "anthropic":
		return "anthropic"
	case p == "openai", p == "openai-codex", p == "azure-openai-responses":
		return "openai"
	case strings.HasPrefix(p, "google"):
		return "gemini"
	case p == "deepseek":
		return "deepseek"
	case p == "mistral":
		return "mistral"
	}
	return vendorOfModel(model)
}
