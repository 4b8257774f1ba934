package catalogrules

import (
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/rules"
)

func BenchmarkZZColdCompact10k(b *testing.B) {
	var bodies [][]byte
	for i := 0; i < 12; i++ {
		body, _ := synth.Capture("anthropic", synth.Skills(10000, int64(100+i)), 1)
		bodies = append(bodies, body)
	}
	b.ResetTimer()
	for i := 0; i < b.N && i < len(bodies); i++ {
		f, _ := capture.Read("c.json", bodies[i], capture.Options{})
		rules.Run(f.Captures[0], []*rules.Rule{CompactIndex}, nil)
	}
}
