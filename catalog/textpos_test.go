package catalog

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// naiveStart is the offset where a 1-based line starts, found by scanning
// from the start of the file.
func naiveStart(data []byte, n int) int {
	off := 0
	for l := 1; l < n; l++ {
		i := bytes.IndexAny(data[off:], "\r\n")
		if i < 0 {
			return len(data)
		}
		off += i
		if data[off] == '\r' && off+1 < len(data) && data[off+1] == '\n' {
			off++
		}
		off++
	}
	if n == 1 && bytes.HasPrefix(data, bom) {
		off = 3
	}
	return off
}

func naiveEnd(data []byte, off int) int {
	if i := bytes.IndexAny(data[off:], "\r\n"); i >= 0 {
		return off + i
	}
	return len(data)
}

// The marks of long lines give the positions a scan from the start of the
// line gives, both ways, whatever the line breaks, the byte order mark and
// the encoding (multi-byte, truncated and invalid UTF-8).
func TestLineIndexMatchesScan(t *testing.T) {
	long := strings.Repeat("aé😀\xff\xe2\x82b", 300)
	cases := map[string]string{
		"short":      "---\nname: x\n---\nbody\n",
		"long-lf":    "---\n" + long + "\n" + long + "\nend",
		"long-crlf":  "\ufeff" + long + "\r\n\r\n" + long + "\r\n",
		"long-cr":    long + "\r" + long + "\r",
		"bom-long":   "\ufeff" + long,
		"truncated":  strings.Repeat("x", 600) + "\xe2\x82",
		"only-break": "\n",
		"empty":      "",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			data := []byte(text)
			d := &SkillDoc{Raw: data}
			for line := 0; line <= d.Lines()+2; line++ {
				start := naiveStart(data, line)
				if got := d.LineStart(max(line, 1)); line >= 1 && got != start {
					t.Fatalf("line %d starts at %d, want %d", line, got, start)
				}
				end := naiveEnd(data, start)
				if line >= 1 {
					if got := d.LineEnd(line); got != end {
						t.Fatalf("line %d ends at %d, want %d", line, got, end)
					}
				}
				// Every column of the line and two past its end.
				off, col := start, 1
				for {
					if line >= 1 {
						if got := d.Offset(line, col); got != off {
							t.Fatalf("offset of %d:%d is %d, want %d", line, col, got, off)
						}
					}
					if line >= 1 && line <= d.Lines() && off < end {
						if l, c := d.Pos(off); l != line || c != col {
							t.Fatalf("pos of %d is %d:%d, want %d:%d", off, l, c, line, col)
						}
					}
					if off >= end {
						if col > utf8.RuneCount(data[start:end])+2 {
							break
						}
						col++
						continue
					}
					_, size := utf8.DecodeRune(data[off:end])
					off += size
					col++
				}
			}
		})
	}
}

// Field finds the first field of a key, also among many fields.
func TestFieldIndex(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nname: x\n")
	for i := range 50 {
		b.WriteString("k" + strings.Repeat("x", i) + ": v\n")
	}
	b.WriteString("---\n")
	d, _ := ParseSkillDoc("x.md", []byte(b.String()))
	if f := d.Field("kxxx"); f == nil || f.Line != 6 {
		t.Fatalf("kxxx: %+v", f)
	}
	if d.Field("missing") != nil || d.Field("name") == nil {
		t.Fatal("lookup")
	}
	dup, _ := ParseSkillDoc("x.md", []byte("---\na: 1\nb: 2\na: 3\n---\n"))
	if f := dup.Field("a"); f == nil || f.Line != 2 {
		t.Fatalf("the first of a repeated key: %+v", f)
	}
	// Fields changed after parsing are still found.
	dup.Fields = append(dup.Fields, Field{Key: "c", Line: 9})
	if f := dup.Field("c"); f == nil || f.Line != 9 {
		t.Fatalf("appended field: %+v", f)
	}
}
