package synth

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Providers lists the shapes Capture can emit.
var Providers = []string{"anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "pi-messages"}

// Model names written into the bodies.
const (
	AnthropicModel  = "claude-sonnet-4-6"
	OpenAIChatModel = "gpt-4.1"
	ResponsesModel  = "gpt-5.2"
	GeminiModel     = "gemini-2.5-pro"
	MistralModel    = "mistral-medium-latest"
)

// CaptureOptions adjusts how Capture encodes a body.
type CaptureOptions struct {
	// EscapeHTML makes the encoder write <, > and & as \u003c, \u003e and
	// \u0026, as Go's json.Marshal does. The default leaves them as is,
	// which is what JavaScript clients send.
	EscapeHTML bool
}

// URLPath returns the request path a client uses for provider, or "" for
// pi-messages (not an HTTP body) and unknown providers.
func URLPath(provider string) string {
	switch provider {
	case "anthropic":
		return "/v1/messages"
	case "openai-chat", "mistral":
		return "/v1/chat/completions"
	case "openai-responses":
		return "/v1/responses"
	case "gemini":
		return "/v1beta/models/" + GeminiModel + ":streamGenerateContent?alt=sse"
	}
	return ""
}

// Capture returns a compact JSON request body (no indentation, no trailing
// newline) in provider's shape. The system or developer text carries the
// skills catalog; the body also has four tool schemas (read, bash, edit,
// write) and one user message. turns counts the model requests of the
// session so far: for turns > 1 the body replays turns-1 earlier exchanges,
// each an assistant tool call, its tool result and a user follow-up.
func Capture(provider string, skills []Skill, turns int) ([]byte, error) {
	return CaptureWith(provider, skills, turns, CaptureOptions{})
}

// CaptureWith is Capture with encoding options.
func CaptureWith(provider string, skills []Skill, turns int, opts CaptureOptions) ([]byte, error) {
	if turns < 1 {
		return nil, fmt.Errorf("synth: turns must be at least 1, got %d", turns)
	}
	// The body is encoded with a short placeholder for the system text, and
	// the system text, which holds the catalog and makes up nearly all of a
	// large body, is then escaped straight into the output. This avoids
	// building the prompt string and re-buffering it inside encoding/json.
	e := &encoder{escapeHTML: opts.EscapeHTML}
	sysLen := promptLen(skills)
	skeleton, err := encodeBody(provider, newSession(systemPlaceholder, sysLen, turns), e)
	if err != nil {
		return nil, err
	}
	marker := appendJSONText([]byte{'"'}, systemPlaceholder, e.escapeHTML)
	marker = append(marker, '"')
	k := bytes.Index(skeleton, marker)
	if k < 0 || bytes.Contains(skeleton[k+len(marker):], marker) {
		return nil, fmt.Errorf("synth: %s body does not hold the system text exactly once", provider)
	}
	out := make([]byte, 0, len(skeleton)+sysLen*21/20+1024)
	out = append(out, skeleton[:k]...)
	out = appendSystemJSON(out, skills, e.escapeHTML)
	out = append(out, skeleton[k+len(marker):]...)
	return out, nil
}

// systemPlaceholder stands in for the system text while a body is encoded.
const systemPlaceholder = "\x00synth:system-prompt\x00"

// encodeBody renders session s in provider's shape as compact JSON.
func encodeBody(provider string, s session, e *encoder) ([]byte, error) {
	var body any
	switch provider {
	case "anthropic":
		body = anthropicBody(s)
	case "openai-chat":
		body = chatBody(s, e)
	case "openai-responses":
		body = responsesBody(s, e)
	case "gemini":
		body = geminiBody(s)
	case "mistral":
		body = mistralBody(s, e)
	case "pi-messages":
		body = piBody(s)
	default:
		return nil, fmt.Errorf("synth: unknown provider %q (want one of %v)", provider, Providers)
	}
	var buf bytes.Buffer
	buf.Grow(len(s.system) + 16<<10 + 8<<10*len(s.exchanges))
	if err := e.encode(&buf, body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type encoder struct{ escapeHTML bool }

// encode writes v as compact JSON without the encoder's trailing newline.
func (e *encoder) encode(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(e.escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1)
	return nil
}

// argString returns v as a JSON string, for shapes whose tool-call arguments
// travel as an encoded string.
func (e *encoder) argString(v any) string {
	var buf bytes.Buffer
	if err := e.encode(&buf, v); err != nil {
		panic(err) // the argument types always encode
	}
	return buf.String()
}

// token returns a deterministic pseudo-random string of n characters from
// alphabet, derived from salt and i.
func token(salt string, i, n int, alphabet string) string {
	r := newRNG(int64(i)*1000003 + int64(len(salt))*7 + int64(salt[0]))
	b := make([]byte, n)
	for k := range b {
		b[k] = alphabet[r.intn(len(alphabet))]
	}
	return string(b)
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// blob returns n base64 characters of deterministic pseudo-random data.
func blob(i, n int) string {
	r := newRNG(int64(i)*31 + 5)
	raw := make([]byte, n*3/4+3)
	for k := range raw {
		raw[k] = byte(r.next())
	}
	return base64.StdEncoding.EncodeToString(raw)[:n]
}

// ---- Anthropic Messages ----

type cacheControl struct {
	Type string `json:"type"`
}

var ephemeral = &cacheControl{Type: "ephemeral"}

type antBody struct {
	Model        string         `json:"model"`
	Messages     []antMessage   `json:"messages"`
	MaxTokens    int            `json:"max_tokens"`
	Stream       bool           `json:"stream"`
	System       []antText      `json:"system"`
	Tools        []antTool      `json:"tools"`
	Thinking     antThinkingCfg `json:"thinking"`
	OutputConfig antOutputCfg   `json:"output_config"`
}

type antMessage struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

type antText struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type antThinking struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type antToolUse struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input any    `json:"input"`
}

type antToolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
}

type antTool struct {
	Name                string          `json:"name"`
	Description         string          `json:"description"`
	EagerInputStreaming bool            `json:"eager_input_streaming"`
	InputSchema         json.RawMessage `json:"input_schema"`
	CacheControl        *cacheControl   `json:"cache_control,omitempty"`
}

type antThinkingCfg struct {
	Type    string `json:"type"`
	Display string `json:"display"`
}

type antOutputCfg struct {
	Effort string `json:"effort"`
}

func anthropicID(i, j int) string { return "toolu_01" + token("anthropic", i*8+j, 22, base62) }

func anthropicBody(s session) antBody {
	last := len(s.exchanges) == 0
	msgs := []antMessage{{Role: "user", Content: []any{userText(s.user, last)}}}
	for i, ex := range s.exchanges {
		content := []any{
			antThinking{Type: "thinking", Thinking: ex.thinking, Signature: blob(i, 560)},
			antText{Type: "text", Text: ex.text},
		}
		for j, c := range ex.calls {
			content = append(content, antToolUse{Type: "tool_use", ID: anthropicID(i, j), Name: c.name, Input: c.args})
		}
		msgs = append(msgs, antMessage{Role: "assistant", Content: content})
		var results []any
		for j, r := range ex.results {
			results = append(results, antToolResult{Type: "tool_result", ToolUseID: anthropicID(i, j), Content: r.output, IsError: r.isError})
		}
		msgs = append(msgs, antMessage{Role: "user", Content: results})
		msgs = append(msgs, antMessage{Role: "user", Content: []any{userText(ex.followUp, i == len(s.exchanges)-1)}})
	}
	ts := make([]antTool, len(tools))
	for k, t := range tools {
		ts[k] = antTool{Name: t.Name, Description: t.Description, EagerInputStreaming: true, InputSchema: t.Schema}
	}
	ts[len(ts)-1].CacheControl = ephemeral
	return antBody{
		Model:        AnthropicModel,
		Messages:     msgs,
		MaxTokens:    32000,
		Stream:       true,
		System:       []antText{{Type: "text", Text: s.system, CacheControl: ephemeral}},
		Tools:        ts,
		Thinking:     antThinkingCfg{Type: "adaptive", Display: "summarized"},
		OutputConfig: antOutputCfg{Effort: "medium"},
	}
}

// userText is a user text block, carrying the cache breakpoint when it is
// the last block of the request.
func userText(text string, last bool) antText {
	t := antText{Type: "text", Text: text}
	if last {
		t.CacheControl = ephemeral
	}
	return t
}

// ---- OpenAI Chat Completions ----

type chatRequest struct {
	Model               string        `json:"model"`
	Messages            []any         `json:"messages"`
	Stream              bool          `json:"stream"`
	StreamOptions       streamOptions `json:"stream_options"`
	Store               bool          `json:"store"`
	MaxCompletionTokens int           `json:"max_completion_tokens"`
	Tools               []chatTool    `json:"tools"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type roleText struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type roleParts struct {
	Role    string     `json:"role"`
	Content []textPart `json:"content"`
}

type chatAssistant struct {
	Role      string         `json:"role"`
	Content   string         `json:"content"`
	ToolCalls []chatToolCall `json:"tool_calls"`
}

type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatToolMessage struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id"`
}

type chatTool struct {
	Type     string      `json:"type"`
	Function chatToolDef `json:"function"`
}

type chatToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

func chatID(i, j int) string { return "call_" + token("chat", i*8+j, 24, base62) }

func chatBody(s session, e *encoder) chatRequest {
	msgs := []any{
		roleText{Role: "system", Content: s.system},
		roleParts{Role: "user", Content: []textPart{{Type: "text", Text: s.user}}},
	}
	for i, ex := range s.exchanges {
		a := chatAssistant{Role: "assistant", Content: ex.text}
		for j, c := range ex.calls {
			a.ToolCalls = append(a.ToolCalls, chatToolCall{ID: chatID(i, j), Type: "function", Function: chatFunction{Name: c.name, Arguments: e.argString(c.args)}})
		}
		msgs = append(msgs, a)
		for j, r := range ex.results {
			msgs = append(msgs, chatToolMessage{Role: "tool", Content: r.output, ToolCallID: chatID(i, j)})
		}
		msgs = append(msgs, roleParts{Role: "user", Content: []textPart{{Type: "text", Text: ex.followUp}}})
	}
	ts := make([]chatTool, len(tools))
	for k, t := range tools {
		ts[k] = chatTool{Type: "function", Function: chatToolDef{Name: t.Name, Description: t.Description, Parameters: t.Schema}}
	}
	return chatRequest{
		Model:               OpenAIChatModel,
		Messages:            msgs,
		Stream:              true,
		StreamOptions:       streamOptions{IncludeUsage: true},
		MaxCompletionTokens: 32000,
		Tools:               ts,
	}
}

// ---- OpenAI Responses ----

type responsesRequest struct {
	Model           string         `json:"model"`
	Input           []any          `json:"input"`
	Stream          bool           `json:"stream"`
	PromptCacheKey  string         `json:"prompt_cache_key"`
	Store           bool           `json:"store"`
	MaxOutputTokens int            `json:"max_output_tokens"`
	Tools           []responseTool `json:"tools"`
	Reasoning       reasoningCfg   `json:"reasoning"`
	Include         []string       `json:"include"`
}

type reasoningItem struct {
	ID               string     `json:"id"`
	Type             string     `json:"type"`
	Summary          []textPart `json:"summary"`
	EncryptedContent string     `json:"encrypted_content"`
}

type outputText struct {
	Type        string     `json:"type"`
	Text        string     `json:"text"`
	Annotations []struct{} `json:"annotations"`
}

type outputMessage struct {
	Type    string       `json:"type"`
	Role    string       `json:"role"`
	Content []outputText `json:"content"`
	Status  string       `json:"status"`
	ID      string       `json:"id"`
}

type functionCall struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type functionCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

type responseTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

type reasoningCfg struct {
	Effort  string `json:"effort"`
	Summary string `json:"summary"`
}

const sessionID = "0196f3a2-7c41-7d0e-9b5a-3f8e2c1d4a60"

func responsesBody(s session, e *encoder) responsesRequest {
	in := []any{
		roleText{Role: "developer", Content: s.system},
		roleParts{Role: "user", Content: []textPart{{Type: "input_text", Text: s.user}}},
	}
	for i, ex := range s.exchanges {
		in = append(in,
			reasoningItem{
				ID:               "rs_" + token("rs", i, 24, base62),
				Type:             "reasoning",
				Summary:          []textPart{{Type: "summary_text", Text: ex.thinking}},
				EncryptedContent: "gAAAAA" + blob(i, 2000),
			},
			outputMessage{
				Type:    "message",
				Role:    "assistant",
				Content: []outputText{{Type: "output_text", Text: ex.text, Annotations: []struct{}{}}},
				Status:  "completed",
				ID:      "msg_" + token("msg", i, 24, base62),
			})
		for j, c := range ex.calls {
			in = append(in, functionCall{Type: "function_call", ID: "fc_" + token("fc", i*8+j, 24, base62), CallID: chatID(i, j), Name: c.name, Arguments: e.argString(c.args)})
		}
		for j, r := range ex.results {
			in = append(in, functionCallOutput{Type: "function_call_output", CallID: chatID(i, j), Output: r.output})
		}
		in = append(in, roleParts{Role: "user", Content: []textPart{{Type: "input_text", Text: ex.followUp}}})
	}
	ts := make([]responseTool, len(tools))
	for k, t := range tools {
		ts[k] = responseTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Schema}
	}
	return responsesRequest{
		Model:           ResponsesModel,
		Input:           in,
		Stream:          true,
		PromptCacheKey:  sessionID,
		MaxOutputTokens: 32000,
		Tools:           ts,
		Reasoning:       reasoningCfg{Effort: "medium", Summary: "auto"},
		Include:         []string{"reasoning.encrypted_content"},
	}
}

// ---- Gemini ----

type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction geminiContent   `json:"systemInstruction"`
	Tools             []geminiTools   `json:"tools"`
	GenerationConfig  geminiGenConfig `json:"generationConfig"`
}

type geminiContent struct {
	Parts []geminiPart `json:"parts"`
	Role  string       `json:"role"`
}

type geminiPart struct {
	Text             string                  `json:"text,omitempty"`
	Thought          bool                    `json:"thought,omitempty"`
	FunctionCall     *geminiFunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *geminiFunctionResponse `json:"functionResponse,omitempty"`
	ThoughtSignature string                  `json:"thoughtSignature,omitempty"`
}

type geminiFunctionCall struct {
	Args any    `json:"args"`
	Name string `json:"name"`
}

type geminiFunctionResponse struct {
	Name     string         `json:"name"`
	Response geminiResponse `json:"response"`
}

type geminiResponse struct {
	Output string `json:"output,omitempty"`
	Error  string `json:"error,omitempty"`
}

type geminiTools struct {
	FunctionDeclarations []geminiDecl `json:"functionDeclarations"`
}

type geminiDecl struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
}

type geminiGenConfig struct {
	MaxOutputTokens int                  `json:"maxOutputTokens"`
	ThinkingConfig  geminiThinkingConfig `json:"thinkingConfig"`
}

type geminiThinkingConfig struct {
	IncludeThoughts bool `json:"includeThoughts"`
	ThinkingBudget  int  `json:"thinkingBudget"`
}

func geminiBody(s session) geminiRequest {
	contents := []geminiContent{{Parts: []geminiPart{{Text: s.user}}, Role: "user"}}
	for i, ex := range s.exchanges {
		parts := []geminiPart{{Text: ex.thinking, Thought: true}, {Text: ex.text}}
		for j, c := range ex.calls {
			p := geminiPart{FunctionCall: &geminiFunctionCall{Args: c.args, Name: c.name}}
			if j == 0 {
				p.ThoughtSignature = blob(i+100000, 400)
			}
			parts = append(parts, p)
		}
		contents = append(contents, geminiContent{Parts: parts, Role: "model"})
		var results []geminiPart
		for _, r := range ex.results {
			resp := geminiResponse{Output: r.output}
			if r.isError {
				resp = geminiResponse{Error: r.output}
			}
			results = append(results, geminiPart{FunctionResponse: &geminiFunctionResponse{Name: r.name, Response: resp}})
		}
		contents = append(contents, geminiContent{Parts: results, Role: "user"})
		contents = append(contents, geminiContent{Parts: []geminiPart{{Text: ex.followUp}}, Role: "user"})
	}
	decls := make([]geminiDecl, len(tools))
	for k, t := range tools {
		decls[k] = geminiDecl{Name: t.Name, Description: t.Description, ParametersJSONSchema: t.Schema}
	}
	return geminiRequest{
		Contents:          contents,
		SystemInstruction: geminiContent{Parts: []geminiPart{{Text: s.system}}, Role: "user"},
		Tools:             []geminiTools{{FunctionDeclarations: decls}},
		GenerationConfig: geminiGenConfig{
			MaxOutputTokens: 32000,
			ThinkingConfig:  geminiThinkingConfig{IncludeThoughts: true, ThinkingBudget: 8192},
		},
	}
}

// ---- Mistral ----

type mistralRequest struct {
	Model      string        `json:"model"`
	MaxTokens  int           `json:"max_tokens"`
	Stream     bool          `json:"stream"`
	Messages   []any         `json:"messages"`
	Tools      []mistralTool `json:"tools"`
	PromptMode string        `json:"prompt_mode"`
}

type mistralAssistant struct {
	Role      string            `json:"role"`
	Content   []textPart        `json:"content"`
	ToolCalls []mistralToolCall `json:"tool_calls"`
	Prefix    bool              `json:"prefix"`
}

type mistralToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
	Index    int          `json:"index"`
}

type mistralToolMessage struct {
	Role       string     `json:"role"`
	Content    []textPart `json:"content"`
	ToolCallID string     `json:"tool_call_id"`
	Name       string     `json:"name"`
}

type mistralTool struct {
	Type     string         `json:"type"`
	Function mistralToolDef `json:"function"`
}

type mistralToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Strict      bool            `json:"strict"`
	Parameters  json.RawMessage `json:"parameters"`
}

func mistralID(i, j int) string { return token("mistral", i*8+j, 9, base62) }

func mistralBody(s session, e *encoder) mistralRequest {
	msgs := []any{
		roleText{Role: "system", Content: s.system},
		roleParts{Role: "user", Content: []textPart{{Type: "text", Text: s.user}}},
	}
	for i, ex := range s.exchanges {
		a := mistralAssistant{Role: "assistant", Content: []textPart{{Type: "text", Text: ex.text}}}
		for j, c := range ex.calls {
			a.ToolCalls = append(a.ToolCalls, mistralToolCall{ID: mistralID(i, j), Type: "function", Function: chatFunction{Name: c.name, Arguments: e.argString(c.args)}, Index: j})
		}
		msgs = append(msgs, a)
		for j, r := range ex.results {
			msgs = append(msgs, mistralToolMessage{Role: "tool", Content: []textPart{{Type: "text", Text: r.output}}, ToolCallID: mistralID(i, j), Name: r.name})
		}
		if len(ex.results) > 0 {
			// Mistral answers a user message right after a tool message
			// with HTTP 400: the assistant's reply to the results comes
			// between, as in a real conversation.
			msgs = append(msgs, roleParts{Role: "assistant", Content: []textPart{{Type: "text", Text: "Done; the results are above."}}})
		}
		msgs = append(msgs, roleParts{Role: "user", Content: []textPart{{Type: "text", Text: ex.followUp}}})
	}
	ts := make([]mistralTool, len(tools))
	for k, t := range tools {
		ts[k] = mistralTool{Type: "function", Function: mistralToolDef{Name: t.Name, Description: t.Description, Parameters: t.Schema}}
	}
	return mistralRequest{
		Model:      MistralModel,
		MaxTokens:  32000,
		Stream:     true,
		Messages:   msgs,
		Tools:      ts,
		PromptMode: "reasoning",
	}
}

// ---- Pi LLM context ----

type piContext struct {
	SystemPrompt string   `json:"systemPrompt"`
	Messages     []any    `json:"messages"`
	Tools        []piTool `json:"tools"`
}

type piUser struct {
	Role      string     `json:"role"`
	Content   []textPart `json:"content"`
	Timestamp int64      `json:"timestamp"`
}

type piThinking struct {
	Type              string `json:"type"`
	Thinking          string `json:"thinking"`
	ThinkingSignature string `json:"thinkingSignature"`
}

type piToolCall struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments any    `json:"arguments"`
}

type piAssistant struct {
	Role       string  `json:"role"`
	Content    []any   `json:"content"`
	API        string  `json:"api"`
	Provider   string  `json:"provider"`
	Model      string  `json:"model"`
	Usage      piUsage `json:"usage"`
	StopReason string  `json:"stopReason"`
	Timestamp  int64   `json:"timestamp"`
}

type piUsage struct {
	Input       int    `json:"input"`
	Output      int    `json:"output"`
	CacheRead   int    `json:"cacheRead"`
	CacheWrite  int    `json:"cacheWrite"`
	TotalTokens int    `json:"totalTokens"`
	Cost        piCost `json:"cost"`
}

type piCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

type piToolResult struct {
	Role       string     `json:"role"`
	ToolCallID string     `json:"toolCallId"`
	ToolName   string     `json:"toolName"`
	Content    []textPart `json:"content"`
	IsError    bool       `json:"isError"`
	Timestamp  int64      `json:"timestamp"`
}

type piTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

var sessionStart = time.Date(2026, 11, 30, 9, 14, 3, 0, time.UTC).UnixMilli()

// dollars rounds a token cost to 1e-6 dollars.
func dollars(tokens int, perMillion float64) float64 {
	return math.Round(float64(tokens)*perMillion) / 1e6
}

func piBody(s session) piContext {
	ts := sessionStart
	msgs := []any{piUser{Role: "user", Content: []textPart{{Type: "text", Text: s.user}}, Timestamp: ts}}
	ctxTokens := s.systemLen/4 + len(s.user)/4 + 900
	for i, ex := range s.exchanges {
		content := []any{
			piThinking{Type: "thinking", Thinking: ex.thinking, ThinkingSignature: blob(i, 560)},
			textPart{Type: "text", Text: ex.text},
		}
		for j, c := range ex.calls {
			content = append(content, piToolCall{Type: "toolCall", ID: anthropicID(i, j), Name: c.name, Arguments: c.args})
		}
		out := 60 + len(ex.thinking)/4 + len(ex.text)/4
		u := piUsage{Input: 12 + i, Output: out}
		if i == 0 {
			u.CacheWrite = ctxTokens
		} else {
			u.CacheRead = ctxTokens
		}
		u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
		u.Cost = piCost{
			Input:      dollars(u.Input, 3),
			Output:     dollars(u.Output, 15),
			CacheRead:  dollars(u.CacheRead, 0.3),
			CacheWrite: dollars(u.CacheWrite, 3.75),
		}
		u.Cost.Total = math.Round((u.Cost.Input+u.Cost.Output+u.Cost.CacheRead+u.Cost.CacheWrite)*1e6) / 1e6
		ts += int64(4000 + 700*(i%5))
		msgs = append(msgs, piAssistant{
			Role: "assistant", Content: content,
			API: "anthropic-messages", Provider: "anthropic", Model: AnthropicModel,
			Usage: u, StopReason: "toolUse", Timestamp: ts,
		})
		for j, r := range ex.results {
			ts += int64(150 + 90*j)
			msgs = append(msgs, piToolResult{
				Role: "toolResult", ToolCallID: anthropicID(i, j), ToolName: r.name,
				Content: []textPart{{Type: "text", Text: r.output}}, IsError: r.isError, Timestamp: ts,
			})
			ctxTokens += len(r.output) / 4
		}
		ts += 9000
		msgs = append(msgs, piUser{Role: "user", Content: []textPart{{Type: "text", Text: ex.followUp}}, Timestamp: ts})
		ctxTokens += out + len(ex.followUp)/4
	}
	pts := make([]piTool, len(tools))
	for k, t := range tools {
		pts[k] = piTool{Name: t.Name, Description: t.Description, Parameters: t.Schema}
	}
	return piContext{SystemPrompt: s.system, Messages: msgs, Tools: pts}
}
