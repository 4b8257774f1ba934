package reduce

import "strings"

// Repeated blocks: tools print the same block of lines again and again
// (apt's debconf fallback notes after every package, a test runner's
// failure report once inline and once in its closing summary). A block of
// kept lines that is a copy of an earlier kept block is elided, and its
// marker names the lines it copies; the first copy stays, so every
// evidence string is still there. Lines compare without their leading
// white space, because summaries re-indent what they repeat.

// Shortest block worth collapsing: this many lines that are not blank.
const minRepeatBlock = 3

// collapseRepeats elides the kept blocks of at least minRepeatBlock
// non-blank lines that repeat an earlier kept block. It runs in time
// linear in the lines: each line is compared with the first earlier kept
// line of the same text, and a match skips the lines it covers.
func (p *plan) collapseRepeats(d *doc) {
	n := d.n()
	first := make(map[string]int)
	key := func(i int) string { return strings.TrimLeft(d.line(i), " \t") }
	for i := 0; i < n; {
		if p.mark[i] == drop {
			i++
			continue
		}
		k := key(i)
		j, seen := first[k]
		if !seen {
			if strings.TrimSpace(k) != "" {
				first[k] = i
			}
			i++
			continue
		}
		l, nonBlank, bytes := 0, 0, 0
		for i+l < n && j+l < i && p.mark[i+l] != drop && p.mark[j+l] != drop && key(i+l) == key(j+l) {
			if !d.blank(i + l) {
				nonBlank++
			}
			bytes += d.size(i + l)
			l++
		}
		// Trailing blank lines stay with what follows.
		for l > 0 && d.blank(i+l-1) {
			bytes -= d.size(i + l - 1)
			l--
		}
		if nonBlank < minRepeatBlock || bytes <= len(repeatMarker(i, i+l, j))+1 {
			i++
			continue
		}
		if p.repeat == nil {
			p.repeat = make([]int32, n)
		}
		for m := 0; m < l; m++ {
			p.mark[i+m] = drop
			p.repeat[i+m] = int32(j + m + 1)
		}
		i += l
	}
}

// keepShortRuns keeps every elided run whose marker would be no shorter
// than the run, as render would, so that collapseRepeats sees the lines a
// reduction really shows.
func (p *plan) keepShortRuns(d *doc) {
	eol := len(d.eol())
	for i := 0; i < d.n(); {
		if p.mark[i] != drop {
			i++
			continue
		}
		j, bytes := i, 0
		for j < d.n() && p.mark[j] == drop {
			bytes += d.size(j)
			j++
		}
		if !p.silent(i, j) && bytes <= len(marker(i, j))+eol {
			p.keepRange(i, j)
		}
		i = j
	}
}
