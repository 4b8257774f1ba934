// Package schemas validates LLM provider request bodies against JSON Schemas
// (draft 2020-12) of what each provider's API accepts.
//
// One schema exists per provider shape (see Providers). The Anthropic,
// OpenAI (Chat Completions and Responses), Mistral and Gemini schemas are
// generated from the providers' official API descriptions by
// internal/cmd/genschemas, with a patch table of deliberate deviations where
// the real API or real traffic differs from the description; the Pi message
// schema is written by hand from Pi's own types. Objects are closed where
// the provider rejects unknown members: such a finding is marked Unknown,
// since compatible endpoints commonly accept extensions. Block, item and tool
// types the provider does not list are errors, as the official endpoints
// answer them with HTTP 400.
//
// Gemini bodies are normalised before validation, as Google's own parser
// accepts them: snake_case keys become lowerCamelCase, single objects given
// for contents, parts, tools and functionDeclarations become one-element
// arrays, and the Code Assist wrapper {model, project, request} is unwrapped.
// Error pointers always refer to the body as given.
package schemas

import (
	"embed"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/skillopt/skillopt/capture"
)

// Providers lists the supported provider shape names in a stable order.
var Providers = []string{"anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "pi-messages"}

// Error is one validation failure.
type Error struct {
	// Pointer is an RFC 6901 JSON Pointer into the body as given ("" is the
	// root).
	Pointer string
	// Message is a short lower-case description naming the offending key
	// or value.
	Message string
	// Offset is the byte offset of the offending value in the body (of the
	// member key, for an unknown property), for line:col positions.
	Offset int
	// Unknown marks a key the provider's API does not define: the official
	// endpoint rejects it, compatible endpoints (vLLM, OpenRouter, …)
	// commonly accept it as an extension.
	Unknown bool
	// Missing is the name of the required property the value lacks, for
	// a "missing required property" error; "" otherwise.
	Missing string
}

// String formats the error as "pointer: message", with "(root)" standing
// for the empty pointer.
func (e Error) String() string {
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	return p + ": " + e.Message
}

//go:generate go run ../internal/cmd/genschemas -ref ../../shared/reference/providers -out .

//go:embed *.schema.json
var schemaFiles embed.FS

// compiled holds one provider's schema, compiled on first use.
type compiled struct {
	once      sync.Once
	preloaded atomic.Bool // a Preload has started compiling
	name      string
	schema    *schema
	// codeAssist is the schema of the request of a Code Assist wrapper
	// (Gemini only).
	codeAssist *schema
	err        error
}

// Files lists the schemas of skillopt's own files.
var Files = []string{"card-profile"}

var registry = func() map[string]*compiled {
	m := make(map[string]*compiled, len(Providers)+len(Files))
	for _, p := range Providers {
		m[p] = &compiled{name: p}
	}
	for _, f := range Files {
		m[f] = &compiled{name: f}
	}
	return m
}()

// Preload compiles the schema of provider on another goroutine, so that it
// is ready, or nearly, when the first validation needs it; calls after the
// first cost nothing. Unknown providers are ignored (validation reports
// them).
func Preload(provider string) {
	if c, ok := registry[provider]; ok && c.preloaded.CompareAndSwap(false, true) {
		go c.once.Do(c.compile)
	}
}

// load returns the compiled schema of provider, compiling it on first use.
func load(provider string) (*compiled, error) {
	c, ok := registry[provider]
	if !ok {
		return nil, fmt.Errorf("schemas: unknown provider %q", provider)
	}
	c.once.Do(c.compile)
	if c.err != nil {
		return nil, c.err
	}
	return c, nil
}

func (c *compiled) compile() {
	data, err := schemaFiles.ReadFile(c.name + ".schema.json")
	if err != nil {
		c.err = fmt.Errorf("schemas: %s: %w", c.name, err)
		return
	}
	s, err := compileDoc(c.name, data, "", codeAssistEntry)
	if err != nil {
		c.err = fmt.Errorf("schemas: %w", err)
		return
	}
	c.schema, c.codeAssist = s[0], s[1]
}

// codeAssistEntry is the definition of the request object inside the Code
// Assist wrapper, in the Gemini schema.
const codeAssistEntry = "/$defs/CodeAssistGenerateContentRequest"

// Validate checks body (raw JSON bytes of a request body, envelope already
// removed) against the provider's schema. It returns the validation errors
// (empty when valid) and a non-nil error only for unusable input (unknown
// provider, body that is not JSON).
func Validate(provider string, body []byte) ([]Error, error) {
	c, err := load(provider)
	if err != nil {
		return nil, err
	}
	d, err := capture.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("schemas: body is not JSON: %w", err)
	}
	return c.validate(d), nil
}

// ValidateDoc is Validate for a body that capture has already indexed; the
// document is not parsed again.
func ValidateDoc(provider string, d *capture.Doc) ([]Error, error) {
	c, err := load(provider)
	if err != nil {
		return nil, err
	}
	return c.validate(d), nil
}

// ValidateFile checks one of skillopt's own files (see Files) against its
// schema, the same way Validate checks request bodies.
func ValidateFile(kind string, data []byte) ([]Error, error) {
	return Validate(kind, data)
}

// validate evaluates the schema over the index of a document.
func (c *compiled) validate(d *capture.Doc) []Error {
	e := &evaluator{d: d, gemini: c.name == "gemini"}
	root := vnode{}
	out := []Error{}
	s := c.schema
	if e.gemini {
		// The Code Assist wrapper {model, project, request} carries the
		// request; pointers keep the /request prefix.
		if req := d.Get(0, "request"); d.Kind(req) == capture.Object && d.Get(0, "contents") == capture.NoNode {
			root.i = req
			if c.codeAssist != nil {
				s = c.codeAssist
			}
		}
		out = e.geminiDuplicates(root, out)
	}
	for _, l := range e.eval(s, root) {
		out = append(out, e.render(l)...)
	}
	return finish(out)
}
