package rank

import "math"

// TermsQuery builds a query from already normalised terms, keeping the
// first occurrence of each (stop words are the caller's business).
func TermsQuery(terms []string) Query {
	q := Query{Terms: make([]string, 0, len(terms))}
	for i, t := range terms {
		dup := false
		for _, u := range terms[:i] {
			if u == t {
				dup = true
				break
			}
		}
		if !dup {
			q.Terms = append(q.Terms, t)
		}
	}
	return q
}

// IsStopWord reports whether tok (a lower-case token) is one of the
// function words ParseQuery drops.
func IsStopWord(tok string) bool { return isStopWord(tok) }

// IDBuilder builds an Index from documents given as term IDs of a
// vocabulary it interns. A caller that normalises each distinct word once
// (stemming, synonyms, structured data) adds documents without a map access
// per term, and the posting lists are laid out in one allocation at Build:
// indexing a few hundred tool schemas stays well under a millisecond.
type IDBuilder struct {
	idx *Index
	// pending holds every (term, document) posting in order, in chunks of
	// pendingChunk: a large catalog's postings are never copied to grow.
	pending [][]idPosting
	npend   int32
	count   []int32 // by term id: postings so far
	lastDoc []int32 // by term id: the last document that used it (+1)
	slot    []int32 // by term id: its position in pending
}

const pendingShift = 14

// pendingChunk is the number of postings per chunk of IDBuilder.pending.
const pendingChunk = 1 << pendingShift

type idPosting struct {
	id int32
	p  posting
}

// NewIDBuilder starts an index over the given fields (at most MaxFields).
func NewIDBuilder(fields ...Field) *IDBuilder {
	if len(fields) == 0 || len(fields) > MaxFields {
		panic("rank: between 1 and MaxFields fields")
	}
	return &IDBuilder{idx: &Index{fields: fields, terms: map[string]int32{}}}
}

// Reserve sizes the builder for about terms distinct terms and postings
// (term, document) pairs, so building does not grow its buffers step by
// step. Call it before adding anything.
func (b *IDBuilder) Reserve(terms, postings int) {
	if len(b.count) > 0 || b.idx.n > 0 {
		return
	}
	b.idx.terms = make(map[string]int32, terms)
	b.count = make([]int32, 0, terms)
	b.lastDoc = make([]int32, 0, terms)
	b.slot = make([]int32, 0, terms)
	b.pending = make([][]idPosting, 0, postings/pendingChunk+1)
}

// ID returns the vocabulary ID of term, adding it when new.
func (b *IDBuilder) ID(term string) int32 {
	if id, ok := b.idx.terms[term]; ok {
		return id
	}
	id := int32(len(b.count))
	b.idx.terms[term] = id
	b.count = append(b.count, 0)
	b.lastDoc = append(b.lastDoc, 0)
	b.slot = append(b.slot, 0)
	return id
}

// Add appends a document whose fields are given as term IDs (from ID) and
// returns its number (0, 1, …).
func (b *IDBuilder) Add(fields ...[]int32) int {
	idx := b.idx
	doc := idx.n
	idx.n++
	var lens [MaxFields]uint16
	for f := 0; f < len(idx.fields) && f < len(fields); f++ {
		for _, id := range fields[f] {
			if lens[f] < math.MaxUint16 {
				lens[f]++
			}
			if b.lastDoc[id] != int32(doc)+1 {
				b.lastDoc[id] = int32(doc) + 1
				b.slot[id] = b.npend
				if b.npend&(pendingChunk-1) == 0 {
					b.pending = append(b.pending, make([]idPosting, 0, pendingChunk))
				}
				last := &b.pending[len(b.pending)-1]
				*last = append(*last, idPosting{id: id, p: posting{doc: int32(doc)}})
				b.npend++
				b.count[id]++
			}
			slot := b.slot[id]
			p := &b.pending[slot>>pendingShift][slot&(pendingChunk-1)].p
			if p.tf[f] < math.MaxUint16 {
				p.tf[f]++
			}
		}
	}
	idx.lens = append(idx.lens, lens)
	return doc
}

// Build finishes the index; the builder must not be used afterwards.
func (b *IDBuilder) Build() *Index {
	idx := b.idx
	arena := make([]posting, b.npend)
	idx.postings = make([][]posting, len(b.count))
	off := 0
	for id, n := range b.count {
		idx.postings[id] = arena[off : off : off+int(n)]
		off += int(n)
	}
	for _, chunk := range b.pending { // document order is kept within each list
		for _, e := range chunk {
			idx.postings[e.id] = append(idx.postings[e.id], e.p)
		}
	}
	b.pending = nil
	if idx.n > 0 {
		var sum [MaxFields]float64
		for _, l := range idx.lens {
			for f := range idx.fields {
				sum[f] += float64(l[f])
			}
		}
		for f := range idx.fields {
			idx.avg[f] = sum[f] / float64(idx.n)
		}
	}
	b.idx = nil
	return idx
}
