package main

import (
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/escape"
)

// Text output shows names and texts from inputs through escape.Text (one
// line) or escape.Lines (a block); these helpers lay such text out.

// textList joins names from inputs with ", ", each escaped for one line
// of text.
func textList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = escape.Text(n)
	}
	return strings.Join(out, ", ")
}

// padRight fills s with spaces to width columns (counted in code points,
// as the tables do).
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-utf8.RuneCountInString(s), 0))
}
