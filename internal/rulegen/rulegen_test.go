package rulegen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/skillopt/skillopt/internal/golden"
)

// writePkg writes files (name to content) into a new folder.
func writePkg(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDeclared(t *testing.T) {
	cases := []struct {
		name     string
		files    map[string]string
		prefixes []string
		want     []string // Var:ID in order
		err      string
	}{
		{
			name: "ID order across files",
			files: map[string]string{
				"b.go": "package p\nvar second = &rules.Rule{ID: \"SO502\"}\nvar first = &rules.Rule{ID: \"SO501\"}\n",
				"a.go": "package p\nvar third = &rules.Rule{ID: \"SO503\", Name: \"x\"}\nvar notARule = 3\n",
			},
			want: []string{"first:SO501", "second:SO502", "third:SO503"},
		},
		{
			name: "prefixes first, then the rest by ID",
			files: map[string]string{
				"a.go": "package p\nvar a1 = &Rule{Rule: &rules.Rule{ID: \"AG001\"}}\nvar s2 = &Rule{Rule: &rules.Rule{ID: \"SK002\"}}\nvar s1 = &Rule{Rule: &rules.Rule{ID: \"SK001\"}}\nvar z = &rules.Rule{ID: \"AA001\"}\n",
			},
			prefixes: []string{"SK", "AG"},
			want:     []string{"s1:SK001", "s2:SK002", "a1:AG001", "z:AA001"},
		},
		{
			name: "a wrapper call and a grouped declaration",
			files: map[string]string{
				"a.go": "package p\nvar (\n\tx, y = wrap(1, &rules.Rule{ID: \"SO2\"}), &rules.Rule{ID: \"SO1\"}\n)\n",
			},
			want: []string{"y:SO1", "x:SO2"},
		},
		{
			name: "tests, the generated file and local literals are not declarations",
			files: map[string]string{
				"a.go":         "package p\nvar r = &rules.Rule{ID: \"SO1\"}\nfunc f() { _ = &rules.Rule{ID: \"SO9\"} }\n",
				"a_test.go":    "package p\nvar tr = &rules.Rule{ID: \"T1\"}\n",
				"rules_gen.go": "package p\nvar g = &rules.Rule{ID: \"SO8\"}\n",
			},
			want: []string{"r:SO1"},
		},
		{
			name:  "an ID declared twice",
			files: map[string]string{"a.go": "package p\nvar a = &rules.Rule{ID: \"SO1\"}\nvar b = &rules.Rule{ID: \"SO1\"}\n"},
			err:   "rule SO1 is declared twice",
		},
		{
			name:  "an ID that is not a literal",
			files: map[string]string{"a.go": "package p\nconst id = \"SO1\"\nvar a = &rules.Rule{ID: id}\n"},
			err:   "must be a string literal",
		},
		{
			name:  "a file that does not parse",
			files: map[string]string{"a.go": "package p\nvar a = &rules.Rule{ID: \n"},
			err:   "a.go:",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, err := Declared(Family{Dir: writePkg(t, c.files), Prefixes: c.prefixes})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.Var+":"+r.ID)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestSource(t *testing.T) {
	dir := writePkg(t, map[string]string{
		"a.go": "package fam\n\nimport \"github.com/skillopt/skillopt/rules\"\n\nvar b = &rules.Rule{ID: \"SO2\"}\nvar a = &rules.Rule{ID: \"SO1\"}\n",
	})
	src, err := Source(Family{Dir: dir, Elem: "*rules.Rule"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{"DO NOT EDIT", "package fam\n", "import \"github.com/skillopt/skillopt/rules\"", "func declared() []*rules.Rule {", "\t\ta, // SO1\n\t\tb, // SO2\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("source lacks %q:\n%s", want, s)
		}
	}

	local, err := Source(Family{Dir: writePkg(t, map[string]string{"a.go": "package lint\nvar x = &Rule{Rule: &rules.Rule{ID: \"SK001\"}}\n"}), Elem: "*Rule"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(local), "import") || !strings.Contains(string(local), "[]*Rule{") {
		t.Errorf("a family wrapping the rule imports nothing and lists its own type:\n%s", local)
	}

	if _, err := Source(Family{Dir: writePkg(t, map[string]string{"a.go": "package p\n"})}); err == nil {
		t.Error("a package without rules gave a list")
	}
}
