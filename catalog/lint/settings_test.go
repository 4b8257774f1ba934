package lint_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

// TestTemplateDefaults: the [lint] part of `skillopt init`'s template
// decodes to exactly the declared defaults, so every key is documented
// with its real default, and no key is left out.
func TestTemplateDefaults(t *testing.T) {
	b := ruleset.Registry().Binding()
	cfg := config.Default()
	if err := config.DecodeWith("skillopt.toml", config.TemplateWith(b), cfg, b); err != nil {
		t.Fatal(err)
	}
	// %+v prints nil and empty lists alike, as TOML cannot tell them apart.
	if got, want := fmt.Sprintf("%+v", *lint.FromSet(cfg.Options)), fmt.Sprintf("%+v", *lint.Defaults); got != want {
		t.Errorf("template [lint] decodes to\n%s\nwant the defaults\n%s", got, want)
	}
	for _, r := range lint.Rules() {
		if r.Options == nil {
			continue
		}
		if got, want := fmt.Sprintf("%+v", cfg.Options.Of(r.Options)), fmt.Sprintf("%+v", r.Options); got != want {
			t.Errorf("%s: template decodes to %s, want %s", r.ID, got, want)
		}
	}
	for _, key := range []string{"profile", "disable", "severity", "suppress", "agent_folders", "skill_folders", "ambient",
		"allowed_provider_prefixes", "extra_fields", "encoding", "body_tokens", "max_lines", "index_budget_chars", "max_depth", "max_files", "cache"} {
		if !strings.Contains(string(config.TemplateWith(b)), key+" = ") {
			t.Errorf("template lacks lint.%s", key)
		}
	}
}

// TestConfigErrors: values out of range are located errors of every
// command's configuration load.
func TestConfigErrors(t *testing.T) {
	b := ruleset.Registry().Binding()
	for _, tc := range []struct{ toml, want string }{
		{"[[lint.suppress]]\nrule = \"SK017\"\n", `s.toml:1:1: lint.suppress[0].reason: a reason is required to suppress SK017`},
		{"[[lint.suppress]]\nreason = \"x\"\n", `s.toml:1:1: lint.suppress[0].rule: a rule is required`},
		{"[[lint.suppress]]\nrule = \"SK017\"\nreason = \"x\"\npath = \"[\"\n", `s.toml:4:8: lint.suppress[0].path: "[" is not a valid pattern`},
		{"[lint]\nprofile = \"strict\"\n", `s.toml:2:11: lint.profile: "strict" is not one of default, skills-ref`},
		{"[lint.severity]\nSK030 = \"loud\"\n", `s.toml:2:9: lint.severity.SK030: "loud" is not one of error, warning, info, off`},
		{"[lint.severity]\n\"name-not-lowercase\" = \"loud\"\n", `s.toml:2:24: lint.severity.name-not-lowercase: "loud" is not one of error, warning, info, off`},
		{"[lint]\nmax_depth = 0\n", `s.toml:2:13: lint.max_depth: 0 is outside 1..256`},
		{"[lint]\nmax_files = 0\n", `s.toml:2:13: lint.max_files: 0 must be at least 1`},
		{"[lint]\nagent_folders = [\"/abs\"]\n", `s.toml:2:18: lint.agent_folders[0]: folder "/abs" must be a relative path inside the linted folder`},
		{"[lint]\nskill_folders = [\"ok\", \"../up\"]\n", `s.toml:2:24: lint.skill_folders[1]: folder "../up" must be a relative path inside the linted folder`},
		{"[lint]\nallowed_provider_prefixes = [\"a/b\"]\n", `s.toml:2:30: lint.allowed_provider_prefixes[0]: "a/b" is not a provider prefix (no slashes or spaces)`},
		{"[lint]\nencoding = \"gpt2\"\n", `s.toml:2:12: lint.encoding: "gpt2" is not one of o200k_base, cl100k_base`},
		{"[lint]\nbody_tokens = -1\n", `s.toml:2:15: lint.body_tokens: -1 must not be negative`},
		{"[lint]\nmax_lines = -1\n", `s.toml:2:13: lint.max_lines: -1 must not be negative`},
		{"[lint]\nindex_budget_chars = -1\n", `s.toml:2:22: lint.index_budget_chars: -1 must not be negative`},
		{"[lint]\nsuppress = [{rule = 1, reason = \"x\"}]\n", `s.toml:2:21: lint.suppress[0].rule: want a string, got integer 1`},
	} {
		err := config.DecodeWith("s.toml", []byte(tc.toml), config.Default(), b)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.toml, err, tc.want)
		}
	}
}

// TestCheckRefs: rule references of the table are resolved by the
// registry; severities must name a lint rule.
func TestCheckRefs(t *testing.T) {
	b := ruleset.Registry().Binding()
	cfg := config.Default()
	doc := "[lint]\ndisable = [\"SK0\", \"nope\", \"name-not-lowercase\"]\n[lint.severity]\nsk013 = \"off\"\nSO101 = \"off\"\nSK998 = \"off\"\n" +
		"[[lint.suppress]]\nrule = \"SK9\"\nreason = \"x\"\n[[lint.suppress]]\nrule = \"unknown-field\"\nreason = \"x\"\n"
	if err := config.DecodeWith("s.toml", []byte(doc), cfg, b); err != nil {
		t.Fatal(err)
	}
	err := cfg.Located(lint.FromSet(cfg.Options).CheckRefs(ruleset.Registry().Match))
	want := strings.Join([]string{
		`s.toml:2:19: lint.disable: unknown rule "nope"`,
		`s.toml:5:9: lint.severity: "SO101" names no lint rule (SKnnn or AGnnn)`,
		`s.toml:6:9: lint.severity: unknown rule "SK998"`,
		`s.toml:8:8: lint.suppress[0]: unknown rule "SK9"`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestLevels: [rules.severity], [lint.severity] and both disable lists
// resolve every reference form; lint.severity wins over rules.severity,
// disabling wins over both.
func TestLevels(t *testing.T) {
	reg := ruleset.Registry()
	for _, tc := range []struct {
		name          string
		rulesSeverity map[string]string
		rulesDisable  []string
		lint          lint.Settings
		want          string // "ID:level" for the rules looked at
	}{
		{name: "defaults", want: "SK013:error SK017:error SK030:warning AG010:info"},
		{name: "ID prefix", rulesSeverity: map[string]string{"SK01": "off"}, want: "SK013:off SK017:off SK030:warning AG010:info"},
		{name: "lower-case ID", rulesSeverity: map[string]string{"sk013": "off"}, want: "SK013:off SK017:error SK030:warning AG010:info"},
		{name: "name", rulesSeverity: map[string]string{"name-not-lowercase": "warning"}, want: "SK013:warning SK017:error SK030:warning AG010:info"},
		{name: "most specific wins", rulesSeverity: map[string]string{"SK0": "info", "SK017": "off"}, want: "SK013:info SK017:off SK030:info AG010:info"},
		{name: "lint severity wins", rulesSeverity: map[string]string{"SK030": "off", "AG": "error"},
			lint: lint.Settings{Severity: map[string]string{"unknown-field": "error", "ag010": "warning"}}, want: "SK013:error SK017:error SK030:error AG010:warning"},
		{name: "lint severity turns off", rulesSeverity: map[string]string{"SK030": "error"},
			lint: lint.Settings{Severity: map[string]string{"SK03": "off"}}, want: "SK013:error SK017:error SK030:off AG010:info"},
		{name: "disable wins", rulesDisable: []string{"SK013"},
			lint: lint.Settings{Disable: []string{"AG"}, Severity: map[string]string{"SK013": "info", "AG010": "error"}}, want: "SK013:off SK017:error SK030:warning AG010:off"},
		{name: "disable prefix", lint: lint.Settings{Disable: []string{"SK0"}}, want: "SK013:off SK017:off SK030:off AG010:info"},
	} {
		l, err := lint.Levels(reg, &tc.lint, tc.rulesSeverity, tc.rulesDisable)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, id := range []string{"SK013", "SK017", "SK030", "AG010"} {
			sev, on := l.Level(reg.Lookup(id))
			if !on {
				got = append(got, id+":off")
				continue
			}
			got = append(got, id+":"+sev.String())
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, g, tc.want)
		}
	}
	if _, err := lint.Levels(reg, &lint.Settings{Severity: map[string]string{"nope": "off"}}, nil, nil); err == nil {
		t.Error("unknown reference resolved")
	}
}

// TestRulesAreValues: every rule reads exactly one unit, is a lint rule of
// the registry, and the list keeps its order: SK by number, then AG.
func TestRulesAreValues(t *testing.T) {
	var ids []string
	for _, r := range lint.Rules() {
		n := 0
		for _, set := range []bool{r.Skill != nil, r.Agent != nil, r.Repo != nil, r.Unused != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s reads %d units, want 1", r.ID, n)
		}
		if r.Kind != rules.Lint || r.Run == nil {
			t.Errorf("%s: kind %s, Run set %v (the lint engine runs it through rules.Call)", r.ID, r.Kind, r.Run != nil)
		}
		if ruleset.ByID(r.ID) != r.Rule {
			t.Errorf("%s is not the registry's value", r.ID)
		}
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 || !sort.SliceIsSorted(ids, func(i, j int) bool {
		// SK before AG, numbers ascending within each.
		a, b := ids[i], ids[j]
		if a[:2] != b[:2] {
			return a[:2] == "SK"
		}
		return a < b
	}) {
		t.Errorf("rules out of order or missing: %v", ids)
	}
	a, b := lint.Rules(), lint.Rules()
	if !reflect.DeepEqual(a, b) || &a[0] == &b[0] {
		t.Error("Rules must return a fresh list of the same values")
	}
}
