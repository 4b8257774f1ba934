package capture

import (
	"path/filepath"
	"testing"
)

// checkPartition asserts segments are ordered, non-overlapping and inside
// the body, and returns bytes per section (the remainder as other).
func checkPartition(t *testing.T, c *Capture) map[Section]int {
	t.Helper()
	sum := map[Section]int{}
	prev := 0
	covered := 0
	for _, s := range c.Segments() {
		if s.Start < prev || s.End < s.Start || s.End > len(c.Body) {
			t.Fatalf("%s: segment %s [%d,%d) overlaps or leaves the body (prev end %d)", c.Name, s.Kind, s.Start, s.End, prev)
		}
		prev = s.End
		sum[s.Kind] += s.End - s.Start
		covered += s.End - s.Start
	}
	sum[SecOther] += len(c.Body) - covered
	return sum
}

func TestSegmentsPiCaptures(t *testing.T) {
	dir := corpusDir(t, filepath.Join("captures", "pi-0.73.1"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, path := range files {
		f, err := ReadFile(path, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := f.Captures[0]
		sum := checkPartition(t, c)
		if sum[SecCatalog] == 0 {
			t.Errorf("%s: no skill catalog found", c.Name)
		}
		if sum[SecHuman] == 0 {
			t.Errorf("%s: no human text found", c.Name)
		}
		t.Logf("%s %s: %v", filepath.Base(path), c.Provider, sum)
	}
}
