package commands

import (
	"io"
	"os"

	"github.com/skillopt/skillopt/internal/escape"
)

// width is the width prose (notes, messages) is wrapped at on w: the
// terminal's columns when w is a terminal whose size is known, else
// escape.DefaultWidth.
func (e *env) width(w io.Writer) int {
	if f, ok := w.(*os.File); ok && isTTY(w) {
		if n := terminalColumns(f); n > 0 {
			return n
		}
	}
	return escape.DefaultWidth
}
