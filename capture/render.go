package capture

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ToolSpec is a provider-neutral tool declaration.
type ToolSpec struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object (compact JSON).
	Parameters json.RawMessage
}

// RenderTool returns t as one declaration in p's shape, compact. For Gemini
// it is a FunctionDeclaration, the element of a tool's functionDeclarations.
func RenderTool(p Provider, t ToolSpec) []byte {
	params := []byte(t.Parameters)
	if len(params) == 0 {
		params = []byte(`{"type":"object","properties":{}}`)
	}
	b := []byte{'{'}
	field := func(key string, raw []byte) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = AppendQuote(b, key)
		b = append(b, ':')
		b = append(b, raw...)
	}
	name, desc := Quote(t.Name), Quote(t.Description)
	switch p {
	case Anthropic:
		field("name", name)
		field("description", desc)
		field("input_schema", params)
	case OpenAIChat, Mistral:
		inner := []byte(`{"name":`)
		inner = append(inner, name...)
		inner = append(inner, `,"description":`...)
		inner = append(inner, desc...)
		inner = append(inner, `,"parameters":`...)
		inner = append(inner, params...)
		inner = append(inner, '}')
		field("type", []byte(`"function"`))
		field("function", inner)
	case OpenAIResponses:
		field("type", []byte(`"function"`))
		field("name", name)
		field("description", desc)
		field("parameters", params)
		field("strict", []byte("false"))
	case Gemini:
		field("name", name)
		field("description", desc)
		field("parametersJsonSchema", params)
	default: // Pi
		field("name", name)
		field("description", desc)
		field("parameters", params)
	}
	return append(b, '}')
}

// Insertion adds JSON to a capture without touching existing bytes: as the
// last element of the array at Pointer (Append), or as member Insert of the
// object at Pointer.
type Insertion struct {
	Pointer string
	Append  bool
	Insert  string
	JSON    []byte
}

// ToolInsertion returns where and how to declare one more tool in the
// capture, in its provider's shape.
func (c *Capture) ToolInsertion(t ToolSpec) (Insertion, error) {
	d := c.Doc
	decl := RenderTool(c.Provider, t)
	if d.Kind(0) != Object || (c.Provider == PiMessages && d.Get(0, "messages") == NoNode) {
		return Insertion{}, errors.New("this capture has no place for tool declarations")
	}
	if c.Provider == Gemini {
		tools := d.Get(0, "tools")
		switch d.Kind(tools) {
		case None:
			return Insertion{Pointer: "", Insert: "tools", JSON: wrapGemini(decl, true)}, nil
		case Object:
			if fd := d.GetAny(tools, "functionDeclarations", "function_declarations"); d.Kind(fd) == Array {
				return Insertion{Pointer: d.Pointer(fd), Append: true, JSON: decl}, nil
			}
			return Insertion{}, errors.New("tools is a single object without functionDeclarations")
		case Array:
			for t := range d.Children(tools) {
				if fd := d.GetAny(t, "functionDeclarations", "function_declarations"); d.Kind(fd) == Array {
					return Insertion{Pointer: d.Pointer(fd), Append: true, JSON: decl}, nil
				}
			}
			return Insertion{Pointer: "/tools", Append: true, JSON: wrapGemini(decl, false)}, nil
		}
		return Insertion{}, fmt.Errorf("tools is a %s", d.Kind(tools))
	}
	tools := d.Get(0, "tools")
	switch d.Kind(tools) {
	case None:
		return Insertion{Pointer: "", Insert: "tools", JSON: append(append([]byte{'['}, decl...), ']')}, nil
	case Array:
		return Insertion{Pointer: "/tools", Append: true, JSON: decl}, nil
	}
	return Insertion{}, fmt.Errorf("tools is a %s, not an array", d.Kind(tools))
}

func wrapGemini(decl []byte, array bool) []byte {
	b := []byte(`{"functionDeclarations":[`)
	b = append(b, decl...)
	b = append(b, "]}"...)
	if array {
		return append(append([]byte{'['}, b...), ']')
	}
	return b
}

// ToolNames returns the names of the tools the capture declares, in order.
func (c *Capture) ToolNames() []string {
	var out []string
	for _, s := range c.Segments() {
		if s.Kind == SecTools && s.Msg < 0 && s.Name != "" {
			out = append(out, s.Name)
		}
	}
	return out
}
