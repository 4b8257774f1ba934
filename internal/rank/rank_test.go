package rank

import (
	"math"
	"reflect"
	"testing"
)

func TestTokens(t *testing.T) {
	var got []string
	Tokens("parseJSONFile k8s-rollout_debugger v2.1 Éclair tests", func(s string) { got = append(got, s) })
	want := []string{"parse", "jsonfile", "k8s", "rollout", "debugger", "v2", "1", "éclair", "test"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestSearchRanksByFieldWeight(t *testing.T) {
	b := NewBuilder(Field{Name: "name", Weight: 3, B: 0.5}, Field{Name: "description", Weight: 1, B: 0.75})
	b.Add("pdf-form-filler", "Fill PDF forms and extract fields from documents.")
	b.Add("terraform-state", "Migrate terraform state between backends; mentions pdf once.")
	b.Add("changelog-writer", "Write release notes from commits.")
	x := b.Build()
	hits := x.Search(ParseQuery("please fill a PDF form"), 10)
	if len(hits) != 2 || hits[0].Doc != 0 || hits[0].Matched != 3 || hits[1].Doc != 1 {
		t.Fatalf("hits %+v", hits)
	}
	if len(x.Search(ParseQuery("the and of"), 10)) != 0 {
		t.Fatal("stop words matched")
	}
	if len(x.Search(ParseQuery("kubernetes"), 10)) != 0 {
		t.Fatal("unrelated query matched")
	}
	// Deterministic ties: identical documents order by number.
	b = NewBuilder(Field{Name: "d", Weight: 1, B: 0.75})
	for i := 0; i < 5; i++ {
		b.Add("same words here")
	}
	hits = b.Build().Search(ParseQuery("words"), 3)
	if len(hits) != 3 || hits[0].Doc != 0 || hits[2].Doc != 2 {
		t.Fatalf("ties %+v", hits)
	}
}

func TestHeld(t *testing.T) {
	b := NewBuilder(Field{Name: "d", Weight: 1, B: 0.75})
	b.Add("fill pdf forms")
	b.Add("pdf export")
	b.Add("release notes")
	b.Add("release plan")
	x := b.Build()
	q := Query{Terms: []string{"fill", "pdf", "form"}, Weights: []float64{1, 0.5, 1}}
	total := x.idf(1)*2 + x.idf(2)*0.5
	if got := x.QueryWeight(q); math.Abs(got-total) > 1e-12 {
		t.Fatalf("query weight %v, want %v", got, total)
	}
	want := map[int]float64{0: 1, 1: x.idf(2) * 0.5 / total}
	for name, hits := range map[string][]Hit{"Search": x.Search(q, 0), "Top": x.Top(q, 10, nil)} {
		if len(hits) != 2 {
			t.Fatalf("%s: %+v", name, hits)
		}
		for _, h := range hits {
			if got := h.Held / total; math.Abs(got-want[h.Doc]) > 1e-12 {
				t.Errorf("%s: doc %d holds %v of the query, want %v", name, h.Doc, got, want[h.Doc])
			}
		}
	}
	if got := x.QueryWeight(ParseQuery("kubernetes")); got != 0 {
		t.Errorf("unknown terms: weight %v, want 0", got)
	}
}
