package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The pre-commit snippets of the README and docs/lint.md must work as
// written. No release is tagged, so they use a local hook that pre-commit
// builds with go install: the package path must be this module's command,
// and id, entry and language must agree with the hook file this repository
// ships. A snippet that names a concrete tag (rev: v1.2.3) fails: that tag
// does not exist.
func TestPreCommitSnippets(t *testing.T) {
	read := func(f string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	mod := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindStringSubmatch(read("go.mod"))
	if mod == nil {
		t.Fatal("go.mod: no module line")
	}
	pkg := mod[1] + "/cmd/skillopt"
	field := func(text, name string) string {
		m := regexp.MustCompile(`(?m)^[\s-]*` + name + `:\s*(.+?)\s*$`).FindStringSubmatch(text)
		if m == nil {
			return ""
		}
		return m[1]
	}
	hooks := read(".pre-commit-hooks.yaml")
	tag := regexp.MustCompile(`(?m)^#?\s*rev:\s*v[0-9]+\.[0-9]+\.[0-9]+\b`)
	if tag.MatchString(hooks) {
		t.Errorf(".pre-commit-hooks.yaml: names a release tag, but none exists")
	}
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	for _, f := range []string{"README.md", "docs/lint.md"} {
		var snippet string
		for _, m := range block.FindAllStringSubmatch(read(f), -1) {
			if strings.Contains(m[1], "skillopt-lint") {
				snippet = m[1]
				break
			}
		}
		if snippet == "" {
			t.Errorf("%s: no pre-commit snippet", f)
			continue
		}
		if tag.MatchString(snippet) {
			t.Errorf("%s: snippet names a release tag, but none exists", f)
		}
		if got := field(snippet, "repo"); got != "local" {
			t.Errorf("%s: repo %q, want local", f, got)
		}
		for _, name := range []string{"id", "entry", "language", "pass_filenames"} {
			if got, want := field(snippet, name), field(hooks, name); got != want {
				t.Errorf("%s: %s %q, hook file %q", f, name, got, want)
			}
		}
		deps := field(snippet, "additional_dependencies")
		if !strings.Contains(deps, "["+pkg+"@") {
			t.Errorf("%s: additional_dependencies %s, want [%s@…]", f, deps, pkg)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "cmd", "skillopt", "main.go")); err != nil {
		t.Errorf("the command package the snippets install: %v", err)
	}
}
