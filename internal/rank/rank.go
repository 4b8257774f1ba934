// Package rank is a small BM25F index for short documents with a few
// weighted fields (skill names and descriptions, tool names, descriptions
// and schema words). It is deterministic: equal scores order by document
// number.
package rank

import (
	"math"
	"sort"
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
	terms    map[string]int32 // term → id
	postings [][]posting      // by term id
	pool     scratchPool      // Top's working memory
}

// Builder accumulates documents given as text for an Index. It tokenizes
// each field and adds the document through an IDBuilder: a map lookup per
// token, new words interned once, and the posting lists laid out in one
// allocation at Build.
type Builder struct {
	ib  *IDBuilder
	ids [MaxFields][]int32 // the current document's term IDs by field
	cur []int32            // the field being tokenized
	buf []byte             // the token being read
}

// NewBuilder starts an index over the given fields (at most MaxFields).
func NewBuilder(fields ...Field) *Builder {
	return &Builder{ib: NewIDBuilder(fields...)}
}

// Add appends a document; texts are its fields in order. It returns the
// document number (0, 1, …).
func (b *Builder) Add(texts ...string) int {
	n := min(len(texts), len(b.ib.idx.fields))
	terms := b.ib.idx.terms
	for f := 0; f < n; f++ {
		b.cur = b.ids[f][:0]
		b.buf = AppendTokens(texts[f], true, b.buf[:0], func(tok []byte) {
			id, ok := terms[string(tok)] // no allocation for the lookup
			if !ok {
				id = b.ib.ID(string(tok))
			}
			b.cur = append(b.cur, id)
		})
		b.ids[f] = b.cur
	}
	return b.ib.Add(b.ids[:n]...)
}

// Build finishes the index; the builder must not be used afterwards.
func (b *Builder) Build() *Index {
	return b.ib.Build()
}

// Len returns the number of documents.
func (x *Index) Len() int { return x.n }

// Hit is one scored document.
type Hit struct {
	Doc   int
	Score float64
	// Matched counts the distinct query terms found in the document.
	Matched int
	// Held sums the weights (inverse document frequency times query
	// weight) of those terms; over Index.QueryWeight it is the share of
	// the query the document holds.
	Held float64
}

// Query is a tokenized query, reusable across searches.
type Query struct {
	Terms []string
	// Weights scales each term's share of a score, by term; a term
	// without a weight (Weights nil or shorter) counts fully. A caller
	// that guesses a term (a spelling correction) gives it less.
	Weights []float64
}

// weight returns the weight of term k.
func (q Query) weight(k int) float64 {
	if k < len(q.Weights) {
		return q.Weights[k]
	}
	return 1
}

// ParseQuery tokenizes text into distinct terms, dropping stop words.
func ParseQuery(text string) Query {
	var q Query
	seen := map[string]bool{}
	Tokens(text, func(tok string) {
		if !seen[tok] && !isStopWord(tok) {
			seen[tok] = true
			q.Terms = append(q.Terms, tok)
		}
	})
	return q
}

// idf is the inverse document frequency of a term in df documents.
func (x *Index) idf(df int) float64 {
	return math.Log(1 + (float64(x.n)-float64(df)+0.5)/(float64(df)+0.5))
}

// tf is a posting's term frequency over the fields, each weighted and
// normalised by the field's length against its average (BM25F).
func (x *Index) tf(p posting) float64 {
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
	return tf
}

// Search returns the documents matching at least one query term, best
// first (ties by document number), at most limit (all when limit <= 0).
func (x *Index) Search(q Query, limit int) []Hit {
	scores := map[int32]*Hit{}
	for k, term := range q.Terms {
		id, ok := x.terms[term]
		if !ok {
			continue
		}
		ps := x.postings[id]
		idf := x.idf(len(ps)) * q.weight(k)
		for _, p := range ps {
			tf := x.tf(p)
			h, ok := scores[p.doc]
			if !ok {
				h = &Hit{Doc: int(p.doc)}
				scores[p.doc] = h
			}
			h.Score += idf * tf / (K1 + tf)
			h.Matched++
			h.Held += idf
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
func (x *Index) DocFreq(term string) int {
	if id, ok := x.terms[term]; ok {
		return len(x.postings[id])
	}
	return 0
}

// Tokens splits text into lower-case word tokens: runs of letters or digits,
// also split at camelCase boundaries and at '-', '_', '.' and '/'; a
// trailing plural "s" is removed from words longer than three letters. fn
// receives each token.
func Tokens(text string, fn func(string)) {
	tokens(text, func(b []byte) { fn(string(b)) })
}

// tokens is Tokens without allocating: tok is only valid during the call.
func tokens(text string, fn func(tok []byte)) {
	var buf [64]byte
	AppendTokens(text, true, buf[:0], fn)
}

// AppendTokens splits text into lower-case word tokens as Tokens does (letters and digits; a trailing plural "s" dropped from
// words longer than three letters), splitting at camelCase boundaries only
// when camel is set; prose is tokenized as if lower-cased first, so
// "GitHub" stays one word. fn receives each token in a buffer that is only
// valid during the call: indexing a catalog allocates only for new words.
func AppendTokens[T ~string | ~[]byte](text T, camel bool, buf []byte, fn func(tok []byte)) []byte {
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
		fn(w)
		word = word[:0]
	}
	// prev is the previous rune as Tokens sees it: as written for
	// identifiers, lower-cased for prose.
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
				word = append(word, c)
			case c >= 'A' && c <= 'Z':
				if camel && (prev >= 'a' && prev <= 'z' || prev >= utf8.RuneSelf && unicode.IsLower(prev)) {
					flush()
				}
				c += 'a' - 'A'
				word = append(word, c)
				if !camel {
					prev = rune(c)
					continue
				}
				prev = rune(c - ('a' - 'A'))
				continue
			default:
				flush()
			}
			prev = rune(c)
			continue
		}
		// At most four bytes: converting them does not allocate.
		r, size := utf8.DecodeRuneInString(string(text[i:min(i+utf8.UTFMax, len(text))]))
		i += size
		if !camel {
			r = unicode.ToLower(r)
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			// A capital without a lower-case form still splits a word,
			// as it does in lower-cased text.
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			word = utf8.AppendRune(word, unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
	return word
}

// isStopWord reports whether tok is one of the English function words
// that carry no routing signal (a switch: no table is built at start-up).
func isStopWord(tok string) bool {
	switch tok {
	case "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "do", "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into",
		"is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "please", "should", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these", "this", "those", "to",
		"too", "up", "us", "use", "using", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "would", "you", "your", "want", "need", "help", "let", "make", "get":
		return true
	}
	return false
}

// QueryWeight returns the weight of a whole query: the inverse document
// frequencies of its terms the index knows, each times its query weight.
// A hit's Held over it is the share of the query the document holds.
func (x *Index) QueryWeight(q Query) float64 {
	total := 0.0
	for k, term := range q.Terms {
		if id, ok := x.terms[term]; ok {
			total += x.idf(len(x.postings[id])) * q.weight(k)
		}
	}
	return total
}
