package archive

import (
	"fmt"
	"time"

	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/internal/atomicfile"
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

// TestStaleWith: the archive's stale files come first, then each folder's
// in order; a missing folder has none.
func TestStaleWith(t *testing.T) {
	s := Open(t.TempDir())
	old := time.Now().Add(-2 * atomicfile.StaleAfter)
	mk := func(dir string) string {
		p := filepath.Join(dir, atomicfile.TempPrefix+"x.1")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
		return p
	}
	own := mk(s.Dir())
	a, b := t.TempDir(), t.TempDir()
	pa, pb := mk(a), mk(b)
	stale, err := s.StaleWith(time.Now().Add(-atomicfile.StaleAfter), []string{b, filepath.Join(a, "missing"), a})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range stale {
		got = append(got, st.Path)
	}
	if want := []string{own, pb, pa}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stale = %v, want %v", got, want)
	}
}
