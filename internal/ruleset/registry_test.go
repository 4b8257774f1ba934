package ruleset

import (
	"testing"

	"github.com/skillopt/skillopt/rules"
)

// The registry builds: IDs and names unique and well formed, every rule
// documented, options that bind.
func TestRegistryBuilds(t *testing.T) {
	if _, err := registry(); err != nil {
		t.Fatal(err)
	}
	for _, r := range Registry().All() {
		if !rules.NamePattern.MatchString(r.Name) {
			t.Errorf("%s: name %q is not dotted lower-case words", r.ID, r.Name)
		}
	}
}
