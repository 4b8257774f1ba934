//go:build unix

package capture

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/testfs"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// A FIFO in a capture folder is reported, not opened (which would wait for
// a writer), and the other captures are still returned.
func TestExpandFIFO(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.json"), testBody)
	fifo := filepath.Join(dir, "b.json")
	testfs.Mkfifo(t, fifo)
	paths, err := Expand([]string{dir})
	if len(paths) != 1 || paths[0] != filepath.Join(dir, "a.json") {
		t.Fatalf("paths = %q", paths)
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.File != fifo || !errors.Is(err, untrusted.ErrNotRegular) {
		t.Fatalf("err = %v, want the FIFO refused", err)
	}
	// Named directly, it is refused by ReadFile, also unopened.
	_, err = ReadFile(fifo, nil, Options{})
	if err == nil || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), "stdin with -") {
		t.Fatalf("err = %v", err)
	}
}

// A sidecar that is a FIFO is reported as an input error of the file; the
// body is still read.
func TestSidecarFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.json")
	writeFile(t, p, testBody)
	testfs.Mkfifo(t, filepath.Join(dir, "x.meta.json"))
	f, err := ReadFile(p, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Captures) != 1 || len(f.Errs) != 1 || !errors.Is(f.Errs[0], untrusted.ErrNotRegular) {
		t.Fatalf("captures %d, errs %v", len(f.Captures), f.Errs)
	}
}
