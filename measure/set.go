package measure

// ConversationSet is the report of several conversations found among the
// inputs (Split): each conversation's report, then a summary of them.
type ConversationSet struct {
	Conversations []NamedConversation `json:"conversations"`
	Summary       SetSummary          `json:"summary"`
}

// NamedConversation is one conversation's report with how it was found.
type NamedConversation struct {
	Name      string `json:"name"`
	FoundBy   string `json:"found_by"`
	SessionID string `json:"session_id,omitempty"`
	// Parent links a subagent's conversation to its session.
	Parent string `json:"parent,omitempty"`
	*Conversation
}

// SetSummary is one row per conversation and the grand total: every
// turn of every conversation, the costs summed over the priced turns
// (Total.PricedTurns, Total.Unpriced).
type SetSummary struct {
	Conversations []SummaryRow `json:"conversations"`
	Total         ConvTotal    `json:"total"`
}

// SummaryRow sums one conversation.
type SummaryRow struct {
	Conversation int         `json:"conversation"`
	Name         string      `json:"name"`
	FoundBy      string      `json:"found_by"`
	Turns        int         `json:"turns"`
	Before       SummarySide `json:"before"`
	After        SummarySide `json:"after"`
	Saved        *float64    `json:"saved"`
	RuleBreaks   int         `json:"rule_breaks"`
	PricedTurns  int         `json:"priced_turns"`
	Unpriced     []Unpriced  `json:"unpriced,omitempty"`
}

// SummarySide is one side of a conversation's total.
type SummarySide struct {
	Input  int      `json:"input"`
	Cost   *float64 `json:"cost"`
	Breaks int      `json:"prefix_breaks"`
}

// NewConversationSet puts the reports of the conversations threads were
// found to be together and sums them.
func NewConversationSet(threads []Thread, convs []*Conversation) *ConversationSet {
	set := &ConversationSet{Conversations: make([]NamedConversation, len(convs)), Summary: SetSummary{Conversations: make([]SummaryRow, len(convs))}}
	all := &Conversation{}
	for i, cv := range convs {
		th := threads[i]
		set.Conversations[i] = NamedConversation{Name: th.Name, FoundBy: th.FoundBy, SessionID: th.ID, Parent: th.Parent, Conversation: cv}
		t := cv.Total
		set.Summary.Conversations[i] = SummaryRow{Conversation: i + 1, Name: th.Name, FoundBy: th.FoundBy, Turns: t.Turns,
			Before: SummarySide{Input: t.Before.Input, Cost: t.Before.Cost, Breaks: t.Before.Breaks},
			After:  SummarySide{Input: t.After.Input, Cost: t.After.Cost, Breaks: t.After.Breaks},
			Saved:  t.Saved, RuleBreaks: t.RuleBreaks, PricedTurns: t.PricedTurns, Unpriced: t.Unpriced}
		all.Turns = append(all.Turns, cv.Turns...)
		all.Total.RuleBreaks += t.RuleBreaks
	}
	all.total()
	set.Summary.Total = all.Total
	return set
}
