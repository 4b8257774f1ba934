package lint

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillopt/skillopt/catalog"
)

// isNameRune is the reference validator's test (Python's str.isalnum or a
// hyphen): any Unicode letter or number.
func isNameRune(r rune) bool { return r == '-' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// npmNameRune is what the npm port of skills-ref accepts: ASCII, Latin-1
// Supplement to Latin Extended-B, combining diacritics, Cyrillic and CJK
// unified ideographs. Greek, kana, Arabic and others are rejected there.
func npmNameRune(r rune) bool {
	switch {
	case r < 0x80:
		return true
	case r >= 0xC0 && r <= 0x24F, r >= 0x300 && r <= 0x36F, r >= 0x400 && r <= 0x4FF, r >= 0x4E00 && r <= 0x9FFF:
		return true
	}
	return false
}

// invocableName is the router's /skill:NAME pattern.
var invocableName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]+$`) })

func nfkc(s string) string { return norm.NFKC.String(s) }
func nfc(s string) string  { return norm.NFC.String(s) }

// charCount is the length of s in code points.
func charCount(s string) int { return utf8.RuneCountInString(s) }

// lengthProblem compares s with a limit in code points and, failing that,
// in UTF-16 units (JavaScript loaders count those). over says the
// code-point length is over; only16 says only the UTF-16 length is.
func lengthProblem(s string, limit int) (n, n16 int, over, only16 bool) {
	n, n16 = charCount(s), catalog.UTF16Len(s)
	return n, n16, n > limit, n <= limit && n16 > limit
}

// quoteRunes lists runes for a message: "_", "." …
func quoteRunes(rs []rune) string {
	var parts []string
	seen := map[rune]bool{}
	for _, r := range rs {
		if seen[r] {
			continue
		}
		seen[r] = true
		switch {
		case r == ' ':
			parts = append(parts, "space")
		case unicode.IsPrint(r):
			parts = append(parts, strconv.Quote(string(r)))
		default:
			parts = append(parts, fmt.Sprintf("U+%04X", r))
		}
	}
	return strings.Join(parts, ", ")
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
