//go:build unix

package report

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A diagnostic's file replaced by a FIFO does not block the printer: the
// column is kept as it is.
func TestColumn16FIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "SKILL.md")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	var f Files
	if got := f.Column16(p, 1, 3); got != 3 {
		t.Fatalf("column %d, want 3", got)
	}
}
