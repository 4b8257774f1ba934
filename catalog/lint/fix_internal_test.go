package lint

import (
	"math/rand/v2"
	"testing"

	"go.yaml.in/yaml/v3"
)

// naiveConflicts is the definition editSet implements: an edit of b
// overlaps one of a, or equals it.
func naiveConflicts(a, b []Edit) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y || (x.Start < y.End && y.Start < x.End) {
				return true
			}
		}
	}
	return false
}

func TestEditSet(t *testing.T) {
	for _, c := range []struct {
		name     string
		accepted []Edit
		edit     Edit
		want     bool
	}{
		{"disjoint", []Edit{{0, 2, ""}}, Edit{2, 4, ""}, false},
		{"overlap", []Edit{{0, 3, ""}}, Edit{2, 4, ""}, true},
		{"inside", []Edit{{0, 9, ""}}, Edit{2, 4, ""}, true},
		{"around", []Edit{{3, 4, ""}}, Edit{2, 6, ""}, true},
		{"insertion at the start", []Edit{{2, 4, ""}}, Edit{2, 2, "x"}, false},
		{"insertion at the end", []Edit{{2, 4, ""}}, Edit{4, 4, "x"}, false},
		{"insertion inside", []Edit{{2, 4, ""}}, Edit{3, 3, "x"}, true},
		{"range over an insertion", []Edit{{3, 3, "x"}}, Edit{2, 4, ""}, true},
		{"range after an insertion", []Edit{{2, 2, "x"}}, Edit{2, 4, ""}, false},
		{"two insertions", []Edit{{2, 2, "x"}}, Edit{2, 2, "y"}, false},
		{"the same insertion", []Edit{{2, 2, "x"}}, Edit{2, 2, "x"}, true},
		{"the same replacement", []Edit{{2, 4, "x"}}, Edit{2, 4, "x"}, true},
	} {
		fixes := []*Fix{{Edits: c.accepted}, {Edits: []Edit{c.edit}}}
		s := newEditSet(fixes)
		s.add(c.accepted)
		if got := s.conflicts([]Edit{c.edit}); got != c.want {
			t.Errorf("%s: conflicts %v, want %v", c.name, got, c.want)
		}
	}
	// Random rounds: the same fixes are accepted as by the definition.
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		var cands []*Fix
		for range 1 + r.IntN(30) {
			var f Fix
			for range 1 + r.IntN(3) {
				s := r.IntN(40)
				e := s
				if r.IntN(3) > 0 {
					e += r.IntN(6)
				}
				f.Edits = append(f.Edits, Edit{s, e, string(rune('a' + r.IntN(2)))})
			}
			cands = append(cands, &f)
		}
		set := newEditSet(cands)
		var accepted []Edit
		for i, f := range cands {
			want := naiveConflicts(accepted, f.Edits)
			if got := set.conflicts(f.Edits); got != want {
				t.Fatalf("round %d, fix %d %v after %v: conflicts %v, want %v", round, i, f.Edits, accepted, got, want)
			}
			if !want {
				set.add(f.Edits)
				accepted = append(accepted, f.Edits...)
			}
		}
	}
}

func TestFixSet(t *testing.T) {
	a := &Fix{Edits: []Edit{{1, 2, "x"}, {5, 5, "y"}}}
	same := &Fix{Edits: []Edit{{1, 2, "x"}, {5, 5, "y"}}}
	other := &Fix{Edits: []Edit{{1, 2, "x"}, {5, 5, "z"}}}
	joined := &Fix{Edits: []Edit{{1, 2, "x5,5,1:y"}}}
	s := newFixSet([]*Fix{a, nil})
	if !s.has(a) || !s.has(same) || s.has(other) || s.has(joined) {
		t.Fatal("fixSet")
	}
}

// A word taken as plain without parsing reads back as itself, and the
// words left to the parser are those it must judge.
func TestPlainWord(t *testing.T) {
	for _, s := range []string{"a", "version", "x-1", "my_key", "ab12", "v1-0", "Yes1", "nulls", "offset", "ON-x", "T", "Z"} {
		if !plainWord(s) {
			t.Errorf("%q: not a plain word", s)
		}
		var v map[string]any
		if err := yaml.Unmarshal([]byte("v: "+s), &v); err != nil || v["v"] != s {
			t.Errorf("%q reads back as %#v", s, v["v"])
		}
	}
	for _, s := range []string{"", "1a", "-a", ".inf", "a b", "a:b", "a#", "é", "yes", "No", "TRUE", "off", "Null", "y", "N", "a.b", "~"} {
		if plainWord(s) {
			t.Errorf("%q: a plain word", s)
		}
	}
}
