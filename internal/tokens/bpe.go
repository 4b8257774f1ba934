package tokens

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

const noRank = math.MaxUint32

// smallPiece is the length, in bytes, below which bpeCount merges with a
// quadratic scan over stack-allocated arrays; longer pieces use a heap.
const smallPiece = 128

// bpeCount returns the number of tokens byte-pair encoding produces for
// piece. Pairs merge lowest rank first, leftmost first among equal ranks,
// which is the order of the reference implementation. Every single byte is
// a token, so merging always ends with len(piece) tokens at most.
//
// A piece longer than pieceWindow is encoded window by window (see
// bpeWindowed), so that a hostile piece of megabytes costs time and memory
// linear in its length.
func bpeCount(e *encoding, piece string) int {
	switch n := len(piece); {
	case n <= 1:
		return n
	case n == 2:
		if e.pairRank(piece[0], piece[1]) != noRank {
			return 1
		}
		return 2
	case n < smallPiece:
		return bpeSmall(e, piece)
	case n <= pieceWindow:
		return bpeLarge(e, piece)
	default:
		return bpeWindowed(e, piece, pieceWindow, windowKeep)
	}
}

// rankOf returns the rank of token s, or noRank if s is not a token.
func (e *encoding) rankOf(s string) uint32 {
	return e.vocab.rank(s)
}

// pairRank returns the rank of the two-byte token ab, or noRank. Results are
// memoised in a table of all byte pairs, filled as pairs are met; 0 marks a
// pair not looked up yet, and a rank r is stored as r+1.
func (e *encoding) pairRank(a, b byte) uint32 {
	k := int(a)<<8 | int(b)
	if v := e.pairs[k].Load(); v != 0 {
		if v == noRank {
			return noRank
		}
		return v - 1
	}
	r := e.rankOf(bytePairs[2*k : 2*k+2])
	if r == noRank {
		e.pairs[k].Store(noRank)
	} else {
		e.pairs[k].Store(r + 1)
	}
	return r
}

// bytePairs holds every pair of bytes, pair ab at offset 2*(a<<8|b). It is
// filled by initTables.
var bytePairs string

func initBytePairs() {
	b := make([]byte, 2<<16)
	for k := range 1 << 16 {
		b[2*k], b[2*k+1] = byte(k>>8), byte(k)
	}
	bytePairs = string(b)
}

// bpeSmall merges a piece shorter than smallPiece. Part k spans
// piece[pos[k]:pos[k+1]] and is the token of rank part[k]; rank[k] is the
// rank of the token formed by parts k and k+1.
func bpeSmall(e *encoding, piece string) int {
	var pos [smallPiece + 1]uint8
	var rank, part [smallPiece]uint32
	n := len(piece)
	for i := 0; i <= n; i++ {
		pos[i] = uint8(i)
	}
	for i := 0; i < n; i++ {
		part[i] = e.byteRank[piece[i]]
	}
	for i := 0; i+1 < n; i++ {
		rank[i] = e.pairRank(piece[i], piece[i+1])
	}
	rank[n-1] = noRank
	parts := n
	for parts > 1 {
		best, at := uint32(noRank), -1
		for k := 0; k+1 < parts; k++ {
			if rank[k] < best {
				best, at = rank[k], k
			}
		}
		if at < 0 {
			break
		}
		// Merge parts at and at+1: drop boundary at+1.
		copy(pos[at+1:parts], pos[at+2:parts+1])
		copy(rank[at+1:parts-1], rank[at+2:parts])
		copy(part[at+1:parts-1], part[at+2:parts])
		part[at] = best
		parts--
		if at+1 < parts {
			rank[at] = e.mergeRank(part[at], part[at+1], piece[pos[at]:pos[at+2]])
		} else {
			rank[at] = noRank
		}
		if at > 0 {
			rank[at-1] = e.mergeRank(part[at-1], part[at], piece[pos[at-1]:pos[at+1]])
		}
	}
	return parts
}

// The merge table memoises the rank of the token two tokens form, keyed
// by their ranks: the bytes of two tokens determine those of their
// concatenation, so the key stands for the string. Merging looks up the
// same few pairs again and again, and one slot of the table (which the
// caches keep close) is cheaper to read than the vocabulary's slot, offset
// and bytes. A slot packs a used bit (63), the two ranks (bits 36-53 and
// 18-35) and the result (bits 0-17, mergeNone for no token); a slot is
// replaced by the last pair that maps to it.
const (
	mergeBits   = 15
	mergeRankW  = 18
	mergeNone   = 1<<mergeRankW - 1
	mergeUsed   = 1 << 63
	mergeKeyOff = mergeRankW
)

// mergeRank returns the rank of s, the concatenation of the tokens of
// ranks a and b, or noRank.
func (e *encoding) mergeRank(a, b uint32, s string) uint32 {
	if e.merges == nil {
		return e.rankOf(s)
	}
	key := uint64(a)<<mergeRankW | uint64(b)
	slot := &e.merges[mix(key*0x9e3779b97f4a7c15)>>(64-mergeBits)]
	if v := slot.Load(); v&mergeUsed != 0 && v>>mergeKeyOff&(1<<(2*mergeRankW)-1) == key {
		if r := uint32(v & mergeNone); r != mergeNone {
			return r
		}
		return noRank
	}
	r := e.rankOf(s)
	v := uint64(mergeNone)
	if r != noRank {
		v = uint64(r)
	}
	slot.Store(mergeUsed | key<<mergeKeyOff | v)
	return r
}

// initMerges fills byteRank and makes the merge table, if every byte is a
// token and every rank fits the table's fields; otherwise merging looks up
// every pair in the vocabulary.
func (e *encoding) initMerges() {
	if e.vocab.count >= mergeNone {
		return
	}
	for b := range 256 {
		r := e.rankOf(bytePairs[2*b+1 : 2*b+2]) // the pair 00 b, second byte
		if r == noRank {
			return
		}
		e.byteRank[b] = r
	}
	e.merges = new([1 << mergeBits]atomic.Uint64)
}

// mergeNode is a part boundary in bpeLarge's doubly linked list; rank is the
// rank of the token formed by this part and the next.
type mergeNode struct {
	prev, next int32
	rank       uint32
}

type mergeItem struct {
	rank uint32
	at   int32
}

// mergeScratch is the working memory of mergeLarge, reused through
// scratchPool: a piece of up to pieceWindow bytes needs less than 150 KB.
type mergeScratch struct {
	nodes []mergeNode
	heap  mergeHeap
}

var scratchPool = sync.Pool{New: func() any { return new(mergeScratch) }}

// bpeLarge gives the same result as bpeSmall in O(n log n), using a binary
// heap of candidate merges ordered by rank, then position.
func bpeLarge(e *encoding, piece string) int {
	sc := scratchPool.Get().(*mergeScratch)
	n := mergeLarge(e, piece, sc)
	scratchPool.Put(sc)
	return n
}

// mergeLarge merges piece as bpeLarge does and returns the number of
// parts. It leaves the parts in sc.nodes: part boundaries are linked from
// node 0 through next, and the last part ends at node len(piece).
func mergeLarge(e *encoding, piece string, sc *mergeScratch) int {
	n := int32(len(piece))
	nodes := slices.Grow(sc.nodes[:0], int(n)+1)[:n+1]
	sc.nodes = nodes
	for i := range nodes {
		nodes[i] = mergeNode{prev: int32(i) - 1, next: int32(i) + 1, rank: noRank}
	}
	nodes[n].next = -1
	pairRank := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 {
			return noRank
		}
		k := nodes[j].next
		if k < 0 {
			return noRank
		}
		return e.rankOf(piece[i:k])
	}
	h := slices.Grow(sc.heap[:0], int(n))
	for i := int32(0); i+2 <= n; i++ {
		if r := e.pairRank(piece[i], piece[i+1]); r != noRank {
			nodes[i].rank = r
			h = append(h, mergeItem{r, i})
		}
	}
	h.init()
	parts := int(n)
	for len(h) > 0 {
		top := h.pop()
		i := top.at
		if nodes[i].rank != top.rank {
			continue // stale
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		parts--
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = pairRank(b)
			if nodes[b].rank != noRank {
				h.push(mergeItem{nodes[b].rank, b})
			}
		}
	}
	sc.heap = h[:0]
	return parts
}

type mergeHeap []mergeItem

func (h mergeHeap) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].at < h[b].at
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(it mergeItem) {
	*h = append(*h, it)
	h.up(len(*h) - 1)
}

func (h *mergeHeap) pop() mergeItem {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h mergeHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h mergeHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h.less(r, c) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
