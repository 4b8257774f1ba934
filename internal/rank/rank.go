// Package rank is a small BM25F index for short documents with a few
// weighted fields (skill names and descriptions, tool names, descriptions
// and schema words). It is deterministic: equal scores order by document
// number.
package rank

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxFields is the most fields a document may have.
const MaxFields = 4

// Field describes one field of every document.
type Field struct {
	Name   string
	Weight float64 // relative importance (e.g. name 3, description 1)
	B      float64 // length normalisation in [0,1]; 0.75 is typical
}

// K1 is the BM25 term-frequency saturation.
const K1 = 1.2

type posting struct {
	doc int32
	tf  [MaxFields]uint16
}

// Index is an immutable BM25F index. Safe for concurrent use.
type Index struct {
	fields   []Field
	n        int
	lens     [][MaxFields]uint16
	avg      [MaxFields]float64
	postings map[string][]posting
}

// Builder accumulates documents for an Index.
type Builder struct {
	idx     *Index
	scratch map[string]*[MaxFields]uint16
	order   []string
}

// NewBuilder starts an index over the given fields (at most MaxFields).
func NewBuilder(fields ...Field) *Builder {
	if len(fields) == 0 || len(fields) > MaxFields {
		panic("rank: between 1 and MaxFields fields")
	}
	return &Builder{
		idx:     &Index{fields: fields, postings: map[string][]posting{}},
		scratch: map[string]*[MaxFields]uint16{},
	}
}

// Add appends a document; texts are its fields in order. It returns the
// document number (0, 1, …).
func (b *Builder) Add(texts ...string) int {
	idx := b.idx
	doc := idx.n
	idx.n++
	var lens [MaxFields]uint16
	clear(b.scratch)
	b.order = b.order[:0]
	for f := 0; f < len(idx.fields) && f < len(texts); f++ {
		Tokens(texts[f], func(tok string) {
			if lens[f] < math.MaxUint16 {
				lens[f]++
			}
			tf, ok := b.scratch[tok]
			if !ok {
				tf = new([MaxFields]uint16)
				b.scratch[tok] = tf
				b.order = append(b.order, tok)
			}
			if tf[f] < math.MaxUint16 {
				tf[f]++
			}
		})
	}
	idx.lens = append(idx.lens, lens)
	for _, tok := range b.order {
		idx.postings[tok] = append(idx.postings[tok], posting{doc: int32(doc), tf: *b.scratch[tok]})
	}
	return doc
}

// Build finishes the index; the builder must not be used afterwards.
func (b *Builder) Build() *Index {
	idx := b.idx
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

// Len returns the number of documents.
func (x *Index) Len() int { return x.n }

// Hit is one scored document.
type Hit struct {
	Doc   int
	Score float64
	// Matched counts the distinct query terms found in the document.
	Matched int
}

// Query is a tokenized query, reusable across searches.
type Query struct {
	Terms []string
}

// ParseQuery tokenizes text into distinct terms, dropping stop words.
func ParseQuery(text string) Query {
	var q Query
	seen := map[string]bool{}
	Tokens(text, func(tok string) {
		if !seen[tok] && !stopWords[tok] {
			seen[tok] = true
			q.Terms = append(q.Terms, tok)
		}
	})
	return q
}

// Search returns the documents matching at least one query term, best
// first (ties by document number), at most limit (all when limit <= 0).
func (x *Index) Search(q Query, limit int) []Hit {
	scores := map[int32]*Hit{}
	for _, term := range q.Terms {
		ps := x.postings[term]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (float64(x.n)-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			tf := 0.0
			for f, fd := range x.fields {
				if p.tf[f] == 0 {
					continue
				}
				norm := 1.0
				if x.avg[f] > 0 {
					norm = 1 - fd.B + fd.B*float64(x.lens[p.doc][f])/x.avg[f]
				}
				tf += fd.Weight * float64(p.tf[f]) / norm
			}
			h, ok := scores[p.doc]
			if !ok {
				h = &Hit{Doc: int(p.doc)}
				scores[p.doc] = h
			}
			h.Score += idf * tf / (K1 + tf)
			h.Matched++
		}
	}
	hits := make([]Hit, 0, len(scores))
	for _, h := range scores {
		hits = append(hits, *h)
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Doc < hits[j].Doc
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// DocFreq returns how many documents contain term.
func (x *Index) DocFreq(term string) int { return len(x.postings[term]) }

// Tokens splits text into lower-case word tokens: runs of letters or digits,
// also split at camelCase boundaries and at '-', '_', '.' and '/'; a
// trailing plural "s" is removed from words longer than three letters. fn
// receives each token.
func Tokens(text string, fn func(string)) {
	var buf [64]byte
	word := buf[:0]
	var prev rune
	flush := func() {
		if len(word) == 0 {
			return
		}
		w := word
		if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' {
			w = w[:len(w)-1]
		}
		fn(string(w))
		word = word[:0]
	}
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush() // camelCase boundary
			}
			word = utf8.AppendRune(word, unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
}

// stopWords are English function words that carry no routing signal.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by can could do does for from had has have how i if in into
	is it its me my no not of on or our please should so some than that the their them then there these this those to
	too up us use using was we were what when where which who why will with would you your want need help let make get`) {
		m[w] = true
	}
	return m
}()
