package catalog

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Typo recovery compares a query word with skill names and name parts
// (see typoHit). Scanning every skill for every unknown query word made a
// search linear in the catalog, so the strings that can match are found
// through an index instead, and only they are compared.
//
// The index is exact, not a heuristic: a string s within edit distance d of
// a word t contains, unaltered, at least one of d+1 pieces that t is cut
// into (each edit touches at most one piece), and that piece starts in s
// within d positions of where it starts in t; s is also within d of t in
// length. So every piece's first two bytes, at every position a match
// allows, in every length a match allows, name a superset of the strings
// within distance d, which are then compared as before. The index keys
// each distinct string by every (bigram, position, length) it has.

// typoIndex is the name table for typo recovery.
type typoIndex struct {
	strs []string // distinct lower-case names and name parts
	// by string s: the skills that have it, in order, skills[at[s]:at[s+1]]
	at     []int32
	skills []int32
	lower  []string // by skill: its lower-case name
	// keys, sorted, and for keys[k] the strings in ids[start[k]:start[k+1]].
	keys  []uint32
	start []int32
	ids   []int32

	mu   sync.Mutex
	free []*typoScratch
}

// typoScratch is one search's working memory.
type typoScratch struct {
	stamp []uint32 // by string: the search that last saw it
	gen   uint32
	found []int32 // matching strings
	heads []int   // by matching string: next position in its skill list
}

// typoKey packs a bigram, the position where it starts and the length of
// the string holding it; positions and lengths past 255 share 255, for
// strings and queries alike, which keeps every lookup a superset.
func typoKey(a, b byte, pos, n int) uint32 {
	return uint32(a)<<24 | uint32(b)<<16 | uint32(min(pos, 255))<<8 | uint32(min(n, 255))
}

// typoStrings calls fn with every string typoHit may compare for a skill
// with the lower-case name and find within distance 2 of a query word: the
// name, unless it has more than two bytes no word has (ASCII other than
// letters and digits: each costs an edit), and its dash-separated parts up
// to the first one shorter than four bytes.
func typoStrings(name string, fn func(string)) {
	foreign := 0
	for i := 0; i < len(name) && foreign <= 2; i++ {
		if c := name[i]; c < utf8.RuneSelf && !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			foreign++
		}
	}
	if foreign <= 2 {
		fn(name)
	}
	for rest := name; ; {
		part, tail, more := strings.Cut(rest, "-")
		if len(part) < 4 {
			return
		}
		fn(part)
		if !more {
			return
		}
		rest = tail
	}
}

// newTypoIndex builds the name table of skills.
func newTypoIndex(skills []Skill) *typoIndex {
	x := &typoIndex{lower: make([]string, len(skills))}
	ids := make(map[string]int32, len(skills)+len(skills)/4)
	// (string, skill) occurrences in skill order, a string counted once
	// per skill.
	var occ []int32
	var count []int32
	entries := 0
	for i, sk := range skills {
		name := strings.ToLower(sk.Name)
		x.lower[i] = name
		first := len(occ)
		typoStrings(name, func(s string) {
			id, ok := ids[s]
			if !ok {
				id = int32(len(x.strs))
				ids[s] = id
				x.strs = append(x.strs, s)
				count = append(count, 0)
				if len(s) >= 2 {
					entries += len(s) - 1
				}
			}
			for _, o := range occ[first:] {
				if o == id {
					return // a name part may repeat within a name
				}
			}
			occ = append(occ, id)
			count[id]++
		})
		occ = append(occ, -1-int32(i)) // ends skill i's strings
	}
	x.at = make([]int32, len(x.strs)+1)
	for id, c := range count {
		x.at[id+1] = x.at[id] + c
	}
	x.skills = make([]int32, x.at[len(x.strs)])
	next := append([]int32(nil), x.at[:len(x.strs)]...)
	skill := int32(0)
	for _, o := range occ {
		if o < 0 {
			skill++
			continue
		}
		x.skills[next[o]] = skill
		next[o]++
	}
	// (key, string) pairs, sorted by key and then string: a plain sort for
	// a small catalog, a two-pass radix sort by key (which keeps the string
	// order the pairs are made in) for a large one.
	pairs := make([]uint64, 0, entries)
	for id, s := range x.strs {
		for q := 0; q+1 < len(s); q++ {
			pairs = append(pairs, uint64(typoKey(s[q], s[q+1], q, len(s)))<<32|uint64(id))
		}
	}
	if len(pairs) < 1<<16 {
		slices.Sort(pairs)
	} else {
		pairs = radixSortKeys(pairs)
	}
	x.ids = make([]int32, len(pairs))
	for i, p := range pairs {
		key := uint32(p >> 32)
		if len(x.keys) == 0 || x.keys[len(x.keys)-1] != key {
			x.keys = append(x.keys, key)
			x.start = append(x.start, int32(i))
		}
		x.ids[i] = int32(p)
	}
	x.start = append(x.start, int32(len(pairs)))
	return x
}

// radixSortKeys sorts pairs by their upper 32 bits, keeping the order of
// pairs with equal keys.
func radixSortKeys(pairs []uint64) []uint64 {
	tmp := make([]uint64, len(pairs))
	var bucket [1 << 16]int
	for _, shift := range []uint{32, 48} {
		clear(bucket[:])
		for _, p := range pairs {
			bucket[(p>>shift)&0xffff]++
		}
		sum := 0
		for i, c := range bucket {
			bucket[i] = sum
			sum += c
		}
		for _, p := range pairs {
			k := (p >> shift) & 0xffff
			tmp[bucket[k]] = p
			bucket[k]++
		}
		pairs, tmp = tmp, pairs
	}
	return pairs
}

// skillsOf returns the skills that have string id, in order.
func (x *typoIndex) skillsOf(id int32) []int32 { return x.skills[x.at[id]:x.at[id+1]] }

// lookup returns the strings indexed under key.
func (x *typoIndex) lookup(key uint32) []int32 {
	lo, hi := 0, len(x.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.keys[m] < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(x.keys) || x.keys[lo] != key {
		return nil
	}
	return x.ids[x.start[lo]:x.start[lo+1]]
}

func (x *typoIndex) getScratch() *typoScratch {
	x.mu.Lock()
	defer x.mu.Unlock()
	if n := len(x.free); n > 0 {
		s := x.free[n-1]
		x.free = x.free[:n-1]
		return s
	}
	return &typoScratch{stamp: make([]uint32, len(x.strs))}
}

func (x *typoIndex) putScratch(s *typoScratch) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.free) < 4 {
		x.free = append(x.free, s)
	}
}

// matches appends to out, in skill order, the skills that typoHit accepts
// for the word t with distance maxd, skipping those in skip or already in
// out, until out holds limit skills.
func (x *typoIndex) matches(t string, maxd int, skip, out []int, limit int) []int {
	if len(x.lower) <= typoScanMax {
		return x.scan(t, maxd, skip, out, limit)
	}
	return x.indexed(t, maxd, skip, out, limit)
}

// typoScanMax is the number of skills up to which matches compares the
// word with every one instead of looking its pieces up: a word takes
// dozens of lookups, and a small catalog has fewer names than that.
const typoScanMax = 64

// scan is matches by a comparison with every skill.
func (x *typoIndex) scan(t string, maxd int, skip, out []int, limit int) []int {
	for i, name := range x.lower {
		if len(out) >= limit {
			break
		}
		if !contains(skip, i) && !contains(out, i) && name != t && typoHit(t, name, maxd) {
			out = append(out, i)
		}
	}
	return out
}

// indexed is matches through the index.
func (x *typoIndex) indexed(t string, maxd int, skip, out []int, limit int) []int {
	s := x.getScratch()
	defer x.putScratch(s)
	s.gen++
	if s.gen == 0 { // wrapped: forget every stamp
		clear(s.stamp)
		s.gen = 1
	}
	s.found = s.found[:0]
	// Cut t into maxd+1 pieces; look each piece's first bigram up at every
	// position and length a match within maxd allows.
	// A string found through a piece's bigram holds the whole piece there
	// (unless the position was clipped) before it is compared.
	// A transposition is two Levenshtein edits: when transpositions count
	// (transposes), the candidates are those within 2*maxd Levenshtein
	// edits, cut into that many more pieces.
	lev := maxd
	swaps := transposes(t, maxd)
	if swaps {
		lev = 2 * maxd
	}
	pieces := lev + 1
	for k := 0; k < pieces; k++ {
		p, end := k*len(t)/pieces, (k+1)*len(t)/pieces
		piece := t[p:end]
		for n := max(len(t)-lev, 2); n <= len(t)+lev; n++ {
			for pos := max(p-lev, 0); pos <= p+lev && pos+2 <= n; pos++ {
				for _, id := range x.lookup(typoKey(t[p], t[p+1], pos, n)) {
					str := x.strs[id]
					if s.stamp[id] == s.gen || pos < 255 && !strings.HasPrefix(str[pos:], piece) {
						continue
					}
					s.stamp[id] = s.gen
					if withinDistance(t, str, maxd, swaps) {
						s.found = append(s.found, id)
					}
				}
			}
		}
	}
	// The skills of the matching strings in ascending order (a merge of
	// their lists), each checked as the scan over every skill checked it.
	s.heads = s.heads[:0]
	for range s.found {
		s.heads = append(s.heads, 0)
	}
	for len(out) < limit {
		next := int32(-1)
		for k, id := range s.found {
			if l := x.skillsOf(id); s.heads[k] < len(l) && (next < 0 || l[s.heads[k]] < next) {
				next = l[s.heads[k]]
			}
		}
		if next < 0 {
			break
		}
		for k, id := range s.found {
			if l := x.skillsOf(id); s.heads[k] < len(l) && l[s.heads[k]] == next {
				s.heads[k]++
			}
		}
		i := int(next)
		if contains(skip, i) || contains(out, i) {
			continue
		}
		if name := x.lower[i]; typoHit(t, name, maxd) && name != t {
			out = append(out, i)
		}
	}
	return out
}

// transposes reports whether a transposition counts as one edit for the
// query word t at distance maxd: when t is long enough to cut into
// 2*maxd+1 pieces of two bytes, the pieces the index looks up (6 bytes for
// one edit, 10 for two). Shorter words are matched by Levenshtein edits
// alone, which the index finds with maxd+1 pieces.
func transposes(t string, maxd int) bool { return len(t) >= 2*(2*maxd+1) }

// typoHit reports whether the lower-case name, or one of its dash-separated
// parts before the first part shorter than four bytes or equal to t, is
// within distance maxd of t.
func typoHit(t, name string, maxd int) bool {
	swaps := transposes(t, maxd)
	if withinDistance(t, name, maxd, swaps) {
		return true
	}
	for rest := name; ; {
		part, tail, more := strings.Cut(rest, "-")
		if len(part) < 4 || part == t {
			return false
		}
		if withinDistance(t, part, maxd, swaps) {
			return true
		}
		if !more {
			return false
		}
		rest = tail
	}
}

// withinDistance reports whether the edit distance of a and b (in bytes)
// is at most max; equal words are not typos. The edits are insertions,
// deletions and substitutions (Levenshtein), and with swaps also the
// transposition of two adjacent bytes ("scnapy" for "scanpy", optimal
// string alignment). Only the band of cells within max of the diagonal is
// computed (a cell outside it is more than max), so the cost is
// O(len·max).
func withinDistance(a, b string, max int, swaps bool) bool {
	if d := len(a) - len(b); d > max || -d > max {
		return false
	}
	if a == b {
		return false // equal words are lexical matches, not typos
	}
	far := max + 1 // stands for every value above max
	const row = 80
	var buf [3 * row]int
	var prev2, prev, cur []int
	if len(b)+1 <= row {
		prev2, prev, cur = buf[:len(b)+1], buf[row:row+len(b)+1], buf[2*row:2*row+len(b)+1]
	} else {
		prev2, prev, cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = min(j, far)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := i-max, i+max
		if lo < 1 {
			lo = 1
			cur[0] = min(i, far)
		} else {
			cur[lo-1] = far
		}
		if hi > len(b) {
			hi = len(b)
		}
		best := far
		if lo == 1 {
			best = cur[0]
		}
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, far)
			// prev2[j-2] lies in the band of row i-2, as j does in this one.
			if swaps && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			best = min(best, c)
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		// A transposition reaches back two rows, but its source cell also
		// bounds a cell of the previous row (which substitutes instead), so
		// a row above max still ends the search.
		if best > max {
			return false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)] <= max
}
