package catalog

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/internal/rank"
)

// searchReference is Search as it was before the search structures: the
// BM25F hits of Index.Search and a scan of every skill for typos. Search
// must return exactly what it returns.
func searchReference(s *Snapshot, query string, limit int) []Result {
	if limit <= 0 {
		limit = 10
	}
	q := parseQuery(query)
	fused := map[int]float64{}
	why := map[int]string{}
	var asTyped map[int]bool
	add := func(list []int, label string) {
		for r, i := range list {
			fused[i] += 1.0 / float64(rrfK+r+1)
			if w, ok := why[i]; !ok || w == "lexical" && label == "name-typo" && asTyped != nil && !asTyped[i] {
				why[i] = label
			}
		}
	}
	var exact []int
	low := strings.ToLower(strings.TrimSpace(query))
	if i := s.Lookup(low); i >= 0 {
		exact = append(exact, i)
	} else if i := s.Lookup(strings.ReplaceAll(low, " ", "-")); i >= 0 {
		exact = append(exact, i)
	}
	for _, f := range strings.FieldsFunc(low, func(r rune) bool { return r == ' ' || r == ',' || r == '`' || r == '"' || r == '\'' }) {
		if i := s.Lookup(f); i >= 0 && !contains(exact, i) && (strings.ContainsAny(f, "-_.0123456789") || s.bm25().DocFreq(rank.Stem(fold([]byte(f)))) <= rareUse) {
			exact = append(exact, i)
		}
	}
	add(exact, "exact-name")
	var lexical []int
	cq := correctRef(s, q)
	lexScore := map[int]float64{}
	top := 0.0
	if s.selective(cq) {
		for r, h := range s.bm25().Search(cq.Query, 200) {
			lexical = append(lexical, h.Doc)
			lexScore[h.Doc] = h.Score
			if r == 0 {
				top = h.Score
			}
		}
	}
	add(lexical, "lexical")
	if slices.Contains(cq.Weights, correctionWeight) && len(lexical) > 0 {
		asTyped = map[int]bool{}
		for _, h := range s.bm25().Search(q.Query, 200) {
			asTyped[h.Doc] = true
		}
	}
	typos := typoScan(s, q, exact)
	sort.SliceStable(typos, func(a, b int) bool {
		ra, rb := slices.Index(lexical, typos[a]), slices.Index(lexical, typos[b])
		if ra < 0 {
			ra = len(lexical)
		}
		if rb < 0 {
			rb = len(lexical)
		}
		return ra < rb
	})
	add(typos, "name-typo")
	type hit struct {
		i  int
		sc float64
	}
	var order []hit
	for i, sc := range fused {
		order = append(order, hit{i, round4(sc * 1000)})
	}
	sort.Slice(order, func(a, b int) bool {
		if order[a].sc != order[b].sc {
			return order[a].sc > order[b].sc
		}
		return order[a].i < order[b].i
	})
	// The relevance floor, with each skill's coverage from one
	// single-term search per query term.
	floor := !slices.Contains(cq.Weights, correctionWeight)
	held := map[int]float64{}
	total := 0.0
	for k, term := range cq.Terms {
		one := s.bm25().Search(rank.Query{Terms: []string{term}}, 0)
		if len(one) == 0 {
			continue
		}
		n := float64(s.bm25().Len())
		w := math.Log(1+(n-float64(len(one))+0.5)/(float64(len(one))+0.5)) * cq.Weights[k]
		total += w
		for _, h := range one {
			held[h.Doc] += w
		}
	}
	out := make([]Result, 0, len(order))
	for _, h := range order {
		if len(out) == limit {
			break
		}
		sk := s.Skills[h.i]
		ls, ok := lexScore[h.i]
		score := relevance(why[h.i], ls, top, ok)
		if floor && why[h.i] == "lexical" && !contains(typos, h.i) && score < floorScore && held[h.i]/total < floorCoverage {
			continue
		}
		out = append(out, Result{Name: sk.Name, Score: score, Description: sk.Description, Match: why[h.i], index: h.i})
	}
	return out
}

// correctRef is Snapshot.correct as a scan of the whole vocabulary.
func correctRef(s *Snapshot, q searchQuery) searchQuery {
	var out searchQuery
	for k, term := range q.Terms {
		if len(q.words[k]) < 4 || s.bm25().DocFreq(term) > 0 {
			out.Terms = append(out.Terms, term)
			out.words = append(out.words, q.words[k])
			out.Weights = append(out.Weights, 1)
			continue
		}
		maxd := 1
		if len(term) >= 7 {
			maxd = 2
		}
		dist := distanceRef
		if len(term) >= 2*(2*maxd+1) {
			dist = osaRef
		}
		best := maxd + 1
		var cands []string
		for _, v := range s.vocab {
			d := dist(term, v)
			if v == term || d > maxd || d > best {
				continue
			}
			if d < best {
				best, cands = d, nil
			}
			cands = append(cands, v)
		}
		sort.SliceStable(cands, func(a, b int) bool { return s.bm25().DocFreq(cands[a]) > s.bm25().DocFreq(cands[b]) })
		for _, c := range cands[:min(len(cands), 3)] {
			if !slices.Contains(out.Terms, c) {
				out.Terms = append(out.Terms, c)
				out.words = append(out.words, c)
				out.Weights = append(out.Weights, correctionWeight)
			}
		}
	}
	return out
}

// typoScan is the typo search as a scan over every skill.
func typoScan(s *Snapshot, q searchQuery, skip []int) []int {
	var out []int
	for k, term := range q.Terms {
		t := q.words[k]
		if len(t) < 4 || s.bm25().DocFreq(term) > 0 {
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
			if hitRef(t, strings.ToLower(sk.Name), maxd) {
				out = append(out, i)
				if len(out) == 20 {
					return out
				}
			}
		}
	}
	return out
}

// hitRef is the scan's test of one lower-case name against a query word:
// transpositions count in words of 6 bytes or more for one edit, 10 for
// two.
func hitRef(t, name string, maxd int) bool {
	dist := distanceRef
	if len(t) >= 2*(2*maxd+1) {
		dist = osaRef
	}
	hit := dist(t, name) <= maxd && t != name
	for _, part := range strings.Split(name, "-") {
		if hit || len(part) < 4 || part == t {
			break
		}
		hit = dist(t, part) <= maxd
	}
	return hit && name != t
}

// osaRef is the optimal-string-alignment distance in bytes: Levenshtein
// with transpositions of adjacent bytes.
func osaRef(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// distanceRef is the plain Levenshtein distance in bytes.
func distanceRef(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
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

// typo applies k random byte edits to w.
func typo(r *rand.Rand, w string, k int) string {
	b := []byte(w)
	for ; k > 0 && len(b) > 1; k-- {
		i := r.IntN(len(b))
		switch r.IntN(4) {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			b[i] = byte('a' + r.IntN(26))
		case 2:
			b = append(b[:i], append([]byte{byte('a' + r.IntN(26))}, b[i:]...)...)
		default:
			if i+1 < len(b) {
				b[i], b[i+1] = b[i+1], b[i]
			}
		}
	}
	return string(b)
}

// searchQueries returns the queries of the search tests, the synthetic
// request's text, and queries drawn from the skills: names, name parts and
// description words as written and with one to three edits, mixed with
// unrelated words.
func searchQueries(skills []Skill, n int, seed uint64) []string {
	qs := []string{
		"", "the and of", "fill a pdf form", "terraform-state", "use changelog-writer please", "terrafrom",
		"release notes", "bake a chocolate cake", "write the release notes", "flakey", "create a slack gif",
		"日本語 クエリ migration", "pdf form filler", "k8s-rollout", "debug kubernetes rollouts and pods",
		"The nightly reconciliation in ledgerd started dropping entries after last week's batching change: the totals in the export no longer match the bank statement & finance noticed it first. Find out why, fix it, and add a regression test. Don't touch the SQL migrations.",
	}
	r := rand.New(rand.NewPCG(seed, 7))
	var words []string
	for _, sk := range skills {
		words = append(words, sk.Name)
		words = append(words, strings.Split(strings.ToLower(sk.Name), "-")...)
		words = append(words, strings.Fields(sk.Description)...)
	}
	filler := strings.Fields("please can you help me with this task today quickly reconcile ledger parsing flaky build deploy")
	for len(qs) < n {
		var q []string
		for k := r.IntN(8); k >= 0; k-- {
			var w string
			if r.IntN(3) == 0 {
				w = filler[r.IntN(len(filler))]
			} else {
				w = words[r.IntN(len(words))]
			}
			if r.IntN(2) == 0 {
				w = typo(r, w, 1+r.IntN(3))
			}
			q = append(q, w)
		}
		qs = append(qs, strings.Join(q, " "))
	}
	return qs
}

func checkSameResults(t *testing.T, s *Snapshot, queries []string) {
	t.Helper()
	for _, q := range queries {
		want := searchReference(s, q, 10)
		for _, limit := range []int{3, 10} {
			got := s.Search(q, limit)
			if w := want[:min(limit, len(want))]; !reflect.DeepEqual(got, w) {
				t.Fatalf("%d skills, %q, limit %d:\n got %+v\nwant %+v", s.Len(), q, limit, got, w)
			}
		}
	}
}

// TestSearchMatchesReference: the indexed search returns what the scan
// returned, on the search tests' queries and on generated ones, over small
// hand-written catalogs, synthetic ones and the corpus's skills.
func TestSearchMatchesReference(t *testing.T) {
	hand := []Skill{
		{Name: "pdf-form-filler", Description: "Fill PDF forms and flatten them."},
		{Name: "terraform-state", Description: "Move terraform state between backends."},
		{Name: "changelog-writer", Description: "Draft release notes from commits."},
		{Name: "k8s-rollout", Description: "Debug Kubernetes rollouts and pods."},
		{Name: "Slack-GIF-Creator", Description: "Create animated GIFs for Slack."},
		{Name: "a--b-deploys", Description: "Odd name with an empty part."},
		{Name: "deploy-deploy-deploy", Description: "A name part that repeats."},
		{Name: "über-résumé-écrivain", Description: "Écrit des résumés."},
		{Name: strings.Repeat("longname", 40), Description: "A name past 255 bytes."},
	}
	checkSameResults(t, NewSnapshot(hand, Options{}), searchQueries(hand, 400, 1))
	for _, n := range []int{40, 355, 2000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var skills []Skill
			for _, s := range synth.Skills(n, 1) {
				skills = append(skills, Skill{Name: s.Name, Description: s.Description})
			}
			checkSameResults(t, NewSnapshot(skills, Options{}), searchQueries(skills, 150+150*min(1, 355/n), uint64(n)))
		})
	}
	root := filepath.Join("..", "..", "shared", "corpus", "skills")
	if _, err := os.Stat(root); err != nil {
		t.Log("../shared/corpus not found: corpus skills not checked")
		return
	}
	skills, _ := FromDisk([]string{root})
	if len(skills) < 50 {
		t.Fatalf("only %d corpus skills", len(skills))
	}
	checkSameResults(t, NewSnapshot(skills, Options{}), searchQueries(skills, 400, 3))
}

// TestTypoIndexFindsEveryMatch: for every word within distance 1 or 2 of a
// name or name part, the index finds every skill the scan finds (the
// superset argument of typo.go, tested directly).
func TestTypoIndexFindsEveryMatch(t *testing.T) {
	var skills []Skill
	for _, s := range synth.Skills(500, 4) {
		skills = append(skills, Skill{Name: s.Name, Description: s.Description})
	}
	s := NewSnapshot(skills, Options{})
	r := rand.New(rand.NewPCG(9, 9))
	for k := 0; k < 400; k++ {
		name := strings.ToLower(skills[r.IntN(len(skills))].Name)
		w := name
		if r.IntN(2) == 0 {
			parts := strings.Split(name, "-")
			w = parts[r.IntN(len(parts))]
		}
		w = typo(r, strings.ReplaceAll(w, "-", ""), 1+r.IntN(2))
		if len(w) < 4 {
			continue
		}
		maxd := 1
		if len(w) >= 7 {
			maxd = 2
		}
		got := s.typos().matches(w, maxd, nil, nil, len(skills))
		var want []int
		for i := range skills {
			if hitRef(w, strings.ToLower(skills[i].Name), maxd) {
				want = append(want, i)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q (distance %d): index %v, scan %v", w, maxd, got, want)
		}
	}
}

// FuzzSearch: on a fixed catalog, any query gives the scan's results.
func FuzzSearch(f *testing.F) {
	var skills []Skill
	for _, s := range synth.Skills(300, 5) {
		skills = append(skills, Skill{Name: s.Name, Description: s.Description})
	}
	skills = append(skills, Skill{Name: "pdf-form-filler", Description: "Fill PDF forms."}, Skill{Name: "Éclair-Maker", Description: "Pâtisserie."})
	s := NewSnapshot(skills, Options{})
	for _, q := range searchQueries(skills, 12, 11) {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 4096 {
			return
		}
		got, want := s.Search(q, 10), searchReference(s, q, 10)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", q, got, want)
		}
	})
}

// TestWithinDistance compares the banded test with the full distance on
// every pair of a few hundred short words and their edits.
func TestWithinDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"", "a", "ab", "abc", "deploy", "deplyo", "terraform", "terrafrom", "k8s", "éclair", "eclair"}
	for len(words) < 300 {
		w := words[r.IntN(len(words))]
		if r.IntN(3) == 0 {
			w += words[r.IntN(len(words))]
		}
		words = append(words, typo(r, w, r.IntN(3)))
	}
	for _, a := range words {
		for _, b := range words {
			d, o := distanceRef(a, b), osaRef(a, b)
			for max := 0; max <= 3; max++ {
				if got, want := withinDistance(a, b, max, false), a != b && d <= max; got != want {
					t.Fatalf("withinDistance(%q, %q, %d) = %v, distance %d", a, b, max, got, d)
				}
				if got, want := withinDistance(a, b, max, true), a != b && o <= max; got != want {
					t.Fatalf("withinDistance(%q, %q, %d, swaps) = %v, distance %d", a, b, max, got, o)
				}
			}
		}
	}
}

// TestSearchConcurrent: searches of one snapshot from several goroutines,
// the first of them building the search structures, agree with a search
// made alone (run with -race).
func TestSearchConcurrent(t *testing.T) {
	var skills []Skill
	for _, s := range synth.Skills(800, 6) {
		skills = append(skills, Skill{Name: s.Name, Description: s.Description})
	}
	queries := searchQueries(skills, 40, 6)
	alone := NewSnapshot(skills, Options{})
	want := make([][]Result, len(queries))
	for i, q := range queries {
		want[i] = alone.Search(q, 5)
	}
	shared := NewSnapshot(skills, Options{})
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			for k := range queries {
				i := (k + g*7) % len(queries)
				if got := shared.Search(queries[i], 5); !reflect.DeepEqual(got, want[i]) {
					errs <- fmt.Errorf("%q: got %+v, want %+v", queries[i], got, want[i])
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestRadixSortKeys: the radix sort orders by key and keeps the order of
// equal keys, as the plain sort of a small table does.
func TestRadixSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var pairs []uint64
	for id := 0; id < 50000; id++ {
		for k := r.IntN(3); k >= 0; k-- {
			pairs = append(pairs, uint64(r.Uint32()&0x0303ffff)<<32|uint64(id))
		}
	}
	want := slices.Clone(pairs)
	slices.Sort(want)
	if got := radixSortKeys(pairs); !slices.Equal(got, want) {
		t.Fatal("radix sort differs from sort")
	}
}

// TestTypoScanIsTheIndex: the comparison with every skill that a small
// catalog gets finds what the index finds, names and vocabulary alike.
func TestTypoScanIsTheIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	checked := 0
	for _, n := range []int{3, 13, 40, typoScanMax} {
		var skills []Skill
		for _, s := range synth.Skills(n, int64(n)) {
			skills = append(skills, Skill{Name: s.Name, Description: s.Description})
		}
		snap := NewSnapshot(skills, Options{})
		for _, x := range []*typoIndex{snap.typos(), snap.termTypos()} {
			for k := 0; k < 300; k++ {
				w := x.lower[r.IntN(len(x.lower))]
				if r.IntN(3) > 0 {
					w = typo(r, strings.ReplaceAll(w, "-", ""), 1+r.IntN(2))
				}
				if len(w) < minTypoWord {
					continue // the search asks for no shorter word
				}
				maxd := typoDistance(w)
				skip := []int{r.IntN(len(x.lower))}
				limit := 1 + r.IntN(len(x.lower))
				// A list already begun, as the search's second word gives it.
				var begun []int
				if k%2 == 0 {
					begun = x.scan(w, maxd, nil, nil, 1)
				}
				got, want := x.scan(w, maxd, skip, slices.Clone(begun), limit), x.indexed(w, maxd, skip, slices.Clone(begun), limit)
				if !slices.Equal(got, want) {
					t.Fatalf("%d skills, %q (distance %d): scan %v, index %v", n, w, maxd, got, want)
				}
				checked += len(got)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no word matched anything")
	}
}
