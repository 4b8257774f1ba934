package validity

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// ToolNames checks tool names against each provider's documented form and
// for duplicates.
var ToolNames = &rules.Rule{
	ID:       "SO501",
	Title:    "Tool names follow the provider's form and are unique",
	Why:      "Providers reject a request with an invalid or duplicated tool name outright, so the whole turn fails.",
	Since:    rules.FirstVersion,
	Name:     "request.tool-names",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Tool names follow the provider's documented form and are unique within a request. " +
		"OpenAI (Chat and Responses) and Mistral allow a-z, A-Z, 0-9, _ and - up to 64 characters; Gemini also . and : " +
		"up to 64, starting with a letter or _ (its API reference says 128, but the service answers a longer name with " +
		"HTTP 400 naming 64); Anthropic's pattern is part of its JSON Schema. " +
		"Every provider rejects two tools of the same name.",
	Run: runToolNames,
}

// A namePattern is a provider's documented tool-name form: one to max
// characters from a-z, A-Z, 0-9, _ and -, and those in extra. It is
// written out rather than compiled as a regular expression: compiling the
// counted repetitions took a millisecond at every start.
type namePattern struct {
	expr  string // the form as the provider documents it
	extra string
	max   int
	// letterFirst: the first character is a letter or _.
	letterFirst bool
}

var (
	openAIName  = &namePattern{expr: `^[a-zA-Z0-9_-]{1,64}$`, max: 64}
	geminiName  = &namePattern{expr: `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`, extra: ".:", max: 64, letterFirst: true}
	mistralName = &namePattern{expr: `^[a-zA-Z0-9_-]{1,64}$`, max: 64}
)

// MatchString reports whether name has the form.
func (p *namePattern) MatchString(name string) bool {
	if len(name) == 0 || len(name) > p.max {
		return false
	}
	if c := name[0]; p.letterFirst && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		case strings.IndexByte(p.extra, c) >= 0:
		default:
			return false
		}
	}
	return true
}

func (p *namePattern) String() string { return p.expr }

// namePatterns gives the documented form per provider (nil: no check here).
var namePatterns = map[capture.Provider]*namePattern{
	capture.OpenAIChat:      openAIName,
	capture.OpenAIResponses: openAIName,
	capture.Gemini:          geminiName,
	capture.Mistral:         mistralName,
}

func runToolNames(p *rules.Pass) error {
	d := p.Capture.Doc
	pat := namePatterns[p.Capture.Provider]
	seen := map[string]capture.Node{}
	for _, n := range toolNameNodes(p.Capture) {
		name := d.Str(n)
		if pat != nil && !pat.MatchString(name) {
			p.Reportf(d.Pointer(n), "tool name %q does not match %s", shorten(name), pat)
		}
		if first, dup := seen[name]; dup {
			p.Reportf(d.Pointer(n), "tool name %q is already declared at %s", shorten(name), d.Pointer(first))
			continue
		}
		seen[name] = n
	}
	return nil
}

// toolNameNodes returns the string nodes naming the request's tools.
func toolNameNodes(c *capture.Capture) []capture.Node {
	d := c.Doc
	var out []capture.Node
	add := func(n capture.Node) {
		if d.Kind(n) == capture.String {
			out = append(out, n)
		}
	}
	switch c.Provider {
	case capture.Gemini:
		for _, t := range elems(d, d.GetAny(geminiRoot(d), "tools")) {
			for _, f := range elems(d, d.GetAny(t, "functionDeclarations", "function_declarations")) {
				add(d.Get(f, "name"))
			}
		}
	case capture.OpenAIChat, capture.Mistral:
		for t := range d.Children(d.Get(0, "tools")) {
			if fn := d.Get(t, "function"); fn != capture.NoNode {
				add(d.Get(fn, "name"))
			} else if cu := d.Get(t, "custom"); cu != capture.NoNode {
				add(d.Get(cu, "name"))
			}
		}
	default: // Anthropic, Responses, Pi: name on the tool
		for t := range d.Children(d.Get(0, "tools")) {
			add(d.Get(t, "name"))
		}
	}
	return out
}

// geminiRoot is the request node of a Gemini body (inside a Code Assist
// wrapper when there is one).
func geminiRoot(d *capture.Doc) capture.Node {
	if req := d.Get(0, "request"); d.Kind(req) == capture.Object && d.Get(0, "contents") == capture.NoNode {
		return req
	}
	return 0
}

func shorten(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "…"
	}
	return s
}
