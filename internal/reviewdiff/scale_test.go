package reviewdiff

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// Hostile shapes for diff: each makes two request bodies of about n
// bytes (or n values) that a quadratic alignment, a table per pair of
// lines or a rendering kept whole would make slow or large. The sizes are
// past smallDiff, so that --format json diffs both value by value.
var diffShapes = []struct {
	name string
	n    int // the smaller size the scaling test uses
	make func(n int) (a, b string)
}{
	{"numbers-one-change", 50_000, func(n int) (string, string) {
		nums := numbers(0, n)
		changed := append([]string(nil), nums...)
		changed[n/2] = "-1"
		return enumBody(nums), enumBody(changed)
	}},
	// Both sizes pair the elements one by one: no element is common.
	{"numbers-all-different", 8_000, func(n int) (string, string) {
		return enumBody(numbers(0, n)), enumBody(numbers(n, n))
	}},
	// Both sizes are too different to align: compared whole.
	{"numbers-too-different", 40_000, func(n int) (string, string) {
		return enumBody(numbers(0, n)), enumBody(numbers(n, n))
	}},
	{"string-one-change", 600_000, func(n int) (string, string) {
		var b strings.Builder
		for k := 0; b.Len() < n; k++ {
			fmt.Fprintf(&b, "word%d ", k)
		}
		s := b.String()
		return systemBody(s), systemBody(strings.Replace(s, "word1000 ", "changed ", 1))
	}},
	// An inserted character shifts every wrapped line after it.
	{"run-of-one-character", 600_000, func(n int) (string, string) {
		s := strings.Repeat("a", n)
		return systemBody(s), systemBody(s[:n/2] + "b" + s[n/2:])
	}},
	{"lines-one-change", 600_000, func(n int) (string, string) {
		var b strings.Builder
		for k := 0; b.Len() < n; k++ {
			fmt.Fprintf(&b, "line %d of the prompt\\n", k)
		}
		s := b.String()
		return systemBody(s), systemBody(strings.Replace(s, "line 1000 of", "line one thousand of", 1))
	}},
	// n/1000 arrays deep around n numbers, one of them changed.
	{"deep-nesting", 200_000, func(n int) (string, string) {
		d := n / 1000
		nums := numbers(0, n/8)
		changed := append([]string(nil), nums...)
		changed[len(nums)/2] = "-1"
		nest := func(nums []string) string {
			return strings.Repeat("[", d) + strings.Join(nums, ",") + strings.Repeat("]", d)
		}
		return `{"model":"m","max_tokens":1,"tools":[{"name":"t","input_schema":{"x":` + nest(nums) + `}}],"messages":[]}`,
			`{"model":"m","max_tokens":1,"tools":[{"name":"t","input_schema":{"x":` + nest(changed) + `}}],"messages":[]}`
	}},
}

func numbers(from, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = strconv.Itoa(from + k)
	}
	return out
}

// enumBody is an Anthropic request whose tool schema has an enum.
func enumBody(nums []string) string {
	return `{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"pick","input_schema":{"type":"object","properties":{"v":{"type":"number","enum":[` +
		strings.Join(nums, ",") + `]}}}}],"messages":[{"role":"user","content":"hi"}]}`
}

// systemBody is an Anthropic request with a system prompt (JSON-escaped).
func systemBody(s string) string {
	return `{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"` + s + `","messages":[{"role":"user","content":"hi"}]}`
}

// diffFormats are the ways diff reports.
var diffFormats = []struct {
	name, format string
	stat         bool
}{{"text", "text", false}, {"stat", "text", true}, {"json", "json", false}}

// runDiff diffs two bodies as the diff command does, writing to w.
func runDiff(tb testing.TB, a, b, format string, stat bool, w io.Writer) {
	ca, cb := parseCapture(tb, "a.json", a), parseCapture(tb, "b.json", b)
	pairs := []Pair{{Name: "a.json → b.json", A: ca, B: cb, NameA: "a.json", NameB: "b.json"}}
	if err := Write(w, pairs, Options{Format: format, Context: 3, Stat: stat, JSONTail: `"config": null`}); err != nil {
		tb.Fatal(err)
	}
}

func parseCapture(tb testing.TB, name, body string) *capture.Capture {
	d, err := capture.Parse([]byte(body))
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return &capture.Capture{Name: name, Body: []byte(body), Doc: d}
}

// BenchmarkDiffScaling diffs each hostile shape at n and 4n in each
// format: time and allocation per byte should stay flat.
func BenchmarkDiffScaling(b *testing.B) {
	for _, sh := range diffShapes {
		for _, n := range []int{sh.n, 4 * sh.n} {
			a, c := sh.make(n)
			for _, f := range diffFormats {
				b.Run(fmt.Sprintf("%s/n=%d/%s", sh.name, n, f.name), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(a) + len(c)))
					for b.Loop() {
						runDiff(b, a, c, f.format, f.stat, io.Discard)
					}
				})
			}
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestDiffScalesLinearly: from n to 4n, what diff allocates grows about
// four times, not sixteen, for every hostile shape and format. (Bytes
// allocated are deterministic enough to compare; time is not asserted.)
func TestDiffScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("diffs a few megabytes")
	}
	// Warm up: the rule registry, the hash seed.
	a, b := diffShapes[0].make(10)
	runDiff(t, a, b, "text", false, io.Discard)
	for _, sh := range diffShapes {
		small, smallB := sh.make(sh.n)
		large, largeB := sh.make(4 * sh.n)
		for _, f := range diffFormats {
			run := func(a, b string) uint64 {
				return allocated(func() { runDiff(t, a, b, f.format, f.stat, io.Discard) })
			}
			n, n4 := run(small, smallB), run(large, largeB)
			ratio := float64(n4) / float64(n)
			t.Logf("%s %s: %d → %d bytes allocated (×%.2f)", sh.name, f.name, n, n4, ratio)
			if ratio >= 5 {
				t.Errorf("%s %s: allocation grows ×%.2f from n to 4n", sh.name, f.name, ratio)
			}
		}
	}
}
