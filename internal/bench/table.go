package bench

import (
	"io"
	"strings"
	"unicode/utf8"
)

// WriteTable writes rows as columns two spaces apart: text columns (the
// first, and those listed in left) aligned left, the others right. Widths
// count characters and ignore terminal colour sequences.
func WriteTable(w io.Writer, rows [][]string, left ...int) error {
	isLeft := map[int]bool{0: true}
	for _, i := range left {
		isLeft[i] = true
	}
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], visibleWidth(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		var line strings.Builder
		for i, cell := range row {
			pad := strings.Repeat(" ", widths[i]-visibleWidth(cell))
			if i > 0 {
				line.WriteString("  ")
			}
			if isLeft[i] {
				line.WriteString(cell)
				line.WriteString(pad)
			} else {
				line.WriteString(pad)
				line.WriteString(cell)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// visibleWidth counts the characters of s outside ANSI escape sequences
// (ESC [ … letter).
func visibleWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && !(s[j] >= '@' && s[j] <= '~') {
				j++
			}
			i = j + 1
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}
