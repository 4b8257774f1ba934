//go:build amd64 && !purego

package capture

// plainBlocks scans s sixteen bytes at a time with SSE2 (which every
// amd64 processor has) for the first byte that needs attention inside a
// string, stepping over the one-letter escapes (and reporting escaped
// when it did): n is the offset of that byte, or of the first of the
// fewer than sixteen bytes left after the last whole block.
//
//go:noescape
func plainBlocks(s []byte) (n int, escaped bool)

// simpleEscape marks the bytes that make a one-letter escape after a
// backslash, for plainBlocks.
//
//lint:ignore U1000 read by plainBlocks, in assembly
var simpleEscape = [256]byte{'"': 1, '\\': 1, '/': 1, 'b': 1, 'f': 1, 'n': 1, 'r': 1, 't': 1}

// scanPlain is the length of the run s starts with of plain bytes and
// one-letter escapes: up to the first byte that needs attention, or to
// fewer than eight bytes before the end; escaped reports an escape in it.
func scanPlain(s []byte) (n int, escaped bool) {
	n, escaped = plainBlocks(s)
	return n + plainWords(s[n:]), escaped
}
