package main

import (
	"fmt"
	"io"
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

// printLines formats a message that is multi-line by design and prints it
// with escape.Lines: the paths, names and model answers in it cannot drive
// the terminal.
func printLines(w io.Writer, format string, args ...any) {
	io.WriteString(w, escape.Lines(fmt.Sprintf(format, args...)))
}
