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
// (to under a tenth of what the turn before it left cached)
// is explained by a kind other than growth, and a ttl-expired one names
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
				if h := held; h >= 1024 && u.Source == "provider" && u.Read < h/10 {
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
