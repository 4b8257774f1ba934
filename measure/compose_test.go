package measure

import (
	"slices"
	"testing"
)

func TestShareOut(t *testing.T) {
	for _, c := range []struct {
		counts []int
		total  int
		want   []int
	}{
		{[]int{1, 1, 1}, 10, []int{4, 3, 3}},
		{[]int{2, 0, 6}, 4, []int{1, 0, 3}},
		{[]int{0, 0, 0}, 5, []int{0, 0, 5}},
		{[]int{3, 5}, 0, []int{0, 0}},
		{[]int{1, 2}, 3, []int{1, 2}},
	} {
		got := shareOut(c.counts, c.total)
		if !slices.Equal(got, c.want) {
			t.Errorf("shareOut(%v, %d) = %v, want %v", c.counts, c.total, got, c.want)
		}
	}
}

// TestCachedSections: the golden conversation's second turn reads the
// whole first request from the cache, and its composition is the first
// request's sections; every turn's sections add up to its read.
func TestCachedSections(t *testing.T) {
	cv := goldenConversation(t)
	for _, turn := range cv.Turns {
		p := turn.Cached
		if p == nil {
			t.Fatalf("turn %d has no cached prefix", turn.Turn)
		}
		sum := 0
		for _, s := range p.Sections {
			sum += s.Tokens
		}
		if sum != p.Read || p.Read != turn.Bill.Read {
			t.Errorf("turn %d: sections sum to %d, read %d, cache read %d", turn.Turn, sum, p.Read, turn.Bill.Read)
		}
	}
	if got := sectionsText(cv.Turns[1].Cached); got != "system 1,502 (83 %), human 243 (13 %), tools 62 (3 %)" {
		t.Errorf("turn 2: %s", got)
	}
	if cv.Cached == nil || cv.Cached.Turns != 3 || cv.Cached.Read != cv.Bill.Read {
		t.Errorf("conversation: %+v", cv.Cached)
	}
}
