package catalog

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/internal/rank"
)

// Result is one ranked skill.
type Result struct {
	Name string `json:"name"`
	// Score is the skill's relevance to the query, between 0 and 1 (see
	// relevance): 1 for a skill the query names, otherwise its BM25F score
	// as a share of the best skill's, 0.5 for a misspelt name alone. The
	// order of the results is the fused ranking's, which Score does not
	// decide.
	Score       float64 `json:"score"`
	Description string  `json:"description"`
	// Match says why the skill was returned: exact-name (named in the
	// query), name-typo (a query word is a misspelling of its name or a
	// part of it) or lexical (query words, misspelt ones corrected, in its
	// name or description), the first that applies.
	Match string `json:"match"`
	index int
}

// rrfK is the reciprocal-rank-fusion constant.
const rrfK = 60

// Search ranks skills for a query: BM25F over names and descriptions fused
// (reciprocal rank) with exact-name and bounded-typo name matches. It
// abstains (returns nothing) when no query word is specific to any skill.
//
// Only skills that share a word with the query, or a name piece with a
// query word for typos, are looked at; the work and the memory of a search
// do not grow with the catalog beyond those skills.
func (s *Snapshot) Search(query string, limit int) []Result {
	return s.SearchUsage(query, limit, nil)
}

// SearchUsage is Search with usage evidence: the skills the query found
// that score usageGate or more (or that it names) and have uses in u, the
// most used first, are one more list of the fusion (after the typo list).
// Usage decides between near-equal matches; it brings in no skill the
// query did not find, and none past the relevance floor.
func (s *Snapshot) SearchUsage(query string, limit int, u Usage) []Result {
	if limit <= 0 {
		limit = 10
	}
	s.prepareSearch()
	q := parseQuery(query)
	exact := s.exactNames(query)
	// Lexical: BM25F over the query with its unknown words corrected,
	// only when at least one term is selective.
	var lexical []rank.Hit
	cq := s.correct(q)
	if s.selective(cq) {
		lexical = s.bm25().Top(cq.Query, 200, make([]rank.Hit, 0, 200))
	}
	// Typos: query words within a small edit distance of a name or name
	// part, in the order of the lexical list (then in catalog order).
	typos := s.typoMatches(q, exact)
	byLexical(typos, lexical)
	f := fusion{asTyped: sync.OnceValue(func() map[int]bool { return s.asTyped(q, cq, lexical) })}
	f.fuse(exact, lexical, typos)
	if len(u) > 0 {
		for r, i := range s.usageOrder(f.hits, u, lexical) {
			f.add(i, r, "usage", f.hits)
		}
	}
	f.sort()
	return s.results(f.hits, lexical, cq, limit)
}

// exactNames returns the skills named anywhere in the query, as written
// or with spaces for dashes ("pdf form filler" finds pdf-form-filler).
func (s *Snapshot) exactNames(query string) []int {
	var exact []int
	low := strings.ToLower(strings.TrimSpace(query))
	if i := s.Lookup(low); i >= 0 {
		exact = append(exact, i)
	} else if i := s.Lookup(strings.ReplaceAll(low, " ", "-")); i >= 0 {
		exact = append(exact, i)
	}
	// A name among other words counts when it looks like an identifier
	// (a dash, a dot or a digit in it) or is a word few skills use: "run",
	// "board" and "review" are skill names, but in "review a manuscript"
	// the word is the task, not the name.
	for _, f := range strings.FieldsFunc(low, func(r rune) bool { return r == ' ' || r == ',' || r == '`' || r == '"' || r == '\'' }) {
		if i := s.Lookup(f); i >= 0 && !contains(exact, i) && (strings.ContainsAny(f, "-_.0123456789") || s.rare(f)) {
			exact = append(exact, i)
		}
	}
	return exact
}

// asTyped returns the skills the query finds as typed when a correction
// brought skills into the lexical list (nil otherwise): when a misspelt
// name names one the typed words do not find, name-typo is the reason.
func (s *Snapshot) asTyped(q, cq searchQuery, lexical []rank.Hit) map[int]bool {
	if !slices.Contains(cq.Weights, correctionWeight) || len(lexical) == 0 {
		return nil
	}
	typed := map[int]bool{}
	for _, h := range s.bm25().Top(q.Query, 200, make([]rank.Hit, 0, 200)) {
		typed[h.Doc] = true
	}
	return typed
}

// fusion is a reciprocal-rank fusion in progress.
type fusion struct {
	hits []fusedHit
	// asTyped is Snapshot.asTyped's answer; it ranks the catalog again,
	// so it runs only when a typo names a skill already listed, and once.
	asTyped func() map[int]bool
}

// foundAsTyped reports whether the query as typed finds skill i, true
// when no correction brought skills in.
func (f *fusion) foundAsTyped(i int) bool {
	typed := f.asTyped()
	return typed == nil || typed[i]
}

// fuse adds the lists in the order exact, lexical, typo (the order the
// scores are summed in). Each list names a skill once and typos skip
// exact names, so a skill can only repeat from an earlier list.
func (f *fusion) fuse(exact []int, lexical []rank.Hit, typos []int) {
	f.hits = make([]fusedHit, 0, len(exact)+len(lexical)+len(typos))
	for r, i := range exact {
		f.add(i, r, "exact-name", nil)
	}
	nExact := len(f.hits)
	for r, h := range lexical {
		f.add(h.Doc, r, "lexical", f.hits[:nExact])
	}
	for r, i := range typos {
		f.add(i, r, "name-typo", f.hits[nExact:])
	}
}

// add counts skill i at rank r of the list label: onto its entry among
// earlier, or as a new entry.
func (f *fusion) add(i, r int, label string, earlier []fusedHit) {
	lex := 0
	if label == "lexical" {
		lex = r + 1
	}
	for k := range earlier {
		if earlier[k].index == i {
			earlier[k].score += 1.0 / float64(rrfK+r+1)
			earlier[k].typo = earlier[k].typo || label == "name-typo"
			earlier[k].lex = max(earlier[k].lex, lex)
			if label == "name-typo" && !f.foundAsTyped(i) {
				earlier[k].why = label
			}
			return
		}
	}
	f.hits = append(f.hits, fusedHit{index: i, score: 1.0 / float64(rrfK+r+1), why: label, typo: label == "name-typo", lex: lex})
}

// sort orders the fused skills by score, ties as the sums are rounded,
// then in catalog order.
func (f *fusion) sort() {
	for k := range f.hits {
		f.hits[k].score = round4(f.hits[k].score * 1000)
	}
	slices.SortFunc(f.hits, func(a, b fusedHit) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return a.index - b.index
	})
}

// results returns the first limit fused skills that pass the relevance
// floor, with their scores.
func (s *Snapshot) results(fused []fusedHit, lexical []rank.Hit, cq searchQuery, limit int) []Result {
	top := 0.0
	if len(lexical) > 0 {
		top = lexical[0].Score
	}
	// A query with a corrected word keeps its weak matches: the guess may
	// be wrong, and the skill asked for may be among them.
	floor := !slices.Contains(cq.Weights, correctionWeight)
	weight := 0.0
	if floor && len(lexical) > 0 {
		weight = s.bm25().QueryWeight(cq.Query)
	}
	out := make([]Result, 0, min(limit, len(fused)))
	for _, f := range fused {
		if len(out) == limit {
			break
		}
		sk := s.Skills[f.index]
		var h rank.Hit
		if f.lex > 0 {
			h = lexical[f.lex-1]
		}
		score := relevance(f.why, h.Score, top, f.lex > 0)
		if floor && f.why == "lexical" && !f.typo && score < floorScore && h.Held < floorCoverage*weight {
			continue
		}
		out = append(out, Result{Name: sk.Name, Score: score, Description: sk.Description, Match: f.why, index: f.index})
	}
	return out
}

// The relevance floor: a lexical result that no misspelt name found is cut when it scores under
// floorScore of the best lexical match and holds under floorCoverage of
// the query's weight (rank.Hit.Held over rank.Index.QueryWeight), a match on a minor part
// of the query only. Chosen from the score distribution of relevant and
// irrelevant results over the tuning part of the labelled query set
// (docs/search.md).
const (
	floorScore    = 0.45
	floorCoverage = 0.4
)

// relevance is a result's Score: 1 for a skill named in the query; the
// share of the best BM25F score of the query (misspelt words corrected)
// for a skill the lexical list holds; correctionWeight for a skill found
// only by a misspelling of its name, which counts as a corrected word
// does. Rounded to three decimals.
func relevance(why string, lexScore, top float64, lexical bool) float64 {
	switch {
	case why == "exact-name":
		return 1
	case lexical && top > 0:
		return math.Round(lexScore/top*1000) / 1000
	}
	return correctionWeight
}

// byLexical orders skills by their rank in lexical, those absent last,
// keeping the order of equals.
func byLexical(skills []int, lexical []rank.Hit) {
	if len(skills) < 2 {
		return
	}
	pos := make(map[int]int, len(lexical))
	for r, h := range lexical {
		pos[h.Doc] = r
	}
	at := func(i int) int {
		if r, ok := pos[i]; ok {
			return r
		}
		return len(lexical)
	}
	slices.SortStableFunc(skills, func(a, b int) int { return at(a) - at(b) })
}

// fusedHit is one skill's fused score and the first list that named it;
// typo is set when a misspelling of its name found it too, lex locates
// it in the lexical list.
type fusedHit struct {
	index int
	score float64
	why   string
	typo  bool
	lex   int // 1 + its rank in the lexical list; 0 when absent
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

// rareUse is the most skills a word may occur in and still name one
// skill when it stands among other words of a query.
const rareUse = 3

// rare reports whether a word occurs in at most rareUse skills.
func (s *Snapshot) rare(word string) bool {
	return s.bm25().DocFreq(rank.Stem(fold([]byte(word)))) <= rareUse
}

// selective reports whether some query term occurs in at most half of the
// catalog: a query made only of words every skill uses is unrelated.
func (s *Snapshot) selective(q searchQuery) bool {
	x := s.bm25()
	n := x.Len()
	for _, t := range q.Terms {
		if df := x.DocFreq(t); df > 0 && (df*2 <= n || n < 4) {
			return true
		}
	}
	return false
}

// correctionWeight is the share of a corrected term in a score: a guess
// counts less than a word as typed.
const correctionWeight = 0.5

// maxCorrections bounds the terms one unknown query word is corrected to.
const maxCorrections = 3

// correct returns q with each word that matches nothing as written (of
// minTypoWord letters or more) replaced by the index terms closest to it,
// within the distance typo recovery on names allows (see typoMatches):
// those at the smallest distance, the most used first, at most
// maxCorrections. "kubernets" finds skills that mention Kubernetes.
func (s *Snapshot) correct(q searchQuery) searchQuery {
	x := s.bm25()
	var out searchQuery
	for k, term := range q.Terms {
		if len(q.words[k]) < minTypoWord || x.DocFreq(term) > 0 {
			out.Terms = append(out.Terms, term)
			out.words = append(out.words, q.words[k])
			out.Weights = append(out.Weights, 1)
			continue
		}
		for _, c := range s.corrections(term) {
			if !slices.Contains(out.Terms, c) {
				out.Terms = append(out.Terms, c)
				out.words = append(out.words, c)
				out.Weights = append(out.Weights, correctionWeight)
			}
		}
	}
	return out
}

// corrections returns the index terms closest to an unknown term, as
// correct chooses them.
func (s *Snapshot) corrections(term string) []string {
	maxd := typoDistance(term)
	ids := s.termTypos().matches(term, maxd, nil, nil, 50)
	if len(ids) == 0 {
		return nil
	}
	swaps := transposes(term, maxd)
	best := maxd
	for _, id := range ids {
		if best > 1 && withinDistance(term, s.vocab[id], 1, swaps) {
			best = 1
		}
	}
	x := s.bm25()
	var out []string
	for _, id := range ids {
		if withinDistance(term, s.vocab[id], best, swaps) {
			out = append(out, s.vocab[id])
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return x.DocFreq(b) - x.DocFreq(a) })
	return out[:min(len(out), maxCorrections)]
}

// typoDistance is the edit distance typo recovery allows for a word: 1
// for words of up to six letters, 2 for longer ones.
func typoDistance(word string) int {
	if len(word) >= 7 {
		return 2
	}
	return 1
}

// minTypoWord is the shortest query word taken for a typo ("pdff" for
// "pdf").
const minTypoWord = 4

// typoMatches finds skills whose name, or a dash-separated part of it, is
// within edit distance 1 (words of 4-6 letters) or 2 (7 or more) of a query
// word that matches no skill as written; a transposition of two adjacent
// letters is one edit in words of 6 letters or more for one edit, 10 for
// two (see transposes). Bounded: at most 20 matches, in
// query-word order and then skill order.
func (s *Snapshot) typoMatches(q searchQuery, skip []int) []int {
	var out []int
	for k, term := range q.Terms {
		// Only words that match nothing as written are taken for typos;
		// they are compared as typed, not stemmed.
		t := q.words[k]
		if len(t) < minTypoWord || s.bm25().DocFreq(term) > 0 {
			continue
		}
		if out = s.typos().matches(t, typoDistance(t), skip, out, 20); len(out) == 20 {
			return out
		}
	}
	return out
}

// Lexical ranks skills by BM25F over names and descriptions alone, the
// lexical list that Search fuses: no exact names, no typo recovery and no
// abstention. It returns at most limit results (every match when limit <=
// 0), best first, ties in catalog order; Score is the BM25F score as a
// share of the first result's.
func (s *Snapshot) Lexical(query string, limit int) []Result {
	s.prepareSearch()
	hits := s.bm25().Search(parseQuery(query).Query, limit)
	out := make([]Result, 0, len(hits))
	for _, h := range hits {
		sk := s.Skills[h.Doc]
		out = append(out, Result{Name: sk.Name, Score: relevance("lexical", h.Score, hits[0].Score, true), Description: sk.Description, Match: "lexical", index: h.Doc})
	}
	return out
}
