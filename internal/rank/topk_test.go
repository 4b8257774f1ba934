package rank

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestTopMatchesSearch: Top returns the first limit hits of Search, for
// many queries over one index (its scratch reused from search to search),
// ties included.
func TestTopMatchesSearch(t *testing.T) {
	words := strings.Fields("pull request issue comment merge branch deploy pod log metric alert query table index schema")
	r := rand.New(rand.NewPCG(5, 6))
	b := NewBuilder(Field{Name: "name", Weight: 3, B: 0.3}, Field{Name: "desc", Weight: 1, B: 0.75})
	for d := 0; d < 400; d++ {
		var name, desc []string
		for k := r.IntN(3); k >= 0; k-- {
			name = append(name, words[r.IntN(len(words))])
		}
		for k := r.IntN(12); k >= 0; k-- {
			desc = append(desc, words[r.IntN(len(words))])
		}
		if d%10 == 0 { // identical documents tie
			name, desc = []string{"pod"}, []string{"log", "log"}
		}
		b.Add(strings.Join(name, "-"), strings.Join(desc, " "))
	}
	x := b.Build()
	for k := 0; k < 300; k++ {
		var q []string
		for n := r.IntN(5); n >= 0; n-- {
			q = append(q, words[r.IntN(len(words))])
		}
		if k%17 == 0 {
			q = append(q, "absent")
		}
		query := ParseQuery(strings.Join(q, " "))
		all := x.Search(query, 0)
		for _, limit := range []int{1, 3, 50, 200, 1000} {
			want := all[:min(limit, len(all))]
			got := x.Top(query, limit, nil)
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v limit %d:\n got %v\nwant %v", query.Terms, limit, got, want)
			}
		}
	}
	if got := x.Top(ParseQuery("pod"), 0, nil); !reflect.DeepEqual(got, x.Search(ParseQuery("pod"), 0)) {
		t.Fatal("limit 0 is not every hit")
	}
}

// TestTopAllocations: with a destination of capacity limit, a search on an
// index that has served one allocates nothing.
func TestTopAllocations(t *testing.T) {
	b := NewBuilder(Field{Name: "d", Weight: 1, B: 0.75})
	for i := 0; i < 5000; i++ {
		b.Add(strings.Repeat("pod log ", 1+i%3) + "metric")
	}
	x := b.Build()
	q := ParseQuery("pod metric")
	dst := make([]Hit, 0, 20)
	x.Top(q, 20, dst)
	if n := testing.AllocsPerRun(20, func() { x.Top(q, 20, dst[:0]) }); n != 0 {
		t.Fatalf("%v allocations per search", n)
	}
}
