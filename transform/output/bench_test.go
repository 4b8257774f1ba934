package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
)

// BenchmarkOutputWithArchive measures what returning one reduced tool
// output costs: the reduction (columnar or line reducers, thresholds) plus
// the archive write of the original, fsync included, for each output of the
// committed corpus. Each iteration writes to a fresh archive so the write
// is never skipped as already stored.
func BenchmarkOutputWithArchive(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "outputs", "*"))
	ran := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".evidence") || strings.HasSuffix(f, ".md") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		text := string(data)
		if _, ok := Reduce(text, Defaults); !ok {
			continue
		}
		ran++
		b.Run(filepath.Base(f), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				store := archive.Open(filepath.Join(b.TempDir(), "a"))
				b.StartTimer()
				red, ok := Reduce(text, Defaults)
				if !ok {
					b.Fatal("not reduced")
				}
				if _, err := store.Put(data); err != nil {
					b.Fatal(err)
				}
				_ = red
			}
		})
	}
	if ran == 0 {
		b.Skip("no corpus in testdata/outputs")
	}
}
