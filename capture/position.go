package capture

import (
	"bytes"
	"sort"
)

// FileOffset maps a byte offset in the body as read (the Body of a capture
// that Read returned, not of a WithBody copy) to a byte offset in the
// capture's File.Data, for file:line:col positions (see LineCol).
//
// exact reports whether the body byte sits at that offset in the file:
//   - a body stored as itself (a bare body, a record's object body, a Code
//     Assist request, a JSONL line) maps exactly, redacted credentials
//     included (an offset inside a replaced value maps to the start of the
//     value it replaced, exact only at its first byte);
//   - a Pi session's body is its lines joined with commas inside brackets:
//     an offset inside element k maps exactly into the k-th non-blank line;
//     a bracket or comma maps to the line break or line start beside it,
//     not exactly;
//   - a body inside a JSON string (a json-string file, a record's string
//     body, a HAR postData.text, base64) maps to the start of that string
//     token, not exactly.
//
// Offsets outside the body are clamped to it.
func (c *Capture) FileOffset(off int) (pos int, exact bool) {
	off = max(0, min(off, len(c.Body)))
	if c.File == nil {
		return off, false
	}
	switch {
	case len(c.layers) == 0:
		return c.plainOffset(off)
	case c.layers[0] == layerLines:
		return c.lineOffset(off)
	}
	return c.span[0], false
}

// plainOffset maps an offset of a body whose bytes sit in the file at
// c.span, with the credentials that reading redacted (the file's fixes
// inside the span) replaced.
func (c *Capture) plainOffset(off int) (int, bool) {
	s0, s1 := c.span[0], c.span[1]
	var fixes []fix
	for _, f := range c.File.fixes {
		if f.span[0] >= s0 && f.span[1] <= s1 {
			fixes = append(fixes, f)
		}
	}
	sort.Slice(fixes, func(i, j int) bool { return fixes[i].span[0] < fixes[j].span[0] })
	// grow is how much longer the body is than the file up to here.
	grow := 0
	for _, f := range fixes {
		start := f.span[0] - s0 + grow
		if off < start {
			break
		}
		if off < start+len(f.repl) {
			return f.span[0], off == start
		}
		grow += len(f.repl) - (f.span[1] - f.span[0])
	}
	return min(s0+off-grow, s1), true
}

// lineOffset maps an offset of a Pi session body: '[' + the file's
// non-blank lines joined by ',' + ']' (see piSession).
func (c *Capture) lineOffset(off int) (int, bool) {
	data := c.File.Data
	at := 1 // body offset of the current element
	for o := 0; o < len(data); {
		end := bytes.IndexByte(data[o:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += o
		}
		line := data[o:end]
		if len(bytes.TrimSpace(line)) > 0 {
			if off < at {
				// The opening bracket, before the first line.
				return o, false
			}
			if off < at+len(line) {
				return o + off - at, true
			}
			if off == at+len(line) {
				// The comma after this line, or the closing bracket.
				return end, false
			}
			at += len(line) + 1
		}
		o = end + 1
	}
	return len(data), false
}
