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
	write, ok := hostileShapes[shape]
	if !ok {
		return nil, fmt.Errorf("unknown hostile shape %q (want one of %v)", shape, Hostile)
	}
	h := &hostileBody{size: size, variant: variant}
	h.b.Grow(size + 1024)
	write(h, shape)
	h.b.WriteString(`]}`)
	return h.b.Bytes(), nil
}

// hostileBody is a body being written: each shape writes it up to the
// messages array left open.
type hostileBody struct {
	b       bytes.Buffer
	size    int
	variant bool
}

func (h *hostileBody) head(tools string) {
	h.b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[`)
	h.b.WriteString(tools)
	h.b.WriteString(`],"messages":[`)
}

func (h *hostileBody) userText(text string) {
	h.b.WriteString(`{"role":"user","content":`)
	h.b.WriteString(strconv.Quote(text))
	h.b.WriteString(`}`)
}

// repeat writes unit(i) until the buffer grew by size, changing the unit
// at the middle when variant is set.
func (h *hostileBody) repeat(sep string, unit func(i int, alt bool) string) {
	start := h.b.Len()
	mid := -1
	for i := 0; h.b.Len()-start < h.size; i++ {
		if i > 0 {
			h.b.WriteString(sep)
		}
		alt := false
		if h.variant && mid < 0 && h.b.Len()-start >= h.size/2 {
			mid, alt = i, true
		}
		h.b.WriteString(unit(i, alt))
	}
}

func hostileTool(name, schemaExtra string) string {
	return `{"name":"` + name + `","description":"A tool.","input_schema":{"type":"object"` + schemaExtra + `}}`
}

// hostileShapes writes each shape of Hostile.
var hostileShapes = map[string]func(h *hostileBody, shape string){
	"enum-numbers":   hostileEnum,
	"empty-objects":  hostileEmptyObjects,
	"dash-run":       hostileRun,
	"digit-run":      hostileRun,
	"escapes":        hostileRun,
	"many-messages":  hostileMessages,
	"many-tools":     hostileTools,
	"many-keys":      hostileKeys,
	"tool-results":   hostileToolResults,
	"nested-objects": hostileNested,
}

func hostileEnum(h *hostileBody, _ string) {
	h.b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"pick","description":"A tool.","input_schema":{"type":"object","properties":{"n":{"type":"integer","enum":[`)
	h.repeat(",", func(i int, alt bool) string {
		if alt {
			return "-1"
		}
		return strconv.Itoa(i)
	})
	h.b.WriteString(`]}}}}],"messages":[`)
	h.userText("pick one")
}

func hostileEmptyObjects(h *hostileBody, _ string) {
	h.b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"t","description":"A tool.","input_schema":{"type":"object","x":[`)
	h.repeat(",", func(i int, alt bool) string {
		if alt {
			return `{"a":1}`
		}
		return "{}"
	})
	h.b.WriteString(`]}}],"messages":[`)
	h.userText("hi")
}

// hostileRun writes one message text of a unit repeated: dashes, digits
// or JSON escapes.
func hostileRun(h *hostileBody, shape string) {
	h.head(hostileTool("t", ""))
	h.b.WriteString(`{"role":"user","content":"`)
	unit := map[string]string{"dash-run": "----------", "digit-run": "1234567890", "escapes": `\n\t\"\\\u00e9`}[shape]
	h.repeat("", func(i int, alt bool) string {
		if alt {
			return "x" + unit[1:]
		}
		return unit
	})
	h.b.WriteString(`"}`)
}

func hostileMessages(h *hostileBody, _ string) {
	h.head(hostileTool("t", ""))
	h.repeat(",", func(i int, alt bool) string {
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
	h.b.WriteString(",")
	h.userText("and now?")
}

func hostileTools(h *hostileBody, _ string) {
	h.b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[`)
	h.repeat(",", func(i int, alt bool) string {
		name := "tool_" + strconv.Itoa(i)
		if alt {
			name += "_changed"
		}
		return hostileTool(name, `,"properties":{"q":{"type":"string"}}`)
	})
	h.b.WriteString(`],"messages":[`)
	h.userText("use a tool")
}

func hostileKeys(h *hostileBody, _ string) {
	h.b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"t","description":"A tool.","input_schema":{"type":"object","properties":{`)
	h.repeat(",", func(i int, alt bool) string {
		t := "string"
		if alt {
			t = "integer"
		}
		return `"p` + strconv.Itoa(i) + `":{"type":"` + t + `"}`
	})
	h.b.WriteString(`}}}],"messages":[`)
	h.userText("hi")
}

func hostileToolResults(h *hostileBody, _ string) {
	h.head(hostileTool("bash", `,"properties":{"command":{"type":"string"}}`))
	h.userText("run the checks")
	h.b.WriteString(",")
	h.repeat(",", func(i int, alt bool) string {
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
}

func hostileNested(h *hostileBody, _ string) {
	h.b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"t","description":"A tool.","input_schema":{"type":"object","x":[`)
	h.repeat(",", func(i int, alt bool) string {
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
	h.b.WriteString(`]}}],"messages":[`)
	h.userText("hi")
}
