package reduce

import (
	"fmt"
	"strings"
	"testing"
)

func TestCollapseRepeats(t *testing.T) {
	block := []string{
		"warning: cache unavailable, retrying without it",
		"warning: the cache directory is read-only",
		"warning: falling back to a direct fetch",
	}
	var ls []string
	for i := 0; i < 6; i++ {
		ls = append(ls, fmt.Sprintf("fetching package-%d", i))
		ls = append(ls, block...)
		ls = append(ls, repeat(30, func(k int) string { return fmt.Sprintf("plain progress %d.%d", i, k) })...)
	}
	text := lines(ls...)
	res, ok := With("generic", text, DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	if got := strings.Count(res.Text, block[0]); got != 1 {
		t.Errorf("block kept %d times, want once:\n%s", got, res.Text)
	}
	if got := strings.Count(res.Text, "the same as lines 2-4 …]"); got != 5 {
		t.Errorf("%d repeat markers naming lines 2-4, want 5:\n%s", got, res.Text)
	}
	for i := 0; i < 6; i++ {
		if want := fmt.Sprintf("fetching package-%d", i); !strings.Contains(res.Text, want) {
			t.Errorf("lost %q", want)
		}
	}
	if miss := Missing(Evidence("generic", text, DefaultOptions()), res.Text); len(miss) > 0 {
		t.Errorf("evidence lost: %q", miss)
	}
}

func TestCollapseRepeatsCases(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		// kept and elided are 0-based line indices after planning.
		kept, elided []int
	}{
		{
			name:   "a re-indented copy collapses",
			lines:  []string{"  error: a", "  at one.js:1:1", "  at two.js:2:2", "summary", "error: a", "at one.js:1:1", "at two.js:2:2"},
			kept:   []int{0, 1, 2, 3},
			elided: []int{4, 5, 6},
		},
		{
			name:  "a short block is not worth a marker",
			lines: []string{"a", "b", "c", "x", "a", "b", "c"},
			kept:  []int{0, 1, 2, 3, 4, 5, 6},
		},
		{
			name:  "two lines are not a block",
			lines: []string{"error: a", "error: b", "x", "error: a", "error: b"},
			kept:  []int{0, 1, 3, 4},
		},
		{
			name:   "back-to-back copies: each later copy names the first",
			lines:  []string{"error: a", "error: b", "error: c", "error: a", "error: b", "error: c", "error: a", "error: b", "error: c"},
			kept:   []int{0, 1, 2},
			elided: []int{3, 4, 5, 6, 7, 8},
		},
		{
			name:  "a copy of a block that was not kept whole stays",
			lines: []string{"error: a", "error: b", "error: c", "error: a", "error: b", "error: c"},
			kept:  []int{0, 1, 2, 3, 4, 5},
		},
		{
			name:   "blank lines inside count for nothing, trailing ones stay",
			lines:  []string{"error: a", "", "error: b", "error: c", "", "x", "error: a", "", "error: b", "error: c", ""},
			kept:   []int{0, 2, 3, 5, 10},
			elided: []int{6, 7, 8, 9},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Long enough lines that a marker is shorter than a block.
			padded := make([]string, len(c.lines))
			for i, l := range c.lines {
				if l != "" && len(l) > 1 {
					padded[i] = l + " (with a long enough explanation after it)"
				} else {
					padded[i] = l
				}
			}
			d := newDoc(lines(padded...))
			p := newPlan(d)
			for i := range c.lines {
				p.set(i, protect)
			}
			if c.name == "a copy of a block that was not kept whole stays" {
				p.mark[1] = drop
			}
			p.collapseRepeats(d)
			for _, i := range c.kept {
				if p.mark[i] == drop && !(c.name == "a copy of a block that was not kept whole stays" && i == 1) {
					t.Errorf("line %d %q elided", i, c.lines[i])
				}
			}
			for _, i := range c.elided {
				if p.mark[i] != drop || p.repeat == nil || p.repeat[i] == 0 {
					t.Errorf("line %d %q not elided as a repeat", i, c.lines[i])
				}
			}
		})
	}
}

func TestRepeatMarkerIsExact(t *testing.T) {
	if got, want := repeatMarker(9, 12, 2), "[… 3 lines elided (10-12), the same as lines 3-5 …]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestKeepShortRuns(t *testing.T) {
	d := newDoc(lines("kept", "x", "kept too", strings.Repeat("long elided line ", 10), "end"))
	p := newPlan(d)
	p.set(0, keep)
	p.set(2, keep)
	p.set(4, keep)
	p.keepShortRuns(d)
	if p.mark[1] == drop {
		t.Error("a one-byte run whose marker is longer stays elided")
	}
	if p.mark[3] != drop {
		t.Error("a long run was kept")
	}
}
