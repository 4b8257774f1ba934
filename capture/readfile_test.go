package capture

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/untrusted"
)

const testBody = `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A file over MaxFileSize is refused by its size, before it is read (a
// sparse file: nothing is allocated).
func TestReadFileOversize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.json")
	writeFile(t, p, "")
	if err := os.Truncate(p, MaxFileSize+1); err != nil {
		t.Skip(err)
	}
	_, err := ReadFile(p, nil, Options{})
	var tl *untrusted.TooLargeError
	if !errors.As(err, &tl) || tl.Size != MaxFileSize+1 {
		t.Fatalf("err = %v, want a size refusal", err)
	}
	if !strings.HasPrefix(err.Error(), p+": file of ") {
		t.Fatalf("err = %q, want it located at the file", err)
	}
}

func TestReadFileDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	link := filepath.Join(t.TempDir(), "zero.json")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", link} {
		_, err := ReadFile(p, nil, Options{})
		if !errors.Is(err, untrusted.ErrNotRegular) {
			t.Errorf("%s: err = %v, want a refusal", p, err)
		}
	}
}

// One bad argument does not stop the others; every error is returned.
func TestExpandKeepsGoing(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "caps", "a.json")
	writeFile(t, good, testBody)
	writeFile(t, filepath.Join(dir, "empty", "notes.txt"), "x")
	missing := filepath.Join(dir, "missing.json")
	paths, err := Expand([]string{missing, filepath.Join(dir, "empty"), filepath.Join(dir, "caps")})
	if len(paths) != 2 || paths[0] != missing || paths[1] != good {
		t.Fatalf("paths = %q", paths)
	}
	if err == nil || !strings.Contains(err.Error(), "directory holds no") {
		t.Fatalf("err = %v", err)
	}
	// The missing file is reported by ReadFile, by name.
	if _, err := ReadFile(missing, nil, Options{}); err == nil || err.Error() != missing+": no such file or directory" {
		t.Fatalf("err = %v", err)
	}
}
