package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRelevanceFloor: a skill that matches a minor part of the query,
// weakly, is cut; one that matches most of it, or is named, stays; a
// query with a corrected word keeps its weak matches.
func TestRelevanceFloor(t *testing.T) {
	skills := []Skill{
		{Name: "browser-automation", Description: "Automate browser tasks: fill forms, click through pages, scrape sites."},
		{Name: "form-optimizer", Description: "Optimize a sign-up form for conversion."},
		{Name: "tree-toolkit", Description: "Build and draw phylogenetic trees, render them to PNG, SVG or PDF files for a paper, with clades coloured and labelled, bootstrap values shown and branch lengths drawn to scale."},
		{Name: "release-notes", Description: "Write release notes."},
		{Name: "changelog", Description: "Keep a changelog."},
		{Name: "slides", Description: "Make slide decks."},
	}
	s := NewSnapshot(skills, Options{})
	names := func(q string) []string {
		var out []string
		for _, r := range s.Search(q, 10) {
			out = append(out, r.Name)
		}
		return out
	}
	for _, tc := range []struct {
		query     string
		want, cut []string
	}{
		{"fill a pdf form", []string{"browser-automation", "form-optimizer"}, []string{"tree-toolkit"}},
		{"tree-toolkit for a pdf form", []string{"tree-toolkit"}, nil},
		{"render a phylogenetic tree as pdf", []string{"tree-toolkit"}, nil},
		// "formm" is corrected to "form": the weak matches stay.
		{"fill a pdf formm", []string{"browser-automation", "tree-toolkit"}, nil},
	} {
		got := names(tc.query)
		for _, n := range tc.want {
			if !slices.Contains(got, n) {
				t.Errorf("%q: %v lacks %s", tc.query, got, n)
			}
		}
		for _, n := range tc.cut {
			if slices.Contains(got, n) {
				t.Errorf("%q: %v holds %s, under the floor", tc.query, got, n)
			}
		}
	}
}

// TestRelevanceFloorCorpus: over the corpus skills, a PDF form request no
// skill answers does not list the phylogenetic-tree toolkit.
func TestRelevanceFloorCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "skills")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/corpus not found")
	}
	skills, _ := FromDisk([]string{root})
	s := NewSnapshot(skills, Options{})
	res := s.Search("fill a pdf form", 10)
	if len(res) == 0 || res[0].Name != "browser-automation" {
		t.Fatalf("fill a pdf form: %+v", res)
	}
	for _, r := range res {
		if r.Name == "etetoolkit" {
			t.Errorf("etetoolkit listed with score %v", r.Score)
		}
	}
}
