package route

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse: any bytes give either settings every decision can use or
// positioned errors, never a panic, and the same answer twice.
func FuzzParse(f *testing.F) {
	f.Add([]byte(fullBlock))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"auggieRouter": {"historyWindow": 0, "executionRouting": {"models": {"cheap": null}}}}`))
	f.Add([]byte(`{"auggieRouter": {"contextBudgets": {"enabled": true, "overflowCeilingBytes": {"frontier": 1}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		s, err := Parse("f.json", data)
		again, err2 := Parse("f.json", data)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("two parses differ: %v / %v", err, err2)
		}
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %T %v is not a list of positioned errors", err, err)
			}
			for _, e := range es {
				if e.Line < 1 || e.Col < 1 || !strings.HasPrefix(e.Error(), "f.json:") {
					t.Fatalf("error without a position: %q", e.Error())
				}
			}
			return
		}
		if s == nil || again == nil {
			t.Fatal("no settings and no error")
		}
		if s.HistoryWindow < 1 || s.MaxJudgeIterations < 0 || s.MaxJudgeIterations > 2 || s.OverflowCeilingBytes < 1 ||
			s.SubAgentTemperature < 0 || s.SubAgentTemperature > 2 {
			t.Fatalf("a value out of range was accepted: %+v", s)
		}
		for _, tier := range Tiers {
			for _, risk := range Risks {
				d, err := Choose(s, "", Judgement{Tier: tier, Complexity: Medium, Risk: risk, Confidence: 0.5})
				var refused *DisallowedProviderError
				if err != nil && !errors.As(err, &refused) {
					t.Fatalf("Choose: %v", err)
				}
				if err == nil && strings.Count(d.Model, "/") < 2 {
					t.Fatalf("model %q is not fully qualified", d.Model)
				}
				if b := ContextBudget(s, BudgetTier(s, d, DefaultJudgement)); b.OverflowCeilingBytes < 1 {
					t.Fatalf("budget %+v", b)
				}
			}
		}
	})
}
