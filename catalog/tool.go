package catalog

// SearchToolName is the tool through which a model reaches skills once the
// native catalog is replaced.
const SearchToolName = "skill_search"
