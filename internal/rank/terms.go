package rank

// AddTerms appends a document whose fields are given as already normalised
// terms (callers that stem, expand aliases or walk structured data tokenize
// once themselves instead of building text for Add to split again). It
// returns the document number.
func (b *Builder) AddTerms(fields ...[]string) int {
	return b.addDoc(func(add func(f int, tok []byte)) {
		for f, terms := range fields {
			for _, t := range terms {
				add(f, []byte(t))
			}
		}
	})
}

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
func IsStopWord(tok string) bool { return stopWords[tok] }

// FieldFreq returns how many documents contain term in field f.
func (x *Index) FieldFreq(term string, f int) int {
	id, ok := x.terms[term]
	if !ok {
		return 0
	}
	n := 0
	for _, p := range x.postings[id] {
		if p.tf[f] > 0 {
			n++
		}
	}
	return n
}
