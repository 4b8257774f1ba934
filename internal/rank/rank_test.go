package rank

import (
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
