package tokens

import (
	"testing"
	"unicode/utf8"
)

// FuzzCount compares Count, and the split into pieces, with the library for
// both encodings. It also checks that CountAll's cutting of a text into
// chunks does not change the total.
func FuzzCount(f *testing.F) {
	for _, s := range edgeCases {
		if len(s) <= 256 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4<<10 {
			t.Skip("input larger than 4 KiB")
		}
		for _, enc := range encodingNames {
			if !check(t, enc, s, "fuzz") {
				return
			}
			c := refFor(t, enc).count
			want := c.Count(s)
			sum, end := 0, 0
			for _, j := range makeJobs([]string{s}, 8) {
				if j.hi >= 0 {
					sum += c.Count(s)
					end = len(s)
					continue
				}
				sum += c.Count(s[j.from:j.to])
				end = j.to
			}
			if sum != want || end != len(s) {
				t.Errorf("%s: chunked count %d (end %d), whole %d", enc, sum, end, want)
			}
		}
		if utf8.ValidString(s) {
			return
		}
		// Replacing invalid bytes by U+FFFD must not change the count.
		for _, enc := range encodingNames {
			c := refFor(t, enc).count
			if a, b := c.Count(s), c.Count(replaceInvalid(s)); a != b {
				t.Errorf("%s: Count %d, with U+FFFD for invalid bytes %d", enc, a, b)
			}
		}
	})
}
