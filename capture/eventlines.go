package capture

import (
	"bytes"
	"iter"
)

// EventLines yields the lines of an event stream (text/event-stream),
// whose lines end in CRLF, LF or a lone CR, without their line ends; a
// final line without one is yielded too.
func EventLines(data []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for len(data) > 0 {
			i := LineEnd(data)
			if i < 0 {
				yield(data)
				return
			}
			if !yield(data[:i]) {
				return
			}
			if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			data = data[i+1:]
		}
	}
}

// LineEnd returns the index of the first CR or LF in p, or -1: where the
// first line of an event stream ends. Two byte scans are much faster than
// one scan for either byte.
func LineEnd(p []byte) int {
	i := bytes.IndexByte(p, '\n')
	line := p
	if i >= 0 {
		line = p[:i]
	}
	if j := bytes.IndexByte(line, '\r'); j >= 0 {
		return j
	}
	return i
}
