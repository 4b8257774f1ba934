package catalog

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// lineIndex maps byte offsets of a file to 1-based lines and columns and
// back. Columns count Unicode code points; a UTF-8 byte order mark at the
// start of the file is not counted (editors do not show it). Line breaks
// are "\n", "\r\n" and a lone "\r".
//
// Lines longer than markEvery bytes carry marks, rune boundaries with
// their column, so that a position in a long line is found from the
// nearest mark and not from the start of the line: many positions on one
// long line then cost no more than the line.
type lineIndex struct {
	data   []byte
	starts []int
	bom    bool
	marks  []lineMark // in offset order
}

// lineMark is a rune boundary of a long line and the code points before
// it on its line.
type lineMark struct{ off, runes int }

const markEvery = 256

func newLineIndex(data []byte) *lineIndex {
	li := &lineIndex{data: data, starts: []int{0}}
	li.bom = len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			li.starts = append(li.starts, i+1)
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			li.starts = append(li.starts, i+1)
		}
	}
	for i := range li.starts {
		start, end := li.lineStart(i+1), li.lineEnd(i+1)
		if end-start <= markEvery {
			continue
		}
		runes, last := 0, start
		for off := start; off < end; runes++ {
			if off-last >= markEvery {
				li.marks = append(li.marks, lineMark{off, runes})
				last = off
			}
			_, size := utf8.DecodeRune(li.data[off:end])
			off += size
		}
	}
	return li
}

// lineStart is the offset of the first column of a 1-based line (after a
// byte order mark on line 1; len(data) past the end).
func (li *lineIndex) lineStart(line int) int {
	switch {
	case line < 1:
		return 0
	case line > len(li.starts):
		return len(li.data)
	case line == 1 && li.bom:
		return 3
	}
	return li.starts[line-1]
}

// lineEnd is the offset of the end of a 1-based line, before its break.
func (li *lineIndex) lineEnd(line int) int {
	if line < 1 {
		line = 1
	}
	if line >= len(li.starts) {
		return len(li.data) - trailingBreak(li.data[li.lineStart(line):])
	}
	return li.starts[line] - trailingBreak(li.data[li.starts[line-1]:li.starts[line]])
}

// trailingBreak is the length of the line break that ends b (0, 1 or 2).
func trailingBreak(b []byte) int {
	switch n := len(b); {
	case n >= 2 && b[n-2] == '\r' && b[n-1] == '\n':
		return 2
	case n >= 1 && (b[n-1] == '\n' || b[n-1] == '\r'):
		return 1
	}
	return 0
}

// markBefore returns the last mark in [start, off], or one at start with
// no runes before it.
func (li *lineIndex) markBefore(start, off int) lineMark {
	i := sort.Search(len(li.marks), func(i int) bool { return li.marks[i].off > off }) - 1
	if i >= 0 && li.marks[i].off >= start {
		return li.marks[i]
	}
	return lineMark{off: start}
}

// offset returns the byte offset of a 1-based line and column; a column
// past the end of the line is the end of the line.
func (li *lineIndex) offset(line, col int) int {
	start, end := li.lineStart(line), li.lineEnd(line)
	if line > len(li.starts) {
		return len(li.data)
	}
	// The last mark of the line at or before the column.
	lo := sort.Search(len(li.marks), func(i int) bool { return li.marks[i].off >= start })
	hi := sort.Search(len(li.marks), func(i int) bool { return li.marks[i].off >= end })
	j := lo + sort.Search(hi-lo, func(i int) bool { return li.marks[lo+i].runes > col-1 }) - 1
	off, c := start, 1
	if j >= lo {
		off, c = li.marks[j].off, li.marks[j].runes+1
	}
	for ; c < col && off < end; c++ {
		_, size := utf8.DecodeRune(li.data[off:end])
		off += size
	}
	return off
}

// lines is the number of lines; a final line break does not start a new
// line.
func (li *lineIndex) lines() int {
	n := len(li.starts)
	if n > 1 && li.starts[n-1] == len(li.data) {
		n--
	}
	return n
}

// countLines counts lines as lineIndex does, without indexing.
func countLines(data []byte) int {
	n := 1 + bytes.Count(data, []byte("\n"))
	if cr := bytes.Count(data, []byte("\r")); cr > 0 {
		n += cr - bytes.Count(data, []byte("\r\n"))
	}
	if len(data) > 0 && (data[len(data)-1] == '\n' || data[len(data)-1] == '\r') {
		n--
	}
	return n
}

// pos returns the line and column of byte offset off.
func (li *lineIndex) pos(off int) (line, col int) {
	if off > len(li.data) {
		off = len(li.data)
	}
	i := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	start := li.starts[i]
	if i == 0 && li.bom {
		start = min(3, off)
	}
	m := li.markBefore(start, off)
	return i + 1, m.runes + utf8.RuneCount(li.data[m.off:off]) + 1
}

// text returns a line without its line break.
func (li *lineIndex) text(line int) []byte {
	if line < 1 || line > len(li.starts) {
		return nil
	}
	start := li.starts[line-1]
	end := len(li.data)
	if line < len(li.starts) {
		end = li.starts[line]
	}
	s := li.data[start:end]
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	if line == 1 && li.bom && len(s) >= 3 {
		s = s[3:]
	}
	return s
}

// utf16Len is the length of s in UTF-16 code units (JavaScript's
// String.length).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
