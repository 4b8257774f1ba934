package route

// BudgetSource says where a run's overflow ceiling came from.
type BudgetSource string

// The budget sources.
const (
	// Static: context budgets are off; the top-level ceiling applies.
	Static BudgetSource = "static"
	// TierBudget: the tier has a ceiling of its own.
	TierBudget BudgetSource = "tier"
	// TierFallback: budgets are on but the tier has none; the top-level
	// ceiling applies.
	TierFallback BudgetSource = "tier-fallback"
)

// Budget is the context budget of one run.
type Budget struct {
	// OverflowCeilingBytes is the largest retrieval result the sub-agent
	// receives whole.
	OverflowCeilingBytes int          `json:"overflow_ceiling_bytes"`
	Tier                 Tier         `json:"tier"`
	Source               BudgetSource `json:"source"`
}

// BudgetTier is the tier that selects a run's budget: the tier of the
// model when adaptive routing chose it; otherwise the Judge's tier, which
// is balanced when adaptive routing is off (the Judge then classifies
// nothing).
func BudgetTier(s *Settings, d Decision, j Judgement) Tier {
	switch {
	case d.Source == FromRouting:
		return d.Tier
	case !s.ExecutionRouting.Enabled:
		return Balanced
	}
	return j.Tier
}

// ContextBudget returns the overflow ceiling a run on tier t gets.
func ContextBudget(s *Settings, t Tier) Budget {
	cb := &s.ContextBudgets
	if !cb.Enabled {
		return Budget{OverflowCeilingBytes: s.OverflowCeilingBytes, Tier: t, Source: Static}
	}
	if n, ok := cb.OverflowCeilingBytes[t]; ok && n > 0 {
		return Budget{OverflowCeilingBytes: n, Tier: t, Source: TierBudget}
	}
	return Budget{OverflowCeilingBytes: s.OverflowCeilingBytes, Tier: t, Source: TierFallback}
}
