package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPruneDirs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for ts := int64(1); ts <= 3; ts++ {
		writeTrace(t, a, "s", ts)
		writeTrace(t, b, "s", ts)
	}
	file := filepath.Join(a, "note.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, apply := range []bool{false, true} {
		t.Run(fmt.Sprint(apply), func(t *testing.T) {
			p, errs := Prune([]string{a, file, b}, 2, apply)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "note.txt: not a directory") {
				t.Errorf("errors %v", errs)
			}
			if p.Kept != 4 || len(p.Deleted) != 2 || filepath.Dir(p.Deleted[0].File) != a || filepath.Dir(p.Deleted[1].File) != b {
				t.Errorf("kept %d, deleted %v", p.Kept, p.Deleted)
			}
			for _, d := range p.Deleted {
				if _, err := os.Stat(d.File); (err == nil) == apply {
					t.Errorf("%s: apply=%v, stat %v", d.File, apply, err)
				}
			}
		})
	}
}
