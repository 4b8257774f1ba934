package ruleset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// The registry builds: IDs and names unique and well formed, every rule
// documented, options that bind.
func TestRegistryBuilds(t *testing.T) {
	if _, err := registry(); err != nil {
		t.Fatal(err)
	}
	for _, r := range All() {
		if !rules.NamePattern().MatchString(r.Name) {
			t.Errorf("%s: name %q is not dotted lower-case words", r.ID, r.Name)
		}
	}
}

// Every option a rule or family declares is in the template `skillopt
// init` writes, with its default, and the template decodes back to the
// defaults.
func TestTemplateHasEveryOption(t *testing.T) {
	b := Registry().Binding()
	tpl := string(config.TemplateWith(b))
	for _, o := range b.Options() {
		line := o.Key + " = " + o.Default
		if strings.HasPrefix(o.Default, "{") || strings.HasPrefix(o.Default, "[{") {
			continue // tables are written as tables
		}
		if !strings.Contains(tpl, "\n"+line+"\n") && !strings.Contains(tpl, "\n# "+line+"\n") {
			t.Errorf("%s (%s) missing from the template as %q", o.Name(), o.Owner, line)
		}
	}
	cfg := config.Default()
	if err := config.DecodeWith("skillopt.toml", []byte(tpl), cfg, b); err != nil {
		t.Fatalf("the template does not decode: %v", err)
	}
	for _, r := range All() {
		if r.Options != nil && fmt.Sprint(cfg.Options.Of(r.Options)) != fmt.Sprint(r.Options) {
			t.Errorf("%s: the template decodes to %v, the defaults are %v", r.ID, cfg.Options.Of(r.Options), r.Options)
		}
	}
}
