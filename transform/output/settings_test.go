package output

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// decodeOutput decodes a skillopt.toml with the family's declarations.
func decodeOutput(doc string) (*config.Config, error) {
	cfg := config.Default()
	err := config.DecodeWith("s.toml", []byte(doc), cfg, binding)
	return cfg, err
}

// TestTemplateOutputDefaults: the generated [output] table decodes to
// exactly the declared defaults, which are the values skillopt has always
// used.
func TestTemplateOutputDefaults(t *testing.T) {
	tpl := string(config.TemplateWith(binding))
	if strings.Count(tpl, "\n[output]\n") != 1 {
		t.Fatalf("template has no single [output] table:\n%s", tpl)
	}
	cfg, err := decodeOutput(tpl)
	if err != nil {
		t.Fatal(err)
	}
	got := configOf(cfg.Options)
	if !reflect.DeepEqual(got.Settings, Defaults) {
		t.Errorf("settings %+v, want %+v", got.Settings, Defaults)
	}
	for _, r := range Rules() {
		if r.Options != nil && !reflect.DeepEqual(cfg.Options.Of(r.Options), r.Options) {
			t.Errorf("%s: %+v, want %+v", r.ID, cfg.Options.Of(r.Options), r.Options)
		}
	}
	want := &testConfig{
		Settings: &Settings{
			TriggerBytes: 4096, TriggerLines: 80, MinSavedBytes: 1024, MinSavedRatio: 0.25, HeadLines: 6, TailLines: 6,
			ContextLines: 2, MaxLineBytes: 1024, ExemptTools: []string{}, OverflowTools: []string{"codebase-retrieval"},
			StripToolTraces: true, FinalOutputMaxChars: 120000,
		},
		dedup:    &dedupOptions{MinBytes: 1024, MaxArtifacts: 128},
		overflow: &overflowOptions{CeilingBytes: 25000, ContextMemory: true, PreviewHeadChars: 4000, PreviewTailChars: 4000, Tiers: map[string]int{"cheap": 15000, "balanced": 25000, "frontier": 50000}, MaxEntries: 8, MaxBytesPerRun: 1000000},
		headTail: &headTailOptions{Strategy: "recent", HeadMessages: 2, TailMessages: 12, MiddleMode: "marker", MaxCharsPerMessage: 10000, MaxTotalChars: 60000},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("defaults changed:\n%+v\nwant\n%+v", got, want)
	}
}

// TestOutputConfigErrors: every range check of the [output] table, each
// located at its value.
func TestOutputConfigErrors(t *testing.T) {
	doc := "[output]\ntrigger_bytes = -1\ntier = \"huge\"\nexempt_tools = [\"a\", \"\"]\nhistory_strategy = \"x\"\nmiddle_mode = \"y\"\n" +
		"head_messages = 1001\ndedup_max_artifacts = 500\noverflow_ceiling_bytes = 10\nmax_line_bytes = 5\ncontext_lines = 51\n" +
		"min_saved_ratio = 1\ntail_messages = -1\npreview_head_chars = -2\n[output.tiers]\ncheap = -5\nhuge = 1\n"
	want := []string{
		`s.toml:2:17: output.trigger_bytes: -1 must not be negative`,
		`s.toml:3:8: output.tier: "huge" is not one of cheap, balanced, frontier`,
		`s.toml:4:22: output.exempt_tools[1]: empty tool name`,
		`s.toml:5:20: output.history_strategy: "x" is not one of recent, head-tail`,
		`s.toml:6:15: output.middle_mode: "y" is not one of marker, omit`,
		`s.toml:7:17: output.head_messages: 1001 is above 1000`,
		`s.toml:8:23: output.dedup_max_artifacts: 500 is outside 0..128`,
		`s.toml:9:26: output.overflow_ceiling_bytes: 10 is below 1000`,
		`s.toml:10:18: output.max_line_bytes: 5 is below 64 (0 turns cutting off)`,
		`s.toml:11:17: output.context_lines: 51 is outside 0..50`,
		`s.toml:12:19: output.min_saved_ratio: 1 is outside 0..1 (exclusive of 1)`,
		`s.toml:13:17: output.tail_messages: -1 must not be negative`,
		`s.toml:14:22: output.preview_head_chars: -2 must not be negative`,
		`s.toml:16:9: output.tiers.cheap: -5 must not be negative`,
		`s.toml:17:8: output.tiers.huge: unknown key (the tiers are cheap, balanced and frontier)`,
	}
	_, err := decodeOutput(doc)
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
	if _, err := decodeOutput("[output]\nmin_saved_ratio = nan\n"); err == nil || err.Error() != `s.toml:2:19: output.min_saved_ratio: NaN is outside 0..1 (exclusive of 1)` {
		t.Errorf("nan: %v", err)
	}
}

// TestOutputTiersTable: [output.tiers] is a table of integers; a partial
// table keeps the other tiers' defaults, and TOML's rules on defining a
// table twice hold as they did for the former fixed struct.
func TestOutputTiersTable(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		ok   bool
		want map[string]int
	}{
		{"[output.tiers]\ncheap = 1000\n", true, map[string]int{"cheap": 1000, "balanced": 25000, "frontier": 50000}},
		{"[output]\ntiers = {frontier = 9000}\n", true, map[string]int{"cheap": 15000, "balanced": 25000, "frontier": 9000}},
		{"[output]\ntiers.cheap = 1\ntiers.balanced = 2\n", true, map[string]int{"cheap": 1, "balanced": 2, "frontier": 50000}},
		{"[output.tiers]\ncheap = 1\n[output]\ntiers.balanced = 2\n", false, nil},
		{"[output]\ntiers.cheap = 1\n[output.tiers]\n", false, nil},
		{"output.tiers.cheap = 1\n[output]\n", false, nil},
		{"[output.tiers]\ncheap = \"x\"\n", false, nil},
	} {
		cfg, err := decodeOutput(tc.doc)
		if (err == nil) != tc.ok {
			t.Errorf("%q: error %v", tc.doc, err)
			continue
		}
		if tc.ok {
			if got := configOf(cfg.Options).overflow.Tiers; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%q: tiers %v", tc.doc, got)
			}
		}
	}
	// The configured tiers are copies: decoding never changes the
	// declared defaults.
	if got := overflow.Options.(*overflowOptions).Tiers["cheap"]; got != 15000 {
		t.Fatalf("declared default changed to %d", got)
	}
}

func TestCeilingAndTier(t *testing.T) {
	o := &overflowOptions{CeilingBytes: 30000, Tiers: map[string]int{"cheap": 15000, "balanced": 0}}
	for tier, want := range map[string]int{"": 30000, "cheap": 15000, "balanced": 30000, "frontier": 30000} {
		if got := o.ceiling(tier); got != want {
			t.Errorf("tier %q: ceiling %d, want %d", tier, got, want)
		}
	}
	for _, tier := range []string{"", "cheap", "balanced", "frontier"} {
		if err := CheckTier(tier); err != nil {
			t.Errorf("%q: %v", tier, err)
		}
	}
	if err := CheckTier("Cheap"); err == nil || err.Error() != `tier "Cheap" is not one of cheap, balanced, frontier` {
		t.Errorf("Cheap: %v", err)
	}
}

// TestSettingsAccessors: rules and commands see the configured copy; a
// missing set or environment means the defaults.
func TestSettingsAccessors(t *testing.T) {
	cfg, err := decodeOutput("[output]\ntrigger_bytes = 10\n")
	if err != nil {
		t.Fatal(err)
	}
	if FromSet(cfg.Options).TriggerBytes != 10 || SettingsOf(&rules.Env{Options: cfg.Options}).TriggerBytes != 10 {
		t.Fatal("configured value not seen")
	}
	if FromSet(nil) != Defaults || SettingsOf(nil) != Defaults || Defaults.TriggerBytes != 4096 {
		t.Fatal("defaults")
	}
}
