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
			i := bytes.IndexAny(data, "\r\n")
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
