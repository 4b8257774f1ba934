package config

import (
	"errors"
	"strings"
	"testing"
)

func TestTemplateDecodesToDefaults(t *testing.T) {
	cfg := Default()
	if err := Decode("skillopt.toml", Template(), cfg); err != nil {
		t.Fatal(err)
	}
	def := Default()
	if cfg.Measure != def.Measure || cfg.Archive != def.Archive || strings.Join(cfg.Rules.Pipeline, ",") != strings.Join(def.Rules.Pipeline, ",") {
		t.Fatalf("template differs from defaults: %+v", cfg)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name, toml string
		line       int
		msg        string
	}{
		{"unknown key", "[measure]\nencoding = \"o200k_base\"\ncolour = 1\n", 3, `unknown key "measure.colour"`},
		{"unknown table", "[nope]\nx = 1\n", 1, `unknown key "nope"`},
		{"wrong type", "[measure]\nreplay = \"eight\"\n", 2, ""},
		{"bad encoding", "[measure]\nencoding = \"gpt2\"\n", 2, `"gpt2" is not one of`},
		{"bad replay", "[measure]\nreplay = -1\n", 2, "outside 0..1000"},
		{"syntax", "[measure\n", 1, ""},
		{"bad severity", "[rules.severity]\nSO401 = \"loud\"\n", 2, "not one of error"},
	}
	for _, tc := range cases {
		err := Decode("s.toml", []byte(tc.toml), Default())
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: want *Error, got %v", tc.name, err)
			continue
		}
		if ce.Line != tc.line || !strings.Contains(ce.Msg, tc.msg) || !strings.HasPrefix(err.Error(), "s.toml:") {
			t.Errorf("%s: got %q (line %d), want line %d containing %q", tc.name, err, ce.Line, tc.line, tc.msg)
		}
	}
}

func TestCheckRules(t *testing.T) {
	cfg := Default()
	if err := Decode("s.toml", []byte("[rules]\npipeline = [\"SO9\"]\n"), cfg); err != nil {
		t.Fatal(err)
	}
	err := cfg.CheckRules(func(ref string) bool { return ref == "SO401" })
	if err == nil || !strings.Contains(err.Error(), `unknown rule "SO9"`) {
		t.Fatalf("unknown rule accepted: %v", err)
	}
}

// FuzzDecode: any input either decodes or yields a located *Error; never a
// panic.
func FuzzDecode(f *testing.F) {
	f.Add(Template())
	f.Add([]byte("[measure]\nreplay = 3\n"))
	f.Add([]byte("[rules]\npipeline = [\"SO1\", 2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Decode("f.toml", data, Default())
		var ce *Error
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("unlocated error %T: %v", err, err)
		}
	})
}
