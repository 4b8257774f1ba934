package catalog

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/testfs"
)

// loadoutSummary renders a loadout as "mode resolved: name(from) …
// pending: … diags: KIND/LEVEL …".
func loadoutSummary(lo *Loadout) string {
	var es, ds []string
	for _, e := range lo.Entries {
		s := e.Name + "(" + e.From
		if e.Disabled {
			s += ",disabled"
		}
		es = append(es, s+")")
	}
	for _, f := range lo.Findings {
		level := "note"
		if f.Fatal {
			level = "fatal"
		}
		ds = append(ds, f.Kind.String()+"/"+level)
	}
	return fmt.Sprintf("%s %v unchanged=%v: %s pending: %s diags: %s", lo.Mode, lo.Resolved, lo.Unchanged,
		strings.Join(es, " "), strings.Join(lo.Pending, " "), strings.Join(ds, " "))
}

func TestResolveLoadout(t *testing.T) {
	dir := testfs.Tree(t, `
-- private/alpha/SKILL.md --
---
name: alpha
description: Private alpha.
---
-- ambient/alpha/SKILL.md --
---
name: alpha
description: Ambient alpha.
---
-- ambient/beta/SKILL.md --
---
name: beta
description: Ambient beta.
---
-- ambient/gamma/SKILL.md --
---
name: gamma
description: Ambient gamma, disabled.
disable-model-invocation: true
---
-- ambient/broken/SKILL.md --
---
name: broken
---
-- ambient/dup/beta/SKILL.md --
---
name: beta
description: A second beta, later in walk order.
---
`)
	ambient := []string{filepath.Join(dir, "ambient")}
	cases := []struct {
		name, agent string
		ambient     bool
		want        string
	}{
		// No selection, no paths: the incoming catalogue as it is.
		{"unchanged", "inheritSkills: true\n", true,
			"inherit true unchanged=true: alpha(inherited) beta(inherited) gamma(inherited,disabled) pending:  diags: "},
		// A private match replaces the inherited entry in place.
		{"replace in place", "skills: alpha\nskillPath: private\n", true,
			"inherit true unchanged=false: alpha(private) beta(inherited) gamma(inherited,disabled) pending:  diags: "},
		// Isolated: only the selected names, in declared order.
		{"isolated", "inheritSkills: false\nskills: [alpha, missing-later, alpha]\nskillPath: private\n", false,
			"isolated true unchanged=false: alpha(private) pending: missing-later diags: selected-name-unresolved/note"},
		{"isolated ambient order", "inheritSkills: false\nskills: zeta, alpha\n", true,
			"isolated false unchanged=false:  pending:  diags: selected-name-unresolved/fatal"},
		{"ambient ambiguous", "inheritSkills: false\nskills: beta\n", true,
			"isolated false unchanged=false:  pending:  diags: selected-name-unresolved/fatal"},
		{"ambient disabled", "inheritSkills: false\nskills: gamma\n", true,
			"isolated false unchanged=false:  pending:  diags: selected-name-unresolved/fatal"},
		{"ambient resolved", "inheritSkills: false\nskills: alpha\n", true,
			"isolated true unchanged=false: alpha(ambient) pending:  diags: "},
		// An empty isolated selection is an empty catalogue.
		{"isolated empty", "inheritSkills: false\nskills: []\n", true,
			"isolated true unchanged=false:  pending:  diags: "},
		// Invalid definitions are unresolved and list no skills.
		{"invalid", "inheritSkills: yes\nskills: alpha\nskillPath: nowhere\n", true,
			"inherit false unchanged=false:  pending:  diags: inherit-skills-not-boolean/fatal skill-path-missing/fatal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := ParseAgent(filepath.Join(dir, "agent.md"), []byte("---\n"+tc.agent+"---\n"))
			opts := LoadoutOptions{}
			if tc.ambient {
				opts.Ambient, opts.HasAmbient = ambient, true
			}
			if got := loadoutSummary(ResolveLoadout(a, opts)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
