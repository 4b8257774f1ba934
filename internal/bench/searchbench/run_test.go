package searchbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func skill(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\nBody.\n"
}

// The metrics of hand-computed rankings: each query's ranks are known
// from the tree.
func TestScore(t *testing.T) {
	root := writeTree(t, map[string]string{
		"r/changelog/SKILL.md": skill("changelog", "Writes release notes from merged pull requests."),
		"r/release/SKILL.md":   skill("release", "Plans releases and tags versions; release notes on request."),
		"r/slides/SKILL.md":    skill("slides", "Builds slide decks for talks."),
		"r/poster/SKILL.md":    skill("poster", "Lays out posters for a conference."),
	})
	c, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q              Query
		rank           int
		r1, r3, rr, nd float64
	}{
		// Both answers are the first two results.
		{Query{ID: "a", Query: "release notes", Relevant: map[string]int{"r/changelog": 2, "r/release": 2}}, 1, 0.5, 1, 1, 1},
		// No result holds the answer.
		{Query{ID: "b", Query: "slide decks", Relevant: map[string]int{"r/poster": 2}}, 0, 0, 0, 0, 0},
	} {
		cs, r1, r3, _, rr := c.score(tc.q, BM25F)
		if cs.Rank != tc.rank || r1 != tc.r1 || r3 != tc.r3 || rr != tc.rr || cs.NDCG10 != tc.nd {
			t.Errorf("%s: rank %d r1 %v r3 %v rr %v ndcg %v, want %d %v %v %v %v", tc.q.ID, cs.Rank, r1, r3, rr, cs.NDCG10, tc.rank, tc.r1, tc.r3, tc.rr, tc.nd)
		}
	}
}

func TestParseSet(t *testing.T) {
	good := `{"id":"a","kind":"task","query":"x","relevant":{"k":2}}` + "\n"
	set, err := parseSet("s.jsonl", []byte(strings.Repeat(good, 1)+
		`{"id":"b","kind":"task","query":"y","relevant":{"k":2,"l":1}}`+"\n\n"+
		`{"id":"c","kind":"task","query":"z","relevant":{"k":2}}`+"\n"))
	if err != nil || len(set.Queries) != 3 || set.Queries[0].HeldOut || set.Queries[1].HeldOut || !set.Queries[2].HeldOut {
		t.Fatalf("set %+v, err %v", set, err)
	}
	for _, tc := range []struct{ text, want string }{
		{good + good, "s.jsonl:2: duplicate id \"a\" (also line 1)"},
		{`{"id":"a","query":"x","relevant":{"k":3}}`, "s.jsonl:1: query \"a\": grade 3 of \"k\" is not 1 or 2"},
		{`{"id":"a","query":"x","relevant":{"k":1}}`, "s.jsonl:1: query \"a\" has no skill of grade 2"},
		{`{"id":"a","query":" ","relevant":{"k":2}}`, "s.jsonl:1: query \"a\" is empty"},
		{`{"id":"a","query":"x","relevant":{"k":2},"extra":1}`, "s.jsonl:1: json: unknown field \"extra\""},
		{"", "s.jsonl: no queries"},
	} {
		if _, err := parseSet("s.jsonl", []byte(tc.text)); err == nil || err.Error() != tc.want {
			t.Errorf("%q: err %v, want %s", tc.text, err, tc.want)
		}
	}
}

// The built-in labels name skills of the corpus, and a third of the set
// is held out.
func TestDefaultSet(t *testing.T) {
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	for _, q := range set.Queries {
		if q.HeldOut {
			held++
		}
	}
	if len(set.Queries) < 80 || held != len(set.Queries)/3 {
		t.Errorf("%d queries, %d held out", len(set.Queries), held)
	}
	c := openCorpus(t)
	if err := c.Check(set); err != nil {
		t.Error(err)
	}
}

func TestMutate(t *testing.T) {
	c := openCorpus(t)
	for _, row := range c.typos() {
		if row.Names < 300 {
			t.Errorf("%d-edit misspellings of only %d names", row.Edits, row.Names)
		}
	}
	if d := distance("kitten", "sitting"); d != 3 {
		t.Errorf("distance %d", d)
	}
}
