//go:build unix

package cardinit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestConfiguredProfile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "repo", "skillopt.toml")
	if err := os.MkdirAll(filepath.Join(dir, "repo", ".skillopt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "home"), filepath.Join(dir, "repo", "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "home", ".bashrc"), filepath.Join(dir, "repo", "rc.json")); err != nil {
		t.Fatal(err)
	}
	for p, ok := range map[string]bool{
		".skillopt/cards.json":   true,
		"new/deeper/cards.json":  true, // folders not there yet are created inside
		"cards.json":             true,
		"../cards.json":          false,
		"/etc/cards.json":        false,
		"out/cards.json":         false, // a symlinked folder leading out
		"out/new/cards.json":     false,
		"rc.json":                false, // the file itself a link out
		".skillopt/../../x.json": false,
		"a\x00b":                 false,
	} {
		got, err := ConfiguredProfile(cfg, p)
		if (err == nil) != ok {
			t.Errorf("%q: %q, %v; want ok=%v", p, got, err, ok)
		}
		if ok && got != filepath.Join(dir, "repo", filepath.FromSlash(p)) {
			t.Errorf("%q: got %q", p, got)
		}
	}
	// Built-in defaults (no configuration file) are not a file's paths.
	if got, err := ConfiguredProfile("", "/abs/cards.json"); err != nil || got != "/abs/cards.json" {
		t.Errorf("default: %q, %v", got, err)
	}
}
