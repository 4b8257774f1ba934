package lint

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

// filterInline silences and marks used what the pairwise definition does:
// a directive covers a finding of one of its rules on one of its lines.
func TestFilterInlineMatchesPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ruleIDs := []string{"SK030", "SK043", "SK063"}
	for round := range 300 {
		var ds, want []*inlineDirective
		for range r.IntN(8) {
			from := 1 + r.IntN(20)
			to := 0
			if r.IntN(3) > 0 {
				to = from + r.IntN(5) - 1 // sometimes before from
			}
			ids := map[string]bool{}
			for _, id := range ruleIDs {
				if r.IntN(2) == 0 {
					ids[id] = true
				}
			}
			if r.IntN(5) == 0 {
				ids = nil // an unknown reference
			}
			ds = append(ds, &inlineDirective{from: from, to: to, ids: ids, ref: "x"})
			want = append(want, &inlineDirective{from: from, to: to, ids: ids, ref: "x"})
		}
		var diags []rules.Diagnostic
		for range r.IntN(15) {
			diags = append(diags, rules.Diagnostic{Rule: ruleIDs[r.IntN(3)], Line: 1 + r.IntN(25)})
		}
		covers := func(dd *inlineDirective, d rules.Diagnostic) bool {
			return dd.ids[d.Rule] && d.Line >= dd.from && (dd.to == 0 || d.Line <= dd.to)
		}
		var kept []rules.Diagnostic
		for _, d := range diags {
			silenced := false
			for _, dd := range want {
				if covers(dd, d) {
					dd.used, silenced = true, true
				}
			}
			if !silenced {
				kept = append(kept, d)
			}
		}
		got, n := filterInline(ds, diags)
		if n != len(diags)-len(kept) || !slices.Equal(got, kept) {
			t.Fatalf("round %d: kept %v (%d dropped), want %v", round, got, n, kept)
		}
		for i := range ds {
			if ds[i].used != want[i].used {
				t.Fatalf("round %d: directive %+v used %v, want %v", round, *ds[i], ds[i].used, want[i].used)
			}
		}
	}
}
