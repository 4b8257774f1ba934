//go:build unix

package archive

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// A FIFO in place of a stored original used to block Get and Verify on
// the open; it is refused without opening it.
func TestFIFOObject(t *testing.T) {
	s := Open(t.TempDir())
	h, err := s.Put([]byte("original"))
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := ParseHandle(h)
	p := s.path(sum)
	os.Chmod(p, 0o600)
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := s.Get(h); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("get: %v", err)
	}
	_, damaged, err := s.Verify()
	if err != nil || len(damaged) != 1 || damaged[0].Problem != "not a regular file" {
		t.Fatalf("verify: %v %v", damaged, err)
	}
}
