package validity

import "testing"

func TestLookupOpenAI(t *testing.T) {
	for _, tc := range []struct {
		id                       string
		reasoning, noStop, plain bool
	}{
		{"o3", true, true, false},
		{"o3-2025-04-16", true, true, false},
		{"o3-pro", true, true, false},
		{"o3-mini", true, false, false},
		{"o3-mini-2025-01-31", true, false, false},
		{"o4-mini", true, true, false},
		{"o4-mini-2025-04-16", true, true, false},
		{"o1", true, false, false},
		{"gpt-5", true, false, false},
		{"gpt-4o", false, false, true},
		{"gpt-4o-mini-2024-07-18", false, false, true},
		{"gpt-4.1-nano", false, false, true},
		{"gpt-4-turbo", false, false, true},
		{"gpt-4-0613", false, false, true},
		{"gpt-4", false, false, true},
		{"gpt-3.5-turbo", false, false, true},
		{"chatgpt-4o-latest", false, false, true},
		// Not known either way: no model finding.
		{"gpt-4.5-preview", false, false, false},
		{"gpt-5-chat-latest", false, false, false},
		{"codex-mini-latest", false, false, false},
	} {
		m, ok := lookupOpenAI(tc.id)
		if !ok {
			t.Errorf("%s: not an OpenAI model id", tc.id)
			continue
		}
		if m.Reasoning != tc.reasoning || m.NoStop != tc.noStop || m.NonReasoning != tc.plain {
			t.Errorf("%s: reasoning %v, no stop %v, non-reasoning %v; want %v, %v, %v", tc.id, m.Reasoning, m.NoStop, m.NonReasoning, tc.reasoning, tc.noStop, tc.plain)
		}
	}
}
