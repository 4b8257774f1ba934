package rules

// Detail is a rule's own section of measure's report on one capture: what
// the rule has to say beyond the bytes it saved (the catalog replay of the
// catalog rules, the deferred tools of tool deferral). A rule provides it
// through Rule.Detail; measure knows no rule family by name.
type Detail struct {
	// Key names the section: its member in JSON output ("catalog") and
	// its heading in text.
	Key string
	// Data is the section's figures. JSON output writes it as it is, with
	// the field names the rule documents; text and Markdown read it when
	// the report is printed.
	Data Section
	// Warnings are what the reader must know about the result, one line
	// each ("the compact index dropped the intents of 202 of 365 skills
	// under catalog.budget_chars = 12000"); measure shows them beside the
	// savings.
	Warnings []string
	// Next are actions that would save more on this capture, each with the
	// saving measured on it; measure names the largest as next steps.
	Next []Suggestion
}

// Section is the data of a rule's section and how people read it.
type Section interface {
	// Text is the section for a terminal, one or more lines each ending
	// in "\n".
	Text() string
	// Markdown is the section as Markdown ("" for its text).
	Markdown() string
}

// Suggestion is an action a rule proposes and what it would save on the
// capture measured, computed from the capture, never estimated from
// averages.
type Suggestion struct {
	// Rule is the rule the action enables or tunes.
	Rule string `json:"rule"`
	// Action is what to do, a command or a setting: "run `skillopt catalog
	// init --skills DIR`, then set catalog.profile".
	Action string `json:"action"`
	// Effect says what changes: "the tag directory would cut the catalog
	// from 41.2 KiB to ~3.1 KiB".
	Effect string `json:"effect"`
	// SavedBytes and SavedTokens are the saving beyond what the pipeline
	// already saves (tokens 0 when counting is off).
	SavedBytes  int `json:"saved_bytes"`
	SavedTokens int `json:"saved_tokens"`
}

// DetailInput is what a rule's Detail function sees: the pipeline result
// its step belongs to and what measure was asked.
type DetailInput struct {
	Rule    *Rule
	Result  *Result
	Options Options // the rule's configured options
	Env     *Env
	// Count returns the tokens of each text; nil when counting is off.
	Count func(texts []string) []int
	// Replay is the number of follow-up requests in cumulative replays.
	Replay int
}
