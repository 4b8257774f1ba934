package catalog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// Limits of the Agent Skills specification, in characters (code points).
const (
	MaxNameChars          = 64
	MaxDescriptionChars   = 1024
	MaxCompatibilityChars = 500
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
var invocableName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

func nfkc(s string) string { return norm.NFKC.String(s) }
func nfc(s string) string  { return norm.NFC.String(s) }

// charCount is the length of s in code points.
func charCount(s string) int { return utf8.RuneCountInString(s) }

// lengthProblem compares s with a limit in code points and, failing that,
// in UTF-16 units (JavaScript loaders count those). over says the
// code-point length is over; only16 says only the UTF-16 length is.
func lengthProblem(s string, limit int) (n, n16 int, over, only16 bool) {
	n, n16 = charCount(s), utf16Len(s)
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

// yamlKind names the YAML type of a node for messages: "a string", "an
// integer (42)", "a list" …
func yamlKind(n *yaml.Node) string {
	switch {
	case isNull(n):
		return "null"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	}
	switch n.Tag {
	case "!!str":
		return "a string"
	case "!!int":
		return "an integer (" + n.Value + ")"
	case "!!float":
		return "a number (" + n.Value + ")"
	case "!!bool":
		return "a boolean (" + n.Value + ")"
	case "!!timestamp":
		return "a date (" + n.Value + ")"
	}
	return "a " + strings.TrimPrefix(n.Tag, "!") + " value"
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
