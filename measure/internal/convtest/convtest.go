// Package convtest holds the request fixtures that the tests of measure
// and of its printers share: a stand-in tokenizer, Anthropic request bodies
// of a conversation, a transform rule that changes its cached prefix, and
// a request with a rule that shortens its strings.
// Only tests import it; it imports nothing of measure, so measure's own
// tests can use it.
package convtest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// Quarters is a deterministic stand-in tokenizer: one token per four
// bytes, rounded up.
type Quarters struct{}

func (Quarters) CountAll(texts []string) []int {
	out := make([]int, len(texts))
	for i, t := range texts {
		out[i] = (len(t) + 3) / 4
	}
	return out
}

// Anthropic request bodies, members in the order a client might write
// them (system before tools), which is not the order a cache reads them.
type Cache struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}
type Block struct {
	Type         string `json:"type"`
	Text         string `json:"text"`
	CacheControl *Cache `json:"cache_control,omitempty"`
}
type Msg struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
}
type Tool struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	InputSchema  any    `json:"input_schema"`
	CacheControl *Cache `json:"cache_control,omitempty"`
}
type Body struct {
	Model     string  `json:"model"`
	MaxTokens int     `json:"max_tokens"`
	System    []Block `json:"system"`
	Tools     []Tool  `json:"tools"`
	Messages  []Msg   `json:"messages"`
}

var Ephemeral = &Cache{Type: "Ephemeral"}

// LongText is prose of about n bytes.
func LongText(seed string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(seed)
		b.WriteString(" keeps the project's conventions in mind and answers briefly. ")
	}
	return b.String()
}

// AnthropicTurns builds the requests of a conversation of n turns: a stable
// system prompt and tools, a breakpoint on the system prompt and one on the
// last message, moved forward each turn as a client does.
func AnthropicTurns(n int, system string) []Body {
	tools := []Tool{
		{Name: "read", Description: "Read a file from the working tree.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]string{"type": "string"}}}},
		{Name: "run", Description: "Run a shell command and return its output.", InputSchema: map[string]any{"type": "object"}, CacheControl: Ephemeral},
	}
	var out []Body
	var msgs []Msg
	for i := 0; i < n; i++ {
		if i > 0 {
			msgs = append(msgs, Msg{Role: "assistant", Content: []Block{{Type: "text", Text: LongText("The assistant", 300)}}})
		}
		msgs = append(msgs, Msg{Role: "user", Content: []Block{{Type: "text", Text: LongText("The user asks again", 900)}}})
		cp := make([]Msg, len(msgs))
		for k, m := range msgs {
			cp[k] = Msg{Role: m.Role, Content: append([]Block(nil), m.Content...)}
		}
		last := &cp[len(cp)-1].Content[0]
		last.CacheControl = Ephemeral
		out = append(out, Body{Model: "claude-sonnet-4-5", MaxTokens: 1024,
			System: []Block{{Type: "text", Text: system, CacheControl: Ephemeral}}, Tools: tools, Messages: cp})
	}
	return out
}

func ReadBody(t testing.TB, name string, body any) *capture.Capture {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	f, err := capture.Read(name, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// Unchanged is a pipeline result of no rules.
func Unchanged(c *capture.Capture) *rules.Result { return &rules.Result{Original: c, Final: c} }

// TrimSystem is a transform rule for the tests: on requests with more than
// one message it shortens the system prompt, which sits before the
// messages in every cache.
var TrimSystem = &rules.Rule{
	ID: "SO998", Name: "test.trim-system", Kind: rules.Transform, Severity: rules.Info,
	Doc:    "Shortens the system prompt of later turns.",
	Engine: rules.Engine{Lossy: true},
	Run: func(p *rules.Pass) error {
		d := p.Capture.Doc
		if d.Len(d.Get(0, "messages")) < 2 {
			return nil
		}
		text := d.Get(d.Elem(d.Get(0, "system"), 0), "text")
		p.Edit(rules.Edit{Pointer: d.Pointer(text), NewJSON: capture.Quote(d.Str(text)[:1000])})
		return nil
	},
}

// ReadCapture reads body as a capture file named name and returns its
// first capture.
func ReadCapture(t testing.TB, name, body string) *capture.Capture {
	t.Helper()
	f, err := capture.Read(name, []byte(body), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// Shorten is a transform rule, id, that replaces the string at ptr by to.
func Shorten(id, ptr, to string) *rules.Rule {
	return &rules.Rule{ID: id, Name: "test." + id, Kind: rules.Transform, Doc: "Test rule.", Engine: rules.Engine{Lossy: true}, Run: func(p *rules.Pass) error {
		if i, err := p.Capture.Doc.Lookup(ptr); err == nil && p.Capture.Doc.Str(i) != to {
			p.Edit(rules.Edit{Pointer: ptr, NewJSON: capture.Quote(to)})
			return nil
		}
		p.Idle("nothing at %s", ptr)
		return nil
	}}
}

// TwoTexts is a request with a system prompt and a question long enough
// for Shorten to shorten.
const TwoTexts = `{"model":"m-1","max_tokens":5,"system":"` + "a system prompt that is rather long, long enough to shorten" + `","messages":[{"role":"user","content":"` + "a question that goes on and on and on and on" + `"}]}`
