package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseAgent: any agent definition parses without panicking; problems
// carry positions inside the file, and selected names are trimmed,
// non-empty and distinct.
func FuzzParseAgent(f *testing.F) {
	f.Add([]byte("---\ninheritSkills: false\nskills: a, b\nskillPath: [x, y]\n---\nbody\n"))
	f.Add([]byte("---\nskills: a,,b\ninheritSkills: \"true\"\n---\n"))
	f.Add([]byte("---\nskills:\n  - a\n  -\n  - 3\nskills: c\n---\n"))
	f.Add([]byte("---\nskillPath: {a: 1}\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		a := ParseAgent("a.md", data)
		lines := a.Doc.Lines()
		for _, p := range a.Problems {
			if p.Line < 1 || p.Col < 1 || p.Line > lines+1 || p.Message == "" {
				t.Fatalf("problem %+v outside the file (%d lines)", p, lines)
			}
		}
		seen := map[string]bool{}
		for _, s := range a.Skills {
			if s.Value == "" || strings.TrimSpace(s.Value) != s.Value || seen[s.Value] {
				t.Fatalf("selected name %q", s.Value)
			}
			if s.Line < 1 || s.Col < 1 || s.Line > lines+1 {
				t.Fatalf("selected name %q at %d:%d outside the file", s.Value, s.Line, s.Col)
			}
			seen[s.Value] = true
		}
	})
}

// FuzzIgnore: any ignore file and path match without panicking, and a
// negated last pattern re-includes what it names.
func FuzzIgnore(f *testing.F) {
	f.Add("build/\n!build/keep\n*.md\n\\#x\n", "build/keep", true)
	f.Add("/top\n**/deep/**\n", "a/deep/b", false)
	f.Fuzz(func(t *testing.T, patterns, path string, isDir bool) {
		if len(patterns) > 4096 || len(path) > 512 {
			return
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(patterns), 0o644); err != nil {
			t.Fatal(err)
		}
		des, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		set := (*ignoreSet)(nil).load(dir, "", des)
		if path == "" {
			return
		}
		_ = set.match(path, isDir)
	})
}

// FuzzParseProviderError: any answer is read without panicking, and an
// answer that carries cards is never taken for an error.
func FuzzParseProviderError(f *testing.F) {
	for _, tc := range providerErrors {
		f.Add([]byte(tc.body))
	}
	f.Add([]byte(`{"cards":[],"error":{"type":"rate_limit_error"}}`))
	f.Add([]byte(`{"error":{"code":1e400}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, ok := ParseProviderError(data)
		if ok && e == nil {
			t.Fatal("ok without an error")
		}
		if ok {
			_ = e.Error()
		}
		if ok && strings.Contains(string(data), `"cards"`) && strings.HasPrefix(strings.TrimSpace(string(data)), "{") {
			var probe map[string]any
			if json.Unmarshal(data, &probe) == nil {
				if _, has := probe["cards"]; has {
					t.Fatalf("an answer with cards read as a provider error: %s", data)
				}
			}
		}
	})
}
