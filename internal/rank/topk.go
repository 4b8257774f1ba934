package rank

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// Scratch is the per-search working memory of Top: a score and a match
// count per document, reset after each search, so that a search touches
// only the documents in the query terms' posting lists and allocates
// nothing once its scratch exists. A Scratch belongs to one index and one
// search at a time.
type Scratch struct {
	score   []float64
	held    []float64
	matched []uint16
	touched []int32
	heap    []Hit
}

// scratchPool keeps scratches for reuse. Unlike a sync.Pool it survives
// garbage collections: a scratch is about ten bytes per document, and
// reallocating it after every collection would make the allocation of a
// search grow with the index.
type scratchPool struct {
	mu   sync.Mutex
	free []*Scratch
}

// maxFreeScratches bounds how many idle scratches an index keeps.
const maxFreeScratches = 4

func (x *Index) getScratch() *Scratch {
	x.pool.mu.Lock()
	defer x.pool.mu.Unlock()
	if n := len(x.pool.free); n > 0 {
		s := x.pool.free[n-1]
		x.pool.free = x.pool.free[:n-1]
		return s
	}
	return &Scratch{score: make([]float64, x.n), held: make([]float64, x.n), matched: make([]uint16, x.n)}
}

func (x *Index) putScratch(s *Scratch) {
	x.pool.mu.Lock()
	defer x.pool.mu.Unlock()
	if len(x.pool.free) < maxFreeScratches {
		x.pool.free = append(x.pool.free, s)
	}
}

// Top returns what Search returns for the same query and a positive
// limit, appended to dst: the documents matching at least one query term,
// best first (ties by document number), at most limit. It scores each
// document in the terms' posting lists in the same order and with the same
// arithmetic as Search, and selects the best with a bounded heap; with dst
// of capacity limit it allocates nothing once the index has served a
// search. Safe for concurrent use.
func (x *Index) Top(q Query, limit int, dst []Hit) []Hit {
	if limit <= 0 {
		return append(dst, x.Search(q, 0)...)
	}
	s := x.getScratch()
	defer x.putScratch(s)
	for k, term := range q.Terms {
		id, ok := x.terms[term]
		if !ok {
			continue
		}
		ps := x.postings[id]
		idf := x.idf(len(ps)) * q.weight(k)
		for _, p := range ps {
			tf := x.tf(p)
			if s.matched[p.doc] == 0 {
				s.touched = append(s.touched, p.doc)
			}
			s.score[p.doc] += idf * tf / (K1 + tf)
			s.held[p.doc] += idf
			if s.matched[p.doc] < math.MaxUint16 {
				s.matched[p.doc]++
			}
		}
	}
	// A min-heap of the best limit hits: its root is the worst of them.
	h := s.heap[:0]
	for _, d := range s.touched {
		hit := Hit{Doc: int(d), Score: s.score[d], Matched: int(s.matched[d]), Held: s.held[d]}
		s.score[d], s.matched[d], s.held[d] = 0, 0, 0
		switch {
		case len(h) < limit:
			h = append(h, hit)
			siftUp(h, len(h)-1)
		case better(hit, h[0]):
			h[0] = hit
			siftDown(h, 0)
		}
	}
	s.touched = s.touched[:0]
	start := len(dst)
	dst = append(dst, h...)
	s.heap = h[:0]
	slices.SortFunc(dst[start:], compareHits)
	return dst
}

// better orders hits as Search does: higher score first, then lower
// document number.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Doc < b.Doc
}

// compareHits is better as a comparison: one look at the scores.
func compareHits(a, b Hit) int {
	if a.Score != b.Score {
		if a.Score > b.Score {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.Doc, b.Doc)
}

func siftUp(h []Hit, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !better(h[parent], h[i]) {
			return
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

func siftDown(h []Hit, i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && better(h[worst], h[l]) {
			worst = l
		}
		if r < len(h) && better(h[worst], h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}
