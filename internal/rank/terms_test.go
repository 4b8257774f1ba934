package rank

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestIDBuilderMatchesBuilder: the same documents give the same index
// through Builder.Add and through IDBuilder with the same tokens.
func TestIDBuilderMatchesBuilder(t *testing.T) {
	fields := []Field{{Name: "name", Weight: 3, B: 0.3}, {Name: "desc", Weight: 1, B: 0.75}}
	words := strings.Fields("pull request issue comment merge branch deploy pod log metric alert query table index schema")
	r := rand.New(rand.NewPCG(1, 2))
	a, b := NewBuilder(fields...), NewIDBuilder(fields...)
	for d := 0; d < 60; d++ {
		var texts [2][]string
		var ids [2][]int32
		for f := range texts {
			for k := r.IntN(12); k >= 0; k-- {
				w := words[r.IntN(len(words))]
				texts[f] = append(texts[f], w)
				ids[f] = append(ids[f], b.ID(w))
			}
		}
		a.Add(strings.Join(texts[0], " "), strings.Join(texts[1], " "))
		b.Add(ids[0], ids[1])
	}
	x, y := a.Build(), b.Build()
	for _, q := range []string{"pull request", "deploy pod log", "schema index table merge", "nothing"} {
		ha, hb := x.Search(ParseQuery(q), 0), y.Search(ParseQuery(q), 0)
		if !reflect.DeepEqual(ha, hb) {
			t.Fatalf("%q: Builder %v, IDBuilder %v", q, ha, hb)
		}
	}
	if y.Len() != 60 || y.FieldFreq("pull", 0) != x.FieldFreq("pull", 0) {
		t.Fatal("document counts differ")
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"deploying": "deploy", "deployed": "deploy", "deployment": "deploy", "deploy": "deploy",
		"querie": "query", "logging": "log", "mapping": "map", "install": "install",
		"string": "string", "comment": "comment", "action": "action", "creation": "creat", "create": "creat",
		"configuration": "configur", "configure": "configur", "k8s": "k8s", "": "",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
		if Stem(Stem(in)) != Stem(in) {
			t.Errorf("Stem is not idempotent on %q", in)
		}
	}
}

func TestTermsQuery(t *testing.T) {
	q := TermsQuery([]string{"pod", "log", "pod", "event", "log"})
	if !reflect.DeepEqual(q.Terms, []string{"pod", "log", "event"}) {
		t.Fatalf("got %v", q.Terms)
	}
	if !IsStopWord("the") || IsStopWord("pod") {
		t.Fatal("stop words")
	}
}

// TestStopWords: the stop words are exactly the listed function words.
func TestStopWords(t *testing.T) {
	list := strings.Fields(`a an and are as at be but by can could do does for from had has have how i if in into
	is it its me my no not of on or our please should so some than that the their them then there these this those to
	too up us use using was we were what when where which who why will with would you your want need help let make get`)
	for _, w := range list {
		if !IsStopWord(w) {
			t.Errorf("%q is not a stop word", w)
		}
	}
	for _, w := range []string{"", "pod", "the1", "The", "uses", "gets", "deploy", "an1"} {
		if IsStopWord(w) {
			t.Errorf("%q is a stop word", w)
		}
	}
}

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
