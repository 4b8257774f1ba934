package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The pre-commit snippets of the README, docs/lint.md and the hook file
// name one release tag: pre-commit warns on a branch (rev: main), and
// readers copy whichever snippet they find first.
func TestPreCommitRev(t *testing.T) {
	rev := regexp.MustCompile(`(?m)^#?\s*rev:\s*(\S+)`)
	tag := regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)
	want := ""
	for _, f := range []string{"README.md", "docs/lint.md", ".pre-commit-hooks.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		ms := rev.FindAllSubmatch(data, -1)
		if len(ms) == 0 {
			t.Errorf("%s: no pre-commit rev", f)
		}
		for _, m := range ms {
			got := string(m[1])
			if !tag.MatchString(got) {
				t.Errorf("%s: rev %s is not a release tag", f, got)
			}
			if want == "" {
				want = got
			} else if got != want {
				t.Errorf("%s: rev %s, elsewhere %s", f, got, want)
			}
		}
	}
}
