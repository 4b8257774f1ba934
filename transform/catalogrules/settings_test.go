package catalogrules

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// binding declares the family's settings and its rules' own options, as
// the registry does.
func binding(t *testing.T) *rules.Binding {
	t.Helper()
	owners := []rules.Owner{{Name: Family.Name, Options: Family.Options}}
	for _, r := range Rules() {
		if r.Options != nil {
			owners = append(owners, rules.Owner{Name: r.ID, Options: r.Options})
		}
	}
	b, err := rules.Bind(owners)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The generated [catalog] table decodes to the defaults, which are
// today's: a skillopt.toml written before the move means the same.
func TestTemplateDecodesToDefaults(t *testing.T) {
	b := binding(t)
	cfg := config.Default()
	if err := config.DecodeWith("skillopt.toml", config.TemplateWith(b), cfg, b); err != nil {
		t.Fatal(err)
	}
	// (An empty list decodes as empty, the default is nil: the same.)
	if got := FromSet(cfg.Options); fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", Defaults) || got.BudgetChars != 12000 {
		t.Errorf("settings %+v, defaults %+v", got, Defaults)
	}
	if got := cfg.Options.Of(tagDirectory.Options).(*tagOptions); got.Fallback != "native" {
		t.Errorf("fallback %q", got.Fallback)
	}
	if got := cfg.Options.Of(prefetch.Options).(*prefetchOptions); got.Limit != 3 {
		t.Errorf("prefetch_limit %d", got.Limit)
	}
}

// Values out of range are reported on their line, naming their key; good
// values reach the settings and the rules' own options.
func TestSettingsDecodeAndCheck(t *testing.T) {
	b := binding(t)
	for _, bad := range []string{"budget_chars = -1", "fallback = \"inline\"", "prefetch_limit = -1", "prefetch_limit = 21"} {
		err := config.DecodeWith("s.toml", []byte("[catalog]\n"+bad+"\n"), config.Default(), b)
		var ce *config.Error
		key, _, _ := strings.Cut(bad, " ")
		if !errors.As(err, &ce) || ce.Line != 2 || !strings.HasPrefix(ce.Msg, "catalog."+key+": ") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	cfg := config.Default()
	doc := "[catalog]\nbudget_chars = 300\nexclude = [\"a\"]\nskills = [\"s\"]\nresolver = false\nfallback = \"compact\"\nprefetch_limit = 0\n"
	if err := config.DecodeWith("s.toml", []byte(doc), cfg, b); err != nil {
		t.Fatal(err)
	}
	s := FromSet(cfg.Options)
	if s.BudgetChars != 300 || !reflect.DeepEqual(s.Exclude, []string{"a"}) || !reflect.DeepEqual(s.Skills, []string{"s"}) || s.Resolver {
		t.Errorf("settings %+v", s)
	}
	if cfg.Options.Of(tagDirectory.Options).(*tagOptions).Fallback != "compact" || cfg.Options.Of(prefetch.Options).(*prefetchOptions).Limit != 0 {
		t.Error("rule options not configured")
	}
	if Defaults.BudgetChars != 12000 || Defaults.Exclude != nil || !Defaults.Resolver {
		t.Errorf("defaults changed: %+v", Defaults)
	}
}

// The catalog section of measure's report comes once per capture, from
// the first catalog rule of the pipeline, whichever it is.
func TestDetailOncePerPipeline(t *testing.T) {
	c := capt(t, piSystem, "please test the database")
	for _, tc := range []struct {
		name     string
		pipeline []*rules.Rule
	}{
		{"compact", []*rules.Rule{CompactIndex}},
		{"compact and prefetch", []*rules.Rule{CompactIndex, prefetch}},
		{"tag directory alone", []*rules.Rule{tagDirectory}},
		{"prefetch alone", []*rules.Rule{prefetch}},
	} {
		res, err := rules.Run(c, tc.pipeline, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []*rules.Detail
		for _, r := range tc.pipeline {
			d, err := r.Detail(rules.DetailInput{Rule: r, Result: res, Replay: 2})
			if err != nil {
				t.Fatal(err)
			}
			if d != nil {
				got = append(got, d)
			}
		}
		if len(got) != 1 || got[0].Key != "catalog" {
			t.Fatalf("%s: %d sections", tc.name, len(got))
		}
		var rep Report
		if err := json.Unmarshal(sectionJSON(t, *got[0]), &rep); err != nil || rep.Skills != 2 || rep.Requests != 3 || len(rep.Replay) < 2 {
			t.Errorf("%s: %+v %v", tc.name, rep, err)
		}
		if text, md := got[0].Data.Text(), got[0].Data.Markdown(); !strings.HasPrefix(text, "  catalog replay over 3 requests (2 skills;") || !strings.HasPrefix(md, "- catalog replay over 3 requests") {
			t.Errorf("%s: text %q markdown %q", tc.name, text, md)
		}
	}
	// No catalog, no section.
	plain := capt(t, "You help.", "hi")
	res, err := rules.Run(plain, []*rules.Rule{CompactIndex}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := CompactIndex.Detail(rules.DetailInput{Rule: CompactIndex, Result: res}); d != nil || err != nil {
		t.Errorf("section without a catalog: %+v %v", d, err)
	}
}

// The excluded skills of the configuration are left out of the replay,
// as SO101 leaves them out of the index.
func TestDetailReadsSettings(t *testing.T) {
	b := binding(t)
	cfg := config.Default()
	if err := config.DecodeWith("s.toml", []byte("[catalog]\nexclude = [\"beta\"]\n"), cfg, b); err != nil {
		t.Fatal(err)
	}
	env := &rules.Env{Options: cfg.Options}
	res, err := rules.Run(capt(t, piSystem, "please test the database"), []*rules.Rule{CompactIndex}, env)
	if err != nil {
		t.Fatal(err)
	}
	d, err := CompactIndex.Detail(rules.DetailInput{Rule: CompactIndex, Result: res, Env: env})
	if err != nil || d == nil {
		t.Fatal(d, err)
	}
	var rep Report
	if err := json.Unmarshal(sectionJSON(t, *d), &rep); err != nil || rep.Skills != 1 {
		t.Errorf("%+v %v", rep, err)
	}
}
