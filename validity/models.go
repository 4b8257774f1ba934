package validity

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/capture"
)

// The model table of the OpenAI, Gemini and Mistral rules: which model ids
// have which request constraints. A model the table does not know gets no
// model-dependent finding, so a new model is never rejected for being new.

// openAIModel describes an OpenAI model id as far as the rules need it.
type openAIModel struct {
	ID string
	// Reasoning: an o-series or GPT-5 reasoning model, which takes
	// max_completion_tokens instead of max_tokens and only the default
	// sampling parameters.
	Reasoning bool
	// Minor is the GPT-5 point release (5 for gpt-5.5), 0 for gpt-5 and
	// the o-series. From gpt-5.1 on, sampling parameters are accepted
	// with reasoning effort "none" (the default of those models).
	Minor int
	// GPT5 marks the gpt-5 family, O the o-series.
	GPT5, O bool
	// NoStop: o3 and o4-mini take no stop sequences.
	NoStop bool
	// NonReasoning: a model the table knows has no reasoning (GPT-4o,
	// GPT-4.1, GPT-4, GPT-3.5), which takes no reasoning effort.
	NonReasoning bool
}

var (
	reOSeries      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^o[134](-|$)`) })
	reGPT5         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^gpt-5(\.([0-9]+))?(-|$)`) })
	reNoStop       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(o3(-(pro|[0-9]{4}-)|$)|o4-mini(-|$))`) })
	reNonReasoning = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(gpt-4o(-|$)|gpt-4\.1(-|$)|gpt-4(-[0-9]|-turbo|$)|gpt-3\.5-turbo(-|$)|chatgpt-4o-latest$)`)
	})
	reOpenAI = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(gpt-|o[1-9](-|$)|chatgpt-|codex-|computer-use-)`)
	})
)

// lookupOpenAI returns what the table knows of an OpenAI model id; ok is
// false for an id that is not one of OpenAI's own (another vendor's model,
// a router's "vendor/model" id, an empty id).
func lookupOpenAI(id string) (m openAIModel, ok bool) {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" || strings.Contains(id, "/") || !reOpenAI().MatchString(id) {
		return m, false
	}
	m.ID = id
	switch {
	case reOSeries().MatchString(id):
		m.O, m.Reasoning = true, true
		m.NoStop = reNoStop().MatchString(id)
	case reNonReasoning().MatchString(id):
		m.NonReasoning = true
	case reGPT5().MatchString(id):
		m.GPT5 = true
		// The chat snapshots (gpt-5-chat-latest, gpt-5.1-chat-latest)
		// are not reasoning models.
		m.Reasoning = !strings.Contains(id, "-chat")
		if s := reGPT5().FindStringSubmatch(id); s[2] != "" {
			m.Minor, _ = strconv.Atoi(s[2])
		}
	}
	return m, true
}

// openAIServer returns the OpenAI model a Chat or Responses capture is
// sent to when its server is OpenAI's own: the endpoint is OpenAI's (or
// there is none) and the model id is one of OpenAI's. Compatible servers
// (DeepSeek, OpenRouter, vLLM, …) share the request shape but not OpenAI's
// checks, so their captures get none of OpenAI's own rules.
func openAIServer(c *capture.Capture) (openAIModel, bool) {
	if c.Provider != capture.OpenAIChat && c.Provider != capture.OpenAIResponses {
		return openAIModel{}, false
	}
	if strict, _ := Strict(c); !strict {
		return openAIModel{}, false
	}
	d := c.Doc
	if d == nil || d.Kind(0) != capture.Object {
		return openAIModel{}, false
	}
	model := d.Get(0, "model")
	if model == capture.NoNode {
		// No model id: judged against OpenAI's API, with no model rule.
		return openAIModel{}, true
	}
	return lookupOpenAI(d.Str(model))
}

// geminiGen is a Gemini model generation as the rules need it.
type geminiGen int

const (
	geminiUnknown geminiGen = iota
	gemini1                 // gemini-1.x
	gemini2                 // gemini-2.0, gemini-2.5
	gemini3                 // gemini-3 and later point releases of 3
)

var (
	reModelPath  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/models/([^/:?]+)`) })
	reGeminiGens = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^gemini-([0-9]+)(\.[0-9]+)?-`) })
)

// geminiModel returns the model a Gemini capture names, from the body (the
// Code Assist envelope carries it) or the endpoint path, and its
// generation; geminiUnknown for aliases (gemini-flash-latest) and ids the
// table does not know.
func geminiModel(c *capture.Capture) (string, geminiGen) {
	model := ""
	if d := c.Doc; d != nil && d.Kind(0) == capture.Object {
		model = d.GetStr(0, "model")
	}
	if model == "" && c.URL != "" {
		path := c.URL
		if u, err := url.Parse(c.URL); err == nil && u.Path != "" {
			path = u.Path
		}
		if m := reModelPath().FindStringSubmatch(path); m != nil {
			model = m[1]
		}
	}
	model = strings.ToLower(strings.TrimPrefix(model, "models/"))
	s := reGeminiGens().FindStringSubmatch(model + "-")
	if s == nil {
		return model, geminiUnknown
	}
	switch s[1] {
	case "1":
		return model, gemini1
	case "2":
		return model, gemini2
	case "3":
		return model, gemini3
	}
	return model, geminiUnknown
}
