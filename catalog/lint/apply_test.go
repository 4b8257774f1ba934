package lint_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
)

// fixableTree is a skill with a safe fix (SK030, an unknown field) and a
// temporary file left beside it (SK065).
func fixableTree(t *testing.T) (root, skill, temp string) {
	t.Helper()
	root = t.TempDir()
	dir := filepath.Join(root, "pdf")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill = filepath.Join(dir, "SKILL.md")
	temp = filepath.Join(dir, ".skillopt-tmp-SKILL.md.42")
	src := "---\nname: pdf\ndescription: Fills PDF forms. Use when a PDF form must be filled.\nversion: 1\n---\nFill the form.\n"
	if err := os.WriteFile(skill, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(temp, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, skill, temp
}

func TestDiffWritesNothing(t *testing.T) {
	root, skill, temp := fixableTree(t)
	rep, err := run(t, load(t, ""), lint.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(skill)
	var out bytes.Buffer
	s, err := rep.Diff(&out, lint.FixOptions{}, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	if s.Fixed != 2 || s.Files != 2 || len(s.Removals) != 1 || s.Removals[0] != temp {
		t.Errorf("summary %+v, want 2 findings in 2 files, removing %s", s, temp)
	}
	if d := out.String(); !strings.HasPrefix(d, "--- "+skill) || !strings.Contains(d, "-version: 1\n") {
		t.Errorf("diff:\n%s", d)
	}
	after, _ := os.ReadFile(skill)
	if !bytes.Equal(before, after) {
		t.Error("Diff rewrote the skill")
	}
	if _, err := os.Stat(temp); err != nil {
		t.Errorf("Diff removed the temporary file: %v", err)
	}
}

func TestApplyFixesAndRemoves(t *testing.T) {
	root, skill, temp := fixableTree(t)
	rep, err := run(t, load(t, ""), lint.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	var removed []string
	a := rep.Apply(lint.FixOptions{}, func(err error) { t.Error(err) }, func(p string) { removed = append(removed, p) })
	if a.Fixed != 2 || !a.Changed {
		t.Errorf("applied %+v, want 2 fixed and a change", a)
	}
	if len(removed) != 1 || removed[0] != temp {
		t.Errorf("removed %v, want %s", removed, temp)
	}
	if _, err := os.Stat(temp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary file is still there: %v", err)
	}
	if data, _ := os.ReadFile(skill); bytes.Contains(data, []byte("\nversion: 1\n")) {
		t.Errorf("SK030 not fixed:\n%s", data)
	}
	again, err := run(t, load(t, ""), lint.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	if a := again.Apply(lint.FixOptions{}, func(err error) { t.Error(err) }, func(string) { t.Error("removed again") }); a.Fixed != 0 || a.Changed {
		t.Errorf("a second run applied %+v", a)
	}
}
