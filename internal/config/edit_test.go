package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

// catalogOptions stand for the [catalog] table a rule family declares.
type catalogOptions struct {
	Profile     string `toml:"profile" doc:"card profile"`
	BudgetChars int    `toml:"budget_chars" doc:"characters"`
}

func (*catalogOptions) Section() string { return "catalog" }

func TestSetTOMLString(t *testing.T) {
	cases := []struct {
		name, in, want string
		ok             bool
	}{
		{"empty", "", "[catalog]\nprofile = \"p.json\"\n", true},
		{"no table", "[measure]\nreplay = 2", "[measure]\nreplay = 2\n\n[catalog]\nprofile = \"p.json\"\n", true},
		{"table without the key", "[catalog] # cards\nbudget_chars = 9000\n", "[catalog] # cards\nprofile = \"p.json\"\nbudget_chars = 9000\n", true},
		{"empty value, comment kept", "[catalog]\nprofile = \"\"  # set by catalog init\n[lint]\n", "[catalog]\nprofile = \"p.json\"  # set by catalog init\n[lint]\n", true},
		{"literal string", "[catalog]\n  profile='old.json'\n", "[catalog]\n  profile=\"p.json\"\n", true},
		{"crlf", "[catalog]\r\nbudget_chars = 1\r\n", "[catalog]\r\nprofile = \"p.json\"\r\nbudget_chars = 1\r\n", true},
		{"key in another table", "[lint]\nprofile = \"default\"\n[catalog]\n", "[lint]\nprofile = \"default\"\n[catalog]\nprofile = \"p.json\"\n", true},
		{"header at the end without newline", "[catalog]", "[catalog]\nprofile = \"p.json\"\n", true},
		{"dotted key at the root", "catalog.profile = \"x\"\n", "", false},
		{"inline table", "catalog = {budget_chars = 3}\n", "", false},
		{"not a string", "[catalog]\nprofile = 3\n", "", false},
		{"dotted under the table", "[catalog]\nprofile.x = 3\n", "", false},
		{"table twice", "[catalog]\n[catalog]\n", "", false},
		{"multi-line string", "[measure]\nx = \"\"\"\n[catalog]\n\"\"\"\n", "", false},
	}
	for _, tc := range cases {
		got, ok := SetString([]byte(tc.in), "catalog", "profile", "p.json")
		if ok != tc.ok || (ok && string(got) != tc.want) {
			t.Errorf("%s: got %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if got, _ := SetString(nil, "catalog", "profile", `a "b"\c`); string(got) != "[catalog]\nprofile = \"a \\\"b\\\"\\\\c\"\n" {
		t.Errorf("escapes: %q", got)
	}
}

// FuzzSetTOMLString: editing any configuration that loads gives one that
// loads and names the profile, or no edit at all; never a panic.
func FuzzSetTOMLString(f *testing.F) {
	f.Add([]byte("[catalog]\nprofile = \"\" # x\n"), "cards.json")
	f.Add([]byte("[measure]\nreplay = 2\n[catalog.x]\n"), "a/b.json")
	f.Add([]byte("# c\r\n[catalog]\r\nbudget_chars = 1\r\n"), `q"\`)
	f.Add([]byte("[rules]\n[catalog]\n  profile = 'x'\n[[lint.suppress]]\nrule = \"SK017\"\nreason = \"r\"\n"), "p")
	def := &catalogOptions{}
	b, err := rules.Bind([]rules.Owner{{Name: "SO999", Options: def}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, value string) {
		if len(data) > 1<<12 {
			return
		}
		out, ok := SetString(data, "catalog", "profile", value)
		if !ok || DecodeWith("in.toml", data, Default(), b) != nil {
			return
		}
		cfg := Default()
		if err := DecodeWith("out.toml", out, cfg, b); err != nil {
			t.Fatalf("the edit broke a valid file:\n%q\n%q\n%v", data, out, err)
		}
		if got := rules.Get(cfg.Options, def).Profile; got != value {
			t.Fatalf("profile %q after the edit, want %q:\n%q", got, value, out)
		}
	})
}

// TestEditString: the file is rewritten when the edit loads and says what
// was meant, and left as it is otherwise.
func TestEditString(t *testing.T) {
	def := &catalogOptions{}
	b, err := rules.Bind([]rules.Owner{{Name: "SO999", Options: def}})
	if err != nil {
		t.Fatal(err)
	}
	says := func(cfg *Config) bool { return rules.Get(cfg.Options, def).Profile == "cards.json" }
	dir := t.TempDir()
	for _, tc := range []struct {
		name, in, want string
		says           func(*Config) bool
		ok             bool
	}{
		{"edited", "[catalog]\nbudget_chars = 3\n", "[catalog]\nprofile = \"cards.json\"\nbudget_chars = 3\n", says, true},
		{"not editable", "catalog = {budget_chars = 3}\n", "catalog = {budget_chars = 3}\n", says, false},
		{"does not load after the edit", "[catalog]\nbudget_chars = \"x\"\n", "[catalog]\nbudget_chars = \"x\"\n", says, false},
		{"does not say it", "[catalog]\n", "[catalog]\n", func(*Config) bool { return false }, false},
	} {
		path := filepath.Join(dir, tc.name+".toml")
		if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		err := EditString(path, "catalog", "profile", "cards.json", b, tc.says)
		got, _ := os.ReadFile(path)
		if (err == nil) != tc.ok || string(got) != tc.want {
			t.Errorf("%s: %v, file %q; want ok %v, %q", tc.name, err, got, tc.ok, tc.want)
		}
	}
	if err := EditString(filepath.Join(dir, "missing.toml"), "catalog", "profile", "x", b, says); err == nil {
		t.Error("a missing file: no error")
	}
}
