package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	if err := WriteFile(p, []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Fatalf("new file mode %v", st.Mode())
	}
	got, _ := os.ReadFile(p)
	if string(got) != "new" {
		t.Fatalf("got %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil, 0o600); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
	if _, err := Check(filepath.Join(dir, "missing", "x"), false); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("check of a path in a missing folder: %v", err)
	}
	if _, err := Check(filepath.Join(p, "x"), false); err == nil {
		t.Fatal("check of a path below a file passed")
	}
	if !SameFile(p, filepath.Join(dir, ".", "out.json")) || SameFile(p, filepath.Join(dir, "nope")) {
		t.Fatal("SameFile wrong")
	}
}

// TestTargets: what is at the target decides whether it may be replaced
// and with which mode.
func TestTargets(t *testing.T) {
	cases := []struct {
		name  string
		make  func(t *testing.T, p string)
		force bool
		err   error  // wanted error, nil for success
		mode  uint32 // wanted mode after a successful write
		keep  string // a file that must be unchanged afterwards ("" none)
	}{
		{name: "new", make: func(*testing.T, string) {}, mode: 0o644},
		{name: "mode 0600 kept", make: func(t *testing.T, p string) { write(t, p, 0o600) }, mode: 0o600},
		{name: "mode 0755 kept", make: func(t *testing.T, p string) { write(t, p, 0o755) }, mode: 0o755},
		{name: "read-only refused", make: func(t *testing.T, p string) { write(t, p, 0o444) }, err: ErrReadOnly},
		{name: "read-only forced", make: func(t *testing.T, p string) { write(t, p, 0o444) }, force: true, mode: 0o444},
		{name: "symlink refused", make: func(t *testing.T, p string) {
			write(t, p+".target", 0o644)
			if err := os.Symlink(filepath.Base(p)+".target", p); err != nil {
				t.Fatal(err)
			}
		}, err: ErrNotRegular, keep: ".target"},
		{name: "dangling symlink refused", make: func(t *testing.T, p string) {
			if err := os.Symlink("nowhere", p); err != nil {
				t.Fatal(err)
			}
		}, err: ErrNotRegular},
		{name: "symlink refused even forced", make: func(t *testing.T, p string) {
			write(t, p+".target", 0o644)
			os.Symlink(filepath.Base(p)+".target", p)
		}, force: true, err: ErrNotRegular, keep: ".target"},
		{name: "fifo refused", make: func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}, err: ErrNotRegular},
		{name: "directory refused", make: func(t *testing.T, p string) { os.Mkdir(p, 0o755) }, err: ErrNotRegular},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "out.json")
			tc.make(t, p)
			before, _ := os.Lstat(p)
			err := Write(p, []byte("output"), Options{Perm: 0o644, Force: tc.force})
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				after, _ := os.Lstat(p)
				if before != nil && (after == nil || after.Mode() != before.Mode() || !os.SameFile(before, after)) {
					t.Fatal("a refused target was changed")
				}
				if tc.keep != "" {
					if b, _ := os.ReadFile(p + tc.keep); string(b) != "old" {
						t.Fatalf("link target changed: %q", b)
					}
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				st, _ := os.Lstat(p)
				if !st.Mode().IsRegular() || uint32(st.Mode().Perm()) != tc.mode {
					t.Fatalf("mode %v, want %04o", st.Mode(), tc.mode)
				}
				if b, _ := os.ReadFile(p); string(b) != "output" {
					t.Fatalf("content %q", b)
				}
			}
			entries, _ := os.ReadDir(dir)
			for _, en := range entries {
				if IsTemp(en.Name()) {
					t.Errorf("temporary file left: %s", en.Name())
				}
			}
		})
	}
}

func write(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func TestFindStale(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * StaleAfter)
	f, err := CreateTemp(dir, "out.json")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !IsTemp(filepath.Base(f.Name())) || filepath.Dir(f.Name()) != dir {
		t.Fatalf("temporary name %s", f.Name())
	}
	os.Chtimes(f.Name(), old, old)
	fresh, _ := CreateTemp(dir, "other")
	fresh.Close()
	os.WriteFile(filepath.Join(dir, "out.json"), nil, 0o644)
	os.Chtimes(filepath.Join(dir, "out.json"), old, old)
	os.Mkdir(filepath.Join(dir, TempPrefix+"dir"), 0o755)
	got, err := FindStale(dir, time.Now().Add(-StaleAfter))
	if err != nil || len(got) != 1 || got[0].Path != f.Name() {
		t.Fatalf("FindStale = %v %v", got, err)
	}
	if got, err := FindStale(filepath.Join(dir, "missing"), time.Now()); err != nil || got != nil {
		t.Fatalf("missing dir: %v %v", got, err)
	}
}

// FuzzCreateTemp: any base name gives a temporary file directly in the
// directory, recognised by IsTemp.
func FuzzCreateTemp(f *testing.F) {
	f.Add("out.json")
	f.Add("")
	f.Add("a*b")
	f.Add(".hidden")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, base string) {
		if strings.ContainsAny(base, "/\\\x00") || len(base) > 200 {
			return
		}
		tmp, err := CreateTemp(dir, base)
		if err != nil {
			t.Fatal(err)
		}
		tmp.Close()
		defer os.Remove(tmp.Name())
		if filepath.Dir(tmp.Name()) != dir || !IsTemp(filepath.Base(tmp.Name())) {
			t.Fatalf("temporary file %s", tmp.Name())
		}
		if IsTemp(base) != strings.HasPrefix(base, TempPrefix) && len(base) > len(TempPrefix) {
			t.Fatalf("IsTemp(%q) wrong", base)
		}
	})
}

func TestTempOf(t *testing.T) {
	for name, want := range map[string]string{
		".skillopt-tmp-SKILL.md.123":        "SKILL.md",
		".skillopt-tmp-skill.md.4294967295": "skill.md",
		".skillopt-tmp-a.b.c.7":             "a.b.c",
		".skillopt-tmp-SKILL.md.":           "",
		".skillopt-tmp-SKILL.md.12a":        "",
		".skillopt-tmp-.1":                  "",
		".skillopt-tmp-SKILL.md":            "",
		"skillopt-tmp-SKILL.md.1":           "",
		"SKILL.md.123":                      "",
	} {
		got, ok := TempOf(name)
		if got != want || ok != (want != "") {
			t.Errorf("TempOf(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	// What CreateTemp makes is recognised.
	dir := t.TempDir()
	f, err := CreateTemp(dir, "SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if base, ok := TempOf(filepath.Base(f.Name())); !ok || base != "SKILL.md" {
		t.Fatalf("%s: %q %v", f.Name(), base, ok)
	}
}

func TestRemoveTemp(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, ".skillopt-tmp-SKILL.md.42")
	os.WriteFile(tmp, []byte("partial"), 0o600)
	other := filepath.Join(dir, "SKILL.md")
	os.WriteFile(other, []byte("x"), 0o644)
	link := filepath.Join(dir, ".skillopt-tmp-SKILL.md.43")
	os.Symlink(other, link)
	if err := RemoveTemp(other); err == nil {
		t.Error("removed a file that is not a temporary file")
	}
	if err := RemoveTemp(link); err == nil {
		t.Error("removed a symbolic link")
	}
	if err := RemoveTemp(tmp); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{other, link} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := os.Lstat(tmp); err == nil {
		t.Error("temporary file left")
	}
}
