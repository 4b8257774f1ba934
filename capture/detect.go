package capture

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Detect decides the provider shape of a capture and says why. The URL (when
// the envelope has one) is trusted first, then headers, then the body's
// structure, checked in a fixed order where the first match wins.
func Detect(c *Capture) (Provider, string, error) {
	if p, why := detectURL(c.URL); p != "" {
		if p == OpenAIChat && c.Doc != nil && c.Doc.Kind(0) == Object {
			// A compatible endpoint may be Mistral behind a proxy: the
			// body's Mistral-only markers decide.
			if msgs := c.Doc.Get(0, "messages"); msgs != NoNode {
				if m := mistralMarker(c.Doc, scanMessages(c.Doc, msgs)); m != "" {
					return Mistral, why + "; " + m, nil
				}
			}
		}
		if p == Gemini || c.Doc == nil || bodyFits(c.Doc, p) {
			return p, why + compatibleNote(c.Doc, p), nil
		}
	}
	if p, why := detectHeaders(c.Headers); p != "" && bodyFits(c.Doc, p) {
		return p, why + compatibleNote(c.Doc, p), nil
	}
	return DetectBody(c.Doc)
}

var (
	reBedrock    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/model/[^/]+/invoke`) })
	reVertexAnth = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/publishers/anthropic/models/`) })
)

func detectURL(raw string) (Provider, string) {
	if raw == "" {
		return "", ""
	}
	u := strings.ToLower(raw)
	host, path := u, u
	if i := strings.Index(u, "://"); i >= 0 {
		rest := u[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			host, path = rest[:j], rest[j:]
		} else {
			host, path = rest, "/"
		}
	}
	if q := strings.IndexAny(path, "?#"); q >= 0 {
		path = path[:q]
	}
	switch {
	case strings.HasSuffix(path, "/v1/messages") || strings.HasSuffix(path, "/messages") && strings.Contains(host, "anthropic"):
		return Anthropic, fmt.Sprintf("URL path %s is the Anthropic Messages endpoint", path)
	case reBedrock().MatchString(path):
		return Anthropic, "URL is a Bedrock InvokeModel endpoint (Anthropic Messages body)"
	case reVertexAnth().MatchString(path):
		return Anthropic, "URL is a Vertex AI Anthropic publisher endpoint"
	case strings.HasSuffix(path, "/responses"):
		return OpenAIResponses, fmt.Sprintf("URL path %s is the OpenAI Responses endpoint", path)
	case strings.HasSuffix(path, "/chat/completions") && strings.Contains(host, "mistral.ai"):
		return Mistral, fmt.Sprintf("URL %s%s is Mistral's chat completions endpoint", host, path)
	case strings.Contains(path, ":generatecontent") || strings.Contains(path, ":streamgeneratecontent") ||
		strings.Contains(host, "generativelanguage.googleapis.com") ||
		strings.Contains(path, "/publishers/google/") || strings.Contains(path, "/v1internal:"):
		return Gemini, fmt.Sprintf("URL path %s is a Gemini generateContent endpoint", path)
	case strings.HasSuffix(path, "/chat/completions"):
		return OpenAIChat, fmt.Sprintf("URL path %s is a chat completions endpoint (OpenAI or compatible)", path)
	}
	return "", ""
}

func detectHeaders(hs []Header) (Provider, string) {
	for _, h := range hs {
		switch strings.ToLower(h.Name) {
		case "anthropic-version":
			return Anthropic, "header anthropic-version is present"
		case "x-goog-api-key", "x-goog-api-client":
			return Gemini, fmt.Sprintf("header %s is present", strings.ToLower(h.Name))
		}
	}
	return "", ""
}

// bodyFits is a sanity check that a URL- or header-derived provider does not
// contradict the body outright (a proxy path can lie).
func bodyFits(d *Doc, p Provider) bool {
	if d == nil || d.Kind(0) != Object {
		return p == PiMessages
	}
	has := func(k string) bool { return d.Get(0, k) != NoNode }
	switch p {
	case Anthropic, OpenAIChat, Mistral:
		return has("messages")
	case OpenAIResponses:
		return has("input") || has("instructions") || has("prompt") || has("previous_response_id") || has("conversation")
	}
	return true
}

var piRoles = map[string]bool{"toolResult": true, "bashExecution": true, "custom": true, "branchSummary": true, "compactionSummary": true, "hookMessage": true}

var reMistralModel = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(mistral|devstral|magistral|codestral|ministral|pixtral|voxtral|open-mistral|open-mixtral)`)
})

// DetectBody classifies a bare body by its structure alone. The model id
// is evidence too: the reason says when it names another vendor's model
// than the provider's (a compatible server), and when it is the only
// evidence against the reading chosen (an Anthropic model on a body
// without max_tokens).
func DetectBody(d *Doc) (Provider, string, error) {
	p, why, err := detectBody(d)
	if err != nil || strings.HasPrefix(why, ambiguousModel) {
		return p, why, err
	}
	return p, why + compatibleNote(d, p), nil
}

// ambiguousModel starts the reason of a body read as OpenAI Chat against
// its model's vendor.
const ambiguousModel = "ambiguous minimal body: model "

// detectBody reads the provider from the body's structure: the shape of the
// top level first (a Pi message list or message, a response rather than a
// request), then the markers of each provider in a fixed order, where the
// first match wins. Each step's reason says what decided it.
func detectBody(d *Doc) (Provider, string, error) {
	if d == nil {
		return "", "", errors.New("no body")
	}
	if p, why, err := detectTopLevel(d); p != "" || err != nil {
		return p, why, err
	}
	msgs := d.Get(0, "messages")
	if p, why := detectPiContext(d, msgs); p != "" {
		return p, why, nil
	}
	if p, why := detectGemini(d, msgs); p != "" {
		return p, why, nil
	}
	if p, why := detectResponses(d, msgs); p != "" {
		return p, why, nil
	}
	if msgs == NoNode {
		return "", "", errors.New("unknown request shape: no messages, input or contents (use --provider to force one)")
	}
	// The message-level features are collected once for the steps left.
	f := scanMessages(d, msgs)
	if p, why := detectAnthropic(d, f); p != "" {
		return p, why, nil
	}
	if why := mistralMarker(d, f); why != "" {
		return Mistral, why, nil
	}
	return OpenAIChat, chatReason(d, f), nil
}

// hasTop reports whether the top-level object has member k.
func hasTop(d *Doc, k string) bool { return d.Get(0, k) != NoNode }

// detectTopLevel decides by the top-level value alone: an array must be a
// Pi message list, an object may be a provider's response (an error) or a
// single Pi message, and anything else is an error. It returns no provider
// and no error for an object the later steps read.
func detectTopLevel(d *Doc) (Provider, string, error) {
	root := Node(0)
	switch d.Kind(root) {
	case Array:
		if why := piMessages(d, root); why != "" {
			return PiMessages, why, nil
		}
		return "", "", errors.New("unknown request shape: a top-level array that is not a Pi message list")
	case Object:
		if what := responseKind(d); what != "" {
			return "", "", notRequest{what}
		}
		if d.Get(root, "role") != NoNode {
			if why := piMessage(d, root); why != "" {
				return PiMessages, "a single message: " + why, nil
			}
		}
		return "", "", nil
	}
	return "", "", fmt.Errorf("unknown request shape: top-level %s, want an object", d.Kind(root))
}

// detectPiContext recognises Pi message lists and LLM contexts (a
// systemPrompt beside the messages).
func detectPiContext(d *Doc, msgs Node) (Provider, string) {
	if msgs != NoNode && d.Kind(msgs) == Array {
		if why := piMessages(d, msgs); why != "" {
			return PiMessages, why
		}
	}
	if hasTop(d, "systemPrompt") && msgs != NoNode {
		return PiMessages, "top-level systemPrompt with messages is Pi's LLM Context"
	}
	return "", ""
}

// detectGemini recognises a generateContent body: contents without
// messages or input, or one of Gemini's top-level members in either
// spelling.
func detectGemini(d *Doc, msgs Node) (Provider, string) {
	if hasTop(d, "contents") && msgs == NoNode && !hasTop(d, "input") {
		return Gemini, "top-level contents without messages or input"
	}
	for _, k := range []string{"systemInstruction", "system_instruction", "generationConfig", "generation_config"} {
		if hasTop(d, k) {
			return Gemini, fmt.Sprintf("top-level %s", k)
		}
	}
	return "", ""
}

// detectResponses recognises a Responses body: input or instructions
// without messages, or max_output_tokens.
func detectResponses(d *Doc, msgs Node) (Provider, string) {
	if msgs == NoNode && (hasTop(d, "input") || hasTop(d, "instructions")) {
		k := "input"
		if !hasTop(d, "input") {
			k = "instructions"
		}
		return OpenAIResponses, fmt.Sprintf("top-level %s without messages", k)
	}
	if hasTop(d, "max_output_tokens") {
		return OpenAIResponses, "top-level max_output_tokens"
	}
	return "", ""
}

// detectAnthropic recognises a Messages body with messages: an
// Anthropic-only content block, Anthropic's top-level members or tool
// shape, or max_tokens on a body with no chat completions or Mistral
// marker.
func detectAnthropic(d *Doc, f msgFeatures) (Provider, string) {
	switch {
	case f.anthBlock != "":
		return Anthropic, fmt.Sprintf("content block of type %s", f.anthBlock)
	case hasTop(d, "anthropic_version"):
		return Anthropic, "top-level anthropic_version (Bedrock/Vertex)"
	case hasTop(d, "system"):
		return Anthropic, "top-level system"
	case toolsHave(d, "input_schema"):
		return Anthropic, "tools with input_schema"
	case hasTop(d, "max_tokens") && !f.chatMarker && !hasTop(d, "stream_options") && !hasTop(d, "max_completion_tokens") && !hasMistralMarker(d, f):
		return Anthropic, "messages with top-level max_tokens and no chat markers"
	}
	return "", ""
}

// chatReason says why a body with messages that no earlier step claimed is
// read as OpenAI chat completions (or a compatible server): its markers, or
// that nothing tells it apart, naming an Anthropic model that contradicts
// the reading.
func chatReason(d *Doc, f msgFeatures) string {
	switch {
	case f.chatMarker:
		return "messages with chat-completions markers (" + f.chatWhy + ")"
	case hasTop(d, "stream_options"), hasTop(d, "max_completion_tokens"), toolsHave(d, "function"):
		return "chat-completions parameters"
	}
	if m := d.GetStr(0, "model"); !hasTop(d, "max_tokens") {
		if v, routed := ModelVendor(m); v == "Anthropic" && !routed {
			return ambiguousModel + quoteModel(m) + " is Anthropic's but the body has no max_tokens, which Anthropic requires: " +
				"either an invalid Anthropic Messages request or a call to an OpenAI-compatible endpoint; read as openai-chat " +
				"(pass --provider anthropic to judge it as Anthropic)"
		}
	}
	return "ambiguous minimal body (openai-chat or mistral): resolved to openai-chat; pass --provider mistral if it is Mistral"
}

// piMessages reports why the array node arr is a Pi message list, or "".
func piMessages(d *Doc, arr Node) string {
	for m := range d.Children(arr) {
		if d.Kind(m) != Object {
			continue
		}
		if t := d.GetStr(m, "type"); t == "session" || t == "message" && d.Kind(d.Get(m, "message")) == Object {
			return "Pi session entries"
		}
		if why := piMessage(d, m); why != "" {
			return why
		}
	}
	return ""
}

// piMessage reports why object m is a Pi message, or "".
func piMessage(d *Doc, m Node) string {
	{
		role := d.GetStr(m, "role")
		if piRoles[role] {
			return fmt.Sprintf("message role %s is Pi's", role)
		}
		if role == "assistant" && (d.Get(m, "api") != NoNode || d.Get(m, "stopReason") != NoNode) {
			return "assistant message carries Pi's api/stopReason fields"
		}
		if ts := d.Get(m, "timestamp"); ts != NoNode && d.Kind(ts) == Number && (role == "user" || role == "assistant") {
			return "messages carry Pi's numeric timestamp"
		}
		if c := d.Get(m, "content"); c != NoNode && d.Kind(c) == Array {
			for b := range d.Children(c) {
				if d.StrIs(d.Get(b, "type"), "toolCall") {
					return "content block of type toolCall is Pi's"
				}
				if d.Get(b, "mimeType") != NoNode && d.StrIs(d.Get(b, "type"), "image") {
					return "image block with mimeType is Pi's"
				}
			}
		}
	}
	return ""
}

type msgFeatures struct {
	anthBlock  string // first Anthropic-only block type seen
	chatMarker bool
	chatWhy    string
	mistral    string // first Mistral-only marker seen
}

var anthBlocks = map[string]bool{"tool_use": true, "tool_result": true, "thinking": true, "redacted_thinking": true, "server_tool_use": true, "document": true, "search_result": true, "mid_conv_system": true, "tool_addition": true, "container_upload": true}

func scanMessages(d *Doc, msgs Node) msgFeatures {
	var f msgFeatures
	chat := func(why string) {
		if !f.chatMarker {
			f.chatMarker, f.chatWhy = true, why
		}
	}
	mis := func(why string) {
		if f.mistral == "" {
			f.mistral = why
		}
	}
	for m := range d.Children(msgs) {
		if d.Kind(m) != Object {
			continue
		}
		role := d.GetStr(m, "role")
		switch role {
		case "developer", "tool", "function":
			chat("role " + role)
		}
		if d.Get(m, "tool_calls") != NoNode {
			chat("tool_calls")
			for tc := range d.Children(d.Get(m, "tool_calls")) {
				if d.Get(tc, "index") != NoNode {
					mis("tool_calls[].index in a request")
				}
			}
		}
		if d.Get(m, "tool_call_id") != NoNode {
			chat("tool_call_id")
		}
		if p := d.Get(m, "prefix"); p != NoNode && role == "assistant" {
			mis("assistant prefix field")
		}
		c := d.Get(m, "content")
		if c == NoNode || d.Kind(c) != Array {
			continue
		}
		for b := range d.Children(c) {
			t := d.GetStr(b, "type")
			switch {
			case t == "thinking" && d.Kind(d.Get(b, "thinking")) == Array:
				mis("thinking chunk with a list of parts")
			case anthBlocks[t]:
				if f.anthBlock == "" {
					f.anthBlock = t
				}
			case t == "image" && d.Get(b, "source") != NoNode:
				if f.anthBlock == "" {
					f.anthBlock = "image with source"
				}
			case t == "image_url":
				if iu := d.Get(b, "image_url"); iu != NoNode && d.Kind(iu) == String {
					mis("image_url given as a plain string")
				}
				chat("image_url part")
			case t == "document_url" || t == "reference":
				mis("chunk type " + t)
			case t == "input_audio" || t == "file":
				chat(t + " part")
			}
		}
	}
	return f
}

func hasMistralMarker(d *Doc, f msgFeatures) bool { return mistralMarker(d, f) != "" }

func mistralMarker(d *Doc, f msgFeatures) string {
	for _, k := range []string{"safe_prompt", "random_seed", "prompt_mode", "guardrails"} {
		if d.Get(0, k) != NoNode {
			return "top-level " + k + " is Mistral-only"
		}
	}
	if d.StrIs(d.Get(0, "tool_choice"), "any") {
		return `tool_choice "any" is Mistral-only`
	}
	if f.mistral != "" {
		return f.mistral + " is Mistral-only"
	}
	if m := d.GetStr(0, "model"); reMistralModel().MatchString(strings.ToLower(m)) {
		return fmt.Sprintf("model %q is a Mistral model", m)
	}
	return ""
}

func toolsHave(d *Doc, key string) bool {
	tools := d.Get(0, "tools")
	if tools == NoNode || d.Kind(tools) != Array {
		return false
	}
	for t := range d.Children(tools) {
		if d.Get(t, key) != NoNode {
			return true
		}
	}
	return false
}
