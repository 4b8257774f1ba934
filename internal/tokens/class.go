package tokens

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Character class flags. Each rune maps to a set of these flags, derived
// from the Unicode tables of the standard library (the same tables the
// reference pre-tokenizer consults).
const (
	// fUpper is o200k's [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
	fUpper uint8 = 1 << iota
	// fLower is o200k's [\p{Ll}\p{Lm}\p{Lo}\p{M}].
	fLower
	// fLetter is \p{L}.
	fLetter
	// fNumber is \p{N}.
	fNumber
	// fSpace is \s (unicode.IsSpace).
	fSpace
	// fPrefix is [^\r\n\p{L}\p{N}], the optional one-character prefix of
	// a letter run. U+007F is excluded, see below.
	fPrefix
	// fPunct is [^\s\p{L}\p{N}]. U+007F is excluded, see below.
	fPunct
	// fNewline is [\r\n].
	fNewline
)

// The reference matcher tests ASCII characters against precomputed bitmaps
// that leave out U+007F (DEL) from both [^\r\n\p{L}\p{N}] and
// [^\s\p{L}\p{N}]. DEL is not a letter, number or space either, so no
// alternative of the split pattern matches at a DEL: the reference skips it
// and it produces no token. The tables below reproduce that, so DEL has no
// flags at all.

// asciiClass holds the flags of the ASCII characters. It is filled by
// initTables.
var asciiClass [utf8.RuneSelf]uint8

// byteClass extends asciiClass to all byte values; bytes that do not encode
// an ASCII character map to notASCII, a combination of flags no rune has.
var byteClass [256]uint8

const notASCII = 0xff

// bmpClass holds the flags of the runes of the Basic Multilingual Plane. It
// is filled by initTables.
var bmpClass *[0x10000]uint8

// tablesOnce guards initTables, which builds the tables shared by all
// encodings when the first vocabulary is loaded.
var tablesOnce sync.Once

func initTables() {
	initASCII()
	initClasses()
	initBytePairs()
}

func initASCII() {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		asciiClass[r] = classOfSlow(r)
	}
	asciiClass[0x7f] = 0
	for b := range byteClass {
		byteClass[b] = notASCII
	}
	copy(byteClass[:], asciiClass[:])
}

// initClasses fills bmpClass. It walks the range tables instead of testing
// every rune, so it costs well under a millisecond.
func initClasses() {
	const (
		rLu = 1 << iota
		rLl
		rLt
		rLm
		rLo
		rM
		rN
		rSpace
	)
	raw := new([0x10000]uint8)
	mark := func(tab *unicode.RangeTable, f uint8) {
		for _, r := range tab.R16 {
			for c := uint32(r.Lo); c <= uint32(r.Hi); c += uint32(r.Stride) {
				raw[c] |= f
			}
		}
	}
	mark(unicode.Lu, rLu)
	mark(unicode.Ll, rLl)
	mark(unicode.Lt, rLt)
	mark(unicode.Lm, rLm)
	mark(unicode.Lo, rLo)
	mark(unicode.M, rM)
	mark(unicode.N, rN)
	mark(unicode.White_Space, rSpace) // unicode.IsSpace beyond Latin-1
	t := new([0x10000]uint8)
	for c, rc := range raw {
		var f uint8
		if rc&(rLu|rLt|rLm|rLo|rM) != 0 {
			f |= fUpper
		}
		if rc&(rLl|rLm|rLo|rM) != 0 {
			f |= fLower
		}
		if rc&(rLu|rLl|rLt|rLm|rLo) != 0 {
			f |= fLetter
		}
		if rc&rN != 0 {
			f |= fNumber
		}
		if rc&rSpace != 0 {
			f |= fSpace
		}
		t[c] = derive(f)
	}
	for r := rune(0); r < 0x100; r++ {
		t[r] = classOfSlow(r)
	}
	copy(t[:utf8.RuneSelf], asciiClass[:])
	bmpClass = t
}

// derive adds fPrefix, fPunct and fNewline to flags holding the letter,
// number and space bits.
func derive(f uint8) uint8 {
	if f&(fLetter|fNumber) == 0 {
		f |= fPrefix
		if f&fSpace == 0 {
			f |= fPunct
		}
	}
	return f
}

// classOfSlow computes the flags of r from the Unicode tables directly.
func classOfSlow(r rune) uint8 {
	var f uint8
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		f |= fUpper
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		f |= fLower
	}
	if unicode.Is(unicode.L, r) {
		f |= fLetter
	}
	if unicode.Is(unicode.N, r) {
		f |= fNumber
	}
	if unicode.IsSpace(r) {
		f |= fSpace
	}
	f = derive(f)
	if r == '\r' || r == '\n' {
		f &^= fPrefix
		f |= fNewline
	}
	return f
}

// classOf returns the flags of a rune outside ASCII.
func classOf(r rune) uint8 {
	if r < 0x10000 {
		return bmpClass[r]
	}
	return classOfSlow(r)
}
