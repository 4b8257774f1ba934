package capture

import (
	"strings"
	"testing"
)

func TestQuotedLen(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "\n\r\t\b\f\x00\x1f", "é 🚀", "\u2028\u2029", "\xff\xfe x", strings.Repeat("{\"a\":1},", 100)} {
		if got, want := QuotedLen(s), len(Quote(s)); got != want {
			t.Errorf("QuotedLen(%q) = %d, want %d", s, got, want)
		}
	}
}
