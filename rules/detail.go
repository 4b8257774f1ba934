package rules

import "encoding/json"

// Detail is a rule's own section of measure's report on one capture: what
// the rule has to say beyond the bytes it saved (the catalog replay of the
// catalog rules, the deferred tools of tool deferral). A rule provides it
// through Rule.Detail; measure knows no rule family by name.
type Detail struct {
	// Key names the section: its member in JSON output ("catalog") and
	// its heading in text.
	Key string
	// JSON is the section as JSON, with field names the rule documents.
	JSON json.RawMessage
	// Text is the section as text, one or more lines each ending in "\n".
	Text string
	// Markdown is the section as Markdown; Text is used when empty.
	Markdown string
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
