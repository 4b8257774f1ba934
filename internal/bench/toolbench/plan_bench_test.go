package toolbench

import (
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/transform/tools"
)

const benchPrompt = "The checkout pods in the staging namespace keep restarting. Figure out why from their logs and the cluster events."

// BenchmarkToolPlan200Cold plans one request of 200 tools with the index
// built from scratch (the first request with this tool set): every request
// declares a tool set the cache has not seen. Target: ≤ 1 ms.
func BenchmarkToolPlan200Cold(b *testing.B) {
	benchPlan(b, true)
}

// BenchmarkToolPlan200Warm plans one request of 200 tools whose index is
// cached (later requests of the same session).
func BenchmarkToolPlan200Warm(b *testing.B) {
	benchPlan(b, false)
}

func benchPlan(b *testing.B, cold bool) {
	set, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	specs := Scaled(set.Tools, 200)
	settings := tools.Defaults
	// A batch of requests read ahead, outside the timed region.
	const batch = 32
	var caps []*capture.Capture
	variant := 0
	fill := func() {
		caps = caps[:0]
		for range batch {
			ts := specs
			if cold {
				ts = variantOf(specs, variant)
				variant++
			}
			c, err := Capture(capture.Anthropic, ts, benchPrompt)
			if err != nil {
				b.Fatal(err)
			}
			caps = append(caps, c)
		}
	}
	if c, err := Capture(capture.Anthropic, specs, benchPrompt); err == nil {
		tools.Decide(c, settings)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%batch == 0 {
			b.StopTimer()
			fill()
			b.StartTimer()
		}
		tools.Decide(caps[i%batch], settings)
	}
}
