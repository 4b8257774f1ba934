package measure_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/tokens"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
)

// Every turn of a real Claude Code session whose cache read collapses
// (to under nine tenths, less 256 tokens, of what the turn before it left
// cached) is explained by a kind other than growth, and a ttl-expired one names
// its pause.
func TestCacheCollapsesExplained(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "sessions", "claude-code")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, pattern := range []string{"*/*.jsonl", "*/*/*.jsonl", "*/*/*/*.jsonl"} {
		sub, _ := filepath.Glob(filepath.Join(dir, pattern))
		paths = append(paths, sub...)
	}
	if len(paths) == 0 {
		t.Skip("no Claude Code sessions under ../shared/corpus/sessions/claude-code")
	}
	counter, err := tokens.New("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	collapses := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := capture.Read(filepath.Base(path), data, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ins, _ := measure.Inputs([]*capture.File{f})
		for _, th := range measure.Split(ins) {
			reqs, err := measure.Requests(th.Inputs, func(c *capture.Capture) *rules.Result { return &rules.Result{Original: c, Final: c} })
			if err != nil {
				t.Fatal(err)
			}
			cv, err := measure.Converse(reqs, measure.ConversationOptions{Encoding: "o200k_base", Counter: counter})
			if err != nil {
				t.Fatal(err)
			}
			held := -1 // what the turn before left cached
			for _, turn := range cv.Turns {
				u := turn.Bill
				if h := held; h >= 1024 && u.Source == "provider" && u.Read < h*9/10-256 {
					collapses++
					e := turn.Event
					if e == nil || e.Kind == measure.EventGrowth || e.Kind == measure.EventColdStart {
						t.Errorf("%s turn %d: read %d of %d, explained as %v", turn.Capture, turn.Turn, u.Read, h, e)
					} else if e.Kind == measure.EventTTL && !strings.Contains(e.Detail, " after turn ") {
						t.Errorf("%s turn %d: ttl-expired without its pause: %s", turn.Capture, turn.Turn, e.Detail)
					} else {
						t.Logf("%s turn %d: %s: %s", turn.Capture, turn.Turn, e.Kind, e.Detail)
					}
				}
				held = u.Read + u.Written
			}
		}
	}
	t.Logf("%d collapses in %d files", collapses, len(paths))
}

// The claude-trace log of a Claude Code session, read as one
// conversation: the Sonnet loop is the main chain, the Haiku requests
// and the conversation-summarising request are side chains of their own,
// and the summarising request's cold start names where its system prompt
// departs from the loop's, behind its own tools.
func TestClaudeTraceSideRequests(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "corpus", "sessions", "claude-trace", "lemmy-test-traffic.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no claude-trace log: %v", err)
	}
	counter, err := tokens.New("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	f, err := capture.Read(filepath.Base(path), data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ins, errs := measure.Inputs([]*capture.File{f})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	reqs, err := measure.Requests(ins, func(c *capture.Capture) *rules.Result { return &rules.Result{Original: c, Final: c} })
	if err != nil {
		t.Fatal(err)
	}
	cv, err := measure.Converse(reqs, measure.ConversationOptions{Encoding: "o200k_base", Counter: counter})
	if err != nil {
		t.Fatal(err)
	}
	main := 0
	for _, c := range cv.Chains {
		if c.Role == "main" {
			main = c.Chain
			if !strings.HasPrefix(c.Model, "claude-sonnet-4") {
				t.Errorf("main chain %d is of %s", c.Chain, c.Model)
			}
		}
	}
	summary := 0
	for _, turn := range cv.Turns {
		if strings.Contains(turn.Model, "haiku") && turn.Chain == main {
			t.Errorf("turn %d (%s) is in the main chain", turn.Turn, turn.Model)
		}
		if u := turn.Usage; u != nil && u.Cached == 0 && u.Written > 10000 && turn.Chain != main {
			summary++
			e := turn.Event
			if e.Kind != measure.EventColdStart || !strings.Contains(e.Detail, "system prompt (from /system/1/text") {
				t.Errorf("the summarising request, turn %d: %s: %s", turn.Turn, e.Kind, e.Detail)
			}
		}
	}
	if summary != 1 {
		t.Errorf("%d summarising requests, want 1", summary)
	}
	if cv.Cached == nil || cv.Cached.Turns != len(cv.Turns) || cv.Cached.Read != cv.Bill.Read {
		t.Errorf("cached prefix %+v, bill read %d", cv.Cached, cv.Bill.Read)
	}
}
