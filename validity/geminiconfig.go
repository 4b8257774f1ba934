package validity

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// Limits of Gemini's GenerationConfig, from its API reference.
const (
	maxGeminiStopSequences = 5
	maxGeminiTemperature   = 2.0
	maxGeminiLogprobs      = 20
)

// GeminiRequestFields checks the Gemini request fields whose range,
// companion or exclusion the API reference states and the schema does not
// hold.
var GeminiRequestFields = &rules.Rule{
	ID:       "SO531",
	Title:    "Gemini generation settings and declarations as the reference allows",
	Why:      "Gemini rejects generation settings out of their documented range or without the field they need, and declarations that set two exclusive fields, so the request fails.",
	Since:    rules.FirstVersion,
	Name:     "request.gemini-request-fields",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Gemini request fields stay within what the API reference states. In generationConfig: " +
		"at most 5 stopSequences; a temperature from 0.0 to 2.0; logprobs only with responseLogprobs true, from 0 to 20; " +
		"a responseSchema only with a compatible responseMimeType (application/json, or text/x.enum for an enum). " +
		"safetySettings hold at most one setting per category. " +
		"A function declaration sets parameters or parametersJsonSchema, not both, and response or responseJsonSchema, not both. " +
		"Source: the Gemini API reference (generativelanguage v1beta): GenerationConfig.stopSequences (\"up to 5\"), .temperature (\"[0.0, 2.0]\"), " +
		".logprobs (\"Only valid if response_logprobs=True … in the range of [0, 20]\"), .responseSchema (\"a compatible response_mime_type must also be set\"), " +
		"GenerateContentRequest.safetySettings (\"There should not be more than one setting for each SafetyCategory type\"), " +
		"FunctionDeclaration.parametersJsonSchema and .responseJsonSchema (\"mutually exclusive\").",
	Run: runGeminiRequestFields,
}

func runGeminiRequestFields(p *rules.Pass) error {
	if p.Capture.Provider != capture.Gemini {
		return nil
	}
	d := p.Capture.Doc
	root := geminiRoot(d)
	if gc := d.GetAny(root, "generationConfig", "generation_config"); d.Kind(gc) == capture.Object {
		checkGeminiGenerationConfig(p, d, gc)
	}
	seen := map[string]capture.Node{}
	for _, s := range elems(d, d.GetAny(root, "safetySettings", "safety_settings")) {
		cat := d.Get(s, "category")
		if d.Kind(cat) != capture.String {
			continue
		}
		if first, dup := seen[d.Str(cat)]; dup {
			p.Reportf(d.Pointer(cat), "safety category %s is set twice (first at %s)", shorten(d.Str(cat)), d.Pointer(first))
		} else {
			seen[d.Str(cat)] = cat
		}
	}
	for _, t := range elems(d, d.Get(root, "tools")) {
		for _, fd := range elems(d, d.GetAny(t, "functionDeclarations", "function_declarations")) {
			for _, pair := range [][4]string{
				{"parameters", "parameters", "parametersJsonSchema", "parameters_json_schema"},
				{"response", "response", "responseJsonSchema", "response_json_schema"},
			} {
				if a, b := d.GetAny(fd, pair[0], pair[1]), d.GetAny(fd, pair[2], pair[3]); present(d, a) && present(d, b) {
					p.Reportf(d.Pointer(b), "function %s sets both %s and %s; they are mutually exclusive", shorten(d.GetStr(fd, "name")), pair[0], pair[2])
				}
			}
		}
	}
	return nil
}

func checkGeminiGenerationConfig(p *rules.Pass, d *capture.Doc, gc capture.Node) {
	if stops := d.GetAny(gc, "stopSequences", "stop_sequences"); d.Kind(stops) == capture.Array && d.Len(stops) > maxGeminiStopSequences {
		p.Reportf(d.Pointer(d.Elem(stops, maxGeminiStopSequences)), "%d stopSequences, at most %d are allowed", d.Len(stops), maxGeminiStopSequences)
	}
	t := d.Get(gc, "temperature")
	if v, ok := number(d, t); ok && (v < 0 || v > maxGeminiTemperature) {
		p.Reportf(d.Pointer(t), "temperature %s is outside 0.0 to 2.0", fmtNum(v))
	}
	if lp := d.Get(gc, "logprobs"); present(d, lp) {
		if d.Kind(d.GetAny(gc, "responseLogprobs", "response_logprobs")) != capture.True {
			p.Reportf(d.Pointer(lp), "logprobs is only valid with responseLogprobs: true")
		} else if v, ok := number(d, lp); ok && (v < 0 || v > maxGeminiLogprobs) {
			p.Reportf(d.Pointer(lp), "logprobs %s is outside 0 to %d", fmtNum(v), maxGeminiLogprobs)
		}
	}
	if rs := d.GetAny(gc, "responseSchema", "response_schema"); present(d, rs) {
		mt := d.GetAny(gc, "responseMimeType", "response_mime_type")
		if !d.StrIs(mt, "application/json") && !d.StrIs(mt, "text/x.enum") {
			what := "none is set"
			if d.Kind(mt) == capture.String {
				what = "not " + shorten(d.Str(mt))
			}
			p.Reportf(d.Pointer(rs), "responseSchema needs responseMimeType application/json or text/x.enum, %s", what)
		}
	}
}
