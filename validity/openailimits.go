package validity

import (
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// OpenAI's documented limits on metadata.
const (
	maxMetadataPairs    = 16
	maxMetadataKeyLen   = 64
	maxMetadataValueLen = 512
)

// OpenAIValueLimits checks OpenAI values whose form or size the API
// reference fixes and the schema does not hold.
var OpenAIValueLimits = &rules.Rule{
	ID:       "SO530",
	Title:    "OpenAI response-format names and metadata within their limits",
	Why:      "OpenAI rejects a json_schema response format whose name has other characters or is too long, and metadata beyond its documented size, so the request fails.",
	Since:    rules.FirstVersion,
	Name:     "request.openai-value-limits",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Some OpenAI values have a form or size the API reference fixes. " +
		"The name of a json_schema response format (Chat response_format.json_schema.name, Responses text.format.name) " +
		"is 1 to 64 characters of a-z, A-Z, 0-9, _ and -. " +
		"metadata holds at most 16 pairs, each key at most 64 characters and each value a string of at most 512. " +
		"Only requests to OpenAI's own endpoint (or none) are checked. " +
		"Source: OpenAI's OpenAPI spec, ResponseFormatJsonSchema.json_schema.name and TextResponseFormatJsonSchema.name " +
		"(\"Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64\") and Metadata " +
		"(\"Set of 16 key-value pairs … Keys are strings with a maximum length of 64 characters. Values are strings with a maximum length of 512 characters\").",
	Run: runOpenAIValueLimits,
}

func runOpenAIValueLimits(p *rules.Pass) error {
	if _, ok := openAIServer(p.Capture); !ok {
		return nil
	}
	d := p.Capture.Doc
	var name capture.Node
	if p.Capture.Provider == capture.OpenAIChat {
		if rf := d.Get(0, "response_format"); d.StrIs(d.Get(rf, "type"), "json_schema") {
			name = d.Get(d.Get(rf, "json_schema"), "name")
		}
	} else if f := d.Get(d.Get(0, "text"), "format"); d.StrIs(d.Get(f, "type"), "json_schema") {
		name = d.Get(f, "name")
	}
	if d.Kind(name) == capture.String && !openAIName.MatchString(d.Str(name)) {
		p.Reportf(d.Pointer(name), "response format name %q must be 1 to 64 characters of a-z, A-Z, 0-9, _ and -", shorten(d.Str(name)))
	}
	md := d.Get(0, "metadata")
	if d.Kind(md) != capture.Object {
		return nil
	}
	n := 0
	for v := range d.Children(md) {
		n++
		if n == maxMetadataPairs+1 {
			p.Reportf(d.Pointer(v), "metadata holds %d pairs, at most %d are allowed", d.Len(md), maxMetadataPairs)
		}
		if k := d.Key(v); utf8.RuneCountInString(k) > maxMetadataKeyLen {
			p.Reportf(d.Pointer(v), "metadata key %q is longer than %d characters", shorten(k), maxMetadataKeyLen)
		}
		if d.Kind(v) == capture.String && utf8.RuneCountInString(d.Str(v)) > maxMetadataValueLen {
			p.Reportf(d.Pointer(v), "metadata value is %d characters, at most %d are allowed", utf8.RuneCountInString(d.Str(v)), maxMetadataValueLen)
		}
	}
	return nil
}
