package catalogbench

import (
	"fmt"
	"testing"

	"github.com/skillopt/skillopt/transform/catalogrules"
)

// benchSizes are the catalog sizes of the Go benchmarks.
var benchSizes = []int{355, 2000, 10000, 100000}

// benchVariants returns the request of n skills and its variants.
func benchVariants(b *testing.B, n int) (*Input, *Variants) {
	in, err := NewInput(n, 1)
	if err != nil {
		b.Fatal(err)
	}
	v, err := NewVariants(in.Name, in.Body, in.Provider, in.Skills, queryCount, 1)
	if err != nil {
		b.Fatal(err)
	}
	return in, v
}

// benchRequests times Transformer.Transform, the request transform
// prepares (guards included), on a new latest human text each time; the
// body is built with the clock stopped. first drops the catalog cache
// before each request.
func benchRequests(b *testing.B, rules []string, first bool) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			in, v := benchVariants(b, n)
			t, err := NewTransformer(rules, in.Provider)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := t.Transform(v.Name, v.Next()); err != nil { // the process's one-time work
				b.Fatal(err)
			}
			b.SetBytes(int64(len(in.Body)))
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				body := v.Next()
				if first {
					catalogrules.DropCache()
				}
				b.StartTimer()
				_, res, err := t.Transform(v.Name, body)
				if err != nil {
					b.Fatal(err)
				}
				if len(rules) > 1 && !prefetched(res) {
					b.Fatal("prefetch not applied")
				}
			}
		})
	}
}

// BenchmarkWarmCompact is warm_ms: a later request through SO101.
func BenchmarkWarmCompact(b *testing.B) { benchRequests(b, compactRules, false) }

// BenchmarkWarmPrefetch is warm_prefetch_ms: a later request through
// SO101 + SO103.
func BenchmarkWarmPrefetch(b *testing.B) { benchRequests(b, prefetchRules, false) }

// BenchmarkFirstRequest is first_request_ms: the catalog cache empty.
func BenchmarkFirstRequest(b *testing.B) { benchRequests(b, prefetchRules, true) }
