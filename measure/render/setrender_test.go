package render

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/measure"
)

// unpricedConversation is a two-turn conversation of a model without a
// price, the second turn reading the first from the cache.
func unpricedConversation() *measure.Conversation {
	cv := &measure.Conversation{Tokens: measure.ConvTokens{Encoding: "test-quarter-bytes"}}
	for i, in := range []int{1200, 1500} {
		t := measure.ConvTurn{Turn: i + 1, Capture: "logs/proxy.jsonl#" + []string{"2", "5"}[i], Provider: "openai-chat", Model: "house-model-7"}
		for _, s := range []*measure.Side{&t.Before, &t.After} {
			s.Input, s.Bytes = in, 4*in
			if i > 0 {
				s.Cached = 1200
			}
			s.Uncached = s.Input - s.Cached
		}
		cv.Turns = append(cv.Turns, t)
	}
	total(cv)
	return cv
}

// goldenSet is two conversations: the synthetic session of the HTML
// tests cut to 12 turns (priced, a rule break on turn 2) and an unpriced
// one found by session id.
func goldenSet() *measure.ConversationSet {
	threads := []measure.Thread{
		{Name: "2025-11-30T09-12-44-512Z_0199ad2e-7c1b-7d4a.jsonl", FoundBy: measure.FoundBySession},
		{Name: "proxy.jsonl#2", FoundBy: measure.FoundByID, ID: "0199ad2e-7c1b"},
	}
	return measure.NewConversationSet(threads, []*measure.Conversation{longConversation(12), unpricedConversation()})
}

// TestConversationSetGoldens renders two conversations in every format
// (go test ./measure/render -run ConversationSetGoldens -update
// rewrites them).
func TestConversationSetGoldens(t *testing.T) {
	set := goldenSet()
	for name, write := range map[string]func(*bytes.Buffer) error{
		"conversations.txt":  func(b *bytes.Buffer) error { return WriteConversationsText(b, set) },
		"conversations.json": func(b *bytes.Buffer) error { return WriteConversationsJSON(b, set) },
		"conversations.md":   func(b *bytes.Buffer) error { return WriteConversationsMarkdown(b, set) },
		"conversations.html": func(b *bytes.Buffer) error { return WriteConversationsHTML(b, set) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", name+".golden"), b.Bytes())
	}
}

// TestConversationSetTotal: a summary row is its conversation's total;
// the grand total counts every turn, sums the costs of the priced ones
// and names the others, and sums the rule breaks.
func TestConversationSetTotal(t *testing.T) {
	set := goldenSet()
	a, b := set.Conversations[0].Conversation, set.Conversations[1].Conversation
	for i, cv := range []*measure.Conversation{a, b} {
		r := set.Summary.Conversations[i]
		if r.Conversation != i+1 || r.Turns != cv.Total.Turns || r.Before.Input != cv.Total.Before.Input || r.After.Input != cv.Total.After.Input ||
			r.After.Breaks != cv.Total.After.Breaks || r.RuleBreaks != cv.Total.RuleBreaks || r.PricedTurns != cv.Total.PricedTurns {
			t.Errorf("row %d: %+v, total %+v", i+1, r, cv.Total)
		}
	}
	tot := set.Summary.Total
	if tot.Turns != 14 || tot.PricedTurns != 12 || len(tot.Unpriced) != 1 || tot.Unpriced[0] != (measure.Unpriced{Model: "house-model-7", Turns: 2}) {
		t.Errorf("total: %d turns, %d priced, unpriced %+v", tot.Turns, tot.PricedTurns, tot.Unpriced)
	}
	if tot.Before.Input != a.Total.Before.Input+b.Total.Before.Input || tot.After.Cached != a.Total.After.Cached+b.Total.After.Cached {
		t.Errorf("total tokens %+v", tot)
	}
	if tot.Before.Cost == nil || math.Abs(*tot.Before.Cost-*a.Total.Before.Cost) > 1e-12 || math.Abs(*tot.After.Cost-*a.Total.After.Cost) > 1e-12 {
		t.Errorf("total cost %v → %v, want the priced conversation's", Cost(tot.Before.Cost), Cost(tot.After.Cost))
	}
	if tot.RuleBreaks != 1 || tot.After.Breaks != a.Total.After.Breaks {
		t.Errorf("total breaks %d, by a rule %d", tot.After.Breaks, tot.RuleBreaks)
	}
	var text bytes.Buffer
	if err := WriteConversationsText(&text, set); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "for 12 of 14 turns; 2 turns of house-model-7 have no price") {
		t.Errorf("the grand total does not say which turns are unpriced:\n%s", text.String())
	}
	// JSON: the conversations as one conversation's report, and the
	// summary.
	var js bytes.Buffer
	if err := WriteConversationsJSON(&js, set); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Conversations []struct {
			Name      string             `json:"name"`
			FoundBy   string             `json:"found_by"`
			SessionID string             `json:"session_id"`
			Turns     []measure.ConvTurn `json:"turns"`
			Total     measure.ConvTotal  `json:"total"`
		} `json:"conversations"`
		Summary measure.SetSummary `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Conversations) != 2 || got.Conversations[1].SessionID != "0199ad2e-7c1b" || len(got.Conversations[0].Turns) != 12 ||
		got.Conversations[1].Total.Turns != 2 || got.Summary.Total.Turns != 14 {
		t.Errorf("JSON: %s", js.String())
	}
}

// TestConversationSetEscapes: a conversation's name and session id come
// from the captures and are escaped in every format.
func TestConversationSetEscapes(t *testing.T) {
	set := measure.NewConversationSet([]measure.Thread{
		{Name: "a\x1b]0;pwn\a|<b>*x*</b>.json", FoundBy: measure.FoundByPrefix},
		{Name: "b.json", FoundBy: measure.FoundByID, ID: "id\x1b[2J<i>|"},
	}, []*measure.Conversation{unpricedConversation(), unpricedConversation()})
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WriteConversationsText(b, set) },
		"markdown": func(b *bytes.Buffer) error { return WriteConversationsMarkdown(b, set) },
		"html":     func(b *bytes.Buffer) error { return WriteConversationsHTML(b, set) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\x1b\a") {
			t.Errorf("%s: a control character got through", name)
		}
		if name != "text" && (strings.Contains(out, "<b>") || strings.Contains(out, "<i>")) {
			t.Errorf("%s: markup got through:\n%s", name, out)
		}
		if name == "markdown" && strings.Contains(out, "<b>|") {
			t.Errorf("markdown: a pipe splits the cell")
		}
	}
}
