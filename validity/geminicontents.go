package validity

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// GeminiContents checks the shape of Gemini contents the reference gives
// in words, which the schema cannot say: lists that may not be empty, a
// part's one datum, and a text-only system instruction.
var GeminiContents = &rules.Rule{
	ID:       "SO532",
	Title:    "Gemini contents hold parts, each with one datum",
	Why:      "Gemini rejects a request without contents, a content without parts, a part that carries two kinds of data and a system instruction with anything but text: a host that merges parts or replays a turn by hand sends such a request.",
	Since:    rules.FirstVersion,
	Name:     "request.gemini-contents",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "In a Gemini request, contents (when given) hold at least one content, and each content's parts (when given) hold at least one part. " +
		"A part carries one datum: one of text, inlineData, fileData, functionCall, functionResponse, executableCode, codeExecutionResult, toolCall and toolResponse " +
		"(thought, thoughtSignature, videoMetadata, mediaResolution, mediaProcessing and partMetadata describe the datum and do not count). " +
		"The parts of systemInstruction are text. " +
		"Source: the Gemini API reference (generativelanguage v1beta): GenerateContentRequest.contents (\"Required\"), " +
		"Part (\"A Part can only contain one of the accepted types in Part.data\"), " +
		"GenerateContentRequest.systemInstruction (\"Currently, text only\"); " +
		"the error \"contents.parts must not be empty\" as the API answers it.",
	Run: runGeminiContents,
}

// geminiData are the members of Part's data union, as the API spells them
// in JSON (camelCase) and as it accepts them (snake_case).
var geminiData = [][2]string{
	{"text", "text"}, {"inlineData", "inline_data"}, {"fileData", "file_data"},
	{"functionCall", "function_call"}, {"functionResponse", "function_response"},
	{"executableCode", "executable_code"}, {"codeExecutionResult", "code_execution_result"},
	{"toolCall", "tool_call"}, {"toolResponse", "tool_response"},
}

func runGeminiContents(p *rules.Pass) error {
	if p.Capture.Provider != capture.Gemini {
		return nil
	}
	d := p.Capture.Doc
	root := geminiRoot(d)
	contents := d.Get(root, "contents")
	if d.Kind(contents) == capture.Array && d.Len(contents) == 0 {
		p.Reportf(d.Pointer(contents), "contents is empty: a request holds at least one content")
	}
	for _, c := range elems(d, contents) {
		checkGeminiParts(p, d, d.Get(c, "parts"), false)
	}
	if si := d.GetAny(root, "systemInstruction", "system_instruction"); d.Kind(si) == capture.Object {
		checkGeminiParts(p, d, d.Get(si, "parts"), true)
	}
	return nil
}

// checkGeminiParts reports an empty parts list and the parts with more than
// one datum (or, in a system instruction, a datum other than text).
func checkGeminiParts(p *rules.Pass, d *capture.Doc, parts capture.Node, system bool) {
	if d.Kind(parts) == capture.Array && d.Len(parts) == 0 {
		p.Reportf(d.Pointer(parts), "parts is empty: a content holds at least one part")
		return
	}
	for _, part := range elems(d, parts) {
		if d.Kind(part) != capture.Object {
			continue
		}
		var data []string
		for _, name := range geminiData {
			if present(d, d.GetAny(part, name[0], name[1])) {
				data = append(data, name[0])
			}
		}
		switch {
		case len(data) > 1:
			p.Reportf(d.Pointer(part), "a part carries one datum, this one carries %s", strings.Join(data, " and "))
		case system && len(data) == 1 && data[0] != "text":
			p.Reportf(d.Pointer(part), "systemInstruction is text only, this part carries %s", data[0])
		}
	}
}
