package archtest

import (
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/internal/rulegen"
)

// ruleFamilies are the rule families whose registry list is generated from
// their declarations (internal/rulegen). A new rule needs no line here or
// anywhere else by hand; a new family adds itself once.
var ruleFamilies = []rulegen.Family{
	{Dir: "catalog/lint", Elem: "*Rule", Prefixes: []string{"SK", "AG"}},
	{Dir: "invariant", Elem: "*rules.Rule"},
	{Dir: "transform/catalogrules", Elem: "*rules.Rule"},
	{Dir: "transform/output", Elem: "*rules.Rule"},
	{Dir: "transform/tools", Elem: "*rules.Rule"},
	{Dir: "validity", Elem: "*rules.Rule"},
}

// TestRuleListsGenerated holds every family's rules_gen.go to the rules
// its source declares; -update rewrites them. The check reads source, not
// the compiled family, so it repairs a list that no longer compiles.
func TestRuleListsGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, f := range ruleFamilies {
		t.Run(f.Dir, func(t *testing.T) {
			f.Dir = filepath.Join(root, filepath.FromSlash(f.Dir))
			src, err := rulegen.Source(f)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join(f.Dir, rulegen.File), src)
		})
	}
}
