package skillsource

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog"
)

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBuildFromRoots(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "pdf", "SKILL.md"), "---\nname: pdf\ndescription: Fills PDF forms.\n---\nFill.\n")
	write(t, filepath.Join(root, "bare", "SKILL.md"), "no frontmatter\n")
	snap, source, problems, err := Build(Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	if source != root || snap.Len() != 1 {
		t.Errorf("source %q, %d skills; want %q and 1", source, snap.Len(), root)
	}
	if len(problems) != 1 || IsInputError(problems[0]) || catalog.IsWarning(problems[0]) {
		t.Errorf("problems %v, want one skill that is not loadable", problems)
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	body := filepath.Join(dir, "body.json")
	write(t, body, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"no roots", Options{}, "no skill folder given"},
		{"no catalog", Options{From: body}, body + ": no native skill catalog in the capture"},
		{"no capture", Options{From: filepath.Join(dir, "missing.json")}, "missing.json"},
		{"no profile", Options{Roots: []string{dir}, Profile: filepath.Join(dir, "cards.toml")}, "cards.toml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := Build(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestIsInputError(t *testing.T) {
	_, problems := catalog.FromDisk([]string{filepath.Join(t.TempDir(), "missing")})
	if len(problems) == 0 || !IsInputError(problems[0]) {
		t.Errorf("a missing root: %v, want an input error", problems)
	}
	if IsInputError(errors.New("no description")) {
		t.Error("a plain error is an input error")
	}
}
