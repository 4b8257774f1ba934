package catalog

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// lineIndex maps byte offsets of a file to 1-based lines and columns.
// Columns count Unicode code points; a UTF-8 byte order mark at the start
// of the file is not counted (editors do not show it). Line breaks are
// "\n", "\r\n" and a lone "\r".
type lineIndex struct {
	data   []byte
	starts []int
	bom    bool
}

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
	return li
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
	return i + 1, utf8.RuneCount(li.data[start:off]) + 1
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
