package catalogrules

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
)

// embedded is one native skill catalog found in a capture's system text:
// the segment holding it, its decoded text and its skills.
type embedded struct {
	Segment capture.Segment // the catalog's bytes (preamble and block)
	Text    string          // the decoded catalog text
	Skills  []catalog.Skill
}

// fromCapture returns the native catalogs of a capture, in body order.
func fromCapture(c *capture.Capture) []embedded {
	var out []embedded
	for _, s := range c.Segments() {
		if s.Kind != capture.SecCatalog {
			continue
		}
		text := c.SegmentText(s)
		out = append(out, embedded{Segment: s, Text: text, Skills: catalog.ParsePiCatalog(text)})
	}
	return out
}

// allSkills returns the skills of every catalog, in order.
func allSkills(cats []embedded) []catalog.Skill {
	var out []catalog.Skill
	for _, e := range cats {
		out = append(out, e.Skills...)
	}
	return out
}

// SearchTool is the provider-neutral declaration of catalog.SearchToolName,
// which SO101 declares in place of the native catalog.
func SearchTool() capture.ToolSpec {
	return capture.ToolSpec{
		Name:        catalog.SearchToolName,
		Description: "Skills: search (query), browse (tags, match any|all, cursor), load (name), resource (name, path), location (name).",
		Parameters: []byte(`{"type":"object","properties":{` +
			`"action":{"enum":["search","browse","load","resource","location"]},` +
			`"query":{"type":"string"},"name":{"type":"string"},` +
			`"tags":{"type":"array","items":{"type":"string"}},` +
			`"match":{"enum":["any","all"]},"path":{"type":"string"},"cursor":{"type":"string"}},` +
			`"required":["action"]}`),
	}
}
