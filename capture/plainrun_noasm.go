//go:build !amd64 || purego

package capture

// scanPlain is the length of the run of plain bytes s starts with: up to
// the first byte that needs attention, or to fewer than eight bytes
// before the end. (The amd64 scan also steps over one-letter escapes.)
func scanPlain(s []byte) (n int, escaped bool) { return plainWords(s), false }
