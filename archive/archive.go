// Package archive is the local, immutable, content-addressed store of the
// originals that output and history rules reduce. An original is named by
// the SHA-256 of its exact bytes; the only thing provider-visible text ever
// says about it is its handle, "sko:" followed by the 43-character unpadded
// base64url encoding of that digest. Objects are written once (temporary
// file, fsync, hard link into place), never overwritten while intact, and
// verified against their digest on every read. A damaged object is
// replaced by the next write of its original.
package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// Prefix starts every handle.
const Prefix = "sko:"

// HandleLen is the length of a handle: the prefix and 43 base64url
// characters (256 bits, unpadded).
const HandleLen = len(Prefix) + 43

// MaxObject bounds one archived original; larger content is refused on write
// and never read whole into memory.
const MaxObject = 1 << 30

// objects is the folder below the archive directory that holds the objects,
// fanned out by the first two hex digits of the digest.
const objects = "sha256"

// ErrNotFound reports a well-formed handle whose original is not archived.
var ErrNotFound = errors.New("not in the archive")

// HandleOf returns the handle of data. It touches no file: the handle of an
// original is known before (and without) writing it.
func HandleOf(data []byte) string {
	sum := sha256.Sum256(data)
	return handleOfSum(sum)
}

// HandleOfString is HandleOf of the bytes of s, without copying them.
func HandleOfString(s string) string {
	if s == "" {
		return HandleOf(nil)
	}
	// Sum256 only reads its argument.
	return HandleOf(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func handleOfSum(sum [32]byte) string {
	return Prefix + base64.RawURLEncoding.EncodeToString(sum[:])
}

// ParseHandle checks s against the handle grammar and returns its digest.
// Anything else (wrong prefix, length or alphabet, padding, a non-canonical
// last character, surrounding space) is rejected before any file is
// touched.
func ParseHandle(s string) ([32]byte, error) {
	var sum [32]byte
	if len(s) != HandleLen || !strings.HasPrefix(s, Prefix) {
		return sum, fmt.Errorf("%q is not a handle (want %s followed by 43 base64url characters)", clip(s), Prefix)
	}
	for i := len(Prefix); i < len(s); i++ {
		if !isB64(s[i]) {
			return sum, fmt.Errorf("%q is not a handle: %q is not a base64url character", clip(s), s[i])
		}
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(s[len(Prefix):])
	if err != nil || len(raw) != len(sum) {
		return sum, fmt.Errorf("%q is not a handle: not a canonical 256-bit digest", clip(s))
	}
	copy(sum[:], raw)
	return sum, nil
}

func isB64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// FindHandles returns every handle in text, in order of appearance,
// duplicates included. A candidate must not be glued to further base64url
// characters, so a longer token is not mistaken for a handle.
func FindHandles(text string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(text[i:], Prefix)
		if j < 0 {
			return out
		}
		at := i + j
		i = at + len(Prefix)
		if at > 0 && isB64(text[at-1]) {
			continue
		}
		end := at + HandleLen
		if end > len(text) || (end < len(text) && isB64(text[end])) {
			continue
		}
		if _, err := ParseHandle(text[at:end]); err == nil {
			out = append(out, text[at:end])
			i = end
		}
	}
}

// Store is an archive rooted at a directory. Opening one touches nothing;
// the directory is created (mode 0700) by the first write.
type Store struct {
	dir string
}

// Open returns the store at dir.
func Open(dir string) *Store { return &Store{dir: dir} }

// OpenExisting returns the store at dir, which must be a directory that
// exists: an archive named explicitly that is missing is a mistake (a
// typo, a folder not mounted), not an empty archive. The error names dir.
func OpenExisting(dir string) (*Store, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("archive %s: no such directory", dir)
	case err != nil:
		return nil, fmt.Errorf("archive %s: %w", dir, err)
	case !st.IsDir():
		return nil, fmt.Errorf("archive %s: not a directory", dir)
	}
	return Open(dir), nil
}

// Dir returns the store's directory as given.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(sum [32]byte) string {
	h := hex.EncodeToString(sum[:])
	return filepath.Join(s.dir, objects, h[:2], h[2:])
}

// Put stores data and returns its handle. Content that is already archived
// intact is not written again. An existing object whose bytes no longer
// hash to its name (damage: a changed size or content, or something other
// than a regular file in its place) is replaced, atomically, by the exact
// original, so a handle returned by Put always resolves. Concurrent writers
// of the same content, in one process or many, all succeed and leave one
// object.
func (s *Store) Put(data []byte) (string, error) {
	h, _, err := s.put(data)
	return h, err
}

// put is Put that also reports whether it wrote an object.
func (s *Store) put(data []byte) (string, bool, error) {
	if len(data) > MaxObject {
		return "", false, fmt.Errorf("archive: original of %d bytes exceeds the %d-byte limit", len(data), MaxObject)
	}
	sum := sha256.Sum256(data)
	h := handleOfSum(sum)
	final := s.path(sum)
	st, err := state(final, sum, len(data))
	if err != nil {
		return "", false, fmt.Errorf("archive: %s: %w", h, err)
	}
	if st == intact {
		return h, false, nil
	}
	dir := filepath.Dir(final)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("archive: %w", err)
	}
	tmp, err := atomicfile.CreateTemp(dir, "object")
	if err != nil {
		return "", false, fmt.Errorf("archive: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", false, fmt.Errorf("archive: write %s: %w", h, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", false, fmt.Errorf("archive: sync %s: %w", h, err)
	}
	if err := tmp.Close(); err != nil {
		return "", false, fmt.Errorf("archive: %w", err)
	}
	if st == missing {
		// A hard link fails if the name exists, so an intact object is
		// never replaced; a writer that loses the race finds the winner's
		// object.
		err := os.Link(tmpName, final)
		if err == nil {
			syncDir(dir)
			return h, true, nil
		}
		if errors.Is(err, fs.ErrExist) {
			if st, err = state(final, sum, len(data)); err != nil {
				return "", false, fmt.Errorf("archive: %s: %w", h, err)
			}
			if st == intact {
				return h, false, nil
			}
		}
		// Damaged meanwhile, or a file system without hard links: rename,
		// which is still atomic; identical content makes a lost race
		// harmless.
	}
	if err := os.Rename(tmpName, final); err != nil {
		return "", false, fmt.Errorf("archive: store %s: %w", h, err)
	}
	syncDir(dir)
	return h, true, nil
}

// objectState is what is found where an object belongs.
type objectState int

const (
	missing objectState = iota
	intact
	damaged
)

// state reports whether the object at path holds exactly the size bytes
// whose digest is sum. Anything else there is damage, to be replaced; only
// an error reading it is an error.
func state(path string, sum [32]byte, size int) (objectState, error) {
	st, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return missing, nil
		}
		return missing, err
	}
	if !st.Mode().IsRegular() || st.Size() != int64(size) {
		return damaged, nil
	}
	// Checked by Lstat above, opened so that a FIFO swapped in meanwhile
	// cannot block.
	f, _, err := untrusted.Open(path)
	if err != nil {
		return missing, err
	}
	defer f.Close()
	hash := sha256.New()
	if _, err := io.Copy(hash, io.LimitReader(f, int64(size)+1)); err != nil {
		return missing, err
	}
	var got [32]byte
	hash.Sum(got[:0])
	if got != sum {
		return damaged, nil
	}
	return intact, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Has reports whether handle is archived (without verifying its content).
func (s *Store) Has(handle string) bool {
	sum, err := ParseHandle(handle)
	if err != nil {
		return false
	}
	st, err := os.Lstat(s.path(sum))
	return err == nil && st.Mode().IsRegular()
}

// Get returns the original named by handle, verified against its digest.
func (s *Store) Get(handle string) ([]byte, error) {
	sum, err := ParseHandle(handle)
	if err != nil {
		return nil, err
	}
	p := s.path(sum)
	lst, err := os.Lstat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", handle, ErrNotFound)
		}
		return nil, fmt.Errorf("%s: %w", handle, err)
	}
	if !lst.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: the stored original is not a regular file", handle)
	}
	// Opened so that a FIFO swapped in after the Lstat cannot block; the
	// same-file check below catches any other swap.
	f, _, err := untrusted.Open(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", handle, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", handle, err)
	}
	if !os.SameFile(lst, st) {
		return nil, fmt.Errorf("%s: the stored original changed while it was read", handle)
	}
	if st.Size() > MaxObject {
		return nil, fmt.Errorf("%s: the stored original has %d bytes, over the %d-byte limit", handle, st.Size(), MaxObject)
	}
	data := make([]byte, 0, st.Size()+1)
	data, err = readAll(io.LimitReader(f, MaxObject+1), data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", handle, err)
	}
	if sha256.Sum256(data) != sum {
		return nil, fmt.Errorf("%s: the stored original is damaged (its SHA-256 no longer matches)", handle)
	}
	return data, nil
}

func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// Range is a 1-based, inclusive line range; To 0 means "to the last line".
type Range struct{ From, To int }

// ParseRange parses "A:B", "A:" or ":B" (1-based, inclusive).
func ParseRange(s string) (Range, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return Range{}, fmt.Errorf("line range %q is not A:B", s)
	}
	r := Range{From: 1}
	var err error
	if a != "" {
		if r.From, err = strconv.Atoi(a); err != nil || r.From < 1 {
			return Range{}, fmt.Errorf("line range %q: start %q is not a line number ≥ 1", s, a)
		}
	}
	if b != "" {
		if r.To, err = strconv.Atoi(b); err != nil || r.To < 1 {
			return Range{}, fmt.Errorf("line range %q: end %q is not a line number ≥ 1", s, b)
		}
		if r.To < r.From {
			return Range{}, fmt.Errorf("line range %q ends before it starts", s)
		}
	}
	return r, nil
}

// Lines returns lines r.From..r.To of data exactly as stored: every line
// keeps its own terminator ("\n", "\r\n" or none for an unterminated last
// line). An end beyond the last line is clamped; a start beyond it is an
// error.
func Lines(data []byte, r Range) ([]byte, error) {
	n := CountLines(data)
	if r.From < 1 || r.From > n {
		return nil, fmt.Errorf("line %d is outside 1..%d", r.From, n)
	}
	to := r.To
	if to == 0 || to > n {
		to = n
	}
	start := 0
	for line := 1; line < r.From; line++ {
		start += bytes.IndexByte(data[start:], '\n') + 1
	}
	end := start
	for line := r.From; line <= to; line++ {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			end = len(data)
			break
		}
		end += i + 1
	}
	return data[start:end], nil
}

// CountLines counts lines the way Lines numbers them: a final line without
// a terminator counts, an empty remainder after the last "\n" does not.
func CountLines(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// GetLines returns a verified line range of an original.
func (s *Store) GetLines(handle string, r Range) ([]byte, error) {
	data, err := s.Get(handle)
	if err != nil {
		return nil, err
	}
	out, err := Lines(data, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", handle, err)
	}
	return out, nil
}

// Entry is one archived original.
type Entry struct {
	Handle   string    `json:"handle"`
	Bytes    int64     `json:"bytes"`
	Modified time.Time `json:"modified"`
	path     string
}

// List returns every object in the store, ordered by handle. A missing
// directory is an empty store. Files that are not objects (leftover
// temporary files of interrupted writers) are skipped.
func (s *Store) List() ([]Entry, error) {
	root := filepath.Join(s.dir, objects)
	fans, err := os.ReadDir(root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return []Entry{}, nil
		}
		return nil, fmt.Errorf("archive: %w", err)
	}
	out := []Entry{}
	for _, fan := range fans {
		if !fan.IsDir() || !isHex(fan.Name(), 2) {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, fan.Name()))
		if err != nil {
			return nil, fmt.Errorf("archive: %w", err)
		}
		for _, f := range files {
			name := fan.Name() + f.Name()
			if !isHex(name, 64) {
				continue
			}
			var sum [32]byte
			hex.Decode(sum[:], []byte(name))
			e := Entry{Handle: handleOfSum(sum), path: filepath.Join(root, fan.Name(), f.Name())}
			if info, err := f.Info(); err == nil {
				e.Bytes, e.Modified = info.Size(), info.ModTime().UTC()
			}
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Handle < out[j].Handle })
	return out, nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Damage is an object that failed verification.
type Damage struct {
	Handle  string `json:"handle"`
	Problem string `json:"problem"`
}

// Verify re-hashes every object and returns the entries checked and the
// damaged ones.
func (s *Store) Verify() ([]Entry, []Damage, error) {
	entries, err := s.List()
	if err != nil {
		return nil, nil, err
	}
	damaged := []Damage{}
	for _, e := range entries {
		if p := check(e); p != "" {
			damaged = append(damaged, Damage{Handle: e.Handle, Problem: p})
		}
	}
	return entries, damaged, nil
}

func check(e Entry) string {
	if st, err := os.Lstat(e.path); err == nil && !st.Mode().IsRegular() {
		return "not a regular file"
	}
	f, _, err := untrusted.Open(e.path)
	if errors.Is(err, untrusted.ErrNotRegular) {
		return "not a regular file"
	}
	if err != nil {
		return fmt.Sprintf("unreadable: %v", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, MaxObject+1)); err != nil {
		return fmt.Sprintf("unreadable: %v", err)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	if handleOfSum(sum) != e.Handle {
		return fmt.Sprintf("content changed: its SHA-256 is now %s", hex.EncodeToString(sum[:]))
	}
	return ""
}

// Stale returns the temporary files of writers that died (killed before
// they renamed their object into place): files with skillopt's temporary
// prefix (see TempFile) in the archive directory, its object folder and
// the fan-out folders, last modified before cutoff. A live writer's file
// is younger than an hour; the caller picks the cutoff.
func (s *Store) Stale(cutoff time.Time) ([]TempFile, error) {
	root := filepath.Join(s.dir, objects)
	dirs := []string{s.dir, root}
	fans, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("archive: %w", err)
	}
	for _, fan := range fans {
		if fan.IsDir() && isHex(fan.Name(), 2) {
			dirs = append(dirs, filepath.Join(root, fan.Name()))
		}
	}
	var out []TempFile
	for _, d := range dirs {
		st, err := StaleIn(d, cutoff)
		if err != nil {
			return nil, fmt.Errorf("archive: %w", err)
		}
		out = append(out, st...)
	}
	return out, nil
}

// Keeper is where originals go: a Store on disk, a Memory, or Off.
type Keeper interface {
	// Put keeps data and returns its handle.
	Put(data []byte) (string, error)
	// Get returns the original named by handle, verified.
	Get(handle string) ([]byte, error)
}

// ErrOff is what Off returns: archiving was turned off, so nothing that
// needs it may be reduced.
var ErrOff = errors.New("archiving is off")

// Off keeps nothing: every Put fails with ErrOff and every Get with
// ErrNotFound.
var Off Keeper = off{}

type off struct{}

func (off) Put([]byte) (string, error) { return "", ErrOff }
func (off) Get(handle string) ([]byte, error) {
	if _, err := ParseHandle(handle); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s: %w", handle, ErrNotFound)
}

// Memory is an archive held in memory, for commands that compute
// reductions without writing anything: handles are the same as a Store
// gives, Put touches no file, and Get finds what was put, then what an
// optional base Store holds (read, never written). Flush later writes what
// an output needs to a Store.
type Memory struct {
	base *Store
	mu   sync.Mutex
	objs map[[32]byte][]byte
}

// NewMemory returns an empty in-memory archive over base (nil: none).
func NewMemory(base *Store) *Memory {
	return &Memory{base: base, objs: map[[32]byte][]byte{}}
}

// Dir returns the folder of the base store ("" without one): where the
// originals would be written.
func (m *Memory) Dir() string {
	if m.base == nil {
		return ""
	}
	return m.base.Dir()
}

// Put keeps a copy of data in memory.
func (m *Memory) Put(data []byte) (string, error) {
	if len(data) > MaxObject {
		return "", fmt.Errorf("archive: original of %d bytes exceeds the %d-byte limit", len(data), MaxObject)
	}
	sum := sha256.Sum256(data)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.objs[sum]; !ok {
		m.objs[sum] = bytes.Clone(data)
	}
	return handleOfSum(sum), nil
}

// Get returns an original put in memory or, failing that, held by the
// base store.
func (m *Memory) Get(handle string) ([]byte, error) {
	sum, err := ParseHandle(handle)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	data, ok := m.objs[sum]
	m.mu.Unlock()
	if ok {
		return data, nil
	}
	if m.base == nil {
		return nil, fmt.Errorf("%s: %w", handle, ErrNotFound)
	}
	return m.base.Get(handle)
}

// Handles returns the handles of the originals put in memory, sorted.
func (m *Memory) Handles() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.objs))
	for sum := range m.objs {
		out = append(out, handleOfSum(sum))
	}
	sort.Strings(out)
	return out
}

// Flush writes the originals put in memory whose handles want accepts
// (nil: all) to dst, in handle order, and returns how many it kept there
// (written now or found intact) and how many of those it had to write. It
// stops at the first error.
func (m *Memory) Flush(dst *Store, want func(handle string) bool) (kept, written int, err error) {
	for _, h := range m.Handles() {
		if want != nil && !want(h) {
			continue
		}
		sum, _ := ParseHandle(h)
		m.mu.Lock()
		data := m.objs[sum]
		m.mu.Unlock()
		_, wrote, err := dst.put(data)
		if err != nil {
			return kept, written, err
		}
		kept++
		if wrote {
			written++
		}
	}
	return kept, written, nil
}

// TempFile is a temporary file that a writer left behind: skillopt names
// every temporary file with one prefix (".skillopt-tmp-"), so that files
// of writers that died can be found and removed.
type TempFile struct {
	Path     string    `json:"path"`
	Bytes    int64     `json:"bytes"`
	Modified time.Time `json:"modified"`
}

// StaleIn returns skillopt's temporary files directly in dir (not below
// it) last modified before cutoff; a missing directory has none.
func StaleIn(dir string, cutoff time.Time) ([]TempFile, error) {
	st, err := atomicfile.FindStale(dir, cutoff)
	if err != nil {
		return nil, err
	}
	out := make([]TempFile, len(st))
	for i, f := range st {
		out[i] = TempFile{Path: f.Path, Bytes: f.Bytes, Modified: f.Modified}
	}
	return out, nil
}
