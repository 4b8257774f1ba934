package validity

import (
	"regexp"
	"sync"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// GeminiThinking checks a Gemini request's thinking configuration against
// the model it names.
var GeminiThinking = &rules.Rule{
	ID:       "SO528",
	Title:    "Gemini thinking configuration the model accepts",
	Why:      "Gemini rejects a thinking budget outside the model's range, a thinking level on a model before Gemini 3, and a request that sets both.",
	Since:    rules.FirstVersion,
	Name:     "request.gemini-thinking",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Gemini's generationConfig.thinkingConfig takes a thinking level or a thinking budget, as the model allows. " +
		"A request may not set both thinkingLevel and thinkingBudget. " +
		"thinkingLevel is a Gemini 3 setting: models before Gemini 3 answer it with an error. " +
		"On the Gemini 2.5 models a thinkingBudget is -1 (dynamic) or within the model's range: " +
		"2.5 Pro 128 to 32,768 (thinking cannot be turned off: \"Budget 0 is invalid. This model only works in thinking mode.\"), " +
		"2.5 Flash 0 to 24,576, 2.5 Flash-Lite 0 or 512 to 24,576; beyond it Gemini answers \"The thinking budget (N) is invalid.\" " +
		"Model-dependent checks run only for model ids the table knows. " +
		"Sources: https://ai.google.dev/gemini-api/docs/thinking (levels and budget ranges per model) and https://ai.google.dev/gemini-api/docs/gemini-3; " +
		"errors as reported in RooCodeInc/Roo-Code#4399, snailyp/gemini-balance#206 and Tom-Ryder/AgentRunKit#7.",
	Run: runGeminiThinking,
}

// budgetRange is the thinking budget a Gemini 2.5 model accepts besides
// -1: zero (thinking off) when zeroOK, else min to max.
type budgetRange struct {
	name     string
	zeroOK   bool
	min, max int64
}

var reGemini25 = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^gemini-2\.5-(pro|flash|flash-lite)(-preview(-[0-9][0-9-]*)?|-[0-9]{3}|-latest)?$`)
})

func gemini25Budget(model string) *budgetRange {
	m := reGemini25().FindStringSubmatch(model)
	if m == nil {
		return nil
	}
	switch m[1] {
	case "pro":
		return &budgetRange{"Gemini 2.5 Pro", false, 128, 32768}
	case "flash":
		return &budgetRange{"Gemini 2.5 Flash", true, 1, 24576}
	default:
		return &budgetRange{"Gemini 2.5 Flash-Lite", true, 512, 24576}
	}
}

func runGeminiThinking(p *rules.Pass) error {
	if p.Capture.Provider != capture.Gemini {
		return nil
	}
	d := p.Capture.Doc
	gc := d.GetAny(geminiRoot(d), "generationConfig", "generation_config")
	tc := d.GetAny(gc, "thinkingConfig", "thinking_config")
	if d.Kind(tc) != capture.Object {
		return nil
	}
	level := d.GetAny(tc, "thinkingLevel", "thinking_level")
	budget := d.GetAny(tc, "thinkingBudget", "thinking_budget")
	if present(d, level) && present(d, budget) {
		p.Reportf(d.Pointer(budget), "thinkingConfig sets both thinkingLevel and thinkingBudget; set one")
		return nil
	}
	model, gen := geminiModel(p.Capture)
	if present(d, level) && (gen == gemini1 || gen == gemini2) {
		p.Reportf(d.Pointer(level), "%s does not take thinkingLevel (a Gemini 3 setting); use thinkingBudget", model)
		return nil
	}
	r := gemini25Budget(model)
	f, ok := number(d, budget)
	if r == nil || !ok || f != float64(int64(f)) {
		return nil // a fractional budget is the schema's to judge
	}
	n := int64(f)
	if n == -1 || n == 0 && r.zeroOK || n >= r.min && n <= r.max {
		return nil
	}
	if n == 0 {
		p.Reportf(d.Pointer(budget), "%s cannot turn thinking off: thinkingBudget is -1 or %d to %d", r.name, r.min, r.max)
		return nil
	}
	p.Reportf(d.Pointer(budget), "thinkingBudget %d is outside what %s accepts: -1, %s%d to %d", n, r.name, zeroText(r.zeroOK), r.min, r.max)
	return nil
}

func zeroText(ok bool) string {
	if ok {
		return "0 (off), "
	}
	return ""
}
