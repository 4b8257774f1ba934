// Package escape makes text from captures, skill trees, configuration,
// traces and the archive safe to print: on a terminal (Text, Lines), in
// Markdown (Markdown, MarkdownCode), in HTML (HTML) and in JSON (JSON).
// Every report of skillopt passes such text through one of them, so that
// no input can move the cursor, clear the screen, set the window title,
// reorder what is shown, or add markup to a page.
package escape

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// Text escapes s for one field of a line of terminal output: line feed,
// carriage return and tab as \n, \r and \t (a tab would shift the columns
// of a table); the other C0 controls, DEL and the C1 controls as \xNN (ESC
// is \x1b); the bidi controls that reorder a line (U+202A–U+202E,
// U+2066–U+2069, U+200E, U+200F, U+061C) and the line and paragraph
// separators as \uXXXX; bytes that are not UTF-8 as \xNN. Printable text
// and other Unicode are kept; a string with nothing to escape is returned
// as it is.
func Text(s string) string { return escape(s, false) }

// Lines is Text for output that is multi-line by design (a final text, a
// block of a body): line feeds and tabs are kept, everything else is
// escaped as Text does.
func Lines(s string) string { return escape(s, true) }

func escape(s string, keepLF bool) string {
	clean := true
	for _, r := range s {
		if needs(r) && !(keepLF && (r == '\n' || r == '\t')) {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case (r == '\n' || r == '\t') && keepLF:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0xa0 && needs(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case needs(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needs reports a rune Text escapes: the C0 controls, DEL, the C1
// controls, the bidi controls and the line and paragraph separators.
func needs(r rune) bool {
	switch {
	case r < 0x20:
		return true
	case r < 0x7f:
		return false
	case r < 0xa0:
		return true
	}
	return isBidi(r) || r == '\u2028' || r == '\u2029'
}

// isBidi reports the explicit directional formatting characters (the
// embeddings, overrides and isolates and their terminators) and the
// directional marks.
func isBidi(r rune) bool {
	return r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' ||
		r == '\u200e' || r == '\u200f' || r == '\u061c'
}

// Markdown escapes s for inline Markdown text, a table cell or a heading:
// first as Text (one line, no controls), then <, > and & as HTML entities,
// so that no tag or entity of the input survives, and the characters that
// could start emphasis, code, a link or image, strikethrough, math or a
// cell break backslash-escaped (with [ and ] escaped, parentheses and !
// cannot form a link or an image).
func Markdown(s string) string {
	s = Text(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
			continue
		case '<':
			b.WriteString("&lt;")
			continue
		case '>':
			b.WriteString("&gt;")
			continue
		case '\\', '`', '*', '_', '[', ']', '|', '~', '$', '#':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// MarkdownProse escapes Markdown that the program wrote around text from
// its inputs (a note naming a tool, a rule's detail block): the controls as
// Lines shows them (line feeds kept, so lists and tables stay) and <, >
// and & as HTML entities, so that no tag of the input survives. The
// program's own emphasis and code spans are kept; it writes neither <
// nor & itself.
func MarkdownProse(s string) string {
	s = Lines(s)
	if !strings.ContainsAny(s, "<>&") {
		return s
	}
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// MarkdownCode renders s as an inline code span that is safe in a table
// cell: escaped as Text, with a fence longer than any run of backticks in
// s, and pipes escaped (GitHub splits cells before it reads code spans).
// Text holding < is written as Markdown text instead: a code span shows
// entities as they are written, and the raw < would be markup to any
// renderer that does not honour code spans. "" stays "".
func MarkdownCode(s string) string {
	if s == "" {
		return ""
	}
	s = Text(s)
	if strings.Contains(s, "<") {
		return Markdown(s)
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// HTML escapes s for an HTML text node or a quoted attribute value: <, >,
// &, ' and " as character references, and the controls as Lines shows
// them (line feeds kept).
func HTML(s string) string { return html.EscapeString(Lines(s)) }

// JSONEscapes reports a rune that JSON writes as \uXXXX besides those
// encoding/json escapes: DEL, the C1 controls and the bidi controls.
func JSONEscapes(r rune) bool { return r == 0x7f || r >= 0x80 && r < 0xa0 || isBidi(r) }

// JSON rewrites encoded JSON so that it holds no rune a terminal would act
// on: encoding/json already escapes the C0 controls and the line and
// paragraph separators, and JSON leaves DEL, the C1 controls and the bidi
// controls raw; they are written as \uXXXX. Such runes can only be inside
// strings, so the rewrite keeps every value as it was. Bytes that are not
// UTF-8 are left alone.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		if b[i] < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if JSONEscapes(r) {
			break
		}
		i += n
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if JSONEscapes(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}
