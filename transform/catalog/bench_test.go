package catalogrules

import (
	"fmt"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/rules"
)

// BenchmarkWarmCompact measures warm request preparation: read and index a
// capture, apply SO101 (catalog results cached from an earlier request).
func BenchmarkWarmCompact(b *testing.B) {
	for _, n := range []int{355, 2000, 10000, 100000} {
		body, err := synth.Capture("anthropic", synth.Skills(n, 1), 1)
		if err != nil {
			b.Fatal(err)
		}
		pipeline := []*rules.Rule{CompactIndex}
		// A first request fills the catalog cache; later ones are warm.
		if f, err := capture.Read("c.json", body, capture.Options{}); err == nil {
			rules.Run(f.Captures[0], pipeline, nil)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				f, err := capture.Read("c.json", body, capture.Options{})
				if err != nil {
					b.Fatal(err)
				}
				res, err := rules.Run(f.Captures[0], pipeline, nil)
				if err != nil || !res.Changed() {
					b.Fatal("no change", err)
				}
			}
		})
	}
}
