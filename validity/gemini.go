package validity

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// GeminiThoughtSignatures checks that Gemini 3 function calls of the
// current turn carry their thought signatures.
var GeminiThoughtSignatures = &rules.Rule{
	ID:       "SO525",
	Title:    "Gemini 3 function calls carry their thought signatures",
	Why:      "Gemini 3 rejects a current turn whose function calls lost the thought signature the model returned, which history rewrites can drop.",
	Since:    rules.FirstVersion,
	Name:     "request.gemini-thought-signature",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Gemini 3 function calls of the current turn are replayed with their thought signatures. " +
		"The current turn is everything after the last user turn that holds more than function responses. " +
		"In it, each model turn with functionCall parts carries the thoughtSignature the model returned on its first functionCall part " +
		"(parallel calls after the first carry none); Gemini 3 answers a missing one with HTTP 400 " +
		"\"Function call is missing a thought_signature in functionCall parts\". Earlier turns are not validated. " +
		"Only Gemini 3 model ids (from the body or the endpoint path) are checked. " +
		"Source: https://ai.google.dev/gemini-api/docs/thought-signatures.",
	Run: runGeminiThoughtSignatures,
}

func runGeminiThoughtSignatures(p *rules.Pass) error {
	if p.Capture.Provider != capture.Gemini {
		return nil
	}
	model, gen := geminiModel(p.Capture)
	if gen != gemini3 {
		return nil
	}
	d := p.Capture.Doc
	contents := elems(d, d.Get(geminiRoot(d), "contents"))
	start := 0
	for i, c := range contents {
		if !d.StrIs(d.Get(c, "role"), "model") && !onlyFunctionResponses(d, c) {
			start = i + 1
		}
	}
	for _, c := range contents[start:] {
		if !d.StrIs(d.Get(c, "role"), "model") {
			continue
		}
		for _, part := range elems(d, d.Get(c, "parts")) {
			if d.GetAny(part, "functionCall", "function_call") == capture.NoNode {
				continue
			}
			if sig := d.GetAny(part, "thoughtSignature", "thought_signature"); d.Kind(sig) != capture.String || d.StrIs(sig, "") {
				call := d.GetAny(part, "functionCall", "function_call")
				p.Reportf(d.Pointer(part), "function call %s of the current turn has no thoughtSignature, which %s requires", d.GetStr(call, "name"), model)
			}
			break // only the first call of a turn carries one
		}
	}
	return nil
}

// onlyFunctionResponses reports a content whose parts are all function
// responses (the client's answer inside a turn).
func onlyFunctionResponses(d *capture.Doc, c capture.Node) bool {
	parts := elems(d, d.Get(c, "parts"))
	for _, part := range parts {
		if d.GetAny(part, "functionResponse", "function_response") == capture.NoNode {
			return false
		}
	}
	return len(parts) > 0
}

// geminiBuiltinTools are the keys of Gemini's built-in (server) tools in a
// Tool object.
var geminiBuiltinTools = []string{
	"googleSearch", "google_search", "googleSearchRetrieval", "google_search_retrieval",
	"codeExecution", "code_execution", "urlContext", "url_context", "googleMaps", "google_maps",
	"fileSearch", "file_search", "computerUse", "computer_use",
}

// GeminiToolConfig checks the combinations of tools, tool config, cached
// content and output format Gemini refuses.
var GeminiToolConfig = &rules.Rule{
	ID:       "SO526",
	Title:    "Gemini tools, cached content and formats combine as allowed",
	Why:      "Gemini rejects several combinations of cached content, tools, tool config and response formats with HTTP 400, some only on older models.",
	Since:    rules.FirstVersion,
	Name:     "request.gemini-tool-config",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Gemini requests combine tools, cached content and output formats only as the API allows. " +
		"A request with cachedContent sets no systemInstruction, tools or toolConfig: they belong in the cached content " +
		"(\"CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config\"). " +
		"allowedFunctionNames is only set with function calling mode ANY or VALIDATED, and names declared functions. " +
		"On Gemini 1.x and 2.x models, function declarations do not go with built-in tools such as googleSearch " +
		"(\"Tool use with function calling is unsupported\"; combining them is a Gemini 3 feature) " +
		"nor with responseMimeType application/json (\"Function calling with a response mime type: 'application/json' is unsupported\"); " +
		"nor do built-in tools alone go with it (\"Tool use with a response mime type: 'application/json' is unsupported\"). " +
		"Model-dependent checks run only for model ids the table knows. " +
		"Sources: https://ai.google.dev/gemini-api/docs/caching, https://ai.google.dev/gemini-api/docs/function-calling (function calling modes, multi-tool use), " +
		"the API reference of FunctionCallingConfig.allowedFunctionNames; errors as reported in BerriAI/litellm#17304, vercel/ai#3333, googleapis/go-genai#323, google-gemini/deprecated-generative-ai-swift#195 and snailyp/gemini-balance#264 (built-in tools with JSON).",
	Run: runGeminiToolConfig,
}

func runGeminiToolConfig(p *rules.Pass) error {
	if p.Capture.Provider != capture.Gemini {
		return nil
	}
	d := p.Capture.Doc
	root := geminiRoot(d)
	if cc := d.GetAny(root, "cachedContent", "cached_content"); d.Kind(cc) == capture.String {
		for _, keys := range [][2]string{{"systemInstruction", "system_instruction"}, {"tools", "tools"}, {"toolConfig", "tool_config"}} {
			if k := d.GetAny(root, keys[0], keys[1]); present(d, k) {
				p.Reportf(d.Pointer(k), "%s cannot be set with cachedContent: it belongs in the cached content", keys[0])
			}
		}
	}
	declared := map[string]bool{}
	firstDecl, builtin := capture.NoNode, capture.NoNode
	var builtinKey string
	for _, t := range elems(d, d.Get(root, "tools")) {
		for _, fd := range elems(d, d.GetAny(t, "functionDeclarations", "function_declarations")) {
			if firstDecl == capture.NoNode {
				firstDecl = fd
			}
			declared[d.GetStr(fd, "name")] = true
		}
		for _, k := range geminiBuiltinTools {
			if b := d.Get(t, k); b != capture.NoNode && builtin == capture.NoNode {
				builtin, builtinKey = b, k
			}
		}
	}
	fcc := d.GetAny(d.GetAny(root, "toolConfig", "tool_config"), "functionCallingConfig", "function_calling_config")
	if names := d.GetAny(fcc, "allowedFunctionNames", "allowed_function_names"); d.Kind(names) == capture.Array && d.Len(names) > 0 {
		mode := d.GetStr(fcc, "mode")
		if mode != "ANY" && mode != "VALIDATED" {
			if mode == "" {
				mode = "AUTO (the default)"
			}
			p.Reportf(d.Pointer(names), "allowedFunctionNames is only allowed with mode ANY or VALIDATED, not %s", mode)
		}
		for n := range d.Children(names) {
			if d.Kind(n) == capture.String && !declared[d.Str(n)] {
				p.Reportf(d.Pointer(n), "allowed function %q is not declared", shorten(d.Str(n)))
			}
		}
	}
	model, gen := geminiModel(p.Capture)
	if gen != gemini1 && gen != gemini2 {
		return nil
	}
	gc := d.GetAny(root, "generationConfig", "generation_config")
	mt := d.GetAny(gc, "responseMimeType", "response_mime_type")
	json := d.StrIs(mt, "application/json")
	if firstDecl != capture.NoNode {
		if builtin != capture.NoNode {
			p.Reportf(d.Pointer(builtin), "built-in tool %s cannot be combined with function declarations on %s", builtinKey, model)
		}
		if json {
			p.Reportf(d.Pointer(mt), "function declarations cannot be combined with responseMimeType application/json on %s", model)
		}
	} else if builtin != capture.NoNode && json {
		p.Reportf(d.Pointer(mt), "built-in tool %s cannot be combined with responseMimeType application/json on %s", builtinKey, model)
	}
	return nil
}
