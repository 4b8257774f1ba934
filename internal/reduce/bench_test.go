package reduce

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds real command outputs with their evidence lists.
var corpusDir = filepath.Join("..", "..", "testdata", "outputs")

// heldoutDir holds a second set, of other tools and formats, kept apart to
// measure how the reducers generalise.
var heldoutDir = filepath.Join("..", "..", "testdata", "outputs-heldout")

func corpus(tb testing.TB) map[string]string { return corpusOf(tb, corpusDir) }

func corpusOf(tb testing.TB, dir string) map[string]string {
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, ".evidence") || strings.HasSuffix(f, ".md") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(f)] = string(data)
	}
	if len(out) == 0 {
		tb.Skip("no corpus in " + dir)
	}
	return out
}

// BenchmarkReduce reduces each corpus output (the line reducers; columnar
// JSON has its own benchmark).
func BenchmarkReduce(b *testing.B) {
	for name, text := range corpus(b) {
		if strings.HasSuffix(name, ".json") {
			continue
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				Reduce(text, DefaultOptions())
			}
		})
	}
}

// BenchmarkColumnar converts the corpus JSON arrays.
func BenchmarkColumnar(b *testing.B) {
	for name, text := range corpus(b) {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				Columnar(text, "")
			}
		})
	}
}
