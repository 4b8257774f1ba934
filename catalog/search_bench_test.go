package catalog

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// labelledQueries returns the queries of the search benchmark's labelled
// set, and the corpus skills they are asked of; it skips without them.
func labelledQueries(tb testing.TB) ([]Skill, []string) {
	tb.Helper()
	root := filepath.Join("..", "..", "shared", "corpus", "skills")
	if _, err := os.Stat(root); err != nil {
		tb.Skip("../shared/corpus not found")
	}
	skills, _ := FromDisk([]string{root})
	f, err := os.Open(filepath.Join("..", "internal", "bench", "searchbench", "testdata", "queries.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var queries []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct {
			Query string `json:"query"`
		}
		if json.Unmarshal(sc.Bytes(), &q) == nil && q.Query != "" {
			queries = append(queries, q.Query)
		}
	}
	return skills, queries
}

// BenchmarkSearch is one query of the labelled set over the corpus
// skills, on a warm snapshot.
func BenchmarkSearch(b *testing.B) {
	skills, queries := labelledQueries(b)
	s := NewSnapshot(skills, Options{})
	for _, q := range queries {
		s.Search(q, 10)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Search(queries[i%len(queries)], 10)
		i++
	}
}
