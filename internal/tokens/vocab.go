package tokens

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

//go:generate go run ./genvocab -dir .

// The vocabularies of github.com/tiktoken-go/tokenizer in the format of
// VocabFile, written by genvocab. The tests compare them with the library.
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
	// maxLen is the length of the file's longest token (TestVocabularyWhole
	// reads it from the file).
	maxLen int

	once     sync.Once
	vocab    vocab
	pairs    *[1 << 16]atomic.Uint32        // see pairRank
	byteRank [256]uint32                    // the rank of each byte, if merges is set
	merges   *[1 << mergeBits]atomic.Uint64 // see mergeRank
	loadTime time.Duration
	err      error
}

var encodings = []*encoding{
	{name: "o200k_base", data: o200kData, o200k: true, maxLen: 128},
	{name: "cl100k_base", data: cl100kData, maxLen: 128},
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
		if err := e.vocab.init(e.data, e.maxLen); err != nil {
			e.err = fmt.Errorf("tokens: %s: %w", e.name, err)
			return
		}
		e.pairs = new([1 << 16]atomic.Uint32)
		e.initMerges()
		e.loadTime = time.Since(start)
	})
}

// vocab maps token bytes to ranks with an open-addressing table that is
// part of the embedded file (see VocabFile): loading it only checks its
// shape, and its pages are read from the binary as lookups reach them, so a
// process that counts a few texts touches a fraction of it.
type vocab struct {
	count int
	off   []byte // count+1 little-endian uint32: token r is data[off[r]:off[r+1]]
	slots []byte // 1<<bits little-endian uint32 slots (see slotOf), 0 when empty
	mask  uint64
	data  string // the tokens, concatenated in rank order
	// maxLen is the length of the longest token: no longer string is
	// looked up.
	maxLen int
}

// The vocabulary file: the magic, then little-endian uint32 fields: the
// token count, the number of bits of the slot table and the length of the
// token bytes; then the offsets, the slots and the token bytes.
const (
	vocabMagic  = "skv2"
	vocabHeader = len(vocabMagic) + 12
)

// VocabFile returns the vocabulary file of tokens in rank order (package
// tokens embeds one per encoding; genvocab writes them). The slot table
// holds at most half as many tokens as slots, placed by vocabHash with
// linear probing in rank order.
//
// A slot holds rank+1 in its low rankBits bits and the top bits of the
// token's hash above them, so that a probe rejects most other tokens
// without reading their bytes.
func VocabFile(tokens []string) ([]byte, error) {
	bits := 1
	for 1<<bits < 2*len(tokens) {
		bits++
	}
	size := 0
	for _, t := range tokens {
		size += len(t)
	}
	if size > math.MaxUint32/2 || bits > 30 || len(tokens) >= 1<<rankBits {
		return nil, fmt.Errorf("vocabulary too large")
	}
	out := append([]byte(vocabMagic), make([]byte, 12)...)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(tokens)))
	binary.LittleEndian.PutUint32(out[8:], uint32(bits))
	binary.LittleEndian.PutUint32(out[12:], uint32(size))
	pos := 0
	for _, t := range tokens {
		out = binary.LittleEndian.AppendUint32(out, uint32(pos))
		pos += len(t)
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(pos))
	slots := make([]uint32, 1<<bits)
	mask := uint64(len(slots) - 1)
	for r, t := range tokens {
		h := vocabHash(t)
		i := h & mask
		for slots[i] != 0 {
			if tokens[slots[i]&rankMask-1] == t {
				return nil, fmt.Errorf("token %q repeats", t)
			}
			i = (i + 1) & mask
		}
		slots[i] = slotOf(h, uint32(r))
	}
	for _, x := range slots {
		out = binary.LittleEndian.AppendUint32(out, x)
	}
	for _, t := range tokens {
		out = append(out, t...)
	}
	return out, nil
}

// init reads the header of a vocabulary file and checks that its size
// is the one the header gives; maxLen is the length of its longest token.
// It reads nothing else: the embedded files are checked whole by the tests
// (check), and a process that counts a few texts touches the pages of the
// slots and offsets its lookups reach, not all 6 MB. A damaged table could
// only make a lookup fail a bounds check, never read past the file.
func (v *vocab) init(file string, maxLen int) error {
	if len(file) < vocabHeader || file[:len(vocabMagic)] != vocabMagic {
		return fmt.Errorf("vocabulary file is damaged (header)")
	}
	b := unsafe.Slice(unsafe.StringData(file), len(file))
	count := uint64(binary.LittleEndian.Uint32(b[4:]))
	bits := binary.LittleEndian.Uint32(b[8:])
	size := uint64(binary.LittleEndian.Uint32(b[12:]))
	if count < 256 || count >= 1<<rankBits || bits > 30 || 1<<bits < 2*count {
		return fmt.Errorf("vocabulary file is damaged (token count)")
	}
	offEnd := uint64(vocabHeader) + 4*(count+1)
	slotEnd := offEnd + 4<<bits
	if uint64(len(file)) != slotEnd+size {
		return fmt.Errorf("vocabulary file is damaged (%d bytes, want %d)", len(file), slotEnd+size)
	}
	*v = vocab{count: int(count), off: b[vocabHeader:offEnd], slots: b[offEnd:slotEnd], mask: 1<<bits - 1, data: file[slotEnd:], maxLen: maxLen}
	return nil
}

// check reads a vocabulary whole: offsets that never go back and end at
// the data's end, and slots that name existing ranks. It returns the
// length of the longest token.
func (v *vocab) check() (maxLen int, err error) {
	size := uint32(len(v.data))
	prev := uint32(0)
	for r := range v.count + 1 {
		o := binary.LittleEndian.Uint32(v.off[4*r:])
		if o < prev || o > size || r == v.count && o != size {
			return 0, fmt.Errorf("vocabulary file is damaged at token %d", r)
		}
		maxLen = max(maxLen, int(o-prev))
		prev = o
	}
	for i := 0; i < len(v.slots); i += 4 {
		if int(binary.LittleEndian.Uint32(v.slots[i:])&rankMask) > v.count {
			return 0, fmt.Errorf("vocabulary file is damaged at slot %d", i/4)
		}
	}
	return maxLen, nil
}

// token returns the bytes of the token of rank r.
func (v *vocab) token(r uint32) string {
	return v.data[binary.LittleEndian.Uint32(v.off[4*r:]):binary.LittleEndian.Uint32(v.off[4*r+4:])]
}

const (
	rankBits = 22
	rankMask = 1<<rankBits - 1
)

// slotOf is the slot of the token of rank r and hash h.
func slotOf(h uint64, r uint32) uint32 {
	return uint32(h>>(64-(32-rankBits)))<<rankBits | (r + 1)
}

// rank returns the rank of token s, or noRank.
func (v *vocab) rank(s string) uint32 {
	if len(s) > v.maxLen {
		return noRank
	}
	h := vocabHash(s)
	want := slotOf(h, 0) &^ rankMask
	for i := h & v.mask; ; i = (i + 1) & v.mask {
		x := binary.LittleEndian.Uint32(v.slots[4*i:])
		if x == 0 {
			return noRank
		}
		if x&^rankMask == want && v.token(x&rankMask-1) == s {
			return x&rankMask - 1
		}
	}
}

// vocabHash is the fixed hash of the slot table: the table is built once,
// by genvocab, so its hash cannot be seeded per process. Lookups of any
// input end at an empty slot of a table at most half full.
func vocabHash(s string) uint64 {
	const m1, m2 = 0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9
	all := unsafe.Slice(unsafe.StringData(s), len(s))
	b, n := all, len(s)
	h := uint64(n) * m1
	var w uint64
	switch {
	case n >= 8:
		for ; len(b) > 8; b = b[8:] {
			h = (h ^ binary.LittleEndian.Uint64(b)) * m2
			h ^= h >> 31
		}
		w = binary.LittleEndian.Uint64(all[n-8:]) // the last 8 bytes, overlapping
	case n >= 4:
		w = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	case n > 0:
		w = uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16
	}
	h = (h ^ w) * m1
	h ^= h >> 29
	h *= m2
	return h ^ h>>32
}
