package tools

import (
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// benchTools200 returns a 200-tool Anthropic request built from the
// labelled catalog.
func benchTools200(b *testing.B) *capture.Capture {
	b.Helper()
	set, err := LoadToolSet("../../testdata/tools")
	if err != nil {
		b.Fatal(err)
	}
	c, err := ToolCapture(capture.Anthropic, ScaledTools(set.Tools, 200), "The checkout pods in the staging namespace keep restarting. Figure out why from their logs and the cluster events.")
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// freshCaptures returns n copies of c with nothing computed yet (no
// segments), so a benchmark times planning and not parsing.
func freshCaptures(b *testing.B, c *capture.Capture, n int) []*capture.Capture {
	out := make([]*capture.Capture, n)
	for i := range out {
		f, err := c.WithBody(c.Body)
		if err != nil {
			b.Fatal(err)
		}
		out[i] = f
	}
	return out
}

// BenchmarkToolPlan200Cold plans one request of 200 tools with the index
// built from scratch (the first request with this tool set). Target:
// ≤ 1 ms.
func BenchmarkToolPlan200Cold(b *testing.B) {
	benchPlan(b, true)
}

// BenchmarkToolPlan200Warm plans one request of 200 tools whose index is
// cached (later requests of the same session).
func BenchmarkToolPlan200Warm(b *testing.B) {
	benchPlan(b, false)
}

func benchPlan(b *testing.B, cold bool) {
	c := benchTools200(b)
	cfg := defaults()
	Decide(c, cfg)
	const batch = 64
	var caps []*capture.Capture
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%batch == 0 {
			b.StopTimer()
			caps = freshCaptures(b, c, batch)
			b.StartTimer()
		}
		if cold {
			toolClearIndexCache()
		}
		Decide(caps[i%batch], cfg)
	}
}
