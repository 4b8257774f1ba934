package validity

import (
	"net/url"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
)

// officialHosts are the providers' own API hosts (and the first-party
// clouds serving the same API), whose servers reject keys their API does
// not define. Other hosts — vLLM, DeepSeek, OpenRouter, LiteLLM, Ollama and
// other compatible servers — commonly accept extensions.
var officialHosts = []string{
	"api.anthropic.com",
	"api.openai.com",
	"generativelanguage.googleapis.com",
	"aiplatform.googleapis.com", // Vertex AI, also as REGION-aiplatform.googleapis.com
	"api.mistral.ai",
	"bedrock-runtime.amazonaws.com", // also bedrock-runtime.REGION.amazonaws.com
}

// Strict reports whether unknown keys in c are errors: true for the
// providers' own endpoints and for captures without an endpoint (judged
// against the official API), false for other hosts. The host is the URL's,
// or the Host header's when the capture has only a path. Without a host,
// a model id that is not the provider's own (capture.ForeignModel: another
// vendor's model, a router's vendor/model id) means a compatible server
// too. The reason says which.
func Strict(c *capture.Capture) (bool, string) {
	host := ""
	if u, err := url.Parse(c.URL); err == nil {
		host = u.Hostname()
	}
	if host == "" {
		for _, h := range c.Headers {
			if strings.EqualFold(h.Name, "host") {
				host = h.Value
				host = withoutPort(host)
			}
		}
	}
	if host == "" {
		if why := capture.ForeignModel(c.Doc, c.Provider); why != "" {
			return false, "no endpoint, but " + why + ": a compatible server; unknown keys are reported as extensions"
		}
		return true, "no endpoint: judged against the official API"
	}
	host = strings.ToLower(host)
	for _, h := range officialHosts {
		if host == h || strings.HasSuffix(host, "."+h) || (h == "aiplatform.googleapis.com" && strings.HasSuffix(host, "-"+h)) || bedrockRegion(host, h) {
			return true, "official endpoint " + host
		}
	}
	return false, "compatible endpoint " + host + ": unknown keys are reported as extensions"
}

// bedrockRegion matches bedrock-runtime.REGION.amazonaws.com.
func bedrockRegion(host, official string) bool {
	return official == "bedrock-runtime.amazonaws.com" && strings.HasPrefix(host, "bedrock-runtime.") && strings.HasSuffix(host, ".amazonaws.com")
}

// withoutPort returns the host of a "host:port" or "[host]:port" Host
// header, and any other value as it is: what net.SplitHostPort accepts,
// without linking the resolver (and the C library) into the binary.
func withoutPort(hostport string) string {
	i := strings.LastIndexByte(hostport, ':')
	if i < 0 {
		return hostport
	}
	var host string
	j, k := 0, 0
	if hostport[0] == '[' {
		end := strings.IndexByte(hostport, ']')
		if end < 0 || end+1 != i {
			return hostport
		}
		host, j, k = hostport[1:end], 1, end+1
	} else {
		host = hostport[:i]
		if strings.IndexByte(host, ':') >= 0 {
			return hostport
		}
	}
	if strings.IndexByte(hostport[j:], '[') >= 0 || strings.IndexByte(hostport[k:], ']') >= 0 {
		return hostport
	}
	return host
}

// SchemaError judges one schema error of c as the provider would: an
// unknown key is an error only when strict (an extension a compatible
// server accepts otherwise), and a top-level member the host sends but its
// session file does not hold (capture.Session.Absent) is no error at all.
// It returns the severity and a note to append to the message ("" when
// the error stands as it is).
func SchemaError(c *capture.Capture, e schemas.Error, strict bool) (rules.Severity, string) {
	switch {
	case e.Unknown && !strict:
		return rules.Info, " (an extension: the official API rejects it)"
	case e.Pointer == "" && c.Session != nil && slices.Contains(c.Session.Absent, e.Missing):
		return rules.Info, " (the host sends it; its session file does not hold it)"
	}
	return rules.Error, ""
}
