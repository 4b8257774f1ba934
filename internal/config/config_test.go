package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/skillopt/skillopt/rules"
)

func TestTemplateDecodesToDefaults(t *testing.T) {
	cfg := Default()
	if err := DecodeWith("skillopt.toml", TemplateWith(nil), cfg, nil); err != nil {
		t.Fatal(err)
	}
	def := Default()
	if cfg.Measure != def.Measure || cfg.Archive != def.Archive || strings.Join(cfg.Rules.Pipeline, ",") != strings.Join(def.Rules.Pipeline, ",") {
		t.Fatalf("template differs from defaults: %+v", cfg)
	}
}

// TestArchiveDirConfined: archive.dir from a file is resolved in the
// file's folder, and a symbolic link there that leads out is refused.
func TestArchiveDirConfined(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "proj", FileName)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := Default()
	if err := DecodeWith(path, []byte("[archive]\ndir = \"cache/archive\"\n"), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "proj", "cache", "archive"); cfg.Archive.Dir != want {
		t.Fatalf("archive.dir %q, want %q", cfg.Archive.Dir, want)
	}
	if err := os.Symlink(root, filepath.Join(root, "proj", "out")); err != nil {
		t.Skip(err)
	}
	for dir, want := range map[string]string{
		"/var/tmp/x": `s.toml:2:7: archive.dir: "/var/tmp/x" is not relative; a configuration file may only name a folder inside its own folder (pass --archive DIR to choose another place)`,
		"a/../../x":  `s.toml:2:7: archive.dir: "a/../../x": path leaves its folder; a configuration file may only name a folder inside its own folder (pass --archive DIR to choose another place)`,
	} {
		cfg := Default()
		if err := DecodeWith("s.toml", []byte("[archive]\ndir = \""+dir+"\"\n"), cfg, nil); err != nil {
			t.Fatal(err)
		}
		if err := cfg.ArchiveErr(); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", dir, err, want)
		}
	}
	cfg = Default()
	if err := DecodeWith(path, []byte("[archive]\ndir = \"out/x\"\n"), cfg, nil); err != nil {
		t.Fatal(err)
	}
	err := cfg.ArchiveErr()
	if err == nil || !strings.Contains(err.Error(), "archive.dir: ") || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "--archive DIR") {
		t.Fatalf("symlink out: %v", err)
	}
	// Without the key, the default stays relative to the working folder.
	cfg = Default()
	if err := DecodeWith(path, []byte("[measure]\nreplay = 3\n"), cfg, nil); err != nil || cfg.Archive.Dir != ".skillopt/archive" {
		t.Fatalf("default: %q %v", cfg.Archive.Dir, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name, toml string
		want       string // the whole message, FILE:LINE:COL included
	}{
		{"unknown key", "[measure]\nencoding = \"o200k_base\"\ncolour = 1\n", `s.toml:3:1: measure.colour: unknown key`},
		{"unknown table", "[nope]\nx = 1\n", `s.toml:1:2: nope: unknown key`},
		{"unknown dotted", "measure.colour = 1\n", `s.toml:1:9: measure.colour: unknown key`},
		{"unknown inline", "measure = {colour = 1}\n", `s.toml:1:12: measure.colour: unknown key`},
		{"typo of a key", "[measure]\nreplays = 3\n", `s.toml:2:1: measure.replays: unknown key (did you mean replay?)`},
		{"typo of a table", "[mesure]\nreplay = 3\n", `s.toml:1:2: mesure: unknown key (did you mean measure?)`},
		{"typo, other case", "[measure]\nReplay_ = 3\n", `s.toml:2:1: measure.Replay_: unknown key (did you mean replay?)`},
		{"string for array", "[rules]\npipeline = \"SO1\"\n", `s.toml:2:12: rules.pipeline: want an array of strings, got string "SO1"`},
		{"integer for string", "[measure]\nencoding = 5\n", `s.toml:2:12: measure.encoding: want a string, got integer 5`},
		{"table for integer", "[measure.replay]\n", `s.toml:1:10: measure.replay: want an integer, got a table`},
		{"date for integer", "[measure]\nreplay = 2024-01-01\n", `s.toml:2:10: measure.replay: want an integer, got date-time 2024-01-01`},
		{"wrong type", "[measure]\nreplay = \"eight\"\n", `s.toml:2:10: measure.replay: want an integer, got string "eight"`},
		{"float for int", "[measure]\nreplay = 8.0\n", `s.toml:2:10: measure.replay: want an integer, got float 8.0`},
		{"int out of range", "[measure]\nreplay = 0x7fffffffffffffffff\n", `s.toml:2:10: measure.replay: integer 0x7fffffffffffffffff is out of range`},
		{"bool", "[lint]\ncache = \"yes\"\n", `s.toml:2:9: lint.cache: want a boolean (true or false), got string "yes"`},
		{"number", "[tools]\nmin_score = \"high\"\n", `s.toml:2:13: tools.min_score: want a number, got string "high"`},
		{"string list", "[rules]\npipeline = [\"SO1\", 2]\n", `s.toml:2:20: rules.pipeline[1]: want a string, got integer 2`},
		{"nested array", "[rules]\npipeline = [\"SO1\", [\"SO2\"]]\n", `s.toml:2:20: rules.pipeline[1]: want a string, got an array`},
		{"list for string", "[measure]\nencoding = [\"none\"]\n", `s.toml:2:12: measure.encoding: want a string, got an array`},
		{"string for list", "[rules]\ndisable = \"SO101\"\n", `s.toml:2:11: rules.disable: want an array of strings, got string "SO101"`},
		{"value for table", "measure = 3\n", `s.toml:1:11: measure: want a table, got integer 3`},
		{"table for value", "[measure.replay]\n", `s.toml:1:10: measure.replay: want an integer, got a table`},
		{"table for map value", "[rules.severity.SO101]\n", `s.toml:1:17: rules.severity.SO101: want a string, got a table`},
		{"map of strings", "[rules]\nseverity = 3\n", `s.toml:2:12: rules.severity: want a table of strings, got integer 3`},
		{"array of tables", "[[measure]]\n", `s.toml:1:3: measure: want a table, got an array of tables`},
		{"table for array of tables", "[lint]\nsuppress = 1\n", `s.toml:2:12: lint.suppress: want an array of tables, got integer 1`},
		{"date", "[measure]\nencoding = 1979-05-27\n", `s.toml:2:12: measure.encoding: want a string, got date-time 1979-05-27`},
		{"long value cut", "[measure]\nreplay = \"" + strings.Repeat("x", 100) + "\"\n", `s.toml:2:10: measure.replay: want an integer, got string "` + strings.Repeat("x", 36) + `…`},
		{"duplicate key", "[measure]\nreplay = 1\nreplay = 2\n", `s.toml:3:1: measure.replay: defined twice (first on line 2)`},
		{"duplicate table", "[measure]\n[archive]\n[measure]\n", `s.toml:3:2: measure: table defined twice (first on line 1)`},
		{"table over value", "measure = {}\n[measure]\n", `s.toml:2:2: measure: already defined as a value on line 1`},
		{"dotted over table", "[measure]\n[lint]\n[rules]\n[catalog]\n[tools]\n[archive]\n[x.y]\n", `s.toml:7:2: x: unknown key`},
		{"dotted key into header table", "[rules]\n[rules.severity]\n[measure]\n[archive]\n[lint]\n[tools]\n[catalog]\n[rules]\n", `s.toml:8:2: rules: table defined twice (first on line 1)`},
		{"inline table duplicate", "measure = {replay = 1, replay = 2}\n", `s.toml:1:24: measure.replay: defined twice (first on line 1)`},
		{"array of tables over table", "[lint]\n[[lint]]\n", `s.toml:2:3: lint: already defined as a table on line 1, cannot be an array of tables`},
		{"syntax", "[measure\n", `s.toml:1:9: invalid TOML: expected ']' to close table name`},
		{"bad encoding", "[measure]\nencoding = \"gpt2\"\n", `s.toml:2:12: measure.encoding "gpt2" is not one of o200k_base, cl100k_base, none`},
		{"bad replay", "[measure]\nreplay = -1\n", `s.toml:2:10: measure.replay -1 is outside 0..1000`},
		{"bad severity", "[rules.severity]\nSO401 = \"loud\"\n", `s.toml:2:9: rules.severity.SO401: "loud" is not one of error, warning, info, off`},
		{"empty archive", "[archive]\ndir = \"\"\n", `s.toml:2:7: archive.dir must not be empty`},
		{"suppression", "[[lint.suppress]]\nrule = \"SK017\"\n", `s.toml:1:1: lint.suppress[0].reason: a reason is required to suppress SK017`},
		{"blank reason", "[[lint.suppress]]\nrule = \"SK017\"\nreason = \" \"\n", `s.toml:3:10: lint.suppress[0].reason: a reason is required to suppress SK017`},
		{"suppression without rule", "[[lint.suppress]]\nreason = \"x\"\n", `s.toml:1:1: lint.suppress[0].rule: a rule is required`},
		{"mistyped rule is reported once", "[[lint.suppress]]\nrule = 1\nreason = \"x\"\n", `s.toml:2:8: lint.suppress[0].rule: want a string, got integer 1`},
	}
	b := familyTables(t)
	for _, tc := range cases {
		err := DecodeWith("s.toml", []byte(tc.toml), Default(), b)
		var list Errors
		if !errors.As(err, &list) || len(list) != 1 {
			t.Errorf("%s: want one error, got %v", tc.name, err)
			continue
		}
		var ce *Error
		if !errors.As(err, &ce) || ce.Line == 0 {
			t.Errorf("%s: want a located *Error, got %v", tc.name, err)
		}
		if got := err.Error(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// familyTables binds stand-ins for tables that rule families declare
// ([catalog], [tools], [lint] with a map and an array of tables), so that
// cases about the decoder can use them.
func familyTables(t testing.TB) *rules.Binding {
	t.Helper()
	b, err := rules.Bind([]rules.Owner{
		{Name: "catalog", Options: &catalogTable{}},
		{Name: "tools", Options: &toolsTable{MinScore: 2.5}},
		{Name: "lint", Options: &lintTable{Cache: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type catalogTable struct {
	Skills []string `toml:"skills" doc:"skill folders"`
}

func (*catalogTable) Section() string { return "catalog" }

type toolsTable struct {
	MinScore float64 `toml:"min_score" doc:"score"`
	Native   bool    `toml:"native" doc:"native"`
}

func (*toolsTable) Section() string { return "tools" }

type lintTable struct {
	Disable  []string          `toml:"disable" doc:"rules"`
	Severity map[string]string `toml:"severity" doc:"severities"`
	Suppress []suppression     `toml:"suppress" doc:"suppressions"`
	Cache    bool              `toml:"cache" doc:"cache"`
}

type suppression struct {
	Rule   string `toml:"rule"`
	Path   string `toml:"path"`
	Reason string `toml:"reason"`
}

func (*lintTable) Section() string { return "lint" }

func (l *lintTable) Check() []rules.OptionError {
	var errs []rules.OptionError
	for id, sev := range l.Severity {
		switch strings.ToLower(sev) {
		case "error", "warning", "info", "off":
		default:
			errs = append(errs, rules.OptionError{Key: "severity." + keyName(id), Msg: fmt.Sprintf("%q is not one of error, warning, info, off", sev)})
		}
	}
	for i, s := range l.Suppress {
		switch {
		case strings.TrimSpace(s.Rule) == "":
			errs = append(errs, rules.OptionError{Key: fmt.Sprintf("suppress[%d].rule", i), Msg: "a rule is required"})
		case strings.TrimSpace(s.Reason) == "":
			errs = append(errs, rules.OptionError{Key: fmt.Sprintf("suppress[%d].reason", i), Msg: "a reason is required to suppress " + s.Rule})
		}
	}
	return errs
}

// TestDecodeAccepts: TOML's ways of writing the same table all decode.
func TestDecodeAccepts(t *testing.T) {
	for _, doc := range []string{
		"[measure]\nreplay = 3\n",
		"measure.replay = 3\n",
		"measure = {replay = 3}\n",
		"[rules]\nseverity.SO101 = \"off\"\n[measure]\nreplay = 3\n",
		"[rules.severity]\n\"SO101\" = \"off\"\n[measure]\nreplay = 0x3\n",
		"[lint]\nsuppress = [{rule = \"SK017\", reason = \"r\"}]\n[measure]\nreplay = 3\n",
		"[[lint.suppress]]\nrule = \"SK017\"\nreason = \"r\"\n[[lint.suppress]]\nrule = \"SK018\"\nreason = \"r\"\n[measure]\nreplay = 3\n",
		"[tools]\nmin_score = 3\n[measure]\nreplay = 1_0\n",
	} {
		cfg := Default()
		if err := DecodeWith("s.toml", []byte(doc), cfg, familyTables(t)); err != nil {
			t.Errorf("%q: %v", doc, err)
			continue
		}
		if cfg.Measure.Replay != 3 && cfg.Measure.Replay != 10 {
			t.Errorf("%q: replay %d", doc, cfg.Measure.Replay)
		}
	}
}

// TestDecodeReportsEveryProblem: all problems, in file order, the same on
// every run (severity maps used to be reported in map order).
func TestDecodeReportsEveryProblem(t *testing.T) {
	doc := "[rules.severity]\nSO101 = \"loud\"\nSO102 = \"loud\"\nSO103 = \"x\"\nSO301 = \"y\"\n" +
		"[measure]\nreplay = \"eight\"\ncolour = 1\nencoding = \"gpt2\"\n[lint.severity]\nSK001 = \"a\"\nSK002 = \"b\"\n"
	want := []string{
		`s.toml:2:9: rules.severity.SO101: "loud" is not one of error, warning, info, off`,
		`s.toml:3:9: rules.severity.SO102: "loud" is not one of error, warning, info, off`,
		`s.toml:4:9: rules.severity.SO103: "x" is not one of error, warning, info, off`,
		`s.toml:5:9: rules.severity.SO301: "y" is not one of error, warning, info, off`,
		`s.toml:7:10: measure.replay: want an integer, got string "eight"`,
		`s.toml:8:1: measure.colour: unknown key`,
		`s.toml:9:12: measure.encoding "gpt2" is not one of o200k_base, cl100k_base, none`,
		`s.toml:11:9: lint.severity.SK001: "a" is not one of error, warning, info, off`,
		`s.toml:12:9: lint.severity.SK002: "b" is not one of error, warning, info, off`,
	}
	b := familyTables(t)
	for range 20 {
		err := DecodeWith("s.toml", []byte(doc), Default(), b)
		if err == nil || err.Error() != strings.Join(want, "\n") {
			t.Fatalf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
		}
	}
}

// TestManyUnknownKeys: 100,000 unknown keys are all rejected (the decoder
// is linear; BenchmarkDecodeUnknownKeys measures it) and the report stops
// at 50 lines and a count.
func TestManyUnknownKeys(t *testing.T) {
	err := DecodeWith("big.toml", unknownKeys(100000), Default(), nil)
	var list Errors
	if !errors.As(err, &list) || len(list) != 100000 {
		t.Fatalf("want 100000 errors, got %T", err)
	}
	lines := list.Lines()
	if len(lines) != 51 || lines[0] != "big.toml:2:1: measure.k0: unknown key" || lines[50] != "big.toml: and 99950 more error(s)" {
		t.Fatalf("lines: %d, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

func unknownKeys(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[measure]\n")
	for i := range n {
		fmt.Fprintf(&b, "k%d = %d\n", i, i)
	}
	return b.Bytes()
}

func BenchmarkDecodeUnknownKeys(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		data := unknownKeys(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				DecodeWith("big.toml", data, Default(), nil)
			}
		})
	}
}

func TestCheckRules(t *testing.T) {
	cfg := Default()
	doc := "[rules]\npipeline = [\"SO9\", \"SO401\", \"SO8\"]\ndisable = [\"nope\"]\n[rules.severity]\nSO7 = \"off\"\nSO6 = \"off\"\n"
	if err := DecodeWith("s.toml", []byte(doc), cfg, nil); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		`s.toml:2:13: rules.pipeline: unknown rule "SO9"`,
		`s.toml:2:29: rules.pipeline: unknown rule "SO8"`,
		`s.toml:3:12: rules.disable: unknown rule "nope"`,
		`s.toml:5:7: rules.severity: unknown rule "SO7"`,
		`s.toml:6:7: rules.severity: unknown rule "SO6"`,
	}, "\n")
	for range 10 {
		err := cfg.CheckRules(func(ref string) error {
			if ref == "SO401" {
				return nil
			}
			return fmt.Errorf("unknown rule %q", ref)
		})
		if err == nil || err.Error() != want {
			t.Fatalf("got\n%v\nwant\n%s", err, want)
		}
	}
}

// TestPosition: keys of declared tables are located, also inside inline
// arrays of tables and after indented headers.
func TestPosition(t *testing.T) {
	cfg := Default()
	doc := "[lint]\nsuppress = [\n  {rule = \"SK017\", reason = \"r\"},\n]\n"
	if err := DecodeWith("s.toml", []byte(doc), cfg, familyTables(t)); err != nil {
		t.Fatal(err)
	}
	if l, c := cfg.Position("lint.suppress[0]"); l != 3 || c != 3 {
		t.Errorf("inline suppression at %d:%d, want 3:3", l, c)
	}
	cfg = Default()
	doc = "# x\n  [[lint.suppress]]\nrule = \"SK017\"\nreason = \"r\"\n"
	if err := DecodeWith("s.toml", []byte(doc), cfg, familyTables(t)); err != nil {
		t.Fatal(err)
	}
	if l, c := cfg.Position("lint.suppress[0]"); l != 2 || c != 3 {
		t.Errorf("suppression at %d:%d, want 2:3", l, c)
	}
	if l, c := cfg.Position("lint.suppress[0].rule"); l != 3 || c != 8 {
		t.Errorf("suppressed rule at %d:%d, want 3:8", l, c)
	}
	if l, c := Default().Position("lint"); l != 0 || c != 0 {
		t.Errorf("position without a file: %d:%d", l, c)
	}
}

// TestLocated: problems found after decoding are located and sorted with
// each other.
func TestLocated(t *testing.T) {
	cfg := Default()
	doc := "[lint]\ndisable = [\"a\", \"b\"]\n"
	if err := DecodeWith("s.toml", []byte(doc), cfg, familyTables(t)); err != nil {
		t.Fatal(err)
	}
	err := cfg.Located([]rules.OptionError{{Key: "lint.disable[1]", Msg: "second"}, {Key: "lint.disable[0]", Msg: "first"}, {Key: "lint.nowhere", Msg: "table"}})
	want := "s.toml:1:1: table\ns.toml:2:12: first\ns.toml:2:17: second"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	if err := cfg.Located(nil); err != nil {
		t.Errorf("no problems: %v", err)
	}
}

// TestFind: the search stops at the repository root or the home folder,
// whichever comes first; outside both only the working directory counts.
func TestFind(t *testing.T) {
	root := t.TempDir()
	mk := func(p string) string {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	put := func(p string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte("[measure]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SKILLOPT_CONFIG", "")
	// root/skillopt.toml sits above every boundary below: never used.
	put(FileName)
	mk("home/user/repo/.git")
	mk("home/user/repo/a/b")
	mk("home/user/loose/c")
	mk("elsewhere/d")
	mk("filegit/e")
	if err := os.WriteFile(filepath.Join(root, "filegit", ".git"), []byte("gitdir: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(root, "home", "user"))

	cases := []struct{ dir, want string }{
		{"home/user/repo/a/b", ""},
		{"home/user/loose/c", ""},
		{"elsewhere/d", ""},
		{"elsewhere", ""},
		{"filegit/e", ""},
		{"", FileName},
	}
	for _, tc := range cases {
		if got := Find("", filepath.Join(root, tc.dir)); got != tc.want {
			t.Errorf("Find(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
	// The repository root and the home folder are included.
	put("home/user/repo/" + FileName)
	put("home/user/" + FileName)
	put("filegit/" + FileName)
	cases = []struct{ dir, want string }{
		{"home/user/repo/a/b", filepath.Join("..", "..", FileName)},
		{"home/user/loose/c", filepath.Join("..", "..", FileName)},
		{"filegit/e", filepath.Join("..", FileName)},
		{"elsewhere/d", ""},
	}
	for _, tc := range cases {
		if got := Find("", filepath.Join(root, tc.dir)); got != tc.want {
			t.Errorf("Find(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
	// The nearest file wins; explicit and $SKILLOPT_CONFIG win over both.
	put("home/user/repo/a/" + FileName)
	if got := Find("", filepath.Join(root, "home/user/repo/a/b")); got != filepath.Join("..", FileName) {
		t.Errorf("nearest: %q", got)
	}
	if got := Find("x.toml", root); got != "x.toml" {
		t.Errorf("explicit: %q", got)
	}
	t.Setenv("SKILLOPT_CONFIG", "/y.toml")
	if got := Find("", root); got != "/y.toml" {
		t.Errorf("env: %q", got)
	}
}

// sameAsGoTOML compares the decoder with go-toml's strict decoder on data:
// both accept it (and decode the same values) or both reject it. Range
// checks are left out: go-toml does not know them. Declared tables are
// decoded by go-toml as fields of one struct with the configuration's.
func sameAsGoTOML(t *testing.T, data []byte) {
	t.Helper()
	b := familyTables(t)
	mine := Default()
	targets := b.Targets()
	_, probs := decode("f.toml", data, mine, targets)
	theirs := goTOMLTarget(Default(), b.Targets())
	terr := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(theirs.Addr().Interface())
	if (len(probs.list) == 0) != (terr == nil) {
		if terr != nil && intoFloat(terr) {
			return // integers for numbers: accepted on purpose
		}
		t.Fatalf("%q: decoder says %v, go-toml says %v", data, probs.err(), terr)
	}
	if terr != nil {
		return
	}
	mv := reflect.ValueOf(mine).Elem()
	for i := range theirs.NumField() {
		name := theirs.Type().Field(i).Name
		var a any
		if sec, ok := strings.CutPrefix(name, "Declared_"); ok {
			a = reflect.ValueOf(targets[sec]).Elem().Interface()
		} else {
			a = mv.FieldByName(name).Interface()
		}
		if a, b := fmt.Sprintf("%+v", a), fmt.Sprintf("%+v", theirs.Field(i).Interface()); a != b {
			t.Fatalf("%q: %s decoded\n%s\ngo-toml\n%s", data, name, a, b)
		}
	}
}

// goTOMLTarget is a struct holding cfg's tables and the declared ones
// (field Declared_<section>), with their values.
func goTOMLTarget(cfg *Config, targets map[string]any) reflect.Value {
	cv := reflect.ValueOf(cfg).Elem()
	var fields []reflect.StructField
	var values []reflect.Value
	for i := range cv.NumField() {
		f := cv.Type().Field(i)
		if tag := f.Tag.Get("toml"); f.IsExported() && tag != "" && tag != "-" {
			fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
			values = append(values, cv.Field(i))
		}
	}
	names := make([]string, 0, len(targets))
	for sec := range targets {
		names = append(names, sec)
	}
	sort.Strings(names)
	for _, sec := range names {
		v := reflect.ValueOf(targets[sec]).Elem()
		fields = append(fields, reflect.StructField{Name: "Declared_" + sec, Type: v.Type(), Tag: reflect.StructTag(fmt.Sprintf(`toml:%q`, sec))})
		values = append(values, v)
	}
	out := reflect.New(reflect.StructOf(fields)).Elem()
	for i, v := range values {
		out.Field(i).Set(v)
	}
	return out
}

func intoFloat(err error) bool {
	return strings.Contains(err.Error(), "into struct field") && strings.Contains(err.Error(), "float64")
}

// TestSameAsGoTOML: the redefinition rules of TOML, as go-toml applies them.
func TestSameAsGoTOML(t *testing.T) {
	for _, doc := range []string{
		"[measure]\nreplay = 1\n[measure]\n",
		"[rules.severity]\n[rules]\n",
		"[rules]\n[rules.severity]\n[rules]\n",
		"rules.severity.SO1 = \"off\"\n[rules.severity]\n",
		"rules.severity.SO1 = \"off\"\n[rules]\n",
		"[rules]\nseverity.SO1 = \"off\"\n[rules.severity]\n",
		"[rules]\nseverity = {}\nseverity.SO1 = \"off\"\n",
		"[[lint.suppress]]\nrule = \"a\"\n[[lint.suppress]]\nrule = \"b\"\nrule = \"c\"\n",
		"[[lint.suppress]]\nrule = \"a\"\n[lint]\ncache = false\n",
		"[lint]\ncache = false\n[[lint.suppress]]\nrule = \"a\"\n[lint]\n",
		"lint = {cache = false}\n[[lint.suppress]]\n",
		"[lint]\nsuppress = []\n[[lint.suppress]]\n",
		"[[lint.suppress]]\n[lint.suppress]\n",
		"[output.tiers]\ncheap = 1\n[output]\ntiers.balanced = 2\n",
		"[output]\ntiers.cheap = 1\n[output.tiers]\n",
		"[output]\ntiers.cheap = 1\ntiers.balanced = 2\n",
		"output.tiers.cheap = 1\n[output]\n",
		"[measure]\nreplay = +0\nencoding = 'none'\n",
		"[tools]\nmin_score = 1e2\nrelative = 0.5\nnative = true\n",
		"[rules]\npipeline = [\n  \"SO1\", # first\n  'SO2',\n]\n",
		"[catalog]\nskills = [\"\"\"a\nb\"\"\"]\n",
		"[rules]\npipeline = [\"SO1\", 2]\n",
		"[nope]\n[nope]\n",
		"nope = {a = 1, a = 2}\n",
	} {
		sameAsGoTOML(t, []byte(doc))
	}
}

// FuzzDecode: any input either decodes or yields located Errors, never a
// panic; and small inputs are accepted exactly when go-toml accepts them.
func FuzzDecode(f *testing.F) {
	f.Add(TemplateWith(familyTables(f)))
	f.Add([]byte("[measure]\nreplay = 3\n"))
	f.Add([]byte("[rules]\npipeline = [\"SO1\", 2]\n"))
	f.Add([]byte("[[lint.suppress]]\nrule = \"SK017\"\nreason = \"r\"\n[lint.suppress.x]\n"))
	f.Add([]byte("rules.severity.SO101 = \"error\"\n[rules.severity]\n"))
	f.Add([]byte("measure = {replay = 1, replay = 2}\n"))
	b := familyTables(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		err := DecodeWith("f.toml", data, Default(), b)
		var list Errors
		if err != nil && !errors.As(err, &list) {
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		for _, e := range list {
			if e.File != "f.toml" || e.Msg == "" {
				t.Fatalf("bad error %#v", e)
			}
		}
		if len(data) <= 2048 {
			sameAsGoTOML(t, data)
		}
	})
}
