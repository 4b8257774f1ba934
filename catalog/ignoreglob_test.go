package catalog

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// gitVerdict is the gitignore parser skillopt used to depend on, as the
// reference for ignoreGlob.
func gitVerdict(pattern string, domain, path []string, isDir bool) ignoreVerdict {
	switch gitignore.ParsePattern(pattern, domain).Match(path, isDir) {
	case gitignore.Exclude:
		return ignoreExclude
	case gitignore.Include:
		return ignoreInclude
	}
	return ignoreNoMatch
}

// TestIgnoreGlobMatchesGit: ignoreGlob decides as the reference parser on
// hand-picked and generated patterns and paths.
func TestIgnoreGlobMatchesGit(t *testing.T) {
	patterns := []string{"build/", "!build/keep", "*.md", "/top", "**/deep/**", "a/**/b", "a/**", "**", "**/x", "x/**/", "a/b/c",
		"[", "a/[/b", "**/[", "*.go ", `name\ `, "!", "/", "//", "a//b", "a/***/b", "?x", "[a-c]*", "dir/*/file", "a/\\*", ""}
	paths := [][]string{{"build"}, {"build", "keep"}, {"a", "deep", "b"}, {"top"}, {"x", "top"}, {"a", "b"}, {"a", "x", "y", "b"},
		{"a"}, {"readme.md"}, {"src", "notes.md"}, {"a", "b", "c"}, {"dir", "sub", "file"}, {"name "}, {"*"}, {"a", "*"}, {"["}}
	domains := [][]string{nil, {"a"}, {"src", "lib"}}
	check := func(p string, domain, path []string, isDir bool) {
		t.Helper()
		if got, want := parseIgnoreGlob(p, domain).Match(path, isDir), gitVerdict(p, domain, path, isDir); got != want {
			t.Fatalf("pattern %q in %q, path %q (dir %v): %v, reference %v", p, domain, path, isDir, got, want)
		}
	}
	for _, p := range patterns {
		for _, d := range domains {
			for _, path := range paths {
				for _, isDir := range []bool{false, true} {
					check(p, d, append(append([]string(nil), d...), path...), isDir)
					check(p, d, path, isDir)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(4, 2))
	elems := []string{"a", "b", "x", "*", "**", "?", "[ab]", "[", "*.md", "", "deep", "a*b"}
	names := []string{"a", "b", "x", "ab", "deep", "n.md", "[", "*"}
	for k := 0; k < 20000; k++ {
		var p []string
		for n := 1 + r.IntN(4); n > 0; n-- {
			p = append(p, elems[r.IntN(len(elems))])
		}
		pat := strings.Join(p, "/")
		if r.IntN(4) == 0 {
			pat = "!" + pat
		}
		if r.IntN(4) == 0 {
			pat += "/"
		}
		var path []string
		for n := 1 + r.IntN(5); n > 0; n-- {
			path = append(path, names[r.IntN(len(names))])
		}
		check(pat, domains[r.IntN(len(domains))], path, r.IntN(2) == 0)
	}
}

// FuzzIgnoreGlob: any pattern, folder and path get the reference's verdict.
func FuzzIgnoreGlob(f *testing.F) {
	f.Add("**/deep/**", "", "a/deep/b", false)
	f.Add("!build/", "src", "src/build", true)
	f.Add("a/[/b", "", "a/[/b", false)
	f.Fuzz(func(t *testing.T, pattern, domain, path string, isDir bool) {
		if len(pattern) > 256 || len(path) > 256 || len(domain) > 64 {
			return
		}
		var d []string
		if domain != "" {
			d = strings.Split(domain, "/")
		}
		parts := strings.Split(path, "/")
		if got, want := parseIgnoreGlob(pattern, d).Match(parts, isDir), gitVerdict(pattern, d, parts, isDir); got != want {
			t.Fatalf("pattern %q in %q, path %q (dir %v): %v, reference %v", pattern, domain, path, isDir, got, want)
		}
	})
}
