package untrusted

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/testfs"
)

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	write(t, small, []byte(`{"a":1}`))
	exact := filepath.Join(dir, "exact")
	write(t, exact, bytes.Repeat([]byte("x"), 64))
	big := filepath.Join(dir, "big")
	write(t, big, bytes.Repeat([]byte("x"), 65))
	empty := filepath.Join(dir, "empty")
	write(t, empty, nil)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("small.json", link); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, path string
		want       string // content, when err is ""
		err        string
	}{
		{"regular", small, `{"a":1}`, ""},
		{"at the limit", exact, strings.Repeat("x", 64), ""},
		{"empty", empty, "", ""},
		{"symlink to a regular file", link, `{"a":1}`, ""},
		{"over the limit", big, "", "file of 65 bytes exceeds the 64-byte limit"},
		{"directory", dir, "", "is a directory"},
		{"missing", filepath.Join(dir, "nope"), "", "no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadFile(tc.path, 64)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				if strings.Contains(err.Error(), tc.path) {
					t.Errorf("error %q repeats the path", err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestReadFileTooLargeType(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	write(t, p, make([]byte, 100))
	_, err := ReadFile(p, 10)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 100 || tl.Limit != 10 {
		t.Fatalf("err = %#v, want *TooLargeError{100, 10}", err)
	}
}

// A FIFO is refused by its type, without an open that would wait for a
// writer (the test would hang).
func TestReadFileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "b.json")
	testfs.Mkfifo(t, p)
	_, err := ReadFile(p, 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("err = %v, want a named-pipe refusal", err)
	}
}

// The open itself cannot block either: a regular file checked by Stat and
// replaced by a FIFO before the open is refused after opening.
func TestOpenSwappedForFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "SKILL.md")
	write(t, p, []byte("x"))
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	testfs.Mkfifo(t, p)
	f, _, err := openChecked(p, before)
	if err == nil {
		f.Close()
		t.Fatal("opened a FIFO")
	}
	if !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v, want ErrNotRegular", err)
	}
}

func TestOpenSwappedFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	write(t, a, []byte("a"))
	write(t, b, []byte("b"))
	before, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := openChecked(b, before); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
}

func TestReadFileDevices(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	link := filepath.Join(t.TempDir(), "SKILL.md")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", link} {
		_, err := ReadFile(p, 1<<20)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
			t.Errorf("%s: err = %v, want a device refusal", p, err)
		}
	}
}

func TestReadFileBufReuse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	write(t, p, []byte("hello"))
	buf := make([]byte, 0, 64)
	got, err := ReadFileBuf(p, 64, buf)
	if err != nil || string(got) != "hello" {
		t.Fatalf("got %q, %v", got, err)
	}
	if &got[:1][0] != &buf[:1][0] {
		t.Error("buffer not reused")
	}
}

// countingReader is an endless stream that counts what was taken from it.
type countingReader struct{ n int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.n += int64(len(p))
	return len(p), nil
}

func TestReadAll(t *testing.T) {
	got, err := ReadAll(strings.NewReader("abc"), 3)
	if err != nil || string(got) != "abc" {
		t.Fatalf("got %q, %v", got, err)
	}
	got, err = ReadAll(strings.NewReader(""), 3)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty: got %q, %v", got, err)
	}
	// An endless stdin stops at limit+1 bytes with an error.
	r := &countingReader{}
	_, err = ReadAll(r, 1000)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != -1 || err.Error() != "input exceeds the 1000-byte limit" {
		t.Fatalf("err = %v", err)
	}
	if r.n > 1001 {
		t.Fatalf("read %d bytes of an endless stream, want at most 1001", r.n)
	}
	if _, err := ReadAll(io.MultiReader(strings.NewReader("ab"), errReader{}), 10); err == nil || err.Error() != "boom" {
		t.Fatalf("read error lost: %v", err)
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A stream is refused having held little more than the limit: its blocks
// are not copied as they grow (a growing buffer would allocate about five
// times the limit before refusing it, and keep much of it as garbage).
func TestReadAllMemory(t *testing.T) {
	const limit = 16 << 20
	var err error
	n := allocated(func() { _, err = ReadAll(&countingReader{}, limit) })
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if n > limit+limit/4 {
		t.Errorf("refusing an endless stream allocated %d bytes, want at most %d", n, limit+limit/4)
	}
	// Input within the limit comes back whole, for the blocks plus one
	// joined copy.
	data := bytes.Repeat([]byte("0123456789abcdef"), (limit-5)/16)
	var got []byte
	n = allocated(func() { got, err = ReadAll(io.MultiReader(bytes.NewReader(data), strings.NewReader("tail")), limit) })
	if err != nil || !bytes.Equal(got, append(data, "tail"...)) {
		t.Fatalf("got %d bytes, %v", len(got), err)
	}
	if n > 2*limit+limit/4 {
		t.Errorf("reading %d bytes allocated %d", len(got), n)
	}
}

// Stdin redirected from a regular file is refused by its size, unread.
func TestReadAllRegularFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	write(t, p, bytes.Repeat([]byte("x"), 100))
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = ReadAll(f, 64)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 100 {
		t.Fatalf("err = %v, want a refusal by size", err)
	}
	if off, _ := f.Seek(0, io.SeekCurrent); off != 0 {
		t.Errorf("read %d bytes before refusing", off)
	}
	// What is left after the offset is what counts.
	if _, err := f.Seek(50, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAll(f, 64)
	if err != nil || len(got) != 50 {
		t.Fatalf("got %d bytes, %v", len(got), err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("boom") }

// FuzzReadAll: input within the limit comes back whole; longer input is
// refused after reading at most limit+1 bytes.
func FuzzReadAll(f *testing.F) {
	f.Add([]byte("abc"), uint8(3))
	f.Add([]byte("abcd"), uint8(3))
	f.Add([]byte{}, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		r := bytes.NewReader(data)
		got, err := ReadAll(r, int64(limit))
		if len(data) <= int(limit) {
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("ReadAll(%q, %d) = %q, %v", data, limit, got, err)
			}
			return
		}
		var tl *TooLargeError
		if !errors.As(err, &tl) || got != nil {
			t.Fatalf("ReadAll(%q, %d) = %q, %v; want a refusal", data, limit, got, err)
		}
		if read := len(data) - r.Len(); read > int(limit)+1 {
			t.Fatalf("read %d bytes past a limit of %d", read, limit)
		}
	})
}
