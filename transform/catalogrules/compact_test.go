package catalogrules

import (
	"slices"
	"testing"

	"github.com/skillopt/skillopt/catalog"
)

func TestEligibleGroups(t *testing.T) {
	skills := func(names ...string) []catalog.Skill {
		var out []catalog.Skill
		for _, n := range names {
			sk := catalog.Skill{Name: n}
			if n == "hidden" {
				sk.DisableModelInvocation = true
			}
			out = append(out, sk)
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		cats    [][]string
		exclude []string
		want    [][]string
	}{
		{"all kept", [][]string{{"a", "b"}}, nil, [][]string{{"a", "b"}}},
		{"excluded", [][]string{{"a", "b", "c"}}, []string{"b"}, [][]string{{"a", "c"}}},
		{"repeated in one catalog", [][]string{{"a", "b", "a"}}, nil, [][]string{{"a", "b"}}},
		{"listed by an earlier catalog", [][]string{{"a", "b"}, {"b", "c"}}, nil, [][]string{{"a", "b"}, {"c"}}},
		{"not for the model", [][]string{{"hidden", "a"}}, nil, [][]string{{"a"}}},
		{"none left", [][]string{{"a"}}, []string{"a"}, [][]string{{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cats []embedded
			for _, names := range tc.cats {
				cats = append(cats, embedded{Skills: skills(names...)})
			}
			got := eligibleGroups(cats, tc.exclude)
			for i, g := range got {
				var names []string
				for _, sk := range g {
					names = append(names, sk.Name)
				}
				if !slices.Equal(names, tc.want[i]) && !(len(names) == 0 && len(tc.want[i]) == 0) {
					t.Errorf("catalog %d: %v, want %v", i, names, tc.want[i])
				}
			}
		})
	}
}
