package measure

import (
	"slices"
	"testing"
)

// lenCounter counts a text as its length and records what it was asked.
type lenCounter struct{ asked []string }

func (c *lenCounter) CountAll(texts []string) []int {
	c.asked = append(c.asked, texts...)
	out := make([]int, len(texts))
	for i, t := range texts {
		out[i] = len(t)
	}
	return out
}

func TestSpanCounterCountsEachTextOnce(t *testing.T) {
	inner := &lenCounter{}
	c := spanCounter(inner)
	if spanCounter(c) != c {
		t.Fatal("wrapping twice makes a second memo")
	}
	for _, tc := range []struct {
		texts, asked []string
	}{
		{[]string{"alpha", "be", "alpha"}, []string{"alpha", "be", "alpha"}},
		{[]string{"be", "gamma", "alpha", ""}, []string{"gamma", ""}},
		{[]string{"", "gamma"}, nil},
	} {
		inner.asked = nil
		got := c.CountAll(tc.texts)
		want := make([]int, len(tc.texts))
		for i, s := range tc.texts {
			want[i] = len(s)
		}
		if !slices.Equal(got, want) {
			t.Errorf("CountAll(%q) = %v, want %v", tc.texts, got, want)
		}
		if !slices.Equal(inner.asked, tc.asked) {
			t.Errorf("CountAll(%q) asked %q, want %q", tc.texts, inner.asked, tc.asked)
		}
	}
	if spanCounter(nil) != nil {
		t.Error("spanCounter(nil) is not nil")
	}
}
