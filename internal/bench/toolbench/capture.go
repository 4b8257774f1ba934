package toolbench

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/synth"
)

// system is the system prompt of the benchmark's requests.
const system = "You are a coding agent. Use the tools to act in the user's workspace and services."

// Capture builds a request of provider p declaring tools, with a system
// prompt and one user message: the first request of a session.
func Capture(p capture.Provider, tools []capture.ToolSpec, prompt string) (*capture.Capture, error) {
	list := []byte{'['}
	for i, t := range tools {
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, capture.RenderTool(p, t)...)
	}
	list = append(list, ']')
	sys, msg, decls := string(capture.Quote(system)), string(capture.Quote(prompt)), string(list)
	var body string
	switch p {
	case capture.Anthropic:
		body = `{"model":"claude-sonnet-4-5","max_tokens":4096,"system":[{"type":"text","text":` + sys + `}],"tools":` + decls +
			`,"messages":[{"role":"user","content":[{"type":"text","text":` + msg + `}]}]}`
	case capture.OpenAIChat:
		body = `{"model":"gpt-4.1","messages":[{"role":"system","content":` + sys + `},{"role":"user","content":` + msg + `}],"tools":` + decls + `}`
	case capture.OpenAIResponses:
		body = `{"model":"gpt-5.4","instructions":` + sys + `,"input":[{"role":"user","content":[{"type":"input_text","text":` + msg + `}]}],"tools":` + decls + `}`
	case capture.Gemini:
		body = `{"systemInstruction":{"parts":[{"text":` + sys + `}]},"contents":[{"role":"user","parts":[{"text":` + msg + `}]}],"tools":[{"functionDeclarations":` + decls + `}]}`
	case capture.Mistral:
		body = `{"model":"mistral-large-latest","messages":[{"role":"system","content":` + sys + `},{"role":"user","content":` + msg + `}],"tools":` + decls + `}`
	case capture.PiMessages:
		body = `{"systemPrompt":` + sys + `,"tools":` + decls + `,"messages":[{"role":"user","content":` + msg + `,"timestamp":1767225600000}]}`
	default:
		return nil, fmt.Errorf("unknown provider %q", p)
	}
	f, err := capture.Read(string(p)+".json", []byte(body), capture.Options{})
	if err != nil {
		return nil, err
	}
	if len(f.Captures) != 1 || f.Captures[0].Provider != p {
		return nil, fmt.Errorf("built %s capture is detected as something else", p)
	}
	return f.Captures[0], nil
}

// Scaled returns n tool declarations made from a catalog, for ranking at
// sizes the labelled set does not reach: the catalog first, then copies
// whose server part carries a number ("mcp__github2__create_issue") and
// whose description gains a distinct synthetic sentence, so the vocabulary
// keeps growing with the catalog as a real one does.
func Scaled(tools []capture.ToolSpec, n int) []capture.ToolSpec {
	extra := synth.Skills(n, 1)
	out := make([]capture.ToolSpec, 0, n)
	for copyNo := 1; len(out) < n && len(tools) > 0; copyNo++ {
		for _, t := range tools {
			if len(out) == n {
				break
			}
			if copyNo > 1 {
				t.Name = numbered(t.Name, copyNo)
				t.Description += " " + extra[len(out)].Description
			}
			out = append(out, t)
		}
	}
	return out
}

// numbered names copy k of a tool: the number goes after the server part
// of "mcp__server__tool", "server__tool" and "server.tool", else at the
// end.
func numbered(name string, k int) string {
	rest, mcp := strings.CutPrefix(name, "mcp__")
	if i := strings.Index(rest, "__"); i > 0 {
		return name[:len(name)-len(rest)+i] + fmt.Sprint(k) + rest[i:]
	}
	if !mcp {
		if i := strings.IndexByte(name, '.'); i > 0 {
			return name[:i] + fmt.Sprint(k) + name[i:]
		}
	}
	return fmt.Sprintf("%s_%d", name, k)
}
