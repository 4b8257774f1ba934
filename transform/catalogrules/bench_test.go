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

// benchCaptures returns the synthetic Anthropic request of each size.
func benchCaptures(b *testing.B) map[int][]byte {
	out := map[int][]byte{}
	for _, n := range []int{355, 2000, 10000, 100000} {
		body, err := synth.Capture("anthropic", synth.Skills(n, 1), 1)
		if err != nil {
			b.Fatal(err)
		}
		out[n] = body
	}
	return out
}

// BenchmarkWarmPrefetch measures warm request preparation with the compact
// index and the prefetch overlay (SO101 + SO103): read and index a capture,
// apply both rules (catalog results cached from an earlier request).
func BenchmarkWarmPrefetch(b *testing.B) {
	bodies := benchCaptures(b)
	for _, n := range []int{355, 2000, 10000, 100000} {
		body := bodies[n]
		pipeline := []*rules.Rule{CompactIndex, prefetch}
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
				if err != nil || len(res.Steps) != 2 || !res.Steps[1].Applied {
					b.Fatal("prefetch not applied", err)
				}
			}
		})
	}
}

// BenchmarkFirstRequest measures the first request of a session with the
// compact index and the prefetch overlay: read and index the capture, parse
// the catalog, build the snapshot and its search structures, apply SO101
// and SO103, all with an empty catalog cache.
func BenchmarkFirstRequest(b *testing.B) {
	bodies := benchCaptures(b)
	for _, n := range []int{355, 2000, 10000, 100000} {
		body := bodies[n]
		pipeline := []*rules.Rule{CompactIndex, prefetch}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				DropCache()
				f, err := capture.Read("c.json", body, capture.Options{})
				if err != nil {
					b.Fatal(err)
				}
				res, err := rules.Run(f.Captures[0], pipeline, nil)
				if err != nil || len(res.Steps) != 2 || !res.Steps[1].Applied {
					b.Fatal("prefetch not applied", err)
				}
			}
		})
	}
}

// BenchmarkPrefetchRule measures SO103 alone on a warm catalog: its
// Run on a capture SO101 has compacted (ranking and the overlay, without
// the engine's splicing and re-validation). Its allocation does not grow
// with the catalog.
func BenchmarkPrefetchRule(b *testing.B) {
	bodies := benchCaptures(b)
	for _, n := range []int{355, 2000, 10000, 100000} {
		f, err := capture.Read("c.json", bodies[n], capture.Options{})
		if err != nil {
			b.Fatal(err)
		}
		orig := f.Captures[0]
		// A first request fills the catalog cache.
		if res, err := rules.Run(orig, []*rules.Rule{CompactIndex, prefetch}, nil); err != nil || !res.Steps[1].Applied {
			b.Fatal("prefetch not applied", err)
		}
		res, err := rules.Run(orig, []*rules.Rule{CompactIndex}, nil)
		if err != nil {
			b.Fatal(err)
		}
		compacted := res.Final
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p := &rules.Pass{Rule: prefetch, Options: prefetch.Options, Capture: compacted, Original: orig}
				if err := prefetch.Run(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
