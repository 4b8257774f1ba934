package validity

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// OpenAIReasoningParams checks the parameters OpenAI's reasoning models
// refuse.
var OpenAIReasoningParams = &rules.Rule{
	ID:       "SO520",
	Title:    "Parameters that OpenAI reasoning models accept",
	Why:      "OpenAI reasoning models reject max_tokens, non-default sampling and unsupported reasoning efforts with HTTP 400, which requests written for older models carry.",
	Since:    rules.FirstVersion,
	Name:     "request.openai-reasoning-params",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "OpenAI reasoning models (the o-series and GPT-5) refuse max_tokens and non-default sampling parameters, and each accepts its own reasoning efforts. " +
		"On Chat Completions they take max_completion_tokens instead of max_tokens (\"Unsupported parameter: 'max_tokens' is not supported with this model\"). " +
		"They accept only the default temperature and top_p (1), no presence or frequency penalty, no logprobs, top_logprobs or logit_bias, on Chat and Responses alike " +
		"(\"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported\"); " +
		"from gpt-5.1 on, only temperature is checked, and only when a reasoning effort other than none is set. " +
		"Reasoning effort none is not accepted by gpt-5 and the o-series, and minimal is not accepted by gpt-5.1. " +
		"o3 and o4-mini take no stop sequences (\"Unsupported parameter: 'stop' is not supported with this model\"). " +
		"Models without reasoning (GPT-4o, GPT-4.1, GPT-4, GPT-3.5) take no reasoning effort (reasoning_effort on Chat, reasoning.effort on Responses): " +
		"the reasoning options are for gpt-5 and o-series models only. " +
		"Only requests to OpenAI's own endpoint (or none) naming one of OpenAI's model ids are checked: compatible servers have their own rules, and unknown models are never rejected. " +
		"Sources: https://platform.openai.com/docs/guides/reasoning, https://platform.openai.com/docs/api-reference/chat/create (max_tokens, reasoning_effort; stop: \"not supported with latest reasoning models o3 and o4-mini\"), " +
		"the Reasoning schema of OpenAI's OpenAPI spec (\"gpt-5 and o-series models only\"); the stop error as reported in crewAIInc/crewAI#2738 and langgenius/dify#18971.",
	Run: runOpenAIReasoningParams,
}

func runOpenAIReasoningParams(p *rules.Pass) error {
	m, ok := openAIServer(p.Capture)
	if !ok || !m.Reasoning && !m.NonReasoning {
		return nil
	}
	d := p.Capture.Doc
	chat := p.Capture.Provider == capture.OpenAIChat
	effortNode := d.Get(0, "reasoning_effort")
	if !chat {
		effortNode = d.Get(d.Get(0, "reasoning"), "effort")
	}
	if m.NonReasoning {
		if d.Kind(effortNode) == capture.String {
			p.Reportf(d.Pointer(effortNode), "%s is not a reasoning model: it takes no reasoning effort", m.ID)
		}
		return nil
	}
	if stop := d.Get(0, "stop"); chat && m.NoStop && present(d, stop) && !(d.Kind(stop) == capture.Array && d.Len(stop) == 0) {
		p.Reportf(d.Pointer(stop), "stop is not supported by %s", m.ID)
	}
	effort := ""
	if d.Kind(effortNode) == capture.String {
		effort = d.Str(effortNode)
	}
	switch {
	case effort == "none" && m.Minor == 0:
		p.Reportf(d.Pointer(effortNode), "reasoning effort %q is not supported by %s", effort, m.ID)
	case effort == "minimal" && m.GPT5 && m.Minor == 1:
		p.Reportf(d.Pointer(effortNode), "reasoning effort %q is not supported by %s", effort, m.ID)
	}
	if chat {
		if mt := d.Get(0, "max_tokens"); present(d, mt) {
			p.Reportf(d.Pointer(mt), "max_tokens is not supported by reasoning model %s: use max_completion_tokens", m.ID)
		}
	}
	// From gpt-5.1 on, effort none (their default) accepts sampling.
	if m.Minor > 0 && (effort == "" || effort == "none") {
		return nil
	}
	checkSampling(p, m, chat)
	return nil
}

// checkSampling reports the sampling parameters a reasoning model takes
// only at their defaults.
func checkSampling(p *rules.Pass, m openAIModel, chat bool) {
	d := p.Capture.Doc
	type param struct {
		key   string
		chat  bool                      // Chat Completions only
		check func(i capture.Node) bool // the value is not the default
	}
	notNum := func(v float64) func(capture.Node) bool {
		return func(i capture.Node) bool { f, ok := number(d, i); return ok && f != v }
	}
	params := []param{{key: "temperature", check: notNum(1)}}
	// The other sampling parameters are checked on gpt-5 and the o-series
	// only: later models report defaults of their own (top_p 0.98).
	if m.Minor == 0 {
		params = append(params,
			param{key: "top_p", check: notNum(1)},
			param{key: "presence_penalty", chat: true, check: notNum(0)},
			param{key: "frequency_penalty", chat: true, check: notNum(0)},
			param{key: "logprobs", chat: true, check: func(i capture.Node) bool { return d.Kind(i) == capture.True }},
			param{key: "top_logprobs", check: notNum(0)},
			param{key: "logit_bias", chat: true, check: func(i capture.Node) bool { return d.Kind(i) == capture.Object && d.Len(i) > 0 }},
		)
	}
	for _, q := range params {
		if q.chat && !chat {
			continue
		}
		if i := d.Get(0, q.key); i != capture.NoNode && q.check(i) {
			p.Reportf(d.Pointer(i), "%s %s is not supported by reasoning model %s: only the default is", q.key, shorten(string(d.Raw(i))), m.ID)
		}
	}
}

// present reports a member that is there and not null.
func present(d *capture.Doc, i capture.Node) bool {
	return i != capture.NoNode && d.Kind(i) != capture.Null
}

// number returns the value of a number node.
func number(d *capture.Doc, i capture.Node) (float64, bool) {
	if d.Kind(i) != capture.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(d.Raw(i)), 64)
	return f, err == nil
}

// maxOpenAITools is OpenAI's limit on the tools of one request.
const maxOpenAITools = 128

// OpenAIToolCount checks OpenAI's limit on the number of tools.
var OpenAIToolCount = &rules.Rule{
	ID:       "SO521",
	Title:    "At most 128 tools in an OpenAI request",
	Why:      "OpenAI rejects a longer tools array outright, a limit hosts with many MCP servers reach; the finding points at the fix, deferring tools.",
	Since:    rules.FirstVersion,
	Name:     "request.openai-tool-count",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "OpenAI accepts at most 128 tools in one request, on Chat Completions and Responses. " +
		"A longer tools array is answered with HTTP 400 \"Invalid 'tools': array too long. Expected an array with maximum length 128\" (code array_above_max_length); " +
		"hosts that load many MCP servers reach it first. Deferring tools or dropping unused ones brings the count down. " +
		"Only requests to OpenAI's own endpoint (or none) are checked. " +
		"Source: OpenAI's documented error, as reported in vishalmysore/Tools4AI#16, julep-ai/julep#330 and zed-industries/zed#42393.",
	Run: runOpenAIToolCount,
}

func runOpenAIToolCount(p *rules.Pass) error {
	if _, ok := openAIServer(p.Capture); !ok {
		return nil
	}
	d := p.Capture.Doc
	tools := d.Get(0, "tools")
	if n := d.Len(tools); d.Kind(tools) == capture.Array && n > maxOpenAITools {
		p.Reportf(d.Pointer(d.Elem(tools, maxOpenAITools)), "%d tools, at most %d are allowed", n, maxOpenAITools)
	}
	return nil
}

// OpenAIStrictSchemas checks the schemas of strict tools and structured
// outputs.
var OpenAIStrictSchemas = &rules.Rule{
	ID:       "SO522",
	Title:    "OpenAI strict schemas are closed and require every property",
	Why:      "OpenAI rejects a strict schema that leaves an object open or a property optional, so the request fails before the model sees it.",
	Since:    rules.FirstVersion,
	Name:     "request.openai-strict-schema",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "OpenAI strict schemas close every object and require every property. " +
		"With strict:true on a function tool (Chat Completions and Responses) or on a json_schema response format (Chat response_format, Responses text.format), " +
		"every object schema, nested ones included, sets additionalProperties:false, and its required lists every key of its properties; " +
		"OpenAI answers \"Invalid schema for function …: 'additionalProperties' is required to be supplied and to be false\" and " +
		"\"'required' is required to be supplied and to be an array including every key in properties\" otherwise. " +
		"An optional property stays listed in required with a null-admitting type. " +
		"A Responses function tool without strict is normalised to strict mode only where its schema allows it, so only an explicit strict:true is checked. " +
		"Only requests to OpenAI's own endpoint (or none) are checked. " +
		"Source: https://platform.openai.com/docs/guides/structured-outputs (supported schemas), https://platform.openai.com/docs/guides/function-calling (strict mode).",
	Run: runOpenAIStrictSchemas,
}

func runOpenAIStrictSchemas(p *rules.Pass) error {
	if _, ok := openAIServer(p.Capture); !ok {
		return nil
	}
	d := p.Capture.Doc
	chat := p.Capture.Provider == capture.OpenAIChat
	for _, t := range elems(d, d.Get(0, "tools")) {
		fn := t
		if chat {
			fn = d.Get(t, "function")
		} else if !d.StrIs(d.Get(t, "type"), "function") {
			continue
		}
		if d.Kind(d.Get(fn, "strict")) == capture.True {
			checkStrictSchema(p, d, d.Get(fn, "parameters"), "function "+d.GetStr(fn, "name"))
		}
	}
	format := d.Get(d.Get(0, "text"), "format") // Responses
	schemaKey := "schema"
	if chat {
		format = d.Get(d.Get(0, "response_format"), "json_schema")
	} else if !d.StrIs(d.Get(format, "type"), "json_schema") {
		format = capture.NoNode
	}
	if format != capture.NoNode && d.Kind(d.Get(format, "strict")) == capture.True {
		checkStrictSchema(p, d, d.Get(format, schemaKey), "response format "+d.GetStr(format, "name"))
	}
	return nil
}

// checkStrictSchema reports each object schema under root that is not
// closed or does not require all its properties.
func checkStrictSchema(p *rules.Pass, d *capture.Doc, root capture.Node, what string) {
	if d.Kind(root) != capture.Object {
		return
	}
	var visit func(s capture.Node)
	visit = func(s capture.Node) {
		if d.Kind(s) != capture.Object {
			return
		}
		props := d.Get(s, "properties")
		if isObjectSchema(d, s) {
			if ap := d.Get(s, "additionalProperties"); d.Kind(ap) != capture.False {
				p.Reportf(d.Pointer(s), "strict schema of %s: additionalProperties must be supplied and false", what)
			}
			if d.Kind(props) == capture.Object && d.Len(props) > 0 {
				req := map[string]bool{}
				for r := range d.Children(d.Get(s, "required")) {
					if d.Kind(r) == capture.String {
						req[d.Str(r)] = true
					}
				}
				var missing []string
				for k := range d.Children(props) {
					if !req[d.Key(k)] {
						missing = append(missing, d.Key(k))
					}
				}
				if len(missing) > 0 {
					p.Reportf(d.Pointer(s), "strict schema of %s: required must list every property, missing %s", what, shorten(strings.Join(quoteAll(missing), ", ")))
				}
			}
		}
		for k := range d.Children(props) {
			visit(k)
		}
		for _, key := range []string{"items", "additionalProperties", "not", "if", "then", "else"} {
			visit(d.Get(s, key))
		}
		for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems", "items"} {
			if a := d.Get(s, key); d.Kind(a) == capture.Array {
				for e := range d.Children(a) {
					visit(e)
				}
			}
		}
		for _, key := range []string{"$defs", "definitions"} {
			for e := range d.Children(d.Get(s, key)) {
				visit(e)
			}
		}
	}
	visit(root)
}

// isObjectSchema reports a schema of type object (alone or in a type
// list), or one with properties and no type.
func isObjectSchema(d *capture.Doc, s capture.Node) bool {
	t := d.Get(s, "type")
	switch d.Kind(t) {
	case capture.String:
		return d.StrIs(t, "object")
	case capture.Array:
		for e := range d.Children(t) {
			if d.StrIs(e, "object") {
				return true
			}
		}
		return false
	}
	return d.Kind(d.Get(s, "properties")) == capture.Object
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
