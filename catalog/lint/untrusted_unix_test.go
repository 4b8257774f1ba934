//go:build unix

package lint_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/testfs"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// FIFOs in a cloned tree (SKILL.md, an ignore file, an agent definition)
// used to block the lint forever; they are refused unopened.
func TestFIFOsDoNotBlock(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "ok", "SKILL.md"), okSkill)
	testfs.Mkfifo(t, filepath.Join(root, "f", "SKILL.md"))
	testfs.Mkfifo(t, filepath.Join(root, ".gitignore"))
	testfs.Mkfifo(t, filepath.Join(root, "ok", ".ignore"))
	testfs.Mkfifo(t, filepath.Join(root, ".pi", "agents", "a.md"))
	rep, err := run(t, load(t, ""), lint.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Skills != 1 || len(rep.Errors) != 1 || !errors.Is(rep.Errors[0], untrusted.ErrNotRegular) {
		t.Fatalf("lint: %d skills, errors %v", rep.Skills, rep.Errors)
	}
}
