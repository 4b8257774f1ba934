package tools

import (
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/rank"
)

// toolTermer turns text into normalised terms (tokens, stop words dropped,
// stemmed, synonyms added) and those into IDs of an index's vocabulary,
// remembering each distinct token so a catalog's repeated vocabulary is
// normalised once. The memo is a small open-addressing table keyed by the
// token's FNV-1a hash, checked against the token itself: a per-token cost
// of a few nanoseconds, which is what keeps indexing 200 tools fast.
type toolTermer struct {
	b       *rank.IDBuilder
	keys    []uint64 // hash per slot
	slots   []int32  // entry index + 1 per slot, 0 when empty
	entries []toolTermEntry
	arena   []int32
	buf     []byte
}

// toolTermEntry is a normalised token.
type toolTermEntry struct {
	tok string
	ids []int32
}

// newToolTermer returns a termer for an index of about textBytes bytes of
// declarations, its memo sized so that it rarely grows.
func newToolTermer(b *rank.IDBuilder, textBytes int) *toolTermer {
	n := 1024
	for n < textBytes/24 && n < 1<<16 {
		n *= 2
	}
	return &toolTermer{b: b, keys: make([]uint64, n), slots: make([]int32, n), entries: make([]toolTermEntry, 0, n/4), arena: make([]int32, 0, n/4)}
}

// lookup returns the term IDs of a token, normalising it on first sight.
func (tt *toolTermer) lookup(tok []byte) []int32 {
	h := uint64(14695981039346656037)
	for _, c := range tok {
		h = (h ^ uint64(c)) * 1099511628211
	}
	mask := uint64(len(tt.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := tt.slots[i]
		if e == 0 {
			break
		}
		if tt.keys[i] == h && tt.entries[e-1].tok == string(tok) {
			return tt.entries[e-1].ids
		}
	}
	// One string per new word, and term IDs carved from a shared arena.
	word := string(tok)
	from := len(tt.arena)
	for _, t := range toolNormalize(word) {
		tt.arena = append(tt.arena, tt.b.ID(t))
	}
	ids := tt.arena[from:len(tt.arena):len(tt.arena)]
	tt.entries = append(tt.entries, toolTermEntry{tok: word, ids: ids})
	if 2*len(tt.entries) > len(tt.slots) {
		tt.grow()
	} else {
		tt.put(h, int32(len(tt.entries)))
	}
	return ids
}

func (tt *toolTermer) put(h uint64, e int32) {
	mask := uint64(len(tt.slots) - 1)
	i := h & mask
	for tt.slots[i] != 0 {
		i = (i + 1) & mask
	}
	tt.keys[i], tt.slots[i] = h, e
}

// grow doubles the table and reinserts every entry.
func (tt *toolTermer) grow() {
	tt.keys = make([]uint64, 2*len(tt.keys))
	tt.slots = make([]int32, 2*len(tt.slots))
	for k, e := range tt.entries {
		h := uint64(14695981039346656037)
		for i := 0; i < len(e.tok); i++ {
			h = (h ^ uint64(e.tok[i])) * 1099511628211
		}
		tt.put(h, int32(k+1))
	}
}

// add appends the term IDs of text to out, at most limit (<= 0: no limit).
// It splits words exactly as toolTokens does; ASCII text, by far the most
// common, takes a loop without calls per byte or per word.
func (tt *toolTermer) add(out []int32, text []byte, camel bool, limit int) []int32 {
	start := len(out)
	for _, c := range text {
		if c >= utf8.RuneSelf {
			tt.buf = rank.AppendTokens(text, camel, tt.buf, func(tok []byte) {
				if limit <= 0 || len(out)-start < limit {
					out = append(out, tt.lookup(tok)...)
				}
			})
			return out
		}
	}
	word := tt.buf[:0]
	var prev byte
	for i := 0; i <= len(text); i++ {
		var c byte = ' '
		if i < len(text) {
			c = text[i]
		}
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			word = append(word, c)
			prev = c
			continue
		case c >= 'A' && c <= 'Z':
			if camel && prev >= 'a' && prev <= 'z' && len(word) > 0 {
				out = tt.emit(out, word, start, limit)
				word = word[:0]
			}
			word = append(word, c+'a'-'A')
			if camel {
				prev = c
			} else {
				prev = c + 'a' - 'A'
			}
			continue
		}
		if len(word) > 0 {
			out = tt.emit(out, word, start, limit)
			word = word[:0]
		}
		prev = c
	}
	tt.buf = word
	return out
}

// emit appends the term IDs of one word (plural s dropped as rank.Tokens
// does), unless the limit is reached.
func (tt *toolTermer) emit(out []int32, w []byte, start, limit int) []int32 {
	if limit > 0 && len(out)-start >= limit {
		return out
	}
	if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' {
		w = w[:len(w)-1]
	}
	return append(out, tt.lookup(w)...)
}

// addString appends the terms of string node i (its raw bytes when it has
// no escapes, so nothing is decoded), reading at most maxRaw bytes.
func (tt *toolTermer) addString(out []int32, d *capture.Doc, i capture.Node, camel bool, maxRaw, limit int) []int32 {
	if d.Kind(i) != capture.String {
		return out
	}
	n := &d.Nodes[i]
	raw := d.Src[n.Start+1 : n.End-1]
	for _, c := range raw {
		if c == '\\' {
			return tt.add(out, []byte(d.StrPrefix(i, maxRaw)), camel, limit)
		}
	}
	if len(raw) > maxRaw {
		raw = raw[:maxRaw]
	}
	return tt.add(out, raw, camel, limit)
}

// toolKeyIs reports whether node i is an object member named key, without
// allocating.
func toolKeyIs(d *capture.Doc, i capture.Node, key string) bool {
	if i == capture.NoNode {
		return false
	}
	raw := d.RawKey(i)
	if raw == nil {
		return false
	}
	for _, c := range raw {
		if c == '\\' {
			return d.Key(i) == key
		}
	}
	return string(raw) == key
}
