package validity

import (
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// antModel is what the Anthropic documentation says a Claude model
// accepts, for the rules that depend on the model. A zero field means
// "not known": the rules reading it stand aside.
type antModel struct {
	name string // the family's API id, without a date suffix
	// maxOutput is the largest max_tokens the model accepts.
	maxOutput int
	// images is the most images one request may carry (100 on models
	// with a 200k-token context window, 600 on the others).
	images int
	// rejectsThinking lists the thinking.type values answered with 400.
	rejectsThinking []string
	// noSampling: temperature, top_p and top_k were removed (only the
	// default temperature of 1 is accepted).
	noSampling bool
	// oneSampler: temperature and top_p may not both be set.
	oneSampler bool
	// noPrefill: the conversation must end with a user message.
	noPrefill bool
	// noForcedToolAdaptive: forced tool use is rejected with adaptive
	// thinking too (elsewhere only with manual extended thinking).
	noForcedToolAdaptive bool
	// noStructuredOutput: output_config.format (and the beta's
	// output_format) is not available on the model.
	noStructuredOutput bool
}

// antModels is the table, by family. Sources: the models overview and the
// per-model pages (max output), the thinking troubleshooting page (thinking
// types each model rejects), the migration guides (sampling parameters,
// prefill), the vision guide (image counts) and the thinking pages (forced
// tool use), the extended-thinking page (the models with thinking) and the
// structured-outputs page (the models with structured outputs). Models not
// listed here get no model-dependent finding.
var antModels = []antModel{
	{name: "claude-opus-5-5", noSampling: true, noPrefill: true, noForcedToolAdaptive: true},
	{name: "claude-sonnet-5-5", noSampling: true, noPrefill: true, noForcedToolAdaptive: true},
	{name: "claude-haiku-5-5", noSampling: true, noPrefill: true},
	{name: "claude-fable-5-1", noSampling: true, noPrefill: true, noForcedToolAdaptive: true},
	{name: "claude-mythos-5-1", noSampling: true, noPrefill: true, noForcedToolAdaptive: true},
	{name: "claude-fable-5", rejectsThinking: []string{"enabled", "disabled"}, noSampling: true, noPrefill: true},
	{name: "claude-mythos-5", rejectsThinking: []string{"enabled", "disabled"}, noSampling: true, noPrefill: true},
	{name: "claude-mythos-preview", rejectsThinking: []string{"disabled"}, noSampling: true},
	{name: "claude-opus-5", rejectsThinking: []string{"enabled"}, noSampling: true, noPrefill: true},
	{name: "claude-sonnet-5", rejectsThinking: []string{"enabled"}, noSampling: true, noPrefill: true},
	{name: "claude-opus-4-8", maxOutput: 128000, rejectsThinking: []string{"enabled"}, noSampling: true, noPrefill: true},
	{name: "claude-opus-4-7", maxOutput: 128000, rejectsThinking: []string{"enabled"}, noSampling: true, noPrefill: true},
	{name: "claude-opus-4-6", maxOutput: 128000, oneSampler: true, noPrefill: true},
	{name: "claude-sonnet-4-6", maxOutput: 128000, oneSampler: true, noPrefill: true},
	{name: "claude-opus-4-5", maxOutput: 64000, images: 100, rejectsThinking: []string{"adaptive"}, oneSampler: true},
	{name: "claude-sonnet-4-5", maxOutput: 64000, rejectsThinking: []string{"adaptive"}, oneSampler: true},
	{name: "claude-haiku-4-5", maxOutput: 64000, images: 100, rejectsThinking: []string{"adaptive"}, oneSampler: true},
	{name: "claude-opus-4-1", maxOutput: 32000, images: 100, rejectsThinking: []string{"adaptive"}, oneSampler: true},
	{name: "claude-opus-4", maxOutput: 32000, images: 100, noStructuredOutput: true},
	{name: "claude-sonnet-4", maxOutput: 64000, noStructuredOutput: true},
	{name: "claude-3-7-sonnet", maxOutput: 64000, images: 100, noStructuredOutput: true},
	// The Claude 3 and 3.5 models have no extended thinking.
	{name: "claude-3-5-sonnet", maxOutput: 8192, images: 100, rejectsThinking: noThinking, noStructuredOutput: true},
	{name: "claude-3-5-haiku", maxOutput: 8192, images: 100, rejectsThinking: noThinking, noStructuredOutput: true},
	{name: "claude-3-opus", rejectsThinking: noThinking, noStructuredOutput: true},
	{name: "claude-3-sonnet", rejectsThinking: noThinking, noStructuredOutput: true},
	{name: "claude-3-haiku", rejectsThinking: noThinking, noStructuredOutput: true},
}

// noThinking are the thinking types a model without extended thinking
// rejects: the ones that turn it on.
var noThinking = []string{"enabled", "adaptive"}

// antModelOf returns the table entry for the capture's model, or nil when
// the model is absent or not in the table. Bedrock ids
// ("us.anthropic.claude-…-v1:0") and Vertex ids ("claude-…@20250929") are
// read as the API id they name.
func antModelOf(c *capture.Capture) *antModel {
	id := strings.ToLower(c.Doc.GetStr(0, "model"))
	if id == "" {
		return nil
	}
	if i := strings.Index(id, "anthropic."); i >= 0 && i <= len("global.") {
		id = id[i+len("anthropic."):]
	}
	for i := range antModels {
		m := &antModels[i]
		if rest, ok := strings.CutPrefix(id, m.name); ok && versionSuffix(rest) {
			return m
		}
	}
	return nil
}

// versionSuffix reports whether rest, what follows a family name in a
// model id, names a snapshot of that family: nothing, a date
// ("-20250929"), a Vertex "@date", a Bedrock "-v1:0", "-latest" or the
// "-0" of the Claude 4 aliases (claude-sonnet-4-0). A
// further version number ("-5" after "claude-opus-4") is another family.
func versionSuffix(rest string) bool {
	switch {
	case rest == "", rest == "-latest", rest == "-0", strings.HasPrefix(rest, "@"), strings.HasPrefix(rest, ":"):
		return true
	case strings.HasPrefix(rest, "-v") && len(rest) > 2 && isDigit(rest[2]):
		return true
	case len(rest) >= 9 && rest[0] == '-' && allDigits(rest[1:9]):
		tail := rest[9:]
		return tail == "" || strings.HasPrefix(tail, "-v") || strings.HasPrefix(tail, ":")
	}
	return false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// betaHeader reports whether the capture's anthropic-beta header names a
// beta whose name starts with prefix.
func betaHeader(c *capture.Capture, prefix string) bool {
	for _, h := range c.Headers {
		if !strings.EqualFold(h.Name, "anthropic-beta") {
			continue
		}
		for b := range strings.SplitSeq(h.Value, ",") {
			if strings.HasPrefix(strings.TrimSpace(b), prefix) {
				return true
			}
		}
	}
	// Bedrock and Vertex bodies carry the betas in the body.
	d := c.Doc
	for b := range d.Children(d.Get(0, "anthropic_beta")) {
		if strings.HasPrefix(d.Str(b), prefix) {
			return true
		}
	}
	return false
}
