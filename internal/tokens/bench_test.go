package tokens

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

const benchSize = 3 << 20

var (
	benchOnce sync.Once
	benchStr  string
	benchSrc  string
)

func benchInput(b *testing.B) string {
	benchOnce.Do(func() { benchStr, benchSrc = benchText(benchSize) })
	b.Logf("%d bytes of %s", len(benchStr), benchSrc)
	return benchStr
}

func BenchmarkCount(b *testing.B) {
	text := benchInput(b)
	for _, enc := range encodingNames {
		b.Run(enc+"/cold", func(b *testing.B) {
			c, _ := New(enc)
			c.Count("warm up the vocabulary")
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				c = freshCounter(enc)
				b.StartTimer()
				c.Count(text)
			}
		})
		b.Run(enc+"/warm", func(b *testing.B) {
			c, _ := New(enc)
			c.Count(text)
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				c.Count(text)
			}
		})
	}
}

// freshCounter returns a counter whose caches, including the encoding's
// memoised byte-pair ranks, are empty.
func freshCounter(enc string) *Counter {
	c, _ := New(enc)
	c.init()
	c.enc.pairs = new([1 << 16]atomic.Uint32)
	if c.enc.merges != nil {
		c.enc.merges = new([1 << mergeBits]atomic.Uint64)
	}
	return c
}

func BenchmarkCountAll(b *testing.B) {
	text := benchInput(b)
	// Split the text into request-sized texts at line breaks.
	texts := strings.SplitAfter(text, "\n")
	for _, enc := range encodingNames {
		b.Run(enc+"/many/warm", func(b *testing.B) {
			c, _ := New(enc)
			c.CountAll(texts)
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				c.CountAll(texts)
			}
		})
		b.Run(enc+"/one/warm", func(b *testing.B) {
			c, _ := New(enc)
			c.CountAll([]string{text})
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				c.CountAll([]string{text})
			}
		})
		b.Run(enc+"/one/cold", func(b *testing.B) {
			c, _ := New(enc)
			c.Count("warm up the vocabulary")
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				c = freshCounter(enc)
				b.StartTimer()
				c.CountAll([]string{text})
			}
		})
	}
}

func BenchmarkLibrary(b *testing.B) {
	text := benchInput(b)
	for _, enc := range encodingNames {
		b.Run(enc, func(b *testing.B) {
			cd, err := tokenizer.Get(tokenizer.Encoding(enc))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				if _, err := cd.Count(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var (
	skillOnce sync.Once
	skillStr  string
)

// skillInput returns the skill files (*.md) of the corpus, concatenated in
// path order: the text of a skill catalog, the bulk of most captures.
func skillInput(b *testing.B) string {
	skillOnce.Do(func() {
		var sb strings.Builder
		dir := filepath.Join("..", "..", "..", "shared", "corpus", "skills")
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil {
				sb.Write(data)
				sb.WriteByte('\n')
			}
			return nil
		})
		skillStr = sb.String()
	})
	if skillStr == "" {
		b.Skip("no skill files: ../shared/corpus/skills not found")
	}
	return skillStr
}

// BenchmarkCountSkills counts the corpus's skill files with a new Counter
// per operation, as one skillopt process does. cpu-ns/op is the process's
// user and system time per operation, steadier than wall time on a busy
// machine.
func BenchmarkCountSkills(b *testing.B) {
	text := skillInput(b)
	for _, enc := range encodingNames {
		b.Run(enc, func(b *testing.B) {
			c, _ := New(enc)
			c.Count("warm up the vocabulary")
			b.SetBytes(int64(len(text)))
			start, ok := processCPU()
			b.ResetTimer()
			for b.Loop() {
				c := freshCounter(enc)
				c.Count(text)
			}
			b.StopTimer()
			if end, _ := processCPU(); ok {
				b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkMerge merges the distinct pieces of the corpus's skill files
// that are not one token, from empty tables, through the table of pair
// ranks and through the vocabulary alone.
func BenchmarkMerge(b *testing.B) {
	text := skillInput(b)
	c, _ := New("o200k_base")
	c.init()
	seen := map[string]bool{}
	var pieces []string
	size := 0
	for i := 0; i < len(text); {
		j, ok := nextO200k(text, i)
		if p := text[i:j]; ok && !seen[p] && len(p) < smallPiece && utf8.ValidString(p) && c.enc.rankOf(p) == noRank {
			seen[p] = true
			pieces = append(pieces, p)
			size += len(p)
		}
		i = j
	}
	for _, table := range []bool{true, false} {
		b.Run(map[bool]string{true: "table", false: "vocabulary"}[table], func(b *testing.B) {
			e := &encoding{name: c.enc.name, o200k: true, vocab: c.enc.vocab, byteRank: c.enc.byteRank}
			b.SetBytes(int64(size))
			start, ok := processCPU()
			for b.Loop() {
				e.pairs = new([1 << 16]atomic.Uint32)
				e.merges = nil
				if table {
					e.merges = new([1 << mergeBits]atomic.Uint64)
				}
				for _, p := range pieces {
					bpeCount(e, p)
				}
			}
			if end, _ := processCPU(); ok {
				b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
