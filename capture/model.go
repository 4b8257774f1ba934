package capture

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// modelVendors maps the first word of a model id to the vendor whose
// model it is, most specific prefix first. The providers' own API vendors
// are "Anthropic", "OpenAI", "Google" and "Mistral"; the others are served
// by compatible servers only (their vendors' own, vLLM, Ollama, routers).
var modelVendors = []struct{ prefix, vendor string }{
	{"claude", "Anthropic"},
	{"anthropic.claude", "Anthropic"},
	{"gpt-", "OpenAI"},
	{"chatgpt-", "OpenAI"},
	{"codex-", "OpenAI"},
	{"computer-use-", "OpenAI"},
	{"omni-moderation", "OpenAI"},
	{"text-embedding-", "OpenAI"},
	{"davinci", "OpenAI"},
	{"babbage", "OpenAI"},
	{"ft:", "OpenAI"},
	{"gemini-", "Google"},
	{"gemma", "Google"},
	{"mistral", "Mistral"},
	{"open-mistral", "Mistral"},
	{"open-mixtral", "Mistral"},
	{"mixtral", "Mistral"},
	{"devstral", "Mistral"},
	{"magistral", "Mistral"},
	{"codestral", "Mistral"},
	{"ministral", "Mistral"},
	{"pixtral", "Mistral"},
	{"voxtral", "Mistral"},
	{"deepseek", "DeepSeek"},
	{"qwen", "Qwen"},
	{"qwq", "Qwen"},
	{"llama", "Meta"},
	{"meta-llama", "Meta"},
	{"codellama", "Meta"},
	{"grok", "xAI"},
	{"kimi", "Moonshot"},
	{"moonshot", "Moonshot"},
	{"glm", "Zhipu"},
	{"chatglm", "Zhipu"},
	{"minimax", "MiniMax"},
	{"abab", "MiniMax"},
	{"command", "Cohere"},
	{"phi-", "Microsoft"},
	{"nemotron", "NVIDIA"},
	{"granite", "IBM"},
	{"yi-", "01.AI"},
	{"ernie", "Baidu"},
	{"doubao", "ByteDance"},
	{"hunyuan", "Tencent"},
	{"olmo", "Ai2"},
	{"sonar", "Perplexity"},
}

// ModelVendor names whose model an id is ("OpenAI", "DeepSeek", …) from
// its spelling alone, or "" when the id says nothing (a local alias such
// as "default" or "m"). routed is set for a vendor/model id, the form
// routers and compatible servers (OpenRouter, LiteLLM, vLLM with Hugging
// Face names) take; the vendor is then that of the part after the last
// slash. An id of OpenAI's o-series (o1, o3-mini, o4-mini) is OpenAI's.
func ModelVendor(model string) (vendor string, routed bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m, routed = m[i+1:], true
	}
	// Bedrock's cross-region ids: us.anthropic.claude-…, eu.…, apac.….
	if i := strings.IndexByte(m, '.'); i > 0 && i <= 4 && strings.HasPrefix(m[i+1:], "anthropic.") {
		m = m[i+1:]
	}
	if len(m) >= 2 && m[0] == 'o' && m[1] >= '1' && m[1] <= '9' && (len(m) == 2 || m[2] == '-') {
		return "OpenAI", routed
	}
	for _, v := range modelVendors {
		if strings.HasPrefix(m, v.prefix) {
			return v.vendor, routed
		}
	}
	return "", routed
}

// ownVendor is the vendor of a provider's own API, "" for shapes that are
// no one vendor's (Pi message lists).
func ownVendor(p Provider) string {
	switch p {
	case Anthropic:
		return "Anthropic"
	case OpenAIChat, OpenAIResponses:
		return "OpenAI"
	case Gemini:
		return "Google"
	case Mistral:
		return "Mistral"
	}
	return ""
}

// ForeignModel says why the model a body names means a compatible server
// rather than provider p's own API: a vendor/model id (a router's), or a
// model of another vendor. It returns "" when the body names no model, or
// one of p's own, or one whose vendor its spelling does not tell.
func ForeignModel(d *Doc, p Provider) string {
	own := ownVendor(p)
	if d == nil || own == "" || d.Kind(0) != Object {
		return ""
	}
	model := d.GetStr(0, "model")
	if model == "" {
		return ""
	}
	vendor, routed := ModelVendor(model)
	switch {
	case routed:
		return "model " + quoteModel(model) + " is a vendor/model id, the form of routers and compatible servers"
	case vendor != "" && vendor != own:
		return "model " + quoteModel(model) + " is " + vendor + "'s, not " + own + "'s"
	}
	return ""
}

// compatibleNote is the part of a detection's reason the model adds: the
// evidence that the body goes to a server compatible with p rather than
// p's own, or "".
func compatibleNote(d *Doc, p Provider) string {
	why := ForeignModel(d, p)
	if why == "" {
		return ""
	}
	own := ownVendor(p)
	a := "a"
	if own == "OpenAI" || own == "Anthropic" {
		a = "an"
	}
	return "; " + why + ": " + a + " " + own + "-compatible server"
}

// quoteModel quotes a model id for a reason, cut to 64 characters: an id
// is short, and a reason is no place for a long string from the body.
func quoteModel(m string) string {
	if utf8.RuneCountInString(m) > 64 {
		r := []rune(m)
		return strconv.Quote(string(r[:64])) + "…"
	}
	return strconv.Quote(m)
}
