//go:build unix

package testfs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Mkfifo creates a named pipe at path, and its folder; the test is skipped
// when the system refuses.
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}
