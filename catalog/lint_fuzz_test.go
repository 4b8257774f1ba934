package catalog

import (
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
			seen[s.Value] = true
		}
	})
}

// FuzzScanLinks: the markdown link scanner never panics and every link
// destination it returns is the text at its offset.
func FuzzScanLinks(f *testing.F) {
	f.Add([]byte("See [a](b.md) and ![c](d%20e.png#x).\n\n```\n[no](x)\n```\n[ref]: r.md\n"))
	f.Add([]byte("`[code](x)` [a](<b c.md>) [d](e(f).md) \\[g](h)\n[^1]: foot\n"))
	f.Add([]byte("~~~~\n[a](b)\n~~~\n[c](d)\n~~~~\n[e](f)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		for _, l := range scanLinks(data, 0) {
			if l.off < 0 || l.off+len(l.target) > len(data) || string(data[l.off:l.off+len(l.target)]) != l.target {
				t.Fatalf("link %q at %d does not match the input", l.target, l.off)
			}
			if t2, ok := localTarget(l.target); ok && t2 == "" {
				t.Fatalf("empty local target from %q", l.target)
			}
		}
	})
}

// FuzzTokenCache: any cache file opens without panicking; a saved cache
// reads back the same counts.
func FuzzTokenCache(f *testing.F) {
	f.Add([]byte(tokenCacheVersion + " o200k_base\n00112233445566778899aabbccddeeff 12\n"))
	f.Add([]byte(tokenCacheVersion + " o200k_base\nzz 1\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "lint-tokens-o200k_base"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := openTokenCache(dir, "o200k_base")
		k := bodyKey(data)
		c.put(k, len(data))
		if err := c.save(); err != nil {
			t.Fatal(err)
		}
		again := openTokenCache(dir, "o200k_base")
		if n, ok := again.get(k); !ok || n != len(data) {
			t.Fatalf("saved count not read back: %d %v", n, ok)
		}
		for key, n := range c.old {
			if m, ok := again.get(key); !ok || m != n {
				t.Fatalf("old entry lost")
			}
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
