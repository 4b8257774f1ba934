package untrusted

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	for _, ok := range []string{"g0001", "g0001ab", "state.json", "..x", "a b", "ünï"} {
		if err := Name(ok); err != nil {
			t.Errorf("Name(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "../../../victim", "a/b", `a\b`, "/etc", `C:x`, "c:", "a\x00b", "a\nb", "\x7f", strings.Repeat("x", 256)} {
		if err := Name(bad); err == nil {
			t.Errorf("Name(%q) accepted", bad)
		}
	}
}

func TestJoin(t *testing.T) {
	got, err := Join("work/responses", "g0001.json")
	if err != nil || got != filepath.Join("work", "responses", "g0001.json") {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := Join("work/responses", "../../../victim.json"); err == nil {
		t.Fatal("traversal joined")
	}
}

func TestRel(t *testing.T) {
	for in, want := range map[string]string{
		"notes/rerun.md":  filepath.Join("notes", "rerun.md"),
		"./scripts/a.py":  filepath.Join("scripts", "a.py"),
		"a//b/./c":        filepath.Join("a", "b", "c"),
		"..hidden":        "..hidden",
		"dir/":            "dir",
		"with space.txt":  "with space.txt",
		"a/b/c/d/e/f.txt": filepath.Join("a", "b", "c", "d", "e", "f.txt"),
	} {
		got, err := Rel(in)
		if err != nil || got != want {
			t.Errorf("Rel(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", ".", "./", "..", "../x", "a/../../x", "a/..", "/etc/passwd", `a\b`, `C:\x`, "a\x00b", "a\rb"} {
		if got, err := Rel(bad); err == nil {
			t.Errorf("Rel(%q) = %q, want an error", bad, got)
		}
	}
	// Climbing out is told apart from other refusals.
	for _, out := range []string{"../x", "a/../../x", "a/.."} {
		if _, err := Rel(out); !errors.Is(err, ErrOutside) {
			t.Errorf("Rel(%q): %v, want ErrOutside", out, err)
		}
	}
}

func TestWithin(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "skills")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "a", "notes"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, "a", "SKILL.md"), []byte("x"))
	write(t, filepath.Join(outside, "secret.txt"), []byte("s"))
	// skills/x -> ../outside, skills/a/leak -> ../../outside/secret.txt,
	// skills/a/self -> . (inside).
	for link, target := range map[string]string{
		filepath.Join(root, "x"):         filepath.Join("..", "outside"),
		filepath.Join(root, "a", "leak"): filepath.Join("..", "..", "outside", "secret.txt"),
		filepath.Join(root, "a", "self"): ".",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		base, target string
		err          error
	}{
		{root, filepath.Join(root, "a", "SKILL.md"), nil},
		{root, root, nil},
		{filepath.Join(root, "a"), filepath.Join(root, "a", "self", "SKILL.md"), nil},
		{root, filepath.Join(root, "x", "secret.txt"), ErrOutside},
		{filepath.Join(root, "x"), filepath.Join(root, "x", "secret.txt"), nil}, // the base itself resolves outside; callers check it against its root
		{filepath.Join(root, "a"), filepath.Join(root, "a", "leak"), ErrOutside},
		{filepath.Join(root, "a"), filepath.Join(root, "a", "..", "x"), ErrOutside},
		{filepath.Join(root, "a"), filepath.Join(root, "a", "missing"), os.ErrNotExist},
	} {
		_, err := Within(tc.base, tc.target)
		if (tc.err == nil) != (err == nil) || (tc.err != nil && !errors.Is(err, tc.err)) {
			t.Errorf("Within(%s, %s) = %v, want %v", tc.base, tc.target, err, tc.err)
		}
	}
}

// FuzzName: a name Name accepts, joined to a folder, is directly inside it.
func FuzzName(f *testing.F) {
	for _, s := range []string{"g0001", "../x", "a/b", `a\b`, "..", ".", "", "c:", "a\x00"} {
		f.Add(s)
	}
	dir := filepath.Join("work", "responses")
	f.Fuzz(func(t *testing.T, name string) {
		p, err := Join(dir, name)
		if err != nil {
			return
		}
		if filepath.Dir(p) != dir || filepath.Base(p) != name {
			t.Fatalf("Join(%q, %q) = %q: not directly inside", dir, name, p)
		}
		if rel, err := filepath.Rel(dir, p); err != nil || !filepath.IsLocal(rel) {
			t.Fatalf("Join(%q, %q) = %q escapes (%q)", dir, name, p, rel)
		}
	})
}

// FuzzRel: a path Rel accepts, joined to a folder, stays below it.
func FuzzRel(f *testing.F) {
	for _, s := range []string{"notes/a.md", "a/../b", "../x", "/abs", `C:\x`, "a//b/", "./.", "..x/y"} {
		f.Add(s)
	}
	dir := filepath.Join("skills", "x")
	f.Fuzz(func(t *testing.T, rel string) {
		local, err := Rel(rel)
		if err != nil {
			return
		}
		p := filepath.Join(dir, local)
		r, err := filepath.Rel(dir, p)
		if err != nil || r == "." || !filepath.IsLocal(r) || !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			t.Fatalf("Rel(%q) = %q joins to %q, outside %q", rel, local, p, dir)
		}
	})
}
