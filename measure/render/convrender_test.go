package render

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// quarters is a deterministic stand-in tokenizer: one token per four
// bytes, rounded up.
type quarters struct{}

func (quarters) CountAll(texts []string) []int {
	out := make([]int, len(texts))
	for i, t := range texts {
		out[i] = (len(t) + 3) / 4
	}
	return out
}

// Anthropic request bodies, members in the order a client might write
// them (system before tools), which is not the order a cache reads them.
type aCache struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}
type aBlock struct {
	Type         string  `json:"type"`
	Text         string  `json:"text"`
	CacheControl *aCache `json:"cache_control,omitempty"`
}
type aMsg struct {
	Role    string   `json:"role"`
	Content []aBlock `json:"content"`
}
type aTool struct {
	Name         string  `json:"name"`
	Description  string  `json:"description"`
	InputSchema  any     `json:"input_schema"`
	CacheControl *aCache `json:"cache_control,omitempty"`
}
type aBody struct {
	Model     string   `json:"model"`
	MaxTokens int      `json:"max_tokens"`
	System    []aBlock `json:"system"`
	Tools     []aTool  `json:"tools"`
	Messages  []aMsg   `json:"messages"`
}

var ephemeral = &aCache{Type: "ephemeral"}

// longText is prose of about n bytes.
func longText(seed string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(seed)
		b.WriteString(" keeps the project's conventions in mind and answers briefly. ")
	}
	return b.String()
}

// anthropicTurns builds the requests of a conversation of n turns: a stable
// system prompt and tools, a breakpoint on the system prompt and one on the
// last message, moved forward each turn as a client does.
func anthropicTurns(n int, system string) []aBody {
	tools := []aTool{
		{Name: "read", Description: "Read a file from the working tree.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]string{"type": "string"}}}},
		{Name: "run", Description: "Run a shell command and return its output.", InputSchema: map[string]any{"type": "object"}, CacheControl: ephemeral},
	}
	var out []aBody
	var msgs []aMsg
	for i := 0; i < n; i++ {
		if i > 0 {
			msgs = append(msgs, aMsg{Role: "assistant", Content: []aBlock{{Type: "text", Text: longText("The assistant", 300)}}})
		}
		msgs = append(msgs, aMsg{Role: "user", Content: []aBlock{{Type: "text", Text: longText("The user asks again", 900)}}})
		cp := make([]aMsg, len(msgs))
		for k, m := range msgs {
			cp[k] = aMsg{Role: m.Role, Content: append([]aBlock(nil), m.Content...)}
		}
		last := &cp[len(cp)-1].Content[0]
		last.CacheControl = ephemeral
		out = append(out, aBody{Model: "claude-sonnet-4-5", MaxTokens: 1024,
			System: []aBlock{{Type: "text", Text: system, CacheControl: ephemeral}}, Tools: tools, Messages: cp})
	}
	return out
}

func readBody(t *testing.T, name string, body any) *capture.Capture {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	f, err := capture.Read(name, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// unchanged is a pipeline result of no rules.
func unchanged(c *capture.Capture) *rules.Result { return &rules.Result{Original: c, Final: c} }

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

// trimSystem is a transform rule for the tests: on requests with more than
// one message it shortens the system prompt, which sits before the
// messages in every cache.
var trimSystem = &rules.Rule{
	ID: "SO998", Name: "test.trim-system", Kind: rules.Transform, Severity: rules.Info,
	Doc:    "Shortens the system prompt of later turns.",
	Engine: rules.Engine{Lossy: true},
	Run: func(p *rules.Pass) error {
		d := p.Capture.Doc
		if d.Len(d.Get(0, "messages")) < 2 {
			return nil
		}
		text := d.Get(d.Elem(d.Get(0, "system"), 0), "text")
		p.Edit(rules.Edit{Pointer: d.Pointer(text), NewJSON: capture.Quote(d.Str(text)[:1000])})
		return nil
	},
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
