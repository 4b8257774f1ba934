package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"measure", "measure", 0},
		{"meaure", "measure", 1},
		{"mesaure", "measure", 1}, // a swap of neighbours
		{"budget_char", "budget_chars", 1},
		{"kitten", "sitting", 3},
		{"naïve", "naive", 1}, // code points, not bytes
		{strings.Repeat("a", 200), strings.Repeat("a", 199), maxRunes + 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	cands := []string{"measure", "validate", "Transform", "diff"}
	for _, tc := range []struct {
		word string
		max  int
		want string
	}{
		{"meaure", 1, "measure"},
		{"TRANSFROM", 2, "Transform"},
		{"dif", 1, "diff"},
		{"dif", 0, ""},
		{"lint", 2, ""},
	} {
		if got := Closest(tc.word, cands, tc.max); got != tc.want {
			t.Errorf("Closest(%q, %d) = %q, want %q", tc.word, tc.max, got, tc.want)
		}
	}
}

func TestTypo(t *testing.T) {
	cands := []string{"measure", "validate", "transform", "catalog", "completion", "check"}
	for _, tc := range []struct{ in, want string }{
		{"meaure", "measure"},
		{"mesure", "measure"},
		{"MEASURE", "measure"},
		{"valdiate", "validate"}, // a swap counts one
		{"comp", "completion"},   // a unique prefix
		{"ch", ""},               // too short to be a prefix
		{"frobnicate", ""},
		{"c", ""},
	} {
		if got := Typo(tc.in, cands); got != tc.want {
			t.Errorf("Typo(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("mesure", []string{"measure", "lint"}); got != " (did you mean measure?)" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("zzz", []string{"measure", "lint"}); got != "" {
		t.Errorf("got %q", got)
	}
}
