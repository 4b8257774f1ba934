package render

import (
	"bytes"
	"fmt"
	"github.com/skillopt/skillopt/measure/internal/convtest"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
)

// The shared conversation fixtures (measure/internal/convtest), under the
// names these tests use.
type (
	quarters = convtest.Quarters
)

var (
	longText       = convtest.LongText
	anthropicTurns = convtest.AnthropicTurns
	readBody       = convtest.ReadBody
	unchanged      = convtest.Unchanged
	trimSystem     = convtest.TrimSystem
)

func converse(t *testing.T, reqs []measure.Request, opts measure.ConversationOptions) *measure.Conversation {
	t.Helper()
	if opts.Counter == nil {
		opts.Counter = quarters{}
		opts.Encoding = "test-quarter-bytes"
	}
	cv, err := measure.Converse(reqs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return cv
}

// TestConversationGoldens renders one conversation in every format
// (go test ./measure/render -run ConversationGoldens -update
// rewrites them).
func TestConversationGoldens(t *testing.T) {
	cv := goldenConversation(t)
	for name, write := range map[string]func(*bytes.Buffer) error{
		"conversation.txt":  func(b *bytes.Buffer) error { return WriteConversationText(b, cv) },
		"conversation.json": func(b *bytes.Buffer) error { return WriteConversationJSON(b, cv) },
		"conversation.md":   func(b *bytes.Buffer) error { return WriteConversationMarkdown(b, cv) },
		"conversation.html": func(b *bytes.Buffer) error { return WriteConversationHTML(b, cv) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", name+".golden"), b.Bytes())
	}
}

// goldenConversation is a three-turn conversation whose second turn the
// test rule breaks, with provider usage on the last turn.
func goldenConversation(t *testing.T) *measure.Conversation {
	t.Helper()
	pipeline := []*rules.Rule{trimSystem}
	var reqs []measure.Request
	for i, b := range anthropicTurns(3, longText("The coding agent", 6000)) {
		c := readBody(t, []string{"turn-1.json", "turn-2.json", "turn-10.json"}[i], b)
		res, err := rules.Run(c, pipeline, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := measure.Request{Name: c.Name, Result: res, Vendor: "anthropic", Model: "claude-sonnet-4-5"}
		if i == 2 {
			r.Usage = measure.ResponseUsage([]byte(`{"type":"message","usage":{"input_tokens":12,"cache_read_input_tokens":2800,"cache_creation_input_tokens":700,"output_tokens":150}}`))
		}
		reqs = append(reqs, r)
	}
	rerun := func(c *capture.Capture, part []*rules.Rule) (*capture.Capture, error) {
		res, err := rules.Run(c, part, nil)
		if err != nil {
			return nil, err
		}
		return res.Final, nil
	}
	return converse(t, reqs, measure.ConversationOptions{Pipeline: pipeline, Rerun: rerun})
}

// ttlRequests are the golden conversation's requests through the test
// rule, the third ten minutes after the second and reading nothing from
// the cache.
func ttlRequests(t *testing.T) []measure.Request {
	t.Helper()
	pipeline := []*rules.Rule{trimSystem}
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	var reqs []measure.Request
	for i, b := range anthropicTurns(3, longText("The coding agent", 6000)) {
		c := readBody(t, fmt.Sprintf("turn-%d.json", i+1), b)
		res, err := rules.Run(c, pipeline, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := measure.Request{Name: c.Name, Result: res, Vendor: "anthropic", Model: "claude-sonnet-4-5", Time: start.Add(time.Duration(i*i) * 5 * time.Minute / 2)}
		if i == 2 {
			r.Usage = measure.ResponseUsage([]byte(`{"type":"message","usage":{"input_tokens":12,"cache_read_input_tokens":0,"cache_creation_input_tokens":3500,"output_tokens":150}}`))
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// TestUnknownModelText: the text report of a model without a price shows
// its costs as unavailable, never as $0.
func TestUnknownModelText(t *testing.T) {
	var reqs []measure.Request
	for _, b := range anthropicTurns(2, longText("x", 5000)) {
		b.Model = "my-own-claude"
		c := readBody(t, "turn.json", b)
		reqs = append(reqs, measure.Request{Name: c.Name, Result: unchanged(c), Vendor: "anthropic", Model: "my-own-claude"})
	}
	cv := converse(t, reqs, measure.ConversationOptions{})
	if cv.Total.Before.Cost != nil {
		t.Fatalf("total cost of an unknown model: %+v", cv.Total)
	}
	var b bytes.Buffer
	if err := WriteConversationText(&b, cv); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "n/a → n/a") || strings.Contains(b.String(), "$0.0000") {
		t.Errorf("text report:\n%s", b.String())
	}
}

// TestPartlyPricedReports: with some turns of a model without a price,
// every report names the turns its costs cover.
func TestPartlyPricedReports(t *testing.T) {
	var reqs []measure.Request
	for i, b := range anthropicTurns(3, longText("x", 5000)) {
		model := "claude-sonnet-4-5"
		if i == 1 {
			model = "my-own-claude"
		}
		b.Model = model
		c := readBody(t, "turn.json", b)
		reqs = append(reqs, measure.Request{Name: c.Name, Result: unchanged(c), Vendor: "anthropic", Model: model})
	}
	cv := converse(t, reqs, measure.ConversationOptions{})
	if tot := cv.Total; tot.PricedTurns != 2 || len(tot.Unpriced) != 1 {
		t.Fatalf("priced %d, unpriced %+v", tot.PricedTurns, tot.Unpriced)
	}
	note := "for 2 of 3 turns; 1 turn of my-own-claude has no price (add the model under [prices] in skillopt.toml)"
	for name, w := range map[string]func(io.Writer, *measure.Conversation) error{"text": WriteConversationText, "markdown": WriteConversationMarkdown, "html": WriteConversationHTML} {
		var b bytes.Buffer
		if err := w(&b, cv); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), note) && !strings.Contains(b.String(), escape.Markdown(note)) {
			t.Errorf("%s report does not say which turns are priced:\n%s", name, b.String())
		}
	}
}

// TestCachedSectionsText: the golden conversation's second turn reads the
// whole first request from the cache, described by its sections.
func TestCachedSectionsText(t *testing.T) {
	cv := goldenConversation(t)
	if got := sectionsText(cv.Turns[1].Cached); got != "system 1,502 (83 %), human 243 (13 %), tools 62 (3 %)" {
		t.Errorf("turn 2: %s", got)
	}
}

// TestTopRulesText: the bill says what the rules would make of the turn
// of the top event, an avoidable ttl-expired on turn 3, and that without
// rules they change none.
func TestTopRulesText(t *testing.T) {
	reqs := ttlRequests(t)
	cv := converse(t, reqs, measure.ConversationOptions{})
	if r := cv.Bill.TopRules; r == nil || len(r.Turns) != 1 || r.Turns[0] != 3 {
		t.Fatalf("top rules %+v, want turn 3 changed", r)
	}
	turn := cv.Turns[2]
	_, head, _ := billLines(cv)
	if want := "the rules change turn 3: predicted " + Cost(turn.Before.Cost) + " → " + Cost(turn.After.Cost); !strings.Contains(head, want) {
		t.Errorf("head %q lacks %q", head, want)
	}
	for i := range reqs {
		reqs[i].Result = unchanged(reqs[i].Result.Original)
	}
	cv = converse(t, reqs, measure.ConversationOptions{})
	if _, head, _ := billLines(cv); !strings.HasSuffix(head, "the rules change none of these turns") {
		t.Errorf("head %q", head)
	}
}

// total sums the turns of a conversation built by hand into its Total,
// as measure sums them: the grand total of a set of this one conversation.
func total(cv *measure.Conversation) {
	cv.Total = measure.NewConversationSet([]measure.Thread{{}}, []*measure.Conversation{cv}).Summary.Total
}
