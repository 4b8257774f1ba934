package catalog

import "github.com/skillopt/skillopt/capture"

// SearchToolName is the tool through which a model reaches skills once the
// native catalog is replaced.
const SearchToolName = "skill_search"

// SearchTool is the provider-neutral declaration of skill_search.
func SearchTool() capture.ToolSpec {
	return capture.ToolSpec{
		Name:        SearchToolName,
		Description: "Skills: search (query), browse (tags, match any|all, cursor), load (name), resource (name, path), location (name).",
		Parameters: []byte(`{"type":"object","properties":{` +
			`"action":{"enum":["search","browse","load","resource","location"]},` +
			`"query":{"type":"string"},"name":{"type":"string"},` +
			`"tags":{"type":"array","items":{"type":"string"}},` +
			`"match":{"enum":["any","all"]},"path":{"type":"string"},"cursor":{"type":"string"}},` +
			`"required":["action"]}`),
	}
}
