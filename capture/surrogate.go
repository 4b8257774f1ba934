package capture

import "bytes"

// LoneSurrogate returns the offset in tok, a JSON string token as written
// (quotes and escapes included), of the first \u escape of a UTF-16
// surrogate that is not half of a pair — a high surrogate not followed by
// a low one, or a low one on its own — or -1. Such an escape names no
// Unicode character: strict JSON parsers refuse it, lenient ones replace
// it with U+FFFD.
func LoneSurrogate(tok []byte) int {
	for i := 0; i+1 < len(tok); i++ {
		// Most strings have few escapes: find the next one at memchr speed.
		j := bytes.IndexByte(tok[i:], '\\')
		if j < 0 {
			return -1
		}
		if i += j; i+1 >= len(tok) {
			return -1
		}
		if tok[i+1] != 'u' || i+6 > len(tok) {
			i++
			continue
		}
		r := hex4(tok[i+2 : i+6])
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return i
		case r >= 0xD800 && r <= 0xDBFF:
			if i+12 > len(tok) || tok[i+6] != '\\' || tok[i+7] != 'u' {
				return i
			}
			if r2 := hex4(tok[i+8 : i+12]); r2 < 0xDC00 || r2 > 0xDFFF {
				return i
			}
			i += 11
			continue
		}
		i += 5
	}
	return -1
}
