package archive

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveTemps: the files are removed, one already gone is skipped
// without an error, and one that cannot be removed is an error that does
// not stop the others.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A non-empty directory cannot be removed with os.Remove.
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(filepath.Join(full, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	removed, errs := RemoveTemps([]TempFile{{Path: a}, {Path: filepath.Join(dir, "gone")}, {Path: full}, {Path: b}})
	if len(removed) != 2 || removed[0].Path != a || removed[1].Path != b {
		t.Errorf("removed %+v, want a and b", removed)
	}
	if len(errs) != 1 {
		t.Errorf("errors %v, want one for the directory", errs)
	}
	for _, p := range []string{a, b} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s still there", p)
		}
	}
}
