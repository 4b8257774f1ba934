package catalog

import (
	"sort"
	"strings"

	"github.com/skillopt/skillopt/internal/rank"
)

// Result is one ranked skill.
type Result struct {
	Name        string  `json:"name"`
	Score       float64 `json:"score"`
	Description string  `json:"description"`
	// Match says why the skill was returned: lexical, exact-name or
	// name-typo.
	Match string `json:"match"`
	index int
}

// rrfK is the reciprocal-rank-fusion constant.
const rrfK = 60

// Search ranks skills for a query: BM25F over names and descriptions fused
// (reciprocal rank) with exact-name and bounded-typo name matches. It
// abstains (returns nothing) when no query word is specific to any skill.
func (s *Snapshot) Search(query string, limit int) []Result {
	if limit <= 0 {
		limit = 10
	}
	q := rank.ParseQuery(query)
	fused := map[int]float64{}
	why := map[int]string{}
	add := func(list []int, label string) {
		for r, i := range list {
			fused[i] += 1.0 / float64(rrfK+r+1)
			if _, ok := why[i]; !ok {
				why[i] = label
			}
		}
	}
	// Exact names anywhere in the query, as written or with spaces for
	// dashes ("pdf form filler" finds pdf-form-filler).
	var exact []int
	low := strings.ToLower(strings.TrimSpace(query))
	if i := s.Lookup(low); i >= 0 {
		exact = append(exact, i)
	} else if i := s.Lookup(strings.ReplaceAll(low, " ", "-")); i >= 0 {
		exact = append(exact, i)
	}
	for _, f := range strings.FieldsFunc(low, func(r rune) bool { return r == ' ' || r == ',' || r == '`' || r == '"' || r == '\'' }) {
		if i := s.Lookup(f); i >= 0 && !contains(exact, i) {
			exact = append(exact, i)
		}
	}
	add(exact, "exact-name")
	// Lexical: BM25F, keeping only hits with at least one selective term.
	var lexical []int
	for _, h := range s.index.Search(q, 200) {
		lexical = append(lexical, h.Doc)
	}
	if !s.selective(q) {
		lexical = nil
	}
	add(lexical, "lexical")
	// Typos: query words within a small edit distance of a name or name part.
	add(s.typoMatches(q, exact), "name-typo")
	out := make([]Result, 0, len(fused))
	for i, sc := range fused {
		sk := s.Skills[i]
		out = append(out, Result{Name: sk.Name, Score: round4(sc * 1000), Description: sk.Description, Match: why[i], index: i})
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		return out[a].index < out[b].index
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func round4(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }

// selective reports whether some query term occurs in at most half of the
// catalog: a query made only of words every skill uses is unrelated.
func (s *Snapshot) selective(q rank.Query) bool {
	n := s.index.Len()
	for _, t := range q.Terms {
		if df := s.index.DocFreq(t); df > 0 && (df*2 <= n || n < 4) {
			return true
		}
	}
	return false
}

// typoMatches finds skills whose name, or a dash-separated part of it, is
// within edit distance 1 (words of 5-6 letters) or 2 (7 or more) of a query
// word that matches no skill as written. Bounded: at most 20 matches.
func (s *Snapshot) typoMatches(q rank.Query, skip []int) []int {
	var out []int
	for _, t := range q.Terms {
		// Only words that match nothing as written are taken for typos.
		if len(t) < 5 || s.index.DocFreq(t) > 0 {
			continue
		}
		maxd := 1
		if len(t) >= 7 {
			maxd = 2
		}
		for i, sk := range s.Skills {
			if contains(skip, i) || contains(out, i) {
				continue
			}
			name := strings.ToLower(sk.Name)
			hit := withinDistance(t, name, maxd)
			for _, part := range strings.Split(name, "-") {
				if hit || len(part) < 4 || part == t {
					break
				}
				hit = withinDistance(t, part, maxd)
			}
			if hit && name != t {
				out = append(out, i)
				if len(out) == 20 {
					return out
				}
			}
		}
	}
	return out
}

// withinDistance reports whether the Levenshtein distance of a and b is at
// most max, in O(len·max) time.
func withinDistance(a, b string, max int) bool {
	if d := len(a) - len(b); d > max || -d > max {
		return false
	}
	if a == b {
		return false // equal words are lexical matches, not typos
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > max {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] <= max
}
