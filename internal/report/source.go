package report

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/untrusted"
)

// Source turns byte offsets of one file's data into positions. Lines end
// at "\n", as capture counts them for syntax errors.
type Source struct {
	data   []byte
	starts []int // line starts, built on first use
}

// NewSource returns the positions of data.
func NewSource(data []byte) *Source { return &Source{data: data} }

// Pos returns the 1-based line, code-point column and UTF-16 column of
// byte offset off (clamped to the data).
func (s *Source) Pos(off int) (line, col, col16 int) {
	if s.starts == nil {
		s.starts = []int{0}
		for i, b := range s.data {
			if b == '\n' {
				s.starts = append(s.starts, i+1)
			}
		}
	}
	off = max(0, min(off, len(s.data)))
	i := sort.Search(len(s.starts), func(i int) bool { return s.starts[i] > off }) - 1
	col, col16 = columns(s.data[s.starts[i]:off])
	return i + 1, col, col16
}

// Place sets a capture diagnostic's position from a byte offset of the
// file the source reads.
func (s *Source) Place(d *Diagnostic, off int, exact bool) {
	d.Line, d.Column, d.Column16 = s.Pos(off)
	d.Offset, d.Exact = off, exact
}

// columns returns the 1-based code-point and UTF-16 columns just after
// prefix, the text of a line before a position. A byte that is not UTF-8
// counts as one of each.
func columns(prefix []byte) (col, col16 int) {
	col, col16 = 1, 1
	for len(prefix) > 0 {
		r, n := utf8.DecodeRune(prefix)
		prefix = prefix[n:]
		col++
		col16++
		if r >= 0x10000 {
			col16++
		}
	}
	return col, col16
}

// maxSourceBytes bounds a skill or agent file read for UTF-16 columns (the
// lint's own limit on those files).
const maxSourceBytes = 16 << 20

// Files converts code-point columns of text files into UTF-16 columns,
// reading each file once, on demand. Lines end at "\n", "\r\n" or a lone
// "\r", and a byte order mark does not count, as in skill-file positions.
type Files struct {
	lines map[string][]string
	// at is where the last conversion stopped: findings of one line come
	// in column order, so each goes on from there and a line with many
	// findings is read once.
	at struct {
		file             string
		line, runes, off int
		units            int
	}
}

// Column16 converts a 1-based code-point column of a file's line into a
// 1-based UTF-16 column. When the file or line cannot be read, the column
// is returned as it is.
func (f *Files) Column16(file string, line, col int) int {
	if col < 1 {
		return 1
	}
	if f.lines == nil {
		f.lines = map[string][]string{}
	}
	lines, ok := f.lines[file]
	if !ok {
		// The file was linted, so it was a regular file within the
		// skill-file limit; it may have been swapped since (a FIFO is
		// refused unopened).
		data, err := untrusted.ReadFile(file, maxSourceBytes)
		if err == nil {
			text := strings.TrimPrefix(string(data), "\ufeff")
			text = strings.ReplaceAll(text, "\r\n", "\n")
			lines = strings.Split(strings.ReplaceAll(text, "\r", "\n"), "\n")
		}
		f.lines[file] = lines
	}
	if line < 1 || line > len(lines) {
		return col
	}
	// Count the UTF-16 units of the first col-1 code points; columns past
	// the end of the line count one unit each.
	text := lines[line-1]
	units, i, off := 0, 0, 0
	if a := &f.at; a.file == file && a.line == line && a.runes <= col-1 {
		units, i, off = a.units, a.runes, a.off
	}
	for off < len(text) && i < col-1 {
		r, size := utf8.DecodeRuneInString(text[off:])
		units++
		if r >= 0x10000 {
			units++
		}
		i++
		off += size
	}
	f.at.file, f.at.line, f.at.runes, f.at.off, f.at.units = file, line, i, off, units
	return units + (col - 1 - i) + 1
}

// SetColumns16 fills the UTF-16 column of every file diagnostic with a
// position (skill and agent files), reading the files.
func (r *Report) SetColumns16(f *Files) {
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		if d.File == "" || d.Line < 1 || d.Capture != "" {
			continue
		}
		d.Column16 = f.Column16(d.File, d.Line, d.Column)
	}
}
