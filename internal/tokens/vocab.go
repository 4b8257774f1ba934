package tokens

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

//go:generate go run ./genvocab -dir .

// The vocabularies of github.com/tiktoken-go/tokenizer, written by genvocab:
// the token count, then every token in rank order as a uvarint length and
// its bytes. The tests compare them with the library.
var (
	//go:embed o200k_base.vocab
	o200kData string
	//go:embed cl100k_base.vocab
	cl100kData string
)

// encoding holds the lazily loaded data of one supported encoding. The
// vocabulary is shared by all counters of the encoding and is read-only once
// loaded.
type encoding struct {
	name  string
	data  string // embedded vocabulary file
	o200k bool   // o200k_base split pattern; cl100k_base otherwise

	once     sync.Once
	vocab    vocab
	pairs    *[1 << 16]atomic.Uint32 // see pairRank
	loadTime time.Duration
	err      error
}

var encodings = []*encoding{
	{name: "o200k_base", data: o200kData, o200k: true},
	{name: "cl100k_base", data: cl100kData},
}

// load makes the vocabulary and the character tables available.
func (e *encoding) load() {
	e.prepare()
	if e.err != nil {
		panic(e.err)
	}
}

func (e *encoding) prepare() {
	e.once.Do(func() {
		start := time.Now()
		tablesOnce.Do(initTables)
		if err := e.vocab.init(e.data); err != nil {
			e.err = fmt.Errorf("tokens: %s: %w", e.name, err)
			return
		}
		e.pairs = new([1 << 16]atomic.Uint32)
		e.loadTime = time.Since(start)
	})
}

// vocab maps token bytes to ranks with an open-addressing table over the
// embedded token list: about 4 MB and a few milliseconds to build for
// o200k_base, where a Go map of the same strings takes five times the
// memory and ten times the time.
type vocab struct {
	data  string   // embedded file; token r is data[off[r]:off[r]+lens[r]]
	off   []uint32 // start of each token in data
	lens  []uint8  // length of each token (at most 255 bytes)
	slots []uint32 // rank+1 of the token hashed there, 0 when empty
	mask  uint64
	seed  maphash.Seed
}

func (v *vocab) init(data string) error {
	count, k := binary.Uvarint([]byte(data[:min(len(data), binary.MaxVarintLen64)]))
	if k <= 0 || count < 256 || count > 1<<22 {
		return fmt.Errorf("vocabulary file is damaged (token count)")
	}
	v.data = data
	v.off = make([]uint32, count)
	v.lens = make([]uint8, count)
	pos := k
	for r := range int(count) {
		n, k := binary.Uvarint([]byte(data[pos:min(len(data), pos+binary.MaxVarintLen64)]))
		if k <= 0 || n > 255 || pos+k+int(n) > len(data) {
			return fmt.Errorf("vocabulary file is damaged at token %d", r)
		}
		pos += k
		v.off[r] = uint32(pos)
		v.lens[r] = uint8(n)
		pos += int(n)
	}
	if pos != len(data) {
		return fmt.Errorf("vocabulary file has %d bytes after its last token", len(data)-pos)
	}
	size := uint64(1)
	for size < 2*count {
		size <<= 1
	}
	v.slots = make([]uint32, size)
	v.mask = size - 1
	v.seed = maphash.MakeSeed()
	for r := range uint32(count) {
		i := maphash.String(v.seed, v.token(r)) & v.mask
		for v.slots[i] != 0 {
			if v.token(v.slots[i]-1) == v.token(r) {
				return fmt.Errorf("vocabulary file repeats token %q", v.token(r))
			}
			i = (i + 1) & v.mask
		}
		v.slots[i] = r + 1
	}
	return nil
}

// token returns the bytes of the token of rank r.
func (v *vocab) token(r uint32) string {
	start := v.off[r]
	return v.data[start : start+uint32(v.lens[r])]
}

// rank returns the rank of token s, or noRank.
func (v *vocab) rank(s string) uint32 {
	i := maphash.String(v.seed, s) & v.mask
	for {
		x := v.slots[i]
		if x == 0 {
			return noRank
		}
		if v.token(x-1) == s {
			return x - 1
		}
		i = (i + 1) & v.mask
	}
}

// len returns the number of tokens.
func (v *vocab) len() int { return len(v.off) }
