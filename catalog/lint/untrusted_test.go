package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
)

const okSkill = "---\nname: ok\ndescription: A fine skill.\n---\nBody.\n"

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
}

// A reference file linked from SKILL.md that is a symlink out of the skill
// folder is not read: the lint reports nothing found inside it.
func TestLintDoesNotFollowReferencesOut(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "skills")
	writeFile(t, filepath.Join(root, "ok", "SKILL.md"), okSkill+"See [notes](notes.md).\n")
	writeFile(t, filepath.Join(dir, "private", "notes.md"), "[gone](missing-file.md)\n")
	symlink(t, filepath.Join("..", "..", "private", "notes.md"), filepath.Join(root, "ok", "notes.md"))
	rep, err := run(t, load(t, ""), lint.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Diagnostics {
		if strings.Contains(d.Message, "missing-file.md") {
			t.Errorf("read a reference outside the skill: %s %s", d.Rule, d.Message)
		}
	}
}

// Configured skill and agent folders that climb out of the linted folder
// (which the configuration check lets through when ".." is not leading)
// are not walked.
func TestLintConfiguredFoldersStayBelow(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	writeFile(t, filepath.Join(repo, "ok", "SKILL.md"), okSkill)
	writeFile(t, filepath.Join(dir, "home", "skills", "private", "SKILL.md"), "---\nname: private\ndescription: Not in the repo.\n---\nBody.\n")
	writeFile(t, filepath.Join(dir, "home", "agents", "a.md"), "---\nskills: [x]\n---\n")
	cfg := load(t, "")
	s := lint.FromSet(cfg.Options)
	s.SkillFolders = []string{"ok/../../home/skills"}
	s.AgentFolders = []string{"ok/../../home/agents"}
	rep, err := run(t, cfg, lint.Options{Paths: []string{repo}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Skills != 1 || rep.Agents != 0 {
		t.Fatalf("linted %d skills and %d agents, want only the repository's skill", rep.Skills, rep.Agents)
	}
}
