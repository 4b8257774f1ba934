package lint_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/testfs"
	"github.com/skillopt/skillopt/rules"
)

// copyTree copies a folder into a fresh temporary folder, files writable.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// fixAll applies the fixes of a run and returns how many findings they
// fixed and in how many files.
func fixAll(t *testing.T, rep *lint.Report, o lint.FixOptions) (fixed, files int) {
	t.Helper()
	fixes, err := rep.Fixes(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixes {
		if err := os.WriteFile(f.Path, f.After, 0o644); err != nil {
			t.Fatal(err)
		}
		fixed += f.Fixed
	}
	return fixed, len(fixes)
}

func countByRule(diags []rules.Diagnostic) map[string]int {
	m := map[string]int{}
	for _, d := range diags {
		m[d.Rule]++
	}
	return m
}

// TestFixCorpus fixes a copy of the corpus skills: the safe fixes resolve
// every finding marked safe, leave no rule with more findings than before,
// and a second --fix changes nothing; the same with unsafe fixes on top.
func TestFixCorpus(t *testing.T) {
	if _, err := os.Stat(corpusSkills); err != nil {
		t.Skipf("shared corpus not found at %s", corpusSkills)
	}
	root := copyTree(t, corpusSkills)
	cfg := load(t, "")
	lintRoot := func() *lint.Report {
		rep, err := run(t, cfg, lint.Options{Paths: []string{root}})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Errors) > 0 {
			t.Fatalf("input errors: %v", rep.Errors)
		}
		return rep
	}
	before := lintRoot()
	safe, unsafe := before.FixCounts()
	if safe == 0 || unsafe == 0 {
		t.Fatalf("the corpus has %d safe and %d unsafe fixes; the test needs both", safe, unsafe)
	}
	for _, o := range []lint.FixOptions{{}, {Unsafe: true}} {
		fixed, files := fixAll(t, before, o)
		after := lintRoot()
		t.Logf("unsafe=%v: %d findings fixed in %d files", o.Unsafe, fixed, files)
		want := safe
		if o.Unsafe {
			want = unsafe
		}
		if fixed != want {
			t.Errorf("unsafe=%v: fixed %d findings, %d were marked fixable", o.Unsafe, fixed, want)
		}
		b, a := countByRule(before.Diagnostics), countByRule(after.Diagnostics)
		for id, n := range a {
			if n > b[id] {
				t.Errorf("unsafe=%v: %s went from %d to %d findings", o.Unsafe, id, b[id], n)
			}
		}
		if len(after.Diagnostics)+fixed != len(before.Diagnostics) {
			t.Errorf("unsafe=%v: %d findings before, %d fixed, %d after", o.Unsafe, len(before.Diagnostics), fixed, len(after.Diagnostics))
		}
		if s, u := after.FixCounts(); s != 0 || (o.Unsafe && u != 0) {
			t.Errorf("unsafe=%v: after --fix, %d safe and %d unsafe fixes are left", o.Unsafe, s, u)
		}
		again, err := after.Fixes(o)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != 0 {
			t.Errorf("unsafe=%v: a second --fix changes %d files, the first %s", o.Unsafe, len(again), again[0].Path)
		}
		before = after
	}
}

// nameDiags lints one skill with the given name in a folder of the same
// name and returns the findings about the name.
func nameDiags(t *testing.T, name string) []rules.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: \"" + name + "\"\ndescription: Does a thing. Use when the thing is needed.\n---\nDo the thing.\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := run(t, load(t, ""), lint.Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	var out []rules.Diagnostic
	for _, d := range rep.Diagnostics {
		if d.Rule >= "SK010" && d.Rule < "SK020" || d.Rule == "SK024" || d.Rule == "SK062" {
			out = append(out, d)
		}
	}
	return out
}

// TestNameSuggestions: every name a finding suggests ("use ...") passes
// every name rule; names that cannot be spelled validly by machine get no
// suggestion.
func TestNameSuggestions(t *testing.T) {
	cases := []struct {
		name, want string // want "": no suggestion
	}{
		{"My_Skill", "my-skill"},
		{"MySkill", "myskill"},
		{"my skill", "my-skill"},
		{"my--skill", "my-skill"},
		{"-my-skill-", "my-skill"},
		{"ce:plan", "ce-plan"},
		{"PDF.Tools", "pdf-tools"},
		{"a×b", "a-b"},
		{"ｐｄｆ", "pdf"},
		{"Claude-Helper", ""}, // reserved word: a person must choose
		{"Café", ""},          // non-ASCII letters stay a person's choice
		{"НАВЫК", ""},
		{"___", ""},
		{"Build " + strings.Repeat("x", 70), ""}, // too long either way
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var suggested []string
			for _, d := range nameDiags(t, tc.name) {
				if i := strings.Index(d.Message, `: use "`); i >= 0 {
					s := d.Message[i+len(`: use "`):]
					suggested = append(suggested, s[:strings.IndexByte(s, '"')])
				}
			}
			sort.Strings(suggested)
			if tc.want == "" {
				if len(suggested) > 0 {
					t.Fatalf("suggested %q", suggested)
				}
				return
			}
			if len(suggested) == 0 {
				t.Fatalf("no suggestion, want %q", tc.want)
			}
			for _, s := range suggested {
				if s != tc.want {
					t.Errorf("suggested %q, want %q", s, tc.want)
				}
			}
			// The suggestion itself: no finding of any name rule.
			if ds := nameDiags(t, tc.want); len(ds) > 0 {
				t.Errorf("the suggestion %q is reported: %v", tc.want, ds)
			}
		})
	}
}

// Findings that a comment silences are not fixed either; selection flags
// decide which rules fix.
func TestFixRespectsSuppression(t *testing.T) {
	root := testfs.Tree(t, `
-- a/SKILL.md --
---
name: a
description: Does a thing. Use when the thing is needed.
version: 1.0
---
Text.   
<!-- skillopt: disable-file=SK030 -->
`)
	rep, err := run(t, load(t, ""), lint.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	fixes, err := rep.Fixes(lint.FixOptions{Unsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(fixes) != 1 || fixes[0].Fixed != 1 || !strings.Contains(string(fixes[0].After), "version: 1.0\n") || strings.Contains(string(fixes[0].After), "Text.   ") {
		t.Fatalf("got %+v", fixes)
	}
}
