package escape

import (
	"strings"
	"unicode/utf8"
)

// DefaultWidth is the width prose is wrapped at when the output is not a
// terminal.
const DefaultWidth = 100

// Wrap escapes s as Text does and folds it after prefix into lines of at
// most width columns (counted in code points), breaking at spaces; the
// lines after the first are indented as deep as prefix is wide, or by
// two spaces when prefix takes more than half the width. A word
// wider than a line (a long path) is kept whole on a line of its own. A
// width of 0 or less is DefaultWidth. The result has no final line feed.
func Wrap(prefix, s string, width int) string {
	if width <= 0 {
		width = DefaultWidth
	}
	s = Text(s)
	indent := utf8.RuneCountInString(prefix)
	if indent+utf8.RuneCountInString(s) <= width {
		return prefix + s
	}
	if 2*indent > width {
		indent = 2
	}
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	b.WriteString(prefix)
	col := utf8.RuneCountInString(prefix)
	first := true
	for w := range strings.FieldsSeq(s) {
		n := utf8.RuneCountInString(w)
		switch {
		case first:
		case col+1+n > width:
			b.WriteString("\n")
			b.WriteString(pad)
			col = indent
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
		first = false
	}
	return b.String()
}
