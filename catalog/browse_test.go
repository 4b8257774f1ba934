package catalog

import (
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/bench/synth"
)

// synthetic returns n skills with preassigned cards for every skill but
// every seventh (left unclassified).
func synthetic(n int) ([]Skill, *Profile) {
	var skills []Skill
	prof := NewProfile()
	for i, s := range synth.Skills(n, 1) {
		sk := Skill{Name: s.Name, Description: s.Description, Location: s.Location}
		skills = append(skills, sk)
		if i%7 == 6 {
			continue
		}
		tags := []string{Vocabulary[i%len(Vocabulary)].Name}
		if i%3 == 0 {
			tags = append(tags, Vocabulary[(i*5+1)%len(Vocabulary)].Name)
		}
		prof.Cards[sk.Name] = ProfileCard{Card: summary(sk.Description), Tags: dedup(tags), SourceSHA256: SourceHash(sk.Description)}
	}
	return skills, prof
}

func TestBrowsePaginationComplete(t *testing.T) {
	for _, n := range []int{1, 50, 355, 2000} {
		skills, prof := synthetic(n)
		s := NewSnapshot(skills, Options{Profile: prof})
		var all []string
		for _, t := range Vocabulary {
			all = append(all, t.Name)
		}
		all = append(all, Unclassified)
		seen := map[string]int{}
		req := BrowseRequest{Tags: all, Match: "any", PageSize: 25}
		pages := 0
		for {
			page, data, err := s.Browse(req)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if c := utf8.RuneCount(data); c > MaxPageChars {
				t.Fatalf("n=%d page %d has %d characters", n, pages, c)
			}
			for _, c := range page.Cards {
				seen[c.Name]++
			}
			if page.Cursor == nil {
				break
			}
			req.Cursor = *page.Cursor
		}
		for _, sk := range s.Skills {
			if seen[sk.Name] != 1 {
				t.Fatalf("n=%d: %s seen %d times", n, sk.Name, seen[sk.Name])
			}
		}
		if len(seen) != s.Len() {
			t.Fatalf("n=%d: %d of %d cards", n, len(seen), s.Len())
		}
	}
}

func TestBrowseCursorBinding(t *testing.T) {
	skills, prof := synthetic(200)
	s := NewSnapshot(skills, Options{Profile: prof})
	page, _, err := s.Browse(BrowseRequest{Tags: []string{"frontend", "testing"}, PageSize: 2})
	if err != nil || page.Cursor == nil {
		t.Fatalf("%v %v", page, err)
	}
	if _, _, err := s.Browse(BrowseRequest{Tags: []string{"frontend"}, Cursor: *page.Cursor}); !errors.Is(err, ErrCursor) {
		t.Fatalf("cursor reused for other tags: %v", err)
	}
	if _, _, err := s.Browse(BrowseRequest{Tags: []string{"frontend", "testing"}, Query: "x", Cursor: *page.Cursor}); !errors.Is(err, ErrCursor) {
		t.Fatalf("cursor reused for another query: %v", err)
	}
	other := NewSnapshot(skills[:199], Options{Profile: prof})
	if _, _, err := other.Browse(BrowseRequest{Tags: []string{"frontend", "testing"}, Cursor: *page.Cursor}); !errors.Is(err, ErrCursor) {
		t.Fatalf("cursor accepted by another catalog: %v", err)
	}
	if _, _, err := s.Browse(BrowseRequest{Cursor: "garbage!"}); !errors.Is(err, ErrCursor) {
		t.Fatalf("garbage cursor: %v", err)
	}
	if _, _, err := s.Browse(BrowseRequest{Tags: []string{"nope"}}); err == nil {
		t.Fatal("unknown tag accepted")
	}
}

func TestBrowseQueryOrdersWithoutVeto(t *testing.T) {
	skills, prof := synthetic(300)
	s := NewSnapshot(skills, Options{Profile: prof})
	plain, _, _ := s.Browse(BrowseRequest{Tags: []string{"database"}, PageSize: 1000})
	ordered, _, _ := s.Browse(BrowseRequest{Tags: []string{"database"}, Query: "日本語 クエリ migration", PageSize: 1000})
	if len(plain.Cards) == 0 || len(plain.Cards) != len(ordered.Cards) {
		t.Fatalf("query changed the bucket: %d vs %d", len(plain.Cards), len(ordered.Cards))
	}
}

func TestSearch(t *testing.T) {
	skills := []Skill{
		{Name: "pdf-form-filler", Description: "Fill PDF forms and flatten them."},
		{Name: "terraform-state", Description: "Move terraform state between backends."},
		{Name: "changelog-writer", Description: "Draft release notes from commits."},
		{Name: "k8s-rollout", Description: "Debug Kubernetes rollouts and pods."},
	}
	s := NewSnapshot(skills, Options{})
	cases := []struct{ q, first, match string }{
		{"fill a pdf form", "pdf-form-filler", "lexical"},
		{"terraform-state", "terraform-state", "exact-name"},
		{"use changelog-writer please", "changelog-writer", "exact-name"},
		{"terrafrom", "terraform-state", "name-typo"},
		{"release notes", "changelog-writer", "lexical"},
	}
	for _, tc := range cases {
		res := s.Search(tc.q, 3)
		if len(res) == 0 || res[0].Name != tc.first || res[0].Match != tc.match {
			t.Errorf("%q: %+v", tc.q, res)
		}
	}
	for _, q := range []string{"", "bake a chocolate cake", "the and of"} {
		if res := s.Search(q, 3); len(res) != 0 {
			t.Errorf("%q should abstain, got %+v", q, res)
		}
	}
}

func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{355, 2000, 10000, 100000} {
		skills, prof := synthetic(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				NewSnapshot(skills, Options{Profile: prof})
			}
		})
	}
}
