package searchbench

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/catalog"
)

// Rankers, in report order.
const (
	BM25F = "bm25f" // Snapshot.Lexical: BM25F over names and descriptions alone
	Full  = "full"  // Snapshot.Search: what `catalog search` answers
)

// Rankers lists the rankers measured.
var Rankers = []string{BM25F, Full}

// Parts of the set, in report order.
const (
	Tuning  = "tuning"
	HeldOut = "held-out"
)

// depth is how many results each query asks for (nDCG@10).
const depth = 10

// Metrics are the means over a part's queries. Recall@k is the share of a
// query's grade-2 skills among its first k results; MRR the reciprocal
// rank of the first grade-2 skill (0 when none is in the first ten);
// nDCG@10 uses the grades as gains (2^grade - 1) with a log2 discount.
// Unlabelled is the mean number of results among the first ten that the
// labels do not name: noise, which the other metrics do not see.
type Metrics struct {
	Part       string  `json:"part"`
	Ranker     string  `json:"ranker"`
	Queries    int     `json:"queries"`
	R1         float64 `json:"recall_at_1"`
	R3         float64 `json:"recall_at_3"`
	R5         float64 `json:"recall_at_5"`
	MRR        float64 `json:"mrr"`
	NDCG10     float64 `json:"ndcg_at_10"`
	Unlabelled float64 `json:"unlabelled_at_10"`
}

// Case is one query's outcome under one ranker.
type Case struct {
	ID         string   `json:"id"`
	Part       string   `json:"part"`
	Ranker     string   `json:"ranker"`
	Query      string   `json:"query"`
	Kind       string   `json:"kind"`
	Rank       int      `json:"rank"` // of the first grade-2 skill, 0 when not in the first ten
	NDCG10     float64  `json:"ndcg_at_10"`
	Unlabelled int      `json:"unlabelled"` // results the labels do not name
	Results    []string `json:"results"`    // skill names, best first
}

// Typos is exact-name recovery for misspellings at one edit distance.
type Typos struct {
	Edits  int     `json:"edits"`
	Ranker string  `json:"ranker"`
	Names  int     `json:"names"`
	Top1   float64 `json:"top_1"`
	Top5   float64 `json:"top_5"`
}

// Pagination is paging through every match of each query.
type Pagination struct {
	Queries     int `json:"queries"`
	PageSize    int `json:"page_size"`
	TagPageSize int `json:"tag_page_size"`
	// Complete counts queries whose pages held every match exactly once,
	// in both browses: the query alone and the query ordering a tag.
	Complete   int `json:"complete"`
	Duplicated int `json:"duplicated"`
	Missing    int `json:"missing"`
	// Abstained counts queries whose browse by query alone returned
	// nothing because no query word is specific to any skill (by design).
	Abstained int `json:"abstained"`
}

// Report is the whole benchmark.
type Report struct {
	Set        string     `json:"set"`
	Root       string     `json:"root"`
	Skills     int        `json:"skills"`
	Queries    int        `json:"queries"`
	HeldOut    int        `json:"held_out"`
	Metrics    []Metrics  `json:"metrics"`
	Typos      []Typos    `json:"typos"`
	Pagination Pagination `json:"pagination"`
	Cases      []Case     `json:"cases,omitempty"`
}

// rank runs a query through a ranker.
func (c *Corpus) rank(ranker, query string, limit int) []catalog.Result {
	if ranker == BM25F {
		return c.Snap.Lexical(query, limit)
	}
	return c.Snap.SearchUsage(query, limit, c.Usage)
}

// Run measures the set over the corpus; the set's labels must name skills
// of the corpus (Check).
func Run(c *Corpus, set *Set) (*Report, error) {
	if err := c.Check(set); err != nil {
		return nil, err
	}
	rep := &Report{Set: set.Where, Root: c.Root, Skills: c.Snap.Len(), Queries: len(set.Queries)}
	for _, q := range set.Queries {
		if q.HeldOut {
			rep.HeldOut++
		}
	}
	for _, part := range []string{Tuning, HeldOut} {
		for _, ranker := range Rankers {
			m := Metrics{Part: part, Ranker: ranker}
			for _, q := range set.Queries {
				if q.HeldOut != (part == HeldOut) {
					continue
				}
				cs, r1, r3, r5, rr := c.score(q, ranker)
				cs.Part = part
				m.Queries++
				m.R1 += r1
				m.R3 += r3
				m.R5 += r5
				m.MRR += rr
				m.NDCG10 += cs.NDCG10
				m.Unlabelled += float64(cs.Unlabelled)
				rep.Cases = append(rep.Cases, cs)
			}
			if m.Queries > 0 {
				n := float64(m.Queries)
				m.R1, m.R3, m.R5, m.MRR, m.NDCG10 = round(m.R1/n), round(m.R3/n), round(m.R5/n), round(m.MRR/n), round(m.NDCG10/n)
				m.Unlabelled = round(m.Unlabelled / n)
			}
			rep.Metrics = append(rep.Metrics, m)
		}
	}
	rep.Typos = c.typos()
	rep.Pagination = c.pagination(set)
	return rep, nil
}

// score ranks one query and returns its case and its recalls at 1, 3 and
// 5 and reciprocal rank.
func (c *Corpus) score(q Query, ranker string) (cs Case, r1, r3, r5, rr float64) {
	res := c.rank(ranker, q.Query, depth)
	cs = Case{ID: q.ID, Ranker: ranker, Query: q.Query, Kind: q.Kind, Results: []string{}}
	answers := 0
	for _, g := range q.Relevant {
		if g == 2 {
			answers++
		}
	}
	found := 0
	dcg := 0.0
	for i, r := range res {
		cs.Results = append(cs.Results, r.Name)
		g, labelled := q.Relevant[c.key(r.Name)]
		if !labelled {
			cs.Unlabelled++
		}
		dcg += gain(g) / math.Log2(float64(i+2))
		if g == 2 {
			found++
			if cs.Rank == 0 {
				cs.Rank = i + 1
				rr = 1 / float64(i+1)
			}
		}
		switch i + 1 {
		case 1:
			r1 = float64(found) / float64(answers)
		case 3:
			r3 = float64(found) / float64(answers)
		case 5:
			r5 = float64(found) / float64(answers)
		}
	}
	// Fewer results than k: recall at k is what was found.
	if len(res) < 1 {
		r1 = float64(found) / float64(answers)
	}
	if len(res) < 3 {
		r3 = float64(found) / float64(answers)
	}
	if len(res) < 5 {
		r5 = float64(found) / float64(answers)
	}
	grades := make([]int, 0, len(q.Relevant))
	for _, g := range q.Relevant {
		grades = append(grades, g)
	}
	slices.Sort(grades)
	slices.Reverse(grades)
	ideal := 0.0
	for i, g := range grades[:min(depth, len(grades))] {
		ideal += gain(g) / math.Log2(float64(i+2))
	}
	cs.NDCG10 = round(dcg / ideal)
	return cs, r1, r3, r5, rr
}

func gain(grade int) float64 { return float64(int(1)<<grade - 1) }

func round(f float64) float64 { return math.Round(f*10000) / 10000 }

// typoSeed fixes the misspellings: the benchmark is the same on every run.
const typoSeed = 25

// typos misspells every name of the catalog once with one edit (names of
// three letters or more) and once with two (six or more), as search
// engines bound fuzziness by length, and asks each ranker for the name.
// A misspelling that is another skill's name, or that is not at exactly
// that distance, is drawn again.
func (c *Corpus) typos() []Typos {
	names := c.Snap.Names()
	taken := map[string]bool{}
	for _, n := range names {
		taken[strings.ToLower(n)] = true
	}
	var out []Typos
	for _, edits := range []int{1, 2} {
		rng := rand.New(rand.NewPCG(typoSeed, uint64(edits)))
		var cases []struct{ name, typo string }
		for _, n := range names {
			low := strings.ToLower(n)
			if len(low) < 3*edits || len(low) < 3 || !isASCII(low) {
				continue
			}
			for try := 0; try < 20; try++ {
				t := low
				for range edits {
					t = mutate(rng, t)
				}
				if !taken[t] && distance(low, t) == edits {
					cases = append(cases, struct{ name, typo string }{n, t})
					break
				}
			}
		}
		for _, ranker := range Rankers {
			row := Typos{Edits: edits, Ranker: ranker, Names: len(cases)}
			for _, k := range cases {
				for i, r := range c.rank(ranker, k.typo, 5) {
					if r.Name == k.name {
						if i == 0 {
							row.Top1++
						}
						row.Top5++
						break
					}
				}
			}
			if row.Names > 0 {
				row.Top1, row.Top5 = round(row.Top1/float64(row.Names)), round(row.Top5/float64(row.Names))
			}
			out = append(out, row)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// mutate applies one random edit to a letter of s: a deletion, an
// insertion or a substitution of a lower-case letter (dashes and digits are
// left alone, as people mistype words, not separators).
func mutate(rng *rand.Rand, s string) string {
	var letters []int
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			letters = append(letters, i)
		}
	}
	if len(letters) == 0 {
		return s
	}
	i := letters[rng.IntN(len(letters))]
	c := byte('a' + rng.IntN(26))
	switch rng.IntN(3) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		return s[:i] + string(c) + s[i:]
	default:
		return s[:i] + string(c) + s[i+1:]
	}
}

// distance is the Levenshtein distance of two short strings.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// pageSize is small so that most queries take several pages; browsing
// every skill ordered by the query takes tagPageSize.
const (
	pageSize    = 3
	tagPageSize = catalog.DefaultPageSize
)

// pagination pages through every match of each query, as `catalog browse`
// does with --query alone (the query filters) and with --tags
// unclassified (every skill, the query orders them), and checks that the
// pages hold every match exactly once.
func (c *Corpus) pagination(set *Set) Pagination {
	p := Pagination{Queries: len(set.Queries), PageSize: pageSize, TagPageSize: tagPageSize}
	for _, q := range set.Queries {
		ok := true
		for _, tags := range [][]string{nil, {catalog.Unclassified}} {
			want := map[string]bool{}
			if tags == nil {
				for _, r := range c.Snap.Lexical(q.Query, 0) {
					want[r.Name] = true
				}
			} else {
				for _, n := range c.Snap.Names() {
					want[n] = true
				}
			}
			seen := map[string]int{}
			req := catalog.BrowseRequest{Tags: tags, Query: q.Query, PageSize: pageSize}
			if tags != nil {
				req.PageSize = tagPageSize
			}
			for pages := 0; pages <= c.Snap.Len(); pages++ {
				page, _, err := c.Snap.Browse(req)
				if err != nil {
					break
				}
				if pages == 0 && tags == nil && len(page.Cards) == 0 && len(want) > 0 {
					p.Abstained++
					want = map[string]bool{}
				}
				for _, card := range page.Cards {
					seen[card.Name]++
				}
				if page.Cursor == nil {
					break
				}
				req.Cursor = *page.Cursor
			}
			dup, miss := false, false
			for n, k := range seen {
				dup = dup || k > 1 || !want[n]
			}
			for n := range want {
				miss = miss || seen[n] == 0
			}
			if dup {
				p.Duplicated++
			}
			if miss {
				p.Missing++
			}
			ok = ok && !dup && !miss
		}
		if ok {
			p.Complete++
		}
	}
	return p
}
