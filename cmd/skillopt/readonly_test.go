package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
)

// TestReadOnlyCommands runs every command that only shows or verifies on
// captures whose tool results get reduced, in a working directory with a
// configuration, skills and an archive written by an earlier transform,
// with HOME, XDG_CACHE_HOME and TMPDIR pointed at directories of their
// own, and checks that not one byte, mode, time or name changed in any of
// them: no archive objects, no directories, no caches, no temporary files.
// A transform refused for its arguments writes nothing either.
func TestReadOnlyCommands(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	work := filepath.Join(root, "work")
	home := filepath.Join(root, "home")
	cache := filepath.Join(root, "cache")
	tmp := filepath.Join(root, "tmp")
	for _, d := range []string{work, home, cache, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("TMPDIR", tmp)
	t.Setenv("SKILLOPT_CONFIG", "")
	t.Chdir(work)

	copyFile := func(from, to string) {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(to), 0o755)
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rulesDir := filepath.Join(repo, "testdata", "rules")
	// Large tool results: a go test log (SO301), a JSON array (SO302), a
	// result repeated in the history (SO303).
	copyFile(filepath.Join(rulesDir, "SO301", "anthropic-go-test-error", "input.json"), "gotest.json")
	copyFile(filepath.Join(rulesDir, "SO302", "pretty-array", "input.json"), "columnar.json")
	copyFile(filepath.Join(rulesDir, "SO201", "anthropic-pull-request", "input.json"), "tools.json")
	copyFile(filepath.Join(repo, "testdata", "examples", "anthropic-catalog.json"), "catalog.json")
	files := map[string]string{
		"skillopt.toml": "[catalog]\nskills = [\"skills\"]\n",
		"skills/flaky-tests/SKILL.md": "---\nname: flaky-tests\ndescription: Track down tests that pass and fail at random.\n---\n" +
			"Run the suite many times with a shuffled order and compare.\n",
		"skills/release-notes/SKILL.md": "---\nname: release-notes\ndescription: Write release notes from merged changes.\n---\n" +
			"Group the changes by area; lead with what users notice.\n",
	}
	for name, text := range files {
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An earlier transform wrote the archive and a capture that names it.
	mustRun(t, 0, "transform", "--rules", "SO3", "-q", "gotest.json", "-o", "reduced.json")
	if _, err := os.Stat(filepath.Join(".skillopt", "archive")); err != nil {
		t.Fatalf("the transform archived nothing: %v", err)
	}
	// Make sure there is something to compute: the default pipeline reduces
	// the capture.
	if out := mustRun(t, 0, "diff", "gotest.json"); !strings.Contains(out, "sko:") {
		t.Fatalf("nothing reduced, the test would prove nothing:\n%s", out)
	}

	handle := archive.FindHandles(mustRun(t, 0, "transform", "--rules", "SO3", "-q", "reduced.json"))[0]

	cmds := []struct {
		code int
		args []string
	}{
		{0, []string{"measure", "gotest.json", "columnar.json"}},
		{0, []string{"measure", "--format", "json", "--encoding", "o200k_base", "gotest.json"}},
		{0, []string{"measure", "--rules", "SO3", "--archive", "elsewhere", "gotest.json"}},
		{0, []string{"diff", "gotest.json"}},
		{0, []string{"diff", "--rules", "SO3", "--archive", "elsewhere", "columnar.json"}},
		{0, []string{"diff", "--format", "json", "gotest.json", "reduced.json"}},
		{0, []string{"check", "gotest.json", "columnar.json"}},
		{0, []string{"check", "--rules", "SO3", "reduced.json"}},
		{0, []string{"check", "--archive", "elsewhere", "--format", "json", "gotest.json"}},
		{0, []string{"validate", "gotest.json", "reduced.json", "tools.json"}},
		{0, []string{"tools", "search", "pull request", "tools.json"}},
		{0, []string{"tools", "search", "--format", "json", "kubernetes logs", "tools.json"}},
		{0, []string{"catalog", "search", "flaky tests"}},
		{0, []string{"catalog", "search", "--from", "catalog.json", "pdf"}},
		{0, []string{"catalog", "browse", "--tags", "unclassified"}},
		{0, []string{"catalog", "load", "release-notes"}},
		{0, []string{"catalog", "build"}},
		{0, []string{"catalog", "resource", "flaky-tests", "SKILL.md"}},
		{0, []string{"archive", "ls"}},
		{0, []string{"archive", "verify"}},
		{0, []string{"archive", "get", "--lines", "1:3", handle}},
		{0, []string{"rules"}},
		{0, []string{"rules", "SO301"}},
		{0, []string{"sanitize", "skills/flaky-tests/SKILL.md"}},
		{0, []string{"init", "-o", "-"}},
		{2, []string{"transform", "--rules", "SO3", "gotest.json", "-o", "gotest.json"}},
		{2, []string{"transform", "--rules", "SO3", "gotest.json", "-o", "no/such/dir/out.json"}},
		{2, []string{"transform", "--rules", "SO3", "--archive", "elsewhere", "gotest.json", "missing.json"}},
	}
	dirs := []string{work, home, cache, tmp}
	for _, tc := range cmds {
		before := snapshotTrees(t, dirs)
		mustRun(t, tc.code, tc.args...)
		after := snapshotTrees(t, dirs)
		if d := treeDiff(before, after); d != "" {
			t.Errorf("skillopt %s changed the file system:\n%s", strings.Join(tc.args, " "), d)
		}
	}
}

func mustRun(t *testing.T, code int, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	got := run(append([]string{"skillopt"}, args...), strings.NewReader(""), &stdout, &stderr)
	if got != code {
		t.Fatalf("skillopt %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, code, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// snapshotTrees records every entry below dirs: type, mode, time, size
// and content (or link target).
func snapshotTrees(t *testing.T, dirs []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := os.Lstat(p)
			if err != nil {
				return err
			}
			desc := fmt.Sprintf("%v %d %d", info.Mode(), info.ModTime().UnixNano(), info.Size())
			switch {
			case info.Mode()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				desc += " -> " + target
			case info.Mode().IsRegular():
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				desc += fmt.Sprintf(" %x", sha256.Sum256(data))
			}
			out[p] = desc
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func treeDiff(a, b map[string]string) string {
	var lines []string
	for p, da := range a {
		if db, ok := b[p]; !ok {
			lines = append(lines, "removed "+p)
		} else if da != db {
			lines = append(lines, "changed "+p+": "+da+" → "+db)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			lines = append(lines, "created "+p)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
