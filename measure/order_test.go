package measure

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

func TestNaturalLess(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"turn-2.json", "turn-10.json", true},
		{"turn-10.json", "turn-2.json", false},
		{"turn-2.json", "turn-02.json", true},
		{"turn-02.json", "turn-2.json", false},
		{"a/turn-9", "b/turn-1", true},
		{"small-1", "small-1", false},
		{"x1y2", "x1y10", true},
		{"abc", "abd", true},
		{"ab", "abc", true},
	}
	for _, c := range cases {
		if got := naturalLess(c.a, c.b); got != c.want {
			t.Errorf("naturalLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// TestNaturalOrder: the files of a directory argument sort by their
// names, numbers as numbers; files named directly keep their place.
func TestNaturalOrder(t *testing.T) {
	dir := t.TempDir()
	f := func(name string) *capture.File { return &capture.File{Name: name} }
	files := []*capture.File{f("b.json"), f(filepath.Join(dir, "turn-10.json")), f(filepath.Join(dir, "turn-2.json")), f("a.json"), f("<stdin>")}
	NaturalOrder(files, []string{"b.json", dir, "-", "a.json"})
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f.Name))
	}
	if want := "b.json turn-2.json turn-10.json <stdin> a.json"; strings.Join(got, " ") != want {
		t.Errorf("order %q, want %q", got, want)
	}
}
