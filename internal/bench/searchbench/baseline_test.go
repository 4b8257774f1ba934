package searchbench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
)

// corpusRoot is the skill repositories of the shared corpus, beside the
// repository.
var corpusRoot = filepath.Join("..", "..", "..", "..", "shared", "corpus", "skills")

func openCorpus(t *testing.T) *Corpus {
	t.Helper()
	if _, err := os.Stat(corpusRoot); err != nil {
		t.Skip("shared corpus not present: the labelled queries need corpus/skills")
	}
	c, err := Open(corpusRoot)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// baseline is what testdata/baseline.json holds.
type baseline struct {
	Metrics    []Metrics  `json:"metrics"`
	Typos      []Typos    `json:"typos"`
	Pagination Pagination `json:"pagination"`
}

// tolerance absorbs the rounding of the metrics to four decimals; the
// benchmark is deterministic, so any real drop exceeds it.
const tolerance = 1e-4

// TestBaseline fails when a metric of the search benchmark drops below
// the committed baseline. After a change that improves them, run
// `go test ./internal/bench/searchbench -update` and commit the new
// baseline with the change.
func TestBaseline(t *testing.T) {
	c := openCorpus(t)
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(c, set)
	if err != nil {
		t.Fatal(err)
	}
	got := baseline{rep.Metrics, rep.Typos, rep.Pagination}
	path := filepath.Join("testdata", "baseline.json")
	if golden.Update() {
		data, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want baseline
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(want.Metrics) != len(got.Metrics) || len(want.Typos) != len(got.Typos) {
		t.Fatalf("%s has %d metric rows and %d typo rows, the run %d and %d: run with -update", path, len(want.Metrics), len(want.Typos), len(got.Metrics), len(got.Typos))
	}
	for i, w := range want.Metrics {
		g := got.Metrics[i]
		if g.Part != w.Part || g.Ranker != w.Ranker || g.Queries != w.Queries {
			t.Fatalf("row %d is %s/%s over %d queries, the baseline's %s/%s over %d: run with -update", i, g.Part, g.Ranker, g.Queries, w.Part, w.Ranker, w.Queries)
		}
		for _, m := range []struct {
			name      string
			got, want float64
		}{{"R@1", g.R1, w.R1}, {"R@3", g.R3, w.R3}, {"R@5", g.R5, w.R5}, {"MRR", g.MRR, w.MRR}, {"nDCG@10", g.NDCG10, w.NDCG10}} {
			if m.got < m.want-tolerance {
				t.Errorf("%s %s %s dropped to %.4f from %.4f", g.Part, g.Ranker, m.name, m.got, m.want)
			} else if m.got > m.want+tolerance {
				t.Logf("%s %s %s rose to %.4f from %.4f (run with -update to keep it)", g.Part, g.Ranker, m.name, m.got, m.want)
			}
		}
		if g.Unlabelled > w.Unlabelled+tolerance {
			t.Errorf("%s %s unlabelled@10 rose to %.4f from %.4f", g.Part, g.Ranker, g.Unlabelled, w.Unlabelled)
		}
	}
	for i, w := range want.Typos {
		g := got.Typos[i]
		if g.Edits != w.Edits || g.Ranker != w.Ranker || g.Names != w.Names {
			t.Fatalf("typo row %d differs in kind from the baseline: run with -update", i)
		}
		if g.Top1 < w.Top1-tolerance || g.Top5 < w.Top5-tolerance {
			t.Errorf("%d-edit names, %s: top 1 %.4f, top 5 %.4f, below the baseline's %.4f, %.4f", g.Edits, g.Ranker, g.Top1, g.Top5, w.Top1, w.Top5)
		}
	}
	if p := got.Pagination; p.Complete < want.Pagination.Complete || p.Complete != p.Queries {
		t.Errorf("pagination: %d of %d queries complete (%d repeated, %d missing), baseline %d", p.Complete, p.Queries, p.Duplicated, p.Missing, want.Pagination.Complete)
	}
}
