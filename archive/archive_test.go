package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillopt/skillopt/internal/atomicfile"
)

func TestHandleGrammar(t *testing.T) {
	h := HandleOf([]byte("hello\n"))
	if len(h) != HandleLen || !strings.HasPrefix(h, "sko:") {
		t.Fatalf("handle %q", h)
	}
	sum, err := ParseHandle(h)
	if err != nil || sum != sha256.Sum256([]byte("hello\n")) {
		t.Fatalf("parse %q: %v", h, err)
	}
	body := h[len(Prefix):]
	bad := []string{
		"",
		"sko:",
		body,                     // no prefix
		"SKO:" + body,            // prefix is case-sensitive
		"sko:" + body[:42],       // short
		"sko:" + body + "A",      // long
		"sko:" + body[:42] + "=", // padding
		"sko:" + body[:42] + "+", // standard, not url alphabet
		"sko:" + body[:10] + "/" + body[11:],
		" " + h,                                // surrounding space
		"sko:../../../../../etc/passwd",        // a path
		"sko:" + strings.Repeat("A", 42) + "B", // non-canonical last character (low bits set)
	}
	for _, s := range bad {
		if _, err := ParseHandle(s); err == nil {
			t.Errorf("ParseHandle(%q) accepted", s)
		}
	}
	// The canonical spelling of the same digest is accepted.
	if _, err := ParseHandle("sko:" + strings.Repeat("A", 42) + "E"); err != nil {
		t.Errorf("canonical handle rejected: %v", err)
	}
}

func TestFindHandles(t *testing.T) {
	a, b := HandleOf([]byte("a")), HandleOf([]byte("b"))
	text := "see " + a + ", and (" + b + ") but not x" + a + " nor " + a + "Z or sko:short; again " + a
	got := FindHandles(text)
	want := []string{a, b, a}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("FindHandles = %v, want %v", got, want)
	}
	if FindHandles("no handles here") != nil {
		t.Fatal("found a handle in plain text")
	}
}

func TestPutGet(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), "a", "b"))
	data := []byte("line one\r\nline two\r\nlast without newline")
	h, err := s.Put(data)
	if err != nil {
		t.Fatal(err)
	}
	if h != HandleOf(data) {
		t.Fatalf("handle %s, want %s", h, HandleOf(data))
	}
	got, err := s.Get(h)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("get: %q %v", got, err)
	}
	// Modes: directories 0700, objects 0600.
	sum := sha256.Sum256(data)
	p := s.path(sum)
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("object mode %v", st.Mode().Perm())
	}
	for d := filepath.Dir(p); d != filepath.Dir(s.Dir()); d = filepath.Dir(d) {
		if st, _ := os.Stat(d); st.Mode().Perm() != 0o700 {
			t.Errorf("directory %s mode %v", d, st.Mode().Perm())
		}
	}
	// Stored once: a second put leaves the object untouched.
	st1, _ := os.Stat(p)
	if h2, err := s.Put(append([]byte{}, data...)); err != nil || h2 != h {
		t.Fatalf("second put: %s %v", h2, err)
	}
	st2, _ := os.Stat(p)
	if !os.SameFile(st1, st2) || !st1.ModTime().Equal(st2.ModTime()) {
		t.Error("second put rewrote the object")
	}
	// Empty content is a valid original.
	if h, err := s.Put(nil); err != nil {
		t.Fatal(err)
	} else if got, err := s.Get(h); err != nil || len(got) != 0 {
		t.Fatalf("empty: %q %v", got, err)
	}
	// Unknown and malformed handles.
	if _, err := s.Get(HandleOf([]byte("never stored"))); err == nil || !strings.Contains(err.Error(), "not in the archive") {
		t.Errorf("missing: %v", err)
	}
	if _, err := s.Get("sko:../../etc/passwd"); err == nil || !strings.Contains(err.Error(), "not a handle") {
		t.Errorf("malformed: %v", err)
	}
	entries, err := s.List()
	if err != nil || len(entries) != 2 {
		t.Fatalf("list: %v %v", entries, err)
	}
}

func TestNoTempFilesLeft(t *testing.T) {
	s := Open(t.TempDir())
	for i := 0; i < 20; i++ {
		if _, err := s.Put([]byte(strconv.Itoa(i % 5))); err != nil {
			t.Fatal(err)
		}
	}
	var files int
	filepath.Walk(s.Dir(), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files++
			if atomicfile.IsTemp(info.Name()) {
				t.Errorf("leftover temporary file %s", p)
			}
		}
		return nil
	})
	if files != 5 {
		t.Errorf("%d files, want 5", files)
	}
}

func TestDamage(t *testing.T) {
	s := Open(t.TempDir())
	good, _ := s.Put([]byte("good"))
	bad, _ := s.Put([]byte("will be damaged"))
	sum, _ := ParseHandle(bad)
	p := s.path(sum)
	os.Chmod(p, 0o600)
	if err := os.WriteFile(p, []byte("will be DAMAGED"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(bad); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged object read without error: %v", err)
	}
	entries, damaged, err := s.Verify()
	if err != nil || len(entries) != 2 || len(damaged) != 1 || damaged[0].Handle != bad {
		t.Fatalf("verify: %v %v %v", entries, damaged, err)
	}
	if _, err := s.Get(good); err != nil {
		t.Fatal(err)
	}
	// Put repairs a damaged object of another size: the new write has the
	// exact bytes its name promises.
	os.WriteFile(p, []byte("short"), 0o600)
	if h, err := s.Put([]byte("will be damaged")); err != nil || h != bad {
		t.Fatalf("put over a damaged object: %s %v", h, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "will be damaged" {
		t.Fatalf("put left the damaged object: %q", b)
	}
}

// TestPutRepairsSameSize: an object corrupted without changing its size is
// found by hashing, not taken for the original, and rewritten in place
// (atomically: a new file under the same name).
func TestPutRepairsSameSize(t *testing.T) {
	s := Open(t.TempDir())
	data := []byte("exit status 1\nFAIL example.test/pkg\n")
	h, err := s.Put(data)
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := ParseHandle(h)
	p := s.path(sum)
	corrupt := bytes.ToUpper(data)
	if len(corrupt) != len(data) || bytes.Equal(corrupt, data) {
		t.Fatal("bad test data")
	}
	if err := os.WriteFile(p, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(p)
	if _, err := s.Get(h); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("get of a same-size corrupted object: %v", err)
	}
	if h2, err := s.Put(data); err != nil || h2 != h {
		t.Fatalf("put: %s %v", h2, err)
	}
	got, err := s.Get(h)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("after repair: %q %v", got, err)
	}
	after, _ := os.Stat(p)
	if os.SameFile(before, after) {
		t.Error("the corrupted file was written in place instead of replaced")
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("repaired object mode %v", st.Mode().Perm())
	}
	if _, damaged, err := s.Verify(); err != nil || len(damaged) != 0 {
		t.Fatalf("verify after repair: %v %v", damaged, err)
	}
	assertNoTemp(t, s.Dir())
}

// TestPutReplacesSymlink: a symbolic link where an object belongs is
// damage; Put replaces the link and never writes through it.
func TestPutReplacesSymlink(t *testing.T) {
	s := Open(t.TempDir())
	data := []byte("original")
	sum := sha256.Sum256(data)
	p := s.path(sum)
	os.MkdirAll(filepath.Dir(p), 0o700)
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, data, 0o600) // even the right content
	if err := os.Symlink(outside, p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(HandleOf(data)); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("get through a symlink: %v", err)
	}
	if _, damaged, _ := s.Verify(); len(damaged) != 1 || damaged[0].Problem != "not a regular file" {
		t.Fatalf("verify: %v", damaged)
	}
	if _, err := s.Put(data); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("object is still not a regular file: %v %v", st, err)
	}
	if _, err := s.Get(HandleOf(data)); err != nil {
		t.Fatal(err)
	}
}

// TestStale: temporary files of writers killed before their rename are
// found by name and age, wherever the archive creates them; fresh ones
// (a live writer) and other files are not.
func TestStale(t *testing.T) {
	s := Open(t.TempDir())
	h, _ := s.Put([]byte("x"))
	sum, _ := ParseHandle(h)
	fan := filepath.Dir(s.path(sum))
	old := time.Now().Add(-2 * atomicfile.StaleAfter)
	mk := func(p string, mtime time.Time) {
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mtime, mtime)
	}
	dead := filepath.Join(fan, atomicfile.TempPrefix+"object.123")
	mk(dead, old)
	deadRoot := filepath.Join(s.Dir(), atomicfile.TempPrefix+"object.9")
	mk(deadRoot, old)
	mk(filepath.Join(fan, atomicfile.TempPrefix+"object.456"), time.Now()) // live writer
	mk(filepath.Join(fan, "notes.txt"), old)                               // not ours
	cutoff := time.Now().Add(-atomicfile.StaleAfter)
	stale, err := s.Stale(cutoff)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range stale {
		got = append(got, st.Path)
		if st.Bytes != 7 {
			t.Errorf("%s: %d bytes", st.Path, st.Bytes)
		}
	}
	sort.Strings(got)
	want := []string{deadRoot, dead}
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("stale = %v, want %v", got, want)
	}
	if st, err := Open(filepath.Join(t.TempDir(), "missing")).Stale(cutoff); err != nil || len(st) != 0 {
		t.Fatalf("missing store: %v %v", st, err)
	}
}

// TestMemory: an in-memory archive gives the same handles as a store,
// writes nothing, reads through to a base store, and flushes what it is
// asked to.
func TestMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "arch")
	base := Open(dir)
	m := NewMemory(base)
	a, b := []byte("first original\n"), []byte("second original\n")
	ha, err := m.Put(a)
	if err != nil || ha != HandleOf(a) {
		t.Fatalf("put: %s %v", ha, err)
	}
	hb, _ := m.Put(b)
	if got, err := m.Get(ha); err != nil || !bytes.Equal(got, a) {
		t.Fatalf("get: %q %v", got, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("memory archive touched the disk: %v", err)
	}
	// Read-through to what the base already holds.
	old := []byte("stored earlier")
	other := Open(dir)
	hOld, _ := other.Put(old)
	if got, err := m.Get(hOld); err != nil || !bytes.Equal(got, old) {
		t.Fatalf("read-through: %q %v", got, err)
	}
	if _, err := m.Get(HandleOf([]byte("nowhere"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := NewMemory(nil).Get(ha); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no base: %v", err)
	}
	// Flush only what is wanted.
	kept, written, err := m.Flush(base, func(h string) bool { return h == hb })
	if err != nil || kept != 1 || written != 1 {
		t.Fatalf("flush: %d %d %v", kept, written, err)
	}
	if base.Has(ha) || !base.Has(hb) {
		t.Fatal("flush wrote the wrong originals")
	}
	if kept, written, err := m.Flush(base, nil); err != nil || kept != 2 || written != 1 {
		t.Fatalf("second flush: %d %d %v", kept, written, err)
	}
	if m.Dir() != dir || NewMemory(nil).Dir() != "" {
		t.Fatalf("dir %q, without a base %q", m.Dir(), NewMemory(nil).Dir())
	}
	var _ Keeper = m
	var _ Keeper = base
}

func TestOff(t *testing.T) {
	if _, err := Off.Put([]byte("x")); !errors.Is(err, ErrOff) {
		t.Fatalf("put: %v", err)
	}
	if _, err := Off.Get(HandleOf([]byte("x"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get: %v", err)
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && atomicfile.IsTemp(info.Name()) {
			t.Errorf("leftover temporary file %s", p)
		}
		return nil
	})
}

func TestLines(t *testing.T) {
	data := []byte("a\r\nb\nc\r\nd")
	cases := []struct {
		r    string
		want string
		err  bool
	}{
		{"1:1", "a\r\n", false},
		{"2:3", "b\nc\r\n", false},
		{"3:", "c\r\nd", false},
		{":2", "a\r\nb\n", false},
		{"4:9", "d", false},
		{"5:6", "", true},
		{"0:1", "", true},
		{"3:2", "", true},
		{"x:2", "", true},
		{"12", "", true},
	}
	for _, tc := range cases {
		r, err := ParseRange(tc.r)
		var got []byte
		if err == nil {
			got, err = Lines(data, r)
		}
		if (err != nil) != tc.err || string(got) != tc.want {
			t.Errorf("%s: got %q %v, want %q (error %v)", tc.r, got, err, tc.want, tc.err)
		}
	}
	if n := CountLines([]byte("a\nb\n")); n != 2 {
		t.Errorf("CountLines = %d", n)
	}
	if n := CountLines(nil); n != 0 {
		t.Errorf("CountLines(nil) = %d", n)
	}
	if _, err := Lines(nil, Range{From: 1}); err == nil {
		t.Error("line 1 of empty content")
	}
}

// TestConcurrentProcesses runs several processes that store overlapping
// content into one archive at the same time: every write succeeds, each
// content is stored once, and everything verifies.
func TestConcurrentProcesses(t *testing.T) {
	if os.Getenv("ARCHIVE_WRITER_DIR") != "" {
		t.Skip("runs as a writer process")
	}
	dir := t.TempDir()
	const procs, items = 6, 40
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), "ARCHIVE_WRITER_DIR="+dir, "ARCHIVE_WRITER_ID="+strconv.Itoa(p))
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[p] = fmt.Errorf("writer %d: %w\n%s", p, err, out)
			}
		}(p)
	}
	// Writers in this process too, on the same content.
	s := Open(dir)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < items; i++ {
				if _, err := s.Put(writerContent(i)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	entries, damaged, err := s.Verify()
	if err != nil || len(damaged) > 0 {
		t.Fatalf("verify: %v %v", damaged, err)
	}
	// items shared contents plus one private content per process.
	if len(entries) != items+procs {
		t.Fatalf("%d objects, want %d", len(entries), items+procs)
	}
	for i := 0; i < items; i++ {
		got, err := s.Get(HandleOf(writerContent(i)))
		if err != nil || !bytes.Equal(got, writerContent(i)) {
			t.Fatalf("item %d: %v", i, err)
		}
	}
}

func writerContent(i int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("shared content %d\n", i)), 1+i*50)
}

// TestWriterProcess is the body of one writer process of
// TestConcurrentProcesses.
func TestWriterProcess(t *testing.T) {
	dir := os.Getenv("ARCHIVE_WRITER_DIR")
	if dir == "" {
		t.Skip("only runs as a writer process of TestConcurrentProcesses")
	}
	s := Open(dir)
	for i := 0; i < 40; i++ {
		if _, err := s.Put(writerContent(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Put([]byte("private " + os.Getenv("ARCHIVE_WRITER_ID"))); err != nil {
		t.Fatal(err)
	}
}

func TestListIgnoresStrays(t *testing.T) {
	s := Open(t.TempDir())
	h, _ := s.Put([]byte("x"))
	sum, _ := ParseHandle(h)
	fan := filepath.Dir(s.path(sum))
	os.WriteFile(filepath.Join(fan, atomicfile.TempPrefix+"object.123"), []byte("partial"), 0o600)
	os.WriteFile(filepath.Join(s.Dir(), objects, "README"), []byte("x"), 0o600)
	entries, damaged, err := s.Verify()
	if err != nil || len(entries) != 1 || len(damaged) != 0 || entries[0].Handle != h {
		t.Fatalf("%v %v %v", entries, damaged, err)
	}
	if e, err := Open(filepath.Join(t.TempDir(), "missing")).List(); err != nil || len(e) != 0 {
		t.Fatalf("missing store: %v %v", e, err)
	}
}

// FuzzParseHandle: the parser never panics; what it accepts is exactly the
// canonical encoding of the digest it returns, and FindHandles finds it.
func FuzzParseHandle(f *testing.F) {
	f.Add(HandleOf([]byte("seed")))
	f.Add("sko:" + strings.Repeat("A", 43))
	f.Add("sko:../../x")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		sum, err := ParseHandle(s)
		if err != nil {
			return
		}
		if s != Prefix+base64.RawURLEncoding.EncodeToString(sum[:]) {
			t.Fatalf("accepted non-canonical %q", s)
		}
		if got := FindHandles("(" + s + ")"); len(got) != 1 || got[0] != s {
			t.Fatalf("FindHandles missed %q: %v", s, got)
		}
	})
}

// FuzzLines: any range either errors or returns a contiguous piece of the
// data made of whole lines; all lines together give back the data.
func FuzzLines(f *testing.F) {
	f.Add([]byte("a\r\nb\nc"), 1, 2)
	f.Add([]byte(""), 1, 0)
	f.Add([]byte("\n\n\n"), 2, 0)
	f.Fuzz(func(t *testing.T, data []byte, from, to int) {
		got, err := Lines(data, Range{From: from, To: to})
		if err != nil {
			return
		}
		if !bytes.Contains(data, got) {
			t.Fatal("lines are not a piece of the data")
		}
		all, err := Lines(data, Range{From: 1})
		if err != nil || !bytes.Equal(all, data) {
			t.Fatalf("all lines differ from the data: %v", err)
		}
	})
}

// FuzzArchiveRoundTrip: whatever is stored comes back byte for byte, under
// the handle of its digest, and line access covers it exactly.
func FuzzArchiveRoundTrip(f *testing.F) {
	f.Add([]byte("line one\r\nline two\nlast"))
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xfe, '\n', 0})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Open(dir)
		h, err := s.Put(data)
		if err != nil {
			t.Fatal(err)
		}
		if h != HandleOf(data) {
			t.Fatalf("handle %s, want %s", h, HandleOf(data))
		}
		got, err := s.Get(h)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("get: %v", err)
		}
		if n := CountLines(data); n > 0 {
			all, err := s.GetLines(h, Range{From: 1, To: n})
			if err != nil || !bytes.Equal(all, data) {
				t.Fatalf("lines 1:%d: %v", n, err)
			}
		}
	})
}

// FuzzRepair: whatever byte of a stored object is changed, the next Put of
// the original restores it, and Get never returns anything but the
// original; a Memory over the store agrees.
func FuzzRepair(f *testing.F) {
	f.Add([]byte("line one\nline two\n"), 3, byte(0x20))
	f.Add([]byte{0}, 0, byte(1))
	f.Add([]byte("x"), 7, byte(0xff))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, at int, flip byte) {
		if len(data) == 0 || flip == 0 {
			return
		}
		s := Open(dir)
		h, err := s.Put(data)
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := ParseHandle(h)
		p := s.path(sum)
		bad := bytes.Clone(data)
		i := at % len(bad)
		if i < 0 {
			i = -i
		}
		bad[i] ^= flip
		if err := os.WriteFile(p, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Get(h); err == nil {
			t.Fatalf("get returned %q for a corrupted object", got)
		}
		m := NewMemory(s)
		if _, err := m.Get(h); err == nil {
			t.Fatal("memory read through a corrupted object")
		}
		if _, err := m.Put(data); err != nil {
			t.Fatal(err)
		}
		if kept, written, err := m.Flush(s, nil); err != nil || kept != 1 || written != 1 {
			t.Fatalf("flush: %d %d %v", kept, written, err)
		}
		if got, err := s.Get(h); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("after repair: %v", err)
		}
	})
}

func TestOpenExisting(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, want string }{
		{dir, ""},
		{filepath.Join(dir, "missing"), "no such directory"},
		{file, "not a directory"},
	} {
		_, err := OpenExisting(tc.dir)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.dir, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.dir)):
			t.Errorf("%s: %v, want an error naming it: %s", tc.dir, err, tc.want)
		}
	}
}
