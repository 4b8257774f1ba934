package outputbench

import (
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/transform/output"
)

// TestCorpora runs the benchmark over both committed sets with the default
// settings: every evidence string survives, every reduced original comes
// back exactly, no output grows, and each set saves at least 80 % overall.
func TestCorpora(t *testing.T) {
	for _, set := range []string{"outputs", "outputs-heldout"} {
		dir := filepath.Join("..", "..", "..", "testdata", set)
		files, err := Files(dir)
		if err != nil || len(files) == 0 {
			t.Skipf("no corpus in %s", dir)
		}
		store := archive.Open(t.TempDir())
		var rows []Row
		for _, f := range files {
			row, err := File(dir, f, store, output.Defaults)
			if err != nil {
				t.Fatal(err)
			}
			if row.BytesAfter > row.BytesBefore {
				t.Errorf("%s/%s: grew from %d to %d bytes", set, f, row.BytesBefore, row.BytesAfter)
			}
			for _, m := range row.Missing {
				t.Errorf("%s/%s: evidence lost: %q", set, f, m)
			}
			if row.Reducer != "none" && row.Recovery != "exact" {
				t.Errorf("%s/%s: recovery %s", set, f, row.Recovery)
			}
			rows = append(rows, row)
		}
		if tot := Sum(rows); tot.SavedPct < 80 {
			t.Errorf("%s: %.1f %% saved overall, want at least 80 %%", set, tot.SavedPct)
		}
	}
}
