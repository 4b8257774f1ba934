package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
	r.TB.Logf(format, args...)
}

func setUpdate(t *testing.T, v bool) {
	old := *update
	*update = v
	t.Cleanup(func() { *update = old })
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.txt")
	for _, tc := range []struct {
		name   string
		update bool
		file   string // "" for no file
		got    string
		errs   int
		after  string
	}{
		{"missing", false, "", "a\n", 1, ""},
		{"same", false, "a\n", "a\n", 0, "a\n"},
		{"differs", false, "a\n", "b\n", 1, "a\n"},
		{"update writes", true, "a\n", "b\n", 0, "b\n"},
		{"update creates", true, "", "c\n", 0, "c\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setUpdate(t, tc.update)
			os.RemoveAll(filepath.Dir(path))
			if tc.file != "" {
				os.MkdirAll(filepath.Dir(path), 0o755)
				os.WriteFile(path, []byte(tc.file), 0o644)
			}
			r := &recorder{TB: t}
			Check(r, path, []byte(tc.got))
			if len(r.errs) != tc.errs {
				t.Errorf("%d errors, want %d: %q", len(r.errs), tc.errs, r.errs)
			}
			data, _ := os.ReadFile(path)
			if string(data) != tc.after {
				t.Errorf("file holds %q, want %q", data, tc.after)
			}
		})
	}
}

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(dir, "stale.md"), []byte("s"), 0o644)
	files := map[string][]byte{"a.md": []byte("a"), "b.md": []byte("b")}

	setUpdate(t, false)
	r := &recorder{TB: t}
	CheckDir(r, dir, files)
	if len(r.errs) != 2 { // stale.md, and b.md missing
		t.Errorf("%d errors, want 2: %q", len(r.errs), r.errs)
	}

	setUpdate(t, true)
	r = &recorder{TB: t}
	CheckDir(r, dir, files)
	if len(r.errs) != 0 {
		t.Errorf("errors under -update: %q", r.errs)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "a.md b.md" {
		t.Errorf("after -update the folder holds %v", names)
	}
}

func TestDiffIsCut(t *testing.T) {
	var want, got strings.Builder
	for i := range 200 {
		want.WriteString("line\n")
		if i%2 == 0 {
			got.WriteString("other\n")
		} else {
			got.WriteString("line\n")
		}
	}
	d := Diff("f", []byte(want.String()), []byte(got.String()))
	if n := strings.Count(d, "\n"); n != maxDiffLines+1 || !strings.Contains(d, "more lines") {
		t.Errorf("diff of %d lines:\n%s", n, d)
	}
}
