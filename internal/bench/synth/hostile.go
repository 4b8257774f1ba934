package synth

import (
	"bytes"
	"fmt"
	"strconv"
)

// Hostile lists the shapes Hostile writes: each an Anthropic Messages body
// whose size comes from one construct repeated, the inputs that expose a
// cost growing faster than the input.
var Hostile = []string{
	"enum-numbers",   // a tool schema enum of consecutive integers
	"empty-objects",  // a tool schema array of {}
	"dash-run",       // a message text of one character repeated
	"digit-run",      // a message text of digits without a space
	"escapes",        // a message text of JSON escapes
	"many-messages",  // a long history of short turns
	"many-tools",     // many small tool declarations
	"many-keys",      // a tool schema object with many properties
	"tool-results",   // many tool calls with medium outputs
	"nested-objects", // objects nested a fixed depth, repeated
}

// HostileBody writes the body of shape of about size bytes. With variant
// set, a few values in the middle of the repeated part differ (the other
// side of a diff).
func HostileBody(shape string, size int, variant bool) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(size + 1024)
	head := func(tools string) {
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[`)
		b.WriteString(tools)
		b.WriteString(`],"messages":[`)
	}
	userText := func(text string) {
		b.WriteString(`{"role":"user","content":`)
		b.WriteString(strconv.Quote(text))
		b.WriteString(`}`)
	}
	tool := func(name, schemaExtra string) string {
		return `{"name":"` + name + `","description":"A tool.","input_schema":{"type":"object"` + schemaExtra + `}}`
	}
	// repeat writes unit(i) until the buffer reaches size, changing the
	// unit at the middle when variant is set.
	repeat := func(sep string, unit func(i int, alt bool) string) {
		start := b.Len()
		mid := -1
		for i := 0; b.Len()-start < size; i++ {
			if i > 0 {
				b.WriteString(sep)
			}
			alt := false
			if variant && mid < 0 && b.Len()-start >= size/2 {
				mid, alt = i, true
			}
			b.WriteString(unit(i, alt))
		}
	}
	switch shape {
	case "enum-numbers":
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"pick","description":"A tool.","input_schema":{"type":"object","properties":{"n":{"type":"integer","enum":[`)
		repeat(",", func(i int, alt bool) string {
			if alt {
				return "-1"
			}
			return strconv.Itoa(i)
		})
		b.WriteString(`]}}}}],"messages":[`)
		userText("pick one")
	case "empty-objects":
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"t","description":"A tool.","input_schema":{"type":"object","x":[`)
		repeat(",", func(i int, alt bool) string {
			if alt {
				return `{"a":1}`
			}
			return "{}"
		})
		b.WriteString(`]}}],"messages":[`)
		userText("hi")
	case "dash-run", "digit-run", "escapes":
		head(tool("t", ""))
		b.WriteString(`{"role":"user","content":"`)
		unit := map[string]string{"dash-run": "----------", "digit-run": "1234567890", "escapes": `\n\t\"\\\u00e9`}[shape]
		repeat("", func(i int, alt bool) string {
			if alt {
				return "x" + unit[1:]
			}
			return unit
		})
		b.WriteString(`"}`)
	case "many-messages":
		head(tool("t", ""))
		repeat(",", func(i int, alt bool) string {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			text := fmt.Sprintf("turn %d: a short line of the conversation", i)
			if alt {
				text = "changed"
			}
			return `{"role":"` + role + `","content":` + strconv.Quote(text) + `}`
		})
		b.WriteString(",")
		userText("and now?")
	case "many-tools":
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[`)
		repeat(",", func(i int, alt bool) string {
			name := "tool_" + strconv.Itoa(i)
			if alt {
				name += "_changed"
			}
			return tool(name, `,"properties":{"q":{"type":"string"}}`)
		})
		b.WriteString(`],"messages":[`)
		userText("use a tool")
	case "many-keys":
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"t","description":"A tool.","input_schema":{"type":"object","properties":{`)
		repeat(",", func(i int, alt bool) string {
			t := "string"
			if alt {
				t = "integer"
			}
			return `"p` + strconv.Itoa(i) + `":{"type":"` + t + `"}`
		})
		b.WriteString(`}}}],"messages":[`)
		userText("hi")
	case "tool-results":
		head(tool("bash", `,"properties":{"command":{"type":"string"}}`))
		userText("run the checks")
		b.WriteString(",")
		repeat(",", func(i int, alt bool) string {
			id := "toolu_" + strconv.Itoa(i)
			var out bytes.Buffer
			for k := 0; k < 120; k++ {
				fmt.Fprintf(&out, "=== RUN   Test%d_%d\n--- PASS: Test%d_%d (0.00s)\n", i, k, i, k)
			}
			if alt {
				out.WriteString("--- FAIL: TestChanged (0.00s)\n")
			}
			return `{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"bash","input":{"command":"go test"}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":` + strconv.Quote(out.String()) + `}]}`
		})
	case "nested-objects":
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"t","description":"A tool.","input_schema":{"type":"object","x":[`)
		repeat(",", func(i int, alt bool) string {
			leaf := strconv.Itoa(i)
			if alt {
				leaf = `"changed"`
			}
			var s string
			for k := 0; k < 32; k++ {
				s += `{"a":`
			}
			s += leaf
			for k := 0; k < 32; k++ {
				s += `}`
			}
			return s
		})
		b.WriteString(`]}}],"messages":[`)
		userText("hi")
	default:
		return nil, fmt.Errorf("unknown hostile shape %q (want one of %v)", shape, Hostile)
	}
	b.WriteString(`]}`)
	return b.Bytes(), nil
}
