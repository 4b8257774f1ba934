package catalog

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/skillopt/skillopt/internal/rank"
)

// Use is one recorded load of a skill: a run of it in an execution trace
// or a Pi session.
type Use struct {
	Skill string
	At    time.Time // zero when the record has no time
}

// Usage is decayed usage evidence: each skill's uses, each weighted by
// its age (see UsageHalfLife), summed. Search ranks the skills a query
// found by it as one more list of the fusion.
type Usage map[string]float64

// UsageHalfLife is the age at which a use counts half: a skill used
// today counts 1, one used two weeks ago 0.5, four weeks ago 0.25. A use
// without a time, or dated after now, counts 1.
const UsageHalfLife = 14 * 24 * time.Hour

// DecayUsage weighs uses by their age at now.
func DecayUsage(uses []Use, now time.Time) Usage {
	u := Usage{}
	for _, use := range uses {
		w := 1.0
		if age := now.Sub(use.At); !use.At.IsZero() && age > 0 {
			w = math.Exp2(-float64(age) / float64(UsageHalfLife))
		}
		u[use.Skill] += w
	}
	return u
}

// usageGate is the least relevance (share of the best BM25F score) at
// which a skill's usage counts: usage reorders the skills that match the
// query nearly as well as the best, and no others. Chosen on the tuning
// part of the labelled set, with the usage of half its queries' answers
// measured on the other half (docs/search.md).
const usageGate = 0.9

// usageOrder returns the skills of fused that have usage evidence and
// are named by the query or score usageGate or more, the most used
// first, ties in fused order.
func (s *Snapshot) usageOrder(fused []fusedHit, u Usage, lexical []rank.Hit) []int {
	var out []int
	var weights []float64
	share := map[int]float64{}
	for _, h := range lexical {
		share[h.Doc] = h.Score / lexical[0].Score
	}
	for _, f := range fused {
		if f.why != "exact-name" && share[f.index] < usageGate {
			continue
		}
		if w := u[s.Skills[f.index].Name]; w > 0 {
			out = append(out, f.index)
			weights = append(weights, w)
		}
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(weights[b], weights[a]) })
	ranked := make([]int, len(out))
	for r, i := range order {
		ranked[r] = out[i]
	}
	return ranked
}
