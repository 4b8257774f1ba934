// Package suggest finds the candidate a mistyped word most likely meant:
// the "did you mean" of unknown commands, rules, configuration keys and
// skill names.
package suggest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxRunes bounds the words Distance compares; longer ones are never
// close (the table is quadratic in their lengths).
const maxRunes = 128

// Distance is the edit distance of a and b in code points: insertions,
// deletions, substitutions and swaps of two neighbours each count one
// (optimal string alignment). Words over maxRunes code points are at
// distance maxRunes+1 from everything but themselves.
func Distance(a, b string) int {
	if a == b {
		return 0
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) > maxRunes || len(rb) > maxRunes {
		return maxRunes + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Closest returns the candidate nearest to word, ignoring case, when it is
// at most maxDist edits away; the first such candidate wins a tie. "" when
// none is.
func Closest(word string, candidates []string, maxDist int) string {
	low := strings.ToLower(word)
	best, bestD := "", maxDist+1
	for _, c := range candidates {
		if d := Distance(low, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Typo returns the candidate nearest to s when it is near enough to be
// a typo: within an edit distance of a third of its length (at least 1,
// at most 3), or a unique prefix of at least three letters. "" when none.
func Typo(s string, candidates []string) string {
	if best := Closest(s, candidates, min(max(1, utf8.RuneCountInString(s)/3), 3)); best != "" {
		return best
	}
	low := strings.ToLower(s)
	var prefixed []string
	for _, c := range candidates {
		if len(low) >= 3 && strings.HasPrefix(strings.ToLower(c), low) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}

// DidYouMean is " (did you mean X?)" for the closest candidate, or "".
func DidYouMean(s string, candidates []string) string {
	if c := Typo(s, candidates); c != "" {
		return fmt.Sprintf(" (did you mean %s?)", c)
	}
	return ""
}
