package tokens

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"

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
