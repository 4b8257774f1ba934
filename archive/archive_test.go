package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
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
			if strings.HasPrefix(info.Name(), ".tmp-") {
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
	// A damaged object of another size is never overwritten by Put.
	os.WriteFile(p, []byte("short"), 0o600)
	if _, err := s.Put([]byte("will be damaged")); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("put over a damaged object: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "short" {
		t.Fatal("put overwrote an existing object")
	}
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
				errs[p] = fmt.Errorf("writer %d: %v\n%s", p, err, out)
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
	os.WriteFile(filepath.Join(fan, ".tmp-123"), []byte("partial"), 0o600)
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
