package capture

import (
	"fmt"
	"testing"

	"github.com/skillopt/skillopt/internal/bench/synth"
)

// BenchmarkIndexSegments measures reading a synthetic Pi-style capture:
// envelope detection, the span index, provider detection and segments.
func BenchmarkIndexSegments(b *testing.B) {
	for _, n := range []int{355, 2000, 10000, 100000} {
		skills := synth.Skills(n, 1)
		for _, p := range synth.Providers {
			if n == 100000 && p != "anthropic" {
				continue
			}
			body, err := synth.Capture(p, skills, 1)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%d", p, n), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					f, err := Read("c.json", body, Options{})
					if err != nil {
						b.Fatal(err)
					}
					if len(f.Captures[0].Segments()) == 0 {
						b.Fatal("no segments")
					}
				}
			})
		}
	}
}

// BenchmarkParse measures the index alone.
func BenchmarkParse(b *testing.B) {
	body, err := synth.Capture("anthropic", synth.Skills(10000, 1), 4)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}
