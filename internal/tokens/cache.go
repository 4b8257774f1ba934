package tokens

import (
	"encoding/binary"
	"hash/maphash"
	"runtime"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Three caches keep the token counts of pieces already seen by a Counter:
//
//   - tinyCache holds pieces of up to 8 bytes, most pieces of ordinary text,
//     whatever their count, in 16-byte slots, four to a cache line.
//   - shortCache holds pieces of 9 to shortMax bytes, whatever their count,
//     in 32-byte slots, two to a cache line.
//   - longCache holds longer pieces, up to longMax bytes, that are not a
//     single vocabulary entry.
//
// A piece maps to one set of slots and may occupy any slot of the set. When
// the set is full, a new piece replaces an entry of count 1 (cheap to look up
// again in the vocabulary) if there is one. The caches therefore stay within
// a fixed size whatever the input (about 3 MB for the first two, plus at most
// 1 KiB per longCache slot), and readers never lock or allocate.
//
// Pieces are keyed by their bytes as they appear in the text, before invalid
// UTF-8 is replaced. A piece of at most shortMax bytes has at most
// 3*shortMax bytes after replacement, hence fewer than 256 tokens, so its
// count fits the 8 bits a slot header gives it.

const (
	tinyMax   = 8
	tinyBits  = 15 // log2 of the number of tinyCache sets of 4 slots
	shortMax  = 24
	shortBits = 14 // log2 of the number of shortCache sets of 2 slots
	longMax   = 1024
	longBits  = 10 // log2 of the number of longCache slots
)

// Slots of tinyCache and shortCache are sequence locks: word 0 is a header,
// the following words hold the piece, little-endian and zero-padded. The
// header packs the piece length (bits 0-7, 0 for an empty slot), the count
// (bits 8-15), a version (bits 16-62) and a write-lock bit (63). A writer
// locks the header with a compare-and-swap, stores the piece, then stores an
// unlocked header with a new version; a reader accepts a slot only if the
// header is unlocked and unchanged around its reads of the piece.
const (
	slotLocked  = 1 << 63
	slotVersion = 1 << 16
)

type (
	tinySlot  [2]atomic.Uint64
	shortSlot [4]atomic.Uint64
)

type tinyCache struct {
	sets [1 << tinyBits][4]tinySlot
}

type shortCache struct {
	sets [1 << shortBits][2]shortSlot
}

// pieceWords loads a piece of 1 to shortMax bytes into three little-endian
// words, zero-padded.
func pieceWords(s string) (w0, w1, w2 uint64) {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	n := len(b)
	switch {
	case n >= 16:
		w0 = binary.LittleEndian.Uint64(b)
		w1 = binary.LittleEndian.Uint64(b[8:])
		w2 = binary.LittleEndian.Uint64(b[n-8:]) >> (8 * (24 - n))
	case n >= 8:
		w0 = binary.LittleEndian.Uint64(b)
		w1 = binary.LittleEndian.Uint64(b[n-8:]) >> (8 * (16 - n))
	case n >= 4:
		lo := uint64(binary.LittleEndian.Uint32(b))
		hi := uint64(binary.LittleEndian.Uint32(b[n-4:]))
		w0 = lo | hi<<(8*(n-4))
	default:
		w0 = uint64(b[0]) | uint64(b[n/2])<<(8*(n/2)) | uint64(b[n-1])<<(8*(n-1))
	}
	return
}

func mix(h uint64) uint64 {
	h ^= h >> 31
	h *= 0x9e3779b97f4a7c15
	h ^= h >> 29
	return h
}

// lockSlot takes the write lock of a slot header; it fails if another writer
// holds it.
func lockSlot(hdr *atomic.Uint64) (uint64, bool) {
	hd := hdr.Load()
	if hd&slotLocked != 0 || !hdr.CompareAndSwap(hd, hd|slotLocked) {
		return 0, false
	}
	return hd, true
}

// unlockSlot publishes a slot written under lockSlot.
func unlockSlot(hdr *atomic.Uint64, old uint64, n, count int) {
	v := (old + slotVersion) &^ (slotLocked | 0xffff)
	hdr.Store(v | uint64(count)<<8 | uint64(n))
}

// victim picks the slot of a full set to overwrite, given the headers of
// the set and a few random bits.
func victim(hds []uint64, r uint64) int {
	k := len(hds)
	for i, hd := range hds {
		if hd&0xff == 0 {
			return i
		}
	}
	start := int(r % uint64(k))
	for j := range k {
		i := (start + j) % k
		if hds[i]>>8&0xff == 1 {
			return i
		}
	}
	return start
}

func (c *tinyCache) set(w0 uint64, n int) (*[4]tinySlot, uint64) {
	h := mix((w0 ^ uint64(n)<<59) * 0xbf58476d1ce4e5b9)
	return &c.sets[h>>(64-tinyBits)], h
}

func (c *tinyCache) get(set *[4]tinySlot, w0 uint64, n int) (int, bool) {
	for i := range set {
		s := &set[i]
		hd := s[0].Load()
		if hd&(slotLocked|0xff) != uint64(n) || s[1].Load() != w0 {
			continue
		}
		if s[0].Load() == hd {
			return int(hd >> 8 & 0xff), true
		}
	}
	return 0, false
}

func (c *tinyCache) put(set *[4]tinySlot, h, w0 uint64, n, count int) {
	hds := [4]uint64{set[0][0].Load(), set[1][0].Load(), set[2][0].Load(), set[3][0].Load()}
	s := &set[victim(hds[:], h)]
	old, ok := lockSlot(&s[0])
	if !ok {
		return // another writer is busy with this slot
	}
	s[1].Store(w0)
	unlockSlot(&s[0], old, n, count)
}

func (c *shortCache) set(w0, w1, w2 uint64, n int) (*[2]shortSlot, uint64) {
	h := (w0 ^ 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	h ^= (w1 ^ uint64(n)) * 0x94d049bb133111eb
	h ^= w2 * 0xd6e8feb86659fd93
	h = mix(h)
	return &c.sets[h>>(64-shortBits)], h
}

func (c *shortCache) get(set *[2]shortSlot, w0, w1, w2 uint64, n int) (int, bool) {
	for i := range set {
		s := &set[i]
		hd := s[0].Load()
		if hd&(slotLocked|0xff) != uint64(n) {
			continue
		}
		k0, k1, k2 := s[1].Load(), s[2].Load(), s[3].Load()
		if k0 == w0 && k1 == w1 && k2 == w2 && s[0].Load() == hd {
			return int(hd >> 8 & 0xff), true
		}
	}
	return 0, false
}

func (c *shortCache) put(set *[2]shortSlot, h, w0, w1, w2 uint64, n, count int) {
	hds := [2]uint64{set[0][0].Load(), set[1][0].Load()}
	s := &set[victim(hds[:], h)]
	old, ok := lockSlot(&s[0])
	if !ok {
		return // another writer is busy with this slot
	}
	s[1].Store(w0)
	s[2].Store(w1)
	s[3].Store(w2)
	unlockSlot(&s[0], old, n, count)
}

// longEntry is immutable once published.
type longEntry struct {
	key string
	n   int
}

type longCache struct {
	seed  maphash.Seed
	slots [1 << longBits]atomic.Pointer[longEntry]
}

func (c *longCache) slot(key string) *atomic.Pointer[longEntry] {
	return &c.slots[maphash.String(c.seed, key)&(1<<longBits-1)]
}

func (c *longCache) get(key string) (int, bool) {
	if e := c.slot(key).Load(); e != nil && e.key == key {
		return e.n, true
	}
	return 0, false
}

func (c *longCache) put(key string, n int) {
	// Clone the key so the entry does not pin the caller's text.
	c.slot(key).Store(&longEntry{key: strings.Clone(key), n: n})
}

type caches struct {
	tiny  *tinyCache
	short *shortCache
	long  longCache
}

// slotTables is the memory of the two slot caches, one allocation.
type slotTables struct {
	tiny  tinyCache
	short shortCache
}

func newCaches() *caches {
	t, release := newSlotTables()
	c := &caches{tiny: &t.tiny, short: &t.short}
	c.long.seed = maphash.MakeSeed()
	if release != nil {
		// Counting keeps its Counter, hence c, alive (runtime.KeepAlive in
		// Counter.count).
		runtime.AddCleanup(c, func(f func()) { f() }, release)
	}
	return c
}
