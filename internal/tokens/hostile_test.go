package tokens

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// hostileShapes are texts whose pieces are pathological for byte-pair
// merging (one piece of the whole text) or for the caches (millions of
// distinct short pieces), and ordinary text for comparison. Each returns
// about n bytes, the same for the same n.
var hostileShapes = []struct {
	name string
	make func(n int) string
}{
	{"dash", func(n int) string { return strings.Repeat("-", n) }},
	{"letter", func(n int) string { return strings.Repeat("a", n) }},
	{"spaces", func(n int) string { return strings.Repeat(" ", n) }},
	{"digits", func(n int) string { return pseudoRandom(n, "0123456789") }},
	{"empty-objects", func(n int) string { return "[" + strings.Repeat("{},", n/3) + "{}]" }},
	{"dense-numbers", denseNumbers},
	{"base64", func(n int) string {
		return pseudoRandom(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
	}},
	{"random-letters", func(n int) string { return pseudoRandom(n, "abcdefghijklmnopqrstuvwxyz") }},
	{"text", generatedText},
}

// denseNumbers returns a JSON array of small integers, about n bytes.
func denseNumbers(n int) string {
	b := []byte{'['}
	x := uint32(11)
	for len(b) < n {
		x = x*1664525 + 1013904223
		b = strconv.AppendUint(b, uint64(x>>20), 10)
		b = append(b, ',')
	}
	b[len(b)-1] = ']'
	return string(b)
}

// hostileN is the smaller size of the benchmarks, allocN of the allocation
// test; both are many windows long.
const (
	hostileN = 256 << 10
	allocN   = 64 << 10
)

func BenchmarkHostile(b *testing.B) {
	for _, sh := range hostileShapes {
		for _, size := range []int{hostileN, 4 * hostileN} {
			text := sh.make(size)
			for _, enc := range encodingNames {
				b.Run(fmt.Sprintf("%s/%s/%dKiB", sh.name, enc, size>>10), func(b *testing.B) {
					c, _ := New(enc)
					c.Count("warm up the vocabulary")
					b.SetBytes(int64(len(text)))
					b.ReportAllocs()
					b.ResetTimer()
					for b.Loop() {
						b.StopTimer()
						c, _ = New(enc)
						c.init()
						b.StartTimer()
						c.Count(text)
					}
				})
			}
		}
	}
}

// countAlloc returns the bytes a fresh counter allocates to count text,
// the least of two runs.
func countAlloc(enc, text string) uint64 {
	best := ^uint64(0)
	for range 2 {
		c, _ := New(enc)
		c.init()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c.Count(text)
		runtime.ReadMemStats(&after)
		best = min(best, after.TotalAlloc-before.TotalAlloc)
	}
	return best
}

// TestHostileAllocation checks that counting allocates memory linear in the
// text (less than five times as much for four times the text) and little of
// it: merging a piece whole would need about 20 bytes per byte of it.
func TestHostileAllocation(t *testing.T) {
	for _, sh := range hostileShapes {
		small, large := sh.make(allocN), sh.make(4*allocN)
		for _, enc := range encodingNames {
			a, b := countAlloc(enc, small), countAlloc(enc, large)
			t.Logf("%s %s: %d bytes allocated for %d bytes, %d for %d", sh.name, enc, a, len(small), b, len(large))
			// The slack absorbs allocations too small to grow with the text.
			const slack = 256 << 10
			if b > 5*a+slack {
				t.Errorf("%s %s: %d bytes allocated for %d bytes of text, %d for %d: more than 5 times as much",
					sh.name, enc, a, len(small), b, len(large))
			}
			if limit := uint64(len(large)) / 4; b > limit+slack {
				t.Errorf("%s %s: %d bytes allocated for %d bytes of text, more than a quarter of the text", sh.name, enc, b, len(large))
			}
		}
	}
}
